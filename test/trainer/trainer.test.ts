import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration, JsonPatch, Size, YamlOutputType } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import {
  Accelerator, ClusterTrainingRuntime, MlPolicy, PodGroupPolicy, PodSecurity, TrainingRuntime, TrainingRuntimeRef, TrainJob,
} from '../../src';
import { appFindings } from '../../src/rules/rule-sets';
import { BUILTIN_RUNTIMES } from '../../src/rules/trainer/builtin-runtimes.generated';
import { expectDeterministic, expectValidManifests, REPORT, synthErrors, validateManifest } from '../harness';

const TORCH_IMAGE = 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime';

function synthAll(build: (chart: Chart) => void): any[] {
  const docs = expectDeterministic(app => build(new Chart(app, 'test', { namespace: 'ml' })));
  expectValidManifests(docs);
  return docs;
}

/** The error lines of a synth, without the cdk8s preamble. */
function errors(build: (chart: Chart) => void): string[] {
  const report = synthErrors(chart => build(chart));
  expect(report).toBeDefined();
  return report!.replace(REPORT, '').split('\n').map(l => l.trim()).filter(Boolean);
}

const pod = (runtime: any, job: string) => runtime.spec.template.spec.replicatedJobs.find((j: any) => j.name === job).template.spec.template;

describe('ClusterTrainingRuntime', () => {
  test('a torch runtime: one `node` job with the trainer step label, container `node`, GPUs, shared memory, the Istio opt-out, RESTRICTED', () => {
    const [runtime] = synthAll(chart => new ClusterTrainingRuntime(chart, 'rt', {
      metadata: { name: 'torch-gpu' },
      mlPolicy: MlPolicy.torch(),
      image: TORCH_IMAGE,
      numNodes: 2,
      resources: { accelerator: Accelerator.nvidia(4) },
      sharedMemory: Size.gibibytes(16),
      security: PodSecurity.RESTRICTED,
    }));
    expect(runtime.kind).toBe('ClusterTrainingRuntime');
    expect(runtime.metadata).toEqual({ name: 'torch-gpu', labels: { 'trainer.kubeflow.org/framework': 'torch' } });
    expect(runtime.spec.mlPolicy).toEqual({ numNodes: 2, torch: {} });
    const jobs = runtime.spec.template.spec.replicatedJobs;
    expect(jobs.map((j: any) => j.name)).toEqual(['node']);
    expect(jobs[0].template.metadata.labels).toEqual({ 'trainer.kubeflow.org/trainjob-ancestor-step': 'trainer' });
    const template = pod(runtime, 'node');
    expect(template.metadata.annotations).toEqual({ 'sidecar.istio.io/inject': 'false' });
    expect(template.spec.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    const [node] = template.spec.containers;
    expect(node.name).toBe('node');
    expect(node.resources.limits['nvidia.com/gpu']).toBe(4);
    expect(node.volumeMounts).toEqual([{ mountPath: '/dev/shm', name: 'dshm' }]);
    expect(template.spec.volumes).toEqual([{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '16384Mi' } }]);
  });

  test('MPI: `node` then `launcher` (the trainer step, container `node`), reachable nodes, success when the launcher succeeds', () => {
    const [runtime] = synthAll(chart => new ClusterTrainingRuntime(chart, 'rt', {
      metadata: { name: 'mpi' },
      mlPolicy: MlPolicy.mpi({ slotsPerWorker: 2, sshAuthMountPath: '/home/mpiuser/.ssh', runLauncherAsNode: true }),
      image: 'ghcr.io/kubeflow/trainer/deepspeed-runtime',
      resources: { accelerator: Accelerator.nvidia(2) },
    }));
    expect(runtime.spec.mlPolicy).toEqual({
      numNodes: 1, mpi: { numProcPerNode: 2, mpiImplementation: 'OpenMPI', sshAuthMountPath: '/home/mpiuser/.ssh', runLauncherAsNode: true },
    });
    const spec = runtime.spec.template.spec;
    expect(spec.network).toEqual({ publishNotReadyAddresses: true });
    expect(spec.successPolicy).toEqual({ operator: 'All', targetReplicatedJobs: ['launcher'] });
    expect(spec.replicatedJobs.map((j: any) => [j.name, j.template.metadata?.labels, j.dependsOn])).toEqual([
      ['node', undefined, undefined],
      ['launcher', { 'trainer.kubeflow.org/trainjob-ancestor-step': 'trainer' }, [{ name: 'node', status: 'Ready' }]],
    ]);
    expect(pod(runtime, 'launcher').spec.containers[0].name).toBe('node');
  });

  test('initializers: steps first with replicas 1, their labels and containers, a shared claim mounted at /workspace, the nodes wait', () => {
    const [runtime] = synthAll(chart => new ClusterTrainingRuntime(chart, 'rt', {
      metadata: { name: 'tune' },
      mlPolicy: MlPolicy.torch(),
      image: TORCH_IMAGE,
      datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer', storageUri: 'hf://tatsu-lab/alpaca' },
      modelInitializer: { image: 'ghcr.io/kubeflow/trainer/model-initializer' },
      workspace: { size: Size.gibibytes(50), storageClassName: 'fast' },
    }));
    const spec = runtime.spec.template.spec;
    expect(spec.volumeClaimPolicies).toEqual([{
      templates: [{
        metadata: { name: 'initializer' },
        spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '50Gi' } } },
      }],
    }]);
    expect(spec.replicatedJobs.map((j: any) => [j.name, j.replicas, j.template.metadata.labels['trainer.kubeflow.org/trainjob-ancestor-step']])).toEqual([
      ['dataset-initializer', 1, 'dataset-initializer'], ['model-initializer', 1, 'model-initializer'], ['node', undefined, 'trainer'],
    ]);
    expect(spec.replicatedJobs[2].dependsOn).toEqual([{ name: 'dataset-initializer', status: 'Complete' }, { name: 'model-initializer', status: 'Complete' }]);
    for (const job of ['dataset-initializer', 'model-initializer', 'node']) {
      const [main] = pod(runtime, job).spec.containers;
      expect(main.name).toBe(job);
      expect(main.volumeMounts).toEqual([{ name: 'initializer', mountPath: '/workspace' }]);
    }
    expect(pod(runtime, 'dataset-initializer').spec.containers[0].env).toEqual([{ name: 'STORAGE_URI', value: 'hf://tatsu-lab/alpaca' }]);
  });

  test('gang scheduling: coscheduling with a timeout, or Volcano with a network topology', () => {
    const docs = synthAll(chart => {
      new ClusterTrainingRuntime(chart, 'co', { metadata: { name: 'co' }, mlPolicy: MlPolicy.jax(), image: 'jax:1', podGroupPolicy: PodGroupPolicy.coscheduling({ scheduleTimeout: Duration.minutes(2) }) });
      new ClusterTrainingRuntime(chart, 'vc', { metadata: { name: 'vc' }, mlPolicy: MlPolicy.xgboost(), image: 'xgb:1', podGroupPolicy: PodGroupPolicy.volcano({ networkTopologyMode: 'hard', highestTierAllowed: 2 }) });
    });
    expect(docs.map(d => [d.spec.mlPolicy, d.spec.podGroupPolicy])).toEqual([
      [{ numNodes: 1, jax: {} }, { coscheduling: { scheduleTimeoutSeconds: 120 } }],
      [{ numNodes: 1, xgboost: {} }, { volcano: { networkTopology: { mode: 'hard', highestTierAllowed: 2 } } }],
    ]);
  });

  test('a cluster runtime leaves the chart\'s namespace out; a TrainingRuntime keeps it', () => {
    const docs = synthAll(chart => {
      new ClusterTrainingRuntime(chart, 'c', { metadata: { name: 'c' }, mlPolicy: MlPolicy.torch(), image: 'i' });
      new TrainingRuntime(chart, 't', { metadata: { name: 't' }, mlPolicy: MlPolicy.torch(), image: 'i' });
    });
    expect(docs.map(d => [d.kind, d.metadata.namespace])).toEqual([['ClusterTrainingRuntime', undefined], ['TrainingRuntime', 'ml']]);
  });
});

describe('TrainJob', () => {
  test('a job on a built-in runtime: runtimeRef, trainer, initializers with a Secret, Kueue labels, MultiKueue, suspend, deadline', () => {
    const [job] = synthAll(chart => new TrainJob(chart, 'job', {
      metadata: { name: 'fine-tune' },
      runtime: TrainingRuntimeRef.cluster('torchtune-llama3.2-1b'),
      image: TORCH_IMAGE,
      command: ['torchrun', 'train.py'],
      args: ['--epochs', '3'],
      numNodes: 2,
      numProcPerNode: 4,
      env: { WANDB_API_KEY: kplus.EnvValue.fromSecretValue({ secret: kplus.Secret.fromSecretName(chart, 'w', 'wandb'), key: 'key' }) },
      resourcesPerNode: { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(4), accelerator: Accelerator.nvidia(4) },
      resourceLimitsPerNode: { cpu: kplus.Cpu.units(4), memory: Size.gibibytes(8), accelerator: Accelerator.nvidia(4) },
      datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca', secret: kplus.Secret.fromSecretName(chart, 'hf', 'hf-token') },
      modelInitializer: { storageUri: 'hf://meta-llama/Llama-3.2-1B-Instruct', env: { REVISION: kplus.EnvValue.fromValue('main') } },
      queue: 'team-a',
      workloadPriorityClass: 'high',
      multiKueue: true,
      suspend: true,
      activeDeadline: Duration.hours(6),
    }));
    expect(job.metadata.labels).toEqual({ 'kueue.x-k8s.io/queue-name': 'team-a', 'kueue.x-k8s.io/priority-class': 'high' });
    expect(job.spec).toEqual({
      runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'torchtune-llama3.2-1b' },
      initializer: {
        dataset: { storageUri: 'hf://tatsu-lab/alpaca', secretRef: { name: 'hf-token' } },
        model: { storageUri: 'hf://meta-llama/Llama-3.2-1B-Instruct', env: [{ name: 'REVISION', value: 'main' }] },
      },
      trainer: {
        image: TORCH_IMAGE,
        command: ['torchrun', 'train.py'],
        args: ['--epochs', '3'],
        env: [{ name: 'WANDB_API_KEY', valueFrom: { secretKeyRef: { name: 'wandb', key: 'key' } } }],
        numNodes: 2,
        numProcPerNode: 4,
        resourcesPerNode: {
          requests: { 'cpu': '2', 'memory': '4Gi', 'nvidia.com/gpu': 4 },
          limits: { 'cpu': '4', 'memory': '8Gi', 'nvidia.com/gpu': 4 },
        },
      },
      // As a v1 job of the same shape: the accelerator's taint is tolerated (the built-in runtime has no tolerations).
      runtimePatches: [{
        manager: 'cdk8s-kubeflow/train-job',
        trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: { tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }] } } } } }] } } },
      }],
      suspend: true,
      managedBy: 'kueue.x-k8s.io/multikueue',
      activeDeadlineSeconds: 21600,
    });
  });

  test('node selection, tolerations, pod labels and mounts are one runtime patch owned by the library', () => {
    const [job] = synthAll(chart => {
      const j = new TrainJob(chart, 'job', {
        metadata: { name: 'patched' },
        runtime: TrainingRuntimeRef.cluster('torch-distributed'),
        nodeSelector: { pool: 'a100' },
        podAnnotations: { 'kueue.x-k8s.io/podset-required-topology': 'rack' },
        tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
      });
      j.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'v', kplus.PersistentVolumeClaim.fromClaimName(chart, 'c', 'datasets')), { readOnly: true });
    });
    expect(job.spec.runtimePatches).toEqual([{
      manager: 'cdk8s-kubeflow/train-job',
      trainingRuntimeSpec: {
        template: {
          spec: {
            replicatedJobs: [{
              name: 'node',
              template: {
                spec: {
                  template: {
                    metadata: { annotations: { 'kueue.x-k8s.io/podset-required-topology': 'rack' } },
                    spec: {
                      nodeSelector: { pool: 'a100' },
                      tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
                      volumes: [{ name: 'pvc-datasets', persistentVolumeClaim: { claimName: 'datasets', readOnly: false } }],
                      containers: [{ name: 'node', volumeMounts: [{ name: 'pvc-datasets', mountPath: '/data', readOnly: true }] }],
                    },
                  },
                },
              },
            }],
          },
        },
      },
    }]);
  });

  test('a runtime of the app is written before the job, in another chart declared earlier too', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'trainer-order-'));
    try {
      const app = new App({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART });
      const jobs = new Chart(app, 'a-jobs', { namespace: 'ml' });
      const platform = new Chart(app, 'b-platform');
      const runtime = new ClusterTrainingRuntime(platform, 'rt', { metadata: { name: 'torch-gpu' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
      const job = new TrainJob(jobs, 'job', { metadata: { name: 'first-declared' }, runtime: runtime.ref });
      // One reference per runtime: the job holds the very object the runtime gives out.
      expect(job.runtime).toBe(runtime.ref);
      app.synth();
      const files = fs.readdirSync(outdir).sort();
      expect(files).toEqual(['0000-b-platform.k8s.yaml', '0001-a-jobs.k8s.yaml']);
      expect(files.map(f => (yaml.load(fs.readFileSync(path.join(outdir, f), 'utf8')) as any).kind)).toEqual(['ClusterTrainingRuntime', 'TrainJob']);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('a job naming a runtime of its chart by string, declared before it, is written after it; no file is renamed', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'trainer-order-'));
    try {
      const app = new App({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART });
      const platform = new Chart(app, 'platform', { namespace: 'ml' });
      const jobs = new Chart(app, 'jobs', { namespace: 'ml' });
      new TrainJob(platform, 'job', { metadata: { name: 'by-name' }, runtime: TrainingRuntimeRef.cluster('torch-gpu') });
      new TrainJob(platform, 'local-job', { metadata: { name: 'by-local-name' }, runtime: TrainingRuntimeRef.namespaced('torch-local') });
      new ClusterTrainingRuntime(platform, 'rt', { metadata: { name: 'torch-gpu' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
      new TrainingRuntime(platform, 'local', { metadata: { name: 'torch-local' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
      new TrainJob(jobs, 'builtin', { metadata: { name: 'on-builtin' }, runtime: TrainingRuntimeRef.cluster('torch-distributed') });
      app.synth();
      expect(fs.readdirSync(outdir).sort()).toEqual(['jobs.k8s.yaml', 'platform.k8s.yaml']);
      const docs = yaml.loadAll(fs.readFileSync(path.join(outdir, 'platform.k8s.yaml'), 'utf8')) as any[];
      expect(docs.map(d => `${d.kind} ${d.metadata.name}`)).toEqual([
        'ClusterTrainingRuntime torch-gpu', 'TrainJob by-name', 'TrainingRuntime torch-local', 'TrainJob by-local-name',
      ]);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('a job naming by string a runtime of a chart nested in its own is written after it, with the file names cdk8s gives nested charts anyway', () => {
    const names = (runtimeName: string) => {
      const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'trainer-order-'));
      try {
        const app = new App({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART });
        const jobs = new Chart(app, 'jobs', { namespace: 'ml' });
        const platform = new Chart(jobs, 'platform');
        new TrainJob(jobs, 'job', { metadata: { name: 'by-name' }, runtime: TrainingRuntimeRef.cluster(runtimeName) });
        new ClusterTrainingRuntime(platform, 'rt', { metadata: { name: 'torch-gpu' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
        app.synth();
        return fs.readdirSync(outdir).sort().map(f => `${f}: ${(yaml.loadAll(fs.readFileSync(path.join(outdir, f), 'utf8')) as any[]).map(d => d.kind).join(', ')}`);
      } finally {
        fs.rmSync(outdir, { recursive: true, force: true });
      }
    };
    expect(names('torch-gpu')).toEqual(['0000-jobs-platform-c8ee4303.k8s.yaml: ClusterTrainingRuntime', '0001-jobs.k8s.yaml: TrainJob']);
    expect(names('torch-distributed')).toEqual(names('torch-gpu'));
  });

  test('a job naming by string a runtime of another chart is refused (a dependency across charts renames every file)', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'trainer-order-'));
    try {
      const app = new App({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART });
      const jobs = new Chart(app, 'a-jobs', { namespace: 'ml' });
      const platform = new Chart(app, 'b-platform');
      new ClusterTrainingRuntime(platform, 'rt', { metadata: { name: 'torch-gpu' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
      new TrainJob(jobs, 'job', { metadata: { name: 'by-name' }, runtime: TrainingRuntimeRef.cluster('torch-gpu') });
      expect(() => app.synth()).toThrow([
        'Validation failed with the following errors:',
        '  [a-jobs/job] runtime is "torch-gpu"; expected a runtime the job is written after: the app\'s ClusterTrainingRuntime "torch-gpu" is in the chart "b-platform", '
          + 'and a name orders nothing across charts; pass the runtime\'s ref (cdk8s then writes its chart first: App numbers the files for that, 0000-b-platform.k8s.yaml; StableFileNamesApp keeps the names and leaves the order to the GitOps tool) '
          + 'or define the job in the chart "b-platform"',
      ].join('\n'));
      expect(fs.readdirSync(outdir)).toEqual([]);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});

describe('a runtime the app does not define', () => {
  const platform = (chart: Chart) => new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'torch-8gpus' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
  const provided = '(the annotation cdk8s-kubeflow/runtime-provided: "true")';

  test('a near name: did you mean', () => {
    expect(errors(chart => {
      platform(chart);
      new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: TrainingRuntimeRef.cluster('torch-8gpu') });
    })).toEqual([
      `[test/job] spec.runtimeRef.name is "torch-8gpu"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; did you mean "torch-8gpus"? A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("torch-8gpu") ${provided}`,
    ]);
  });

  test('the wrong kind: a ClusterTrainingRuntime named as namespaced, a TrainingRuntime named as cluster-wide', () => {
    expect(errors(chart => {
      platform(chart);
      new TrainingRuntime(chart, 'local', { metadata: { name: 'team-torch', namespace: 'ml' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
      new TrainJob(chart, 'job', { metadata: { name: 'j', namespace: 'ml' }, runtime: TrainingRuntimeRef.namespaced('torch-8gpus') });
      new TrainJob(chart, 'other', { metadata: { name: 'k', namespace: 'ml' }, runtime: TrainingRuntimeRef.cluster('team-torch') });
    })).toEqual([
      '[test/job] spec.runtimeRef.kind is "TrainingRuntime"; expected ClusterTrainingRuntime: the app\'s "torch-8gpus" is a ClusterTrainingRuntime, and the app defines no TrainingRuntime of that name (TrainingRuntimeRef.cluster("torch-8gpus"), or the runtime\'s ref)',
      '[test/other] spec.runtimeRef.kind is "ClusterTrainingRuntime"; expected TrainingRuntime: the app\'s "team-torch" is a TrainingRuntime in namespace "ml", and the app defines no ClusterTrainingRuntime of that name (TrainingRuntimeRef.namespaced("team-torch"), or the runtime\'s ref)',
    ]);
  });

  test('no near name: the app\'s runtimes are listed', () => {
    expect(errors(chart => {
      platform(chart);
      new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: TrainingRuntimeRef.cluster('llama-special') });
    })).toEqual([
      `[test/job] spec.runtimeRef.name is "llama-special"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; the app defines "torch-8gpus". A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("llama-special") ${provided}`,
    ]);
  });

  test('accepted: a runtime the cluster provides, said so; a built-in runtime; any name in an app that defines no runtime', () => {
    // Validated strictly here but not handed to the Go conformance run (expectValidManifests would):
    // two of these jobs name runtimes that exist only in a cluster, by design, and the Trainer's
    // webhook refuses a TrainJob whose runtime it cannot find.
    const docs = expectDeterministic(app => {
      const chart = new Chart(app, 'test', { namespace: 'ml' });
      platform(chart);
      new TrainJob(chart, 'provided', { metadata: { name: 'provided' }, runtime: TrainingRuntimeRef.providedByCluster('torch-8gpu') });
      new TrainJob(chart, 'team', { metadata: { name: 'team' }, runtime: TrainingRuntimeRef.providedInNamespace('team-runtime') });
      new TrainJob(chart, 'builtin', { metadata: { name: 'builtin' }, runtime: TrainingRuntimeRef.cluster('torch-distributed') });
    });
    expect(docs.map(validateManifest)).toEqual(docs.map(() => []));
    expect(docs.filter(d => d.kind === 'TrainJob').map(d => [d.metadata.name, d.metadata.annotations, d.spec.runtimeRef])).toEqual([
      ['provided', { 'cdk8s-kubeflow/runtime-provided': 'true' }, { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'torch-8gpu' }],
      ['team', { 'cdk8s-kubeflow/runtime-provided': 'true' }, { apiGroup: 'trainer.kubeflow.org', kind: 'TrainingRuntime', name: 'team-runtime' }],
      ['builtin', undefined, { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'torch-distributed' }],
    ]);
    expect(TrainingRuntimeRef.providedByCluster('x').provided).toBe(true);
    expect(TrainingRuntimeRef.cluster('x').provided).toBe(false);
    expect(synthErrors(chart => new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: TrainingRuntimeRef.cluster('torch-8gpu') }))).toBeUndefined();
  });
});

describe('validation', () => {
  test('more processes per node than GPUs per node, in the job and in an MPI runtime', () => {
    expect(errors(chart => new TrainJob(chart, 'job', {
      metadata: { name: 'j' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), numProcPerNode: 8, resourcesPerNode: { accelerator: Accelerator.nvidia(4) },
    }))).toEqual(['[test/job] numProcPerNode is 8; expected at most the 4 accelerators per node (one process per device)']);
    expect(errors(chart => {
      const rt = new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'g' }, mlPolicy: MlPolicy.mpi({ slotsPerWorker: 8 }), image: 'i', resources: { accelerator: Accelerator.nvidia(2) } });
      new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: rt.ref, numProcPerNode: 4 });
    })).toEqual([
      '[test/rt] mlPolicy.mpi.slotsPerWorker is 8; expected at most the 2 accelerators per node (one process per device)',
      '[test/job] numProcPerNode is 4; expected at most the 2 accelerators per node (one process per device)',
    ]);
  });

  test('a dataset for a runtime whose initializer does not mount the workspace (upstream jobs/05-multi-step.yaml)', () => {
    expect(errors(chart => {
      const rt = new TrainingRuntime(chart, 'rt', {
        metadata: { name: 'torch-with-dataset-init' },
        mlPolicy: MlPolicy.torch(),
        image: TORCH_IMAGE,
        datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer', mountWorkspace: false },
      });
      new TrainJob(chart, 'job', { metadata: { name: 'multi-step-example' }, runtime: rt.ref, datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca' } });
    })).toEqual([
      '[test/job] spec.initializer.dataset (datasetInitializer) is {"storageUri":"hf://tatsu-lab/alpaca"}; expected the runtime "torch-with-dataset-init" to mount the "initializer" volume in its "dataset-initializer" container, where the initializer writes (the Trainer webhook refuses the job otherwise)',
    ]);
  });

  test('a model for a runtime without a model step; a reserved variable; a patch of a job the runtime lacks', () => {
    expect(errors(chart => {
      const rt = new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'plain' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
      new TrainJob(chart, 'job', {
        metadata: { name: 'j' },
        runtime: rt.ref,
        modelInitializer: { storageUri: 'hf://m' },
        env: { PET_NNODES: kplus.EnvValue.fromValue('4') },
        nodeSelector: { a: 'b' },
        patchedJobs: ['trainer'],
      });
    })).toEqual([
      '[test/job] spec.initializer.model (modelInitializer) is {"storageUri":"hf://m"}; expected a runtime with a "model-initializer" step; the runtime "plain" has only "node"',
      '[test/job] spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].name (patchedJobs) is "trainer"; expected a replicated job of the runtime "plain": "node"',
      '[test/job] spec.trainer.env[0].name (env) is "PET_NNODES"; expected a variable the torch runtime "plain" does not set itself (it sets PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR, PET_MASTER_PORT)',
    ]);
  });

  test('a job on a built-in runtime by name is checked against that runtime as Trainer v2.3.0 ships it', () => {
    // The three refusals the real v2.3.0 webhook gives (conformance/trainer): torch-distributed has
    // no initializer steps, sets PET_* itself, and has only a "node" job to patch.
    expect(errors(chart => {
      new TrainJob(chart, 'job', {
        metadata: { name: 'j' },
        runtime: TrainingRuntimeRef.cluster('torch-distributed'),
        datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca' },
        env: { PET_NNODES: kplus.EnvValue.fromValue('4') },
        nodeSelector: { a: 'b' },
        patchedJobs: ['launcher'],
      });
    })).toEqual([
      '[test/job] spec.initializer.dataset (datasetInitializer) is {"storageUri":"hf://tatsu-lab/alpaca"}; expected a runtime with a "dataset-initializer" step; the runtime "torch-distributed" (built into Trainer v2.3.0) has only "node"',
      '[test/job] spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].name (patchedJobs) is "launcher"; expected a replicated job of the runtime "torch-distributed" (built into Trainer v2.3.0): "node"',
      '[test/job] spec.trainer.env[0].name (env) is "PET_NNODES"; expected a variable the torch runtime "torch-distributed" (built into Trainer v2.3.0) does not set itself (it sets PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR, PET_MASTER_PORT)',
    ]);
    // A built-in with both initializer steps takes both.
    const initializers = { datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca' }, modelInitializer: { storageUri: 'hf://meta-llama/Llama-3.2-1B-Instruct' } };
    const docs = synthAll(chart => {
      new TrainJob(chart, 'tune', { metadata: { name: 'tune' }, runtime: TrainingRuntimeRef.cluster('torchtune-llama3.2-1b'), ...initializers });
    });
    expect(docs.map(d => [d.spec.runtimeRef.name, Object.keys(d.spec.initializer)])).toEqual([['torchtune-llama3.2-1b', ['dataset', 'model']]]);
    // A runtime the release does not ship and the app does not define is not judged (the rule alone:
    // a manifest of it would name a runtime no cluster of the conformance run has).
    const own = { ...docs[0], metadata: { name: 'own', namespace: 'ml' }, spec: { ...docs[0].spec, runtimeRef: { name: 'team-torch' } } };
    expect(appFindings([{ path: 'test/own', doc: own }])).toEqual([]);
    expect(appFindings([{ path: 'test/tune', doc: { ...own, spec: { ...own.spec, runtimeRef: { name: 'torch-distributed' } } } }]).map(f => f.finding.field))
      .toEqual(['spec.initializer.dataset', 'spec.initializer.model']);
  });

  test('torchtune jobs: the model named by the runtime, one node except for 70B, LoRA on one node, paths the runtime sets', () => {
    const tune = { command: ['tune', 'run'] };
    expect(errors(chart => {
      new TrainJob(chart, 'job', {
        metadata: { name: 'j' },
        runtime: TrainingRuntimeRef.cluster('torchtune-llama3.2-1b'),
        ...tune,
        numNodes: 2,
        args: ['output_dir=/mnt/out', 'model.lora_attn_modules=[q_proj,v_proj]'],
      });
      const own = new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'team-tune' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
      new TrainJob(chart, 'own', { metadata: { name: 'own' }, runtime: own.ref, ...tune });
    })).toEqual([
      '[test/job] spec.trainer.numNodes (numNodes) is 2; expected 1: torchtune trains llama3_2/1B on one node (only llama3_3/70B runs on several)',
      '[test/job] spec.trainer.numNodes (numNodes) is 2; expected 1 with LoRA args: torchtune fine-tunes with LoRA on one node only (on several it would fall back to a full fine-tune)',
      '[test/job] spec.trainer.args[0] (args) is "output_dir=/mnt/out"; expected no output_dir: the runtime sets output_dir, tokenizer.path, checkpointer.checkpoint_dir, tokenizer.merges_file for torchtune',
      '[test/own] spec.runtimeRef.name is "team-tune"; expected a runtime named torchtune-<model>-<size> for a model torchtune supports (llama3_2/1B, llama3_2/3B, llama3_3/70B, qwen2_5/1.5B): the Trainer reads the model from the name, and this one gives none',
    ]);
    // One node with the model's own runtime, or a command that is not torchtune's: accepted.
    const docs = synthAll(chart => {
      new TrainJob(chart, 'one', { metadata: { name: 'one' }, runtime: TrainingRuntimeRef.cluster('torchtune-llama3.2-1b'), ...tune, args: ['epochs=1'] });
      new TrainJob(chart, 'torchrun', { metadata: { name: 'torchrun' }, runtime: TrainingRuntimeRef.cluster('torchtune-llama3.2-3b'), command: ['torchrun', 'train.py'], numNodes: 2 });
    });
    expect(docs.map(d => [d.metadata.name, d.spec.trainer.command])).toEqual([['one', ['tune', 'run']], ['torchrun', ['torchrun', 'train.py']]]);
  });

  test('a storage URI Kubeflow\'s dataset initializer cannot read is refused at synth; another image\'s is its own business (issue 41)', () => {
    const job = (image: string) => errors(chart => {
      const rt = new TrainingRuntime(chart, 'rt', {
        metadata: { name: 'torch-with-dataset' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE, datasetInitializer: { image },
      });
      new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: rt.ref, datasetInitializer: { storageUri: 'gs://bucket/data' } });
    });
    expect(job('registry.example/kubeflow/trainer/dataset-initializer:v2.3.0')).toEqual([
      '[test/job] spec.initializer.dataset.storageUri (datasetInitializer.storageUri) is "gs://bucket/data"; expected a URI of the form hf://..., s3://..., cache://...: '
      + 'Kubeflow\'s dataset initializer in the dataset-initializer container of the runtime "torch-with-dataset" knows only hf://, s3://, cache:// and ends the step with an error otherwise, so the trainer never starts',
    ]);
    expect(synthErrors(chart => {
      const rt = new TrainingRuntime(chart, 'rt', { metadata: { name: 'own' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE, datasetInitializer: { image: 'registry.example/team/gcs-loader:1.0' } });
      new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: rt.ref, datasetInitializer: { storageUri: 'gs://bucket/data' } });
    })).toBeUndefined();
  });

  test('a job\'s tolerations keep the runtime\'s in the patch, which replaces the runtime\'s list whole (issue 41)', () => {
    const docs = synthAll(chart => {
      const rt = new TrainingRuntime(chart, 'rt', { metadata: { name: 'gpu' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE, resources: { accelerator: Accelerator.nvidia(1) } });
      new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: rt.ref, tolerations: [{ key: 'spot', operator: 'Exists' }] });
    });
    const job = docs.find(d => d.kind === 'TrainJob');
    expect(job.spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.tolerations).toEqual([
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'spot', operator: 'Exists' },
    ]);
  });

  test('shared memory on a flux runtime is refused: the flux plugin mounts its own at /dev/shm over it (issue 41)', () => {
    expect(errors(chart => new TrainingRuntime(chart, 'rt', { metadata: { name: 'flux' }, mlPolicy: MlPolicy.flux(), image: TORCH_IMAGE, sharedMemory: Size.gibibytes(8) }))).toEqual([
      '[test/rt] spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].volumeMounts[0].mountPath is "/dev/shm"; expected another path: '
      + 'the flux plugin mounts its own volume at "/dev/shm" in the "node" container of the "node" pods, which replaces this mount',
    ]);
  });

  test('a runtime of the app under a built-in\'s name is the one the job is checked against', () => {
    const docs = synthAll(chart => {
      const rt = new ClusterTrainingRuntime(chart, 'rt', {
        metadata: { name: 'torch-distributed' },
        mlPolicy: MlPolicy.torch(),
        image: TORCH_IMAGE,
        datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer' },
      });
      new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: rt.ref, datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca' } });
    });
    expect(docs.map(d => d.kind)).toEqual(['ClusterTrainingRuntime', 'TrainJob']);
    expect(docs[0].spec.template.spec.replicatedJobs.map((j: any) => j.name)).toEqual(['dataset-initializer', 'node']);
  });

  test('a TrainingRuntime of the app in another namespace', () => {
    expect(errors(chart => {
      const team = new Chart(chart, 'team-b', { namespace: 'team-b' });
      const rt = new TrainingRuntime(team, 'rt', { metadata: { name: 'common' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE });
      new TrainJob(chart, 'job', { metadata: { name: 'j', namespace: 'team-a' }, runtime: rt.ref });
    })).toEqual([
      '[test/job] spec.runtimeRef.name is "common"; expected a TrainingRuntime in the job\'s namespace "team-a"; the app\'s "common" is in namespace "team-b", where the controller does not look',
    ]);
  });

  test('the runtime webhook\'s step rules and the 20-character job names, on a patched runtime; a patch manager that is no domain-prefixed path', () => {
    expect(errors(chart => {
      const rt = new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'r' }, mlPolicy: MlPolicy.torch(), image: 'i' });
      rt.apiObject.addJsonPatch(
        JsonPatch.replace('/spec/template/spec/replicatedJobs/0/name', 'distributed-training-node'),
        JsonPatch.add('/spec/template/spec/replicatedJobs/0/replicas', 2),
        JsonPatch.replace('/spec/template/spec/replicatedJobs/0/template/spec/template/spec/containers/0/name', 'trainer'));
      new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: TrainingRuntimeRef.providedByCluster('x'), nodeSelector: { a: 'b' }, patchManager: 'platform' });
    })).toEqual([
      // The torch plugin's master address names a job "node" (trainer/rendezvous-address, issue 41).
      '[test/rt] spec.template.spec.replicatedJobs[0].name is "distributed-training-node"; expected "node" for the trainer step: the torch plugin gives every pod PET_MASTER_ADDR="<TrainJob>-node-0-0.<TrainJob>", '
      + 'the first pod of a job named "node", whatever this job is called, so no TrainJob of this runtime finds the first node and none trains',
      '[test/rt] spec.template.spec.replicatedJobs[0].name is "distributed-training-node"; expected at most 20 characters: Trainer v2.4.0 and later refuse a runtime with a longer replicated-job name (the JobSet\'s pod names grow with it); shorten it, or set a target of Trainer before v2.4.0 (trainer=v2.3)',
      '[test/rt] spec.template.spec.replicatedJobs[0].replicas is 2; expected 1: the "trainer" step of a runtime runs once',
      '[test/rt] spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers is ["trainer"]; expected a container named "node", which the controller configures for the "trainer" step',
      '[test/job] spec.runtimePatches[0].manager is "platform"; expected a domain-prefixed path such as "example.io/platform-team"',
    ]);
  });
});

describe('what a TrainJob asks reaches the pods that train (issue 22)', () => {
  const gaudi = { accelerator: Accelerator.custom('habana.ai/gaudi', 8), cpu: kplus.Cpu.units(64), memory: Size.gibibytes(512) };

  test('torch and MPI with an accelerator the plugin does not count as a GPU: numProcPerNode is written as the device count', () => {
    const [job] = synthAll(chart => new TrainJob(chart, 'job', { metadata: { name: 'gaudi' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), resourcesPerNode: gaudi }));
    expect(job.spec.trainer.numProcPerNode).toBe(8);
    // A GPU (the plugin's "auto"), a runtime construct's accelerator, a policy that is not torch, an explicit count.
    const docs = synthAll(chart => {
      new TrainJob(chart, 'amd', { metadata: { name: 'amd' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), resourcesPerNode: { accelerator: Accelerator.amd(8) } });
      const rt = new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'neuron' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE, resources: { accelerator: Accelerator.custom('aws.amazon.com/neuron', 2) } });
      new TrainJob(chart, 'neuron', { metadata: { name: 'neuron-job' }, runtime: rt.ref });
      new TrainJob(chart, 'xgb', { metadata: { name: 'xgb' }, runtime: TrainingRuntimeRef.cluster('xgboost-distributed'), resourcesPerNode: gaudi });
      new TrainJob(chart, 'own', { metadata: { name: 'own' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), resourcesPerNode: gaudi, numProcPerNode: 4 });
      // MPI keeps one slot per node unless the resources name a GPU; a runtime's own slots stand.
      new TrainJob(chart, 'mpi', { metadata: { name: 'mpi' }, runtime: TrainingRuntimeRef.cluster('deepspeed-distributed'), resourcesPerNode: gaudi });
      const slots = new ClusterTrainingRuntime(chart, 'rt-slots', {
        metadata: { name: 'mpi-slots' },
        mlPolicy: MlPolicy.mpi({ slotsPerWorker: 4, runLauncherAsNode: true }),
        image: TORCH_IMAGE,
        resources: { accelerator: Accelerator.custom('habana.ai/gaudi', 4) },
      });
      new TrainJob(chart, 'mpi-slots', { metadata: { name: 'mpi-slots-job' }, runtime: slots.ref });
    });
    expect(docs.filter(d => d.kind === 'TrainJob').map(d => [d.metadata.name, d.spec.trainer?.numProcPerNode])).toEqual([
      ['amd', undefined], ['neuron-job', 2], ['xgb', undefined], ['own', 4], ['mpi', 8], ['mpi-slots-job', undefined],
    ]);
  });

  test('on a built-in runtime, the accelerator\'s toleration and shared memory go through the patch, as on a v1 job', () => {
    const [job] = synthAll(chart => new TrainJob(chart, 'job', {
      metadata: { name: 'shm' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), resourcesPerNode: { accelerator: Accelerator.nvidia(8) }, sharedMemory: Size.gibibytes(16),
    }));
    expect(job.spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs).toEqual([{
      name: 'node',
      template: {
        spec: {
          template: {
            spec: {
              tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
              volumes: [{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '16384Mi' } }],
              containers: [{ name: 'node', volumeMounts: [{ name: 'dshm', mountPath: '/dev/shm' }] }],
            },
          },
        },
      },
    }]);
    // A runtime construct tolerates its own accelerator; the job adds none (a patch's tolerations replace the runtime's).
    const docs = synthAll(chart => {
      const rt = new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'gpus' }, mlPolicy: MlPolicy.torch(), image: TORCH_IMAGE, resources: { accelerator: Accelerator.nvidia(8) } });
      new TrainJob(chart, 'job', { metadata: { name: 'on-own' }, runtime: rt.ref, resourcesPerNode: { accelerator: Accelerator.nvidia(8) } });
    });
    expect(docs.find(d => d.kind === 'TrainJob').spec.runtimePatches).toBeUndefined();
  });

  test('refused at synth, with the construct path: what the Trainer would drop or overwrite', () => {
    expect(errors(chart => {
      const mpi = new TrainingRuntime(chart, 'mpi', { metadata: { name: 'mpi' }, mlPolicy: MlPolicy.mpi({ slotsPerWorker: 1 }), image: 'team/mpi:1', command: ['/usr/sbin/sshd'] });
      new TrainJob(chart, 'launcher-only', { metadata: { name: 'launcher-only' }, runtime: mpi.ref, image: 'team/mpi:2', command: ['mpirun'] });
      new TrainJob(chart, 'jax', { metadata: { name: 'jax' }, runtime: TrainingRuntimeRef.cluster('jax-distributed'), numProcPerNode: 4 });
      const tune = new TrainJob(chart, 'tune', { metadata: { name: 'tune' }, runtime: TrainingRuntimeRef.cluster('torchtune-llama3.2-1b') });
      tune.mount('/workspace', kplus.Volume.fromEmptyDir(chart, 'scratch', 'scratch'));
      new TrainJob(chart, 'long', { metadata: { name: 'a-train-job-name-that-is-long-enough-to-break-pods' }, runtime: TrainingRuntimeRef.cluster('torch-distributed-with-cache') });
      new TrainJob(chart, 'shm-twice', { metadata: { name: 'flux' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), sharedMemory: Size.gibibytes(1), env: { OUT: kplus.EnvValue.fromValue('$(ROOT)/out'), ROOT: kplus.EnvValue.fromValue('/data') } });
    })).toEqual([
      '[test/launcher-only] spec.trainer.image (image) is "team/mpi:2"; expected none on the mpi runtime "mpi": Trainer v2.3.0 sets the TrainJob\'s image only on the "launcher" job (the one with the trainer step label), and the "node" job that runs the ranks keeps the runtime\'s image; give the runtime the image instead (one runtime per image)',
      '[test/jax] spec.trainer.numProcPerNode (numProcPerNode) is 4; expected none on the jax runtime "jax-distributed" (built into Trainer v2.3.0): the jax plugin runs one JAX process per node and never reads it; leave it out (for more workers per node on xgboost, give each node GPUs)',
      '[test/tune] spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].volumeMounts[0].mountPath is "/workspace"; expected a path other than "/workspace", where the "node" container of the torch runtime "torchtune-llama3.2-1b" (built into Trainer v2.3.0) mounts the initializer workspace: a patch mount at the same path replaces it (the Trainer merges mounts by path), so the dataset and model the initializers wrote are not there; mount this volume elsewhere',
      '[test/long] metadata.name is "a-train-job-name-that-is-long-enough-to-break-pods"; expected at most 33 characters: JobSet v0.12.0 names the pods "<TrainJob name>-<replicated job>-<job index>-<pod index>-<5 random characters>", and the longest of the "dataset-initializer" job (1 pod), "a-train-job-name-that-is-long-enough-to-break-pods-dataset-initializer-0-0-abcde", is 80 characters; its webhook refuses a JobSet whose pod names exceed 63, so the TrainJob is admitted and never runs; shorten the name',
      '[test/shm-twice] spec.trainer.env[0].value (env) is "$(ROOT)/out"; expected references only to variables defined before this entry on the torch runtime "torch-distributed" (built into Trainer v2.3.0): "ROOT" is set at spec.trainer.env[1], which lands after it in the trainer container, so the kubelet leaves "$(ROOT)" unexpanded; move "ROOT" before it, or write "$$(ROOT)" to keep the text literal',
    ]);
  });

  test('a job queued by Kueue takes no pod labels or annotations (they would be in the runtime patch)', () => {
    expect(errors(chart => {
      new TrainJob(chart, 'job', {
        metadata: { name: 'queued' },
        runtime: TrainingRuntimeRef.cluster('torch-distributed'),
        queue: 'team-a',
        podAnnotations: { 'kueue.x-k8s.io/podset-preferred-topology': 'rack' },
        nodeSelector: { pool: 'a100' },
      });
    })).toEqual([
      '[test/job] podAnnotations is {"kueue.x-k8s.io/podset-preferred-topology":"rack"}; expected none on a TrainJob queued by Kueue (queue "team-a"): they are written in the runtime patch, and Trainer v2.3.0 cannot resume the JobSet of a patch with pod metadata when Kueue admits the job (spec.replicatedJobs[0].template.spec.template.metadata: Invalid value: "null"), so it never runs; put them on a runtime of the app (its podLabels or podAnnotations, or topology: Topology.required(...) for a Kueue topology request) and run the job on that runtime',
    ]);
  });
});

describe('every built-in runtime of the catalogue: the job\'s accelerator toleration and shared memory reach the pods that train', () => {
  test.each(Object.keys(BUILTIN_RUNTIMES))('%s', name => {
    const [job] = synthAll(chart => new TrainJob(chart, 'job', {
      metadata: { name: 'parity' }, runtime: TrainingRuntimeRef.cluster(name), resourcesPerNode: { accelerator: Accelerator.nvidia(2) }, sharedMemory: Size.gibibytes(8),
    }));
    const mpi = BUILTIN_RUNTIMES[name].spec.mlPolicy.mpi !== undefined;
    const patched = job.spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs;
    expect(patched.map((j: any) => j.name)).toEqual(mpi ? ['node', 'launcher'] : ['node']);
    for (const j of patched) {
      expect(j.template.spec.template.spec).toEqual({
        tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        volumes: [{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '8192Mi' } }],
        containers: [{ name: 'node', volumeMounts: [{ name: 'dshm', mountPath: '/dev/shm' }] }],
      });
    }
  });
});
