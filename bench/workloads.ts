/**
 * The workloads the synthesis benchmark compares, each adding N jobs of one shape to a chart:
 *
 * - `l2`: `DistributedPyTorch` (Master + 4 workers, one NVIDIA GPU per pod, a PVC mounted
 *   read-only, a Kueue queue).
 * - `l1`: the same PyTorchJob written by hand with the generated `kubeflow.PyTorchJob` L1, so
 *   that it renders the very same manifest (checked by `checkSameManifest`).
 * - `kplus`: a cdk8s-plus-28 `Deployment` with the same pod (container, resources, GPU, mount,
 *   toleration, labels), 4 replicas.
 * - `trainJob`: Trainer v2, one `ClusterTrainingRuntime` (one NVIDIA GPU per node) and N `TrainJob`s
 *   against it (5 nodes, one GPU each, a PVC mounted read-only, a Kueue queue).
 * - `trainJobL1`: the same runtime and TrainJobs written by hand with the generated `trainer` L1
 *   classes, rendering the very same manifests (checked by `checkSameTrainJobManifest`).
 * - `trainJobSharedVolume`: `trainJob` with the claim and its volume made once and mounted by every
 *   job, instead of two cdk8s-plus constructs per job: the same manifests, fewer constructs. Not a
 *   row with a target; it shows what the workload's own constructs cost (bench/phases.ts).
 *
 * Only types are imported: the modules are passed in, so that the child processes that run the
 * measurements can load the compiled library (lib/src/index.js, what users get) without
 * ts-node or TypeScript in their heap.
 */
import type * as Cdk8s from 'cdk8s';
import type * as Kplus from 'cdk8s-plus-28';
import type * as Kubeflow from '../src';

/** The modules a workload is built from. */
export interface Libs {
  readonly cdk8s: typeof Cdk8s;
  readonly kplus: typeof Kplus;
  readonly kf: typeof Kubeflow;
}

export type Variant = 'l2' | 'l1' | 'kplus' | 'kplusPerTemplate' | 'trainJob' | 'trainJobL1' | 'trainJobSharedVolume';
/** The three variants every size is measured with. */
export const VARIANTS: Variant[] = ['l2', 'l1', 'kplus'];
/** The Trainer v2 variants, measured at their own sizes. */
export const TRAIN_JOB_VARIANTS: Variant[] = ['trainJob', 'trainJobL1'];

export const VARIANT_LABEL: Record<Variant, string> = {
  l2: 'DistributedPyTorch (L2)',
  l1: 'kubeflow.PyTorchJob (L1 by hand)',
  kplus: 'kplus.Deployment (cdk8s-plus-28)',
  kplusPerTemplate: '2 kplus.Deployments per job (one per pod template)',
  trainJob: 'ClusterTrainingRuntime + TrainJobs (L2)',
  trainJobL1: 'trainer.ClusterTrainingRuntime + trainer.TrainJobs (L1 by hand)',
  trainJobSharedVolume: 'ClusterTrainingRuntime + TrainJobs (L2), one volume for all jobs',
};

/** The job shape, shared by the three variants. */
export const SHAPE = {
  image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
  command: ['torchrun', '--nnodes=5', '/workspace/train.py'],
  workers: 4,
  gpus: 1,
  cpu: 4,
  memoryGi: 16,
  claim: 'imagenet',
  mountPath: '/data',
  queue: 'team-a',
};

/** The Trainer v2 shape: the runtime's node pod is SHAPE's, and every TrainJob runs SHAPE's command on 5 nodes. */
export const TRAIN_JOB_SHAPE = {
  runtime: 'torch-gpu',
  numNodes: SHAPE.workers + 1,
};

const QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';
const GPU = 'nvidia.com/gpu';

/** Adds `n` jobs of the variant to `chart`, named `job-<i>` (the Trainer v2 variants after their one runtime). */
export function addJobs(libs: Libs, variant: Variant, chart: Cdk8s.Chart, n: number): void {
  if (variant === 'trainJob') {
    const runtime = addRuntimeL2(libs, chart);
    for (let i = 0; i < n; i++) addTrainJobL2(libs, chart, runtime, i);
    return;
  }
  if (variant === 'trainJobSharedVolume') {
    const runtime = addRuntimeL2(libs, chart);
    const claim = libs.kplus.PersistentVolumeClaim.fromClaimName(chart, 'claim', SHAPE.claim);
    const data = libs.kplus.Volume.fromPersistentVolumeClaim(chart, 'data', claim);
    for (let i = 0; i < n; i++) addTrainJobL2(libs, chart, runtime, i, data);
    return;
  }
  if (variant === 'trainJobL1') {
    addRuntimeL1(libs, chart);
    for (let i = 0; i < n; i++) addTrainJobL1(libs, chart, i);
    return;
  }
  for (let i = 0; i < n; i++) {
    if (variant === 'l2') {
      addL2(libs, chart, i);
    } else if (variant === 'l1') {
      addL1(libs, chart, i);
    } else if (variant === 'kplus') {
      addKplus(libs, chart, `job-${i}`, SHAPE.workers);
    } else {
      // A PyTorchJob carries two pod templates (Master and Worker); this baseline renders as many.
      addKplus(libs, chart, `job-${i}-master`, 1);
      addKplus(libs, chart, `job-${i}-worker`, SHAPE.workers);
    }
  }
}

/** An app with one chart holding `n` jobs of the variant, writing YAML to `outdir`. */
export function buildApp(libs: Libs, variant: Variant, n: number, outdir: string): Cdk8s.App {
  const app = new libs.cdk8s.App({ outdir });
  const chart = new libs.cdk8s.Chart(app, 'jobs', { namespace: 'training' });
  addJobs(libs, variant, chart, n);
  return app;
}

function addL2({ cdk8s, kplus, kf }: Libs, chart: Cdk8s.Chart, i: number): void {
  const job = new kf.DistributedPyTorch(chart, `job-${i}`, {
    metadata: { name: `job-${i}` },
    image: SHAPE.image,
    command: SHAPE.command,
    workers: SHAPE.workers,
    queue: SHAPE.queue,
    resources: {
      accelerator: kf.Accelerator.nvidia(SHAPE.gpus),
      cpu: kplus.Cpu.units(SHAPE.cpu),
      memory: cdk8s.Size.gibibytes(SHAPE.memoryGi),
    },
  });
  const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, `claim-${i}`, SHAPE.claim);
  job.mount(SHAPE.mountPath, kplus.Volume.fromPersistentVolumeClaim(chart, `data-${i}`, claim), { readOnly: true });
}

/** What a careful user writes with the L1 alone to get the L2's manifest. */
function addL1({ kplus, kf }: Libs, chart: Cdk8s.Chart, i: number): void {
  const k8s = kplus.k8s;
  const amounts = () => ({
    cpu: k8s.Quantity.fromString(String(SHAPE.cpu)),
    memory: k8s.Quantity.fromString(`${SHAPE.memoryGi}Gi`),
    [GPU]: k8s.Quantity.fromNumber(SHAPE.gpus),
  });
  const template = (): Kubeflow.core.PodTemplateSpec => ({
    metadata: { annotations: { 'sidecar.istio.io/inject': 'false' } },
    spec: {
      automountServiceAccountToken: false,
      containers: [{
        name: 'pytorch',
        image: SHAPE.image,
        command: SHAPE.command,
        ports: [{ containerPort: 23456, name: 'pytorchjob-port' }],
        resources: { limits: amounts(), requests: amounts() },
        securityContext: { allowPrivilegeEscalation: false, privileged: false },
        volumeMounts: [{ name: `pvc-${SHAPE.claim}`, mountPath: SHAPE.mountPath, readOnly: true }],
      }],
      tolerations: [{ key: GPU, operator: 'Exists', effect: 'NoSchedule' }],
      volumes: [{ name: `pvc-${SHAPE.claim}`, persistentVolumeClaim: { claimName: SHAPE.claim, readOnly: false } }],
    },
  });
  new kf.kubeflow.PyTorchJob(chart, `job-${i}`, {
    metadata: { name: `job-${i}`, labels: { [QUEUE_LABEL]: SHAPE.queue } },
    spec: {
      nprocPerNode: String(SHAPE.gpus),
      pytorchReplicaSpecs: {
        Master: { replicas: 1, restartPolicy: 'OnFailure', template: template() },
        Worker: { replicas: SHAPE.workers, restartPolicy: 'OnFailure', template: template() },
      },
    },
  });
}

/** The same pod as a cdk8s-plus Deployment (GPUs through a JSON patch: kplus has no field for them). */
function addKplus({ cdk8s, kplus }: Libs, chart: Cdk8s.Chart, name: string, replicas: number): void {
  const deployment = new kplus.Deployment(chart, name, {
    metadata: { name, labels: { [QUEUE_LABEL]: SHAPE.queue } },
    replicas,
    automountServiceAccountToken: false,
    podMetadata: { annotations: { 'sidecar.istio.io/inject': 'false' } },
    containers: [{
      name: 'pytorch',
      image: SHAPE.image,
      command: SHAPE.command,
      ports: [{ number: 23456, name: 'pytorchjob-port' }],
      resources: {
        cpu: { request: kplus.Cpu.units(SHAPE.cpu), limit: kplus.Cpu.units(SHAPE.cpu) },
        memory: { request: cdk8s.Size.gibibytes(SHAPE.memoryGi), limit: cdk8s.Size.gibibytes(SHAPE.memoryGi) },
      },
      securityContext: { ensureNonRoot: false, readOnlyRootFilesystem: false, allowPrivilegeEscalation: false, privileged: false },
    }],
  });
  const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, `claim-${name}`, SHAPE.claim);
  deployment.containers[0].mount(SHAPE.mountPath, kplus.Volume.fromPersistentVolumeClaim(chart, `data-${name}`, claim), { readOnly: true });
  deployment.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists(GPU, { effect: kplus.TaintEffect.NO_SCHEDULE })));
  // The patch applies before the typed KubeDeployment serializer, which reads quantities as
  // `{ value }` and drops anything else, so the GPU count goes in that shape.
  const resources = '/spec/template/spec/containers/0/resources';
  cdk8s.ApiObject.of(deployment).addJsonPatch(
    cdk8s.JsonPatch.add(`${resources}/limits/nvidia.com~1gpu`, { value: SHAPE.gpus }),
    cdk8s.JsonPatch.add(`${resources}/requests/nvidia.com~1gpu`, { value: SHAPE.gpus }));
}

/** The runtime a platform team defines once: SHAPE's pod as the node of a torch runtime. */
function addRuntimeL2({ cdk8s, kplus, kf }: Libs, chart: Cdk8s.Chart): Kubeflow.ClusterTrainingRuntime {
  return new kf.ClusterTrainingRuntime(chart, 'runtime', {
    metadata: { name: TRAIN_JOB_SHAPE.runtime },
    mlPolicy: kf.MlPolicy.torch(),
    image: SHAPE.image,
    resources: {
      accelerator: kf.Accelerator.nvidia(SHAPE.gpus),
      cpu: kplus.Cpu.units(SHAPE.cpu),
      memory: cdk8s.Size.gibibytes(SHAPE.memoryGi),
    },
  });
}

/** A TrainJob of the shape, mounting `data` when given, else a claim and volume of its own. */
function addTrainJobL2(libs: Libs, chart: Cdk8s.Chart, runtime: Kubeflow.ClusterTrainingRuntime, i: number, data?: Kplus.Volume): void {
  const { cdk8s, kplus, kf } = libs;
  const job = new kf.TrainJob(chart, `job-${i}`, {
    metadata: { name: `job-${i}` },
    runtime: runtime.ref,
    command: SHAPE.command,
    numNodes: TRAIN_JOB_SHAPE.numNodes,
    queue: SHAPE.queue,
    resourcesPerNode: {
      accelerator: kf.Accelerator.nvidia(SHAPE.gpus),
      cpu: kplus.Cpu.units(SHAPE.cpu),
      memory: cdk8s.Size.gibibytes(SHAPE.memoryGi),
    },
  });
  if (data) {
    job.mount(SHAPE.mountPath, data, { readOnly: true });
    return;
  }
  const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, `claim-${i}`, SHAPE.claim);
  job.mount(SHAPE.mountPath, kplus.Volume.fromPersistentVolumeClaim(chart, `data-${i}`, claim), { readOnly: true });
}

/** SHAPE's per-pod amounts as an L1 ResourceRequirements (requests = limits). */
function amountsL1(k8s: typeof Kplus.k8s) {
  const amounts = () => ({
    cpu: k8s.Quantity.fromString(String(SHAPE.cpu)),
    memory: k8s.Quantity.fromString(`${SHAPE.memoryGi}Gi`),
    [GPU]: k8s.Quantity.fromNumber(SHAPE.gpus),
  });
  return { limits: amounts(), requests: amounts() };
}

/** What a careful user writes with the `trainer` L1 alone to get the L2's runtime. */
function addRuntimeL1({ cdk8s, kplus, kf }: Libs, chart: Cdk8s.Chart): void {
  const runtime = new kf.trainer.ClusterTrainingRuntime(chart, 'runtime', {
    metadata: { name: TRAIN_JOB_SHAPE.runtime, labels: { 'trainer.kubeflow.org/framework': 'torch' } },
    spec: {
      mlPolicy: { numNodes: 1, torch: {} },
      template: {
        spec: {
          replicatedJobs: [{
            name: 'node',
            template: {
              metadata: { labels: { 'trainer.kubeflow.org/trainjob-ancestor-step': 'trainer' } },
              spec: {
                template: {
                  metadata: { annotations: { 'sidecar.istio.io/inject': 'false' } },
                  spec: {
                    automountServiceAccountToken: false,
                    containers: [{
                      image: SHAPE.image,
                      name: 'node',
                      resources: amountsL1(kplus.k8s),
                      securityContext: { allowPrivilegeEscalation: false, privileged: false },
                    }],
                    tolerations: [{ effect: 'NoSchedule', key: GPU, operator: 'Exists' }],
                  },
                },
              },
            },
          }],
        },
      },
    },
  });
  // A cluster-scoped object: the chart's namespace does not apply.
  runtime.addJsonPatch(cdk8s.JsonPatch.remove('/metadata/namespace'));
}

/** What a careful user writes with the `trainer` L1 alone to get the L2's TrainJob. */
function addTrainJobL1({ kplus, kf }: Libs, chart: Cdk8s.Chart, i: number): void {
  new kf.trainer.TrainJob(chart, `job-${i}`, {
    metadata: { name: `job-${i}`, labels: { [QUEUE_LABEL]: SHAPE.queue } },
    spec: {
      runtimePatches: [{
        manager: 'cdk8s-kubeflow/train-job',
        trainingRuntimeSpec: {
          template: {
            spec: {
              replicatedJobs: [{
                name: 'node',
                template: {
                  spec: {
                    template: {
                      spec: {
                        containers: [{ name: 'node', volumeMounts: [{ mountPath: SHAPE.mountPath, name: `pvc-${SHAPE.claim}`, readOnly: true }] }],
                        volumes: [{ name: `pvc-${SHAPE.claim}`, persistentVolumeClaim: { claimName: SHAPE.claim, readOnly: false } }],
                      },
                    },
                  },
                },
              }],
            },
          },
        },
      }],
      runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: TRAIN_JOB_SHAPE.runtime },
      trainer: {
        command: SHAPE.command,
        numNodes: TRAIN_JOB_SHAPE.numNodes,
        resourcesPerNode: amountsL1(kplus.k8s),
      },
    },
  });
}

/**
 * Renders the runtime and two TrainJobs of both Trainer v2 variants and checks that the hand-written
 * L1 writes exactly the L2's manifests. Throws on a difference; returns what was compared.
 */
export function checkSameTrainJobManifest(libs: Libs, isDeepStrictEqual: (a: unknown, b: unknown) => boolean): string[] {
  const render = (variant: Variant) => {
    const app = libs.cdk8s.Testing.app();
    const chart = new libs.cdk8s.Chart(app, 'jobs', { namespace: 'training' });
    addJobs(libs, variant, chart, 2);
    return libs.cdk8s.Testing.synth(chart);
  };
  const [l2, l1, shared] = [render('trainJob'), render('trainJobL1'), render('trainJobSharedVolume')];
  const kinds = (docs: any[]) => docs.map(d => d.kind).join(', ');
  if (kinds(l2) !== 'ClusterTrainingRuntime, TrainJob, TrainJob') throw new Error(`expected a runtime and two TrainJobs from the L2, got ${kinds(l2)}`);
  if (!isDeepStrictEqual(l1, l2)) {
    throw new Error(`unfair comparison: the hand-written trainer L1 manifests differ from the L2's\nL2: ${JSON.stringify(l2)}\nL1: ${JSON.stringify(l1)}`);
  }
  if (JSON.stringify(shared) !== JSON.stringify(l2)) {
    throw new Error(`the TrainJobs with one shared volume differ from those with a volume each\nshared: ${JSON.stringify(shared)}\neach: ${JSON.stringify(l2)}`);
  }
  return [
    'trainer L1 manifests (ClusterTrainingRuntime + TrainJobs) deep-equal the L2\'s',
    JSON.stringify(l1) === JSON.stringify(l2) ? 'same key order too (identical YAML)' : 'the YAML differs in key order only (same size)',
    'the TrainJobs with one shared volume render exactly those with a volume each',
  ];
}

/**
 * Renders one job of each variant and checks that the comparison is fair: the hand-written L1
 * renders exactly the L2's manifest, and the Deployment's pod has the same container, resources,
 * mounts, volumes and tolerations as the L2's worker pods. Throws on a difference; returns what was
 * compared.
 */
export function checkSameManifest(libs: Libs, isDeepStrictEqual: (a: unknown, b: unknown) => boolean): string[] {
  const render = (variant: Variant) => {
    const app = libs.cdk8s.Testing.app();
    const chart = new libs.cdk8s.Chart(app, 'jobs', { namespace: 'training' });
    addJobs(libs, variant, chart, 1);
    return libs.cdk8s.Testing.synth(chart);
  };
  const [l2, l1, kp] = [render('l2'), render('l1'), render('kplus')];
  if (l2.length !== 1 || l1.length !== 1) throw new Error(`expected one object each, got L2 ${l2.length}, L1 ${l1.length}`);
  if (!isDeepStrictEqual(l1, l2)) {
    throw new Error(`unfair comparison: the hand-written L1 manifest differs from the L2's\nL2: ${JSON.stringify(l2)}\nL1: ${JSON.stringify(l1)}`);
  }
  const facts = ['L1 manifest deep-equals L2 manifest'];
  facts.push(JSON.stringify(l1) === JSON.stringify(l2) ? 'same key order too (identical YAML)' : 'the YAML differs in key order only (same size)');

  const worker = l2[0].spec.pytorchReplicaSpecs.Worker.template.spec;
  const deployment = kp.find((o: any) => o.kind === 'Deployment');
  const pod = deployment.spec.template.spec;
  // cdk8s-plus writes 16Gi as 16384Mi: compare memory in MiB.
  const mebibytes = (q: string) => (q.endsWith('Gi') ? Number(q.slice(0, -2)) * 1024 : q.endsWith('Mi') ? Number(q.slice(0, -2)) : NaN);
  const amounts = (a: any) => a && { ...a, memory: mebibytes(a.memory) };
  const pick = (c: any) => ({
    name: c.name,
    image: c.image,
    command: c.command,
    ports: c.ports,
    volumeMounts: c.volumeMounts,
    resources: { limits: amounts(c.resources?.limits), requests: amounts(c.resources?.requests) },
  });
  const shape = (p: any) => ({
    containers: p.containers.map(pick),
    volumes: p.volumes,
    tolerations: p.tolerations,
    automountServiceAccountToken: p.automountServiceAccountToken,
  });
  if (!isDeepStrictEqual(shape(pod), shape(worker)) || deployment.metadata.labels?.[QUEUE_LABEL] !== SHAPE.queue) {
    throw new Error(`unfair comparison: the Deployment's pod differs from the L2's worker pod\nL2: ${JSON.stringify(shape(worker))}\nkplus: ${JSON.stringify(shape(pod))}`);
  }
  facts.push('Deployment pod = L2 worker pod in containers (image, command, ports, resources incl. GPU (memory compared in MiB: kplus writes 16384Mi), mounts), volumes, tolerations, token automount');
  return facts;
}
