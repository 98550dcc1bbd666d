/**
 * Fidelity to the Trainer v2.3.0 corpus (upstream/examples/upstream-v2): each file rebuilt with
 * the constructs; every upstream leaf must appear in the output with the same value. Fields the
 * constructs have no option for are written with an escape hatch, and those are listed here, so
 * the list is the gap. jobs/05-multi-step.yaml, which the Trainer webhook refuses, is refused.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { UPSTREAM_EXAMPLES_V2 as ROOT } from '../../scripts/upstream/pins';
import {
  Accelerator, ClusterTrainingRuntime, MlPolicy, PodGroupPolicy, TrainingRuntime, TrainingRuntimeRef, TrainJob,
} from '../../src';
import { expectDeterministic, expectValidManifests, REPORT, synthErrors } from '../harness';
import { missingLeaves } from '../harness/fidelity';

const TORCH = 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime';
const CACHE_JOB_NAME = kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_LABEL, { key: 'jobset.sigs.k8s.io/jobset-name', apiVersion: 'v1' });

/** The fields each file needs an escape hatch for (the constructs have no option for them). */
const ESCAPE_HATCHED: Record<string, string[]> = {
  'runtimes/deepspeed_distributed.yaml': ['node and launcher pod securityContext.fsGroup', 'node readinessProbe'],
  'runtimes/mlx_distributed.yaml': ['node and launcher pod securityContext.fsGroup', 'node readinessProbe'],
};
const hatched: Record<string, string[]> = {};

const torchJobScript = (file: string) => (load(file).find(d => d.kind === 'TrainJob')!.spec.trainer.command as string[]);

function load(file: string): any[] {
  return yaml.loadAll(fs.readFileSync(path.join(ROOT, file), 'utf8')).filter(d => d) as any[];
}

function mpiRuntime(chart: Chart, file: string, name: string, framework: string, image: string): void {
  const rt = new ClusterTrainingRuntime(chart, name, {
    metadata: { name },
    frameworkLabel: framework,
    mlPolicy: MlPolicy.mpi({ slotsPerWorker: 1, sshAuthMountPath: '/home/mpiuser/.ssh', runLauncherAsNode: true }),
    image,
    command: ['/usr/sbin/sshd'],
    args: ['-De', '-f', '/home/mpiuser/.sshd_config'],
    securityContext: { user: 1000, ensureNonRoot: false },
  });
  const podSpec = (i: number) => `/spec/template/spec/replicatedJobs/${i}/template/spec/template/spec`;
  rt.apiObject.addJsonPatch(
    JsonPatch.add(`${podSpec(0)}/securityContext`, { fsGroup: 1000 }),
    JsonPatch.add(`${podSpec(1)}/securityContext`, { fsGroup: 1000 }),
    JsonPatch.add(`${podSpec(0)}/containers/0/readinessProbe`, { tcpSocket: { port: 2222 }, initialDelaySeconds: 5 }));
  hatched[file] = ['node and launcher pod securityContext.fsGroup', 'node readinessProbe'];
}

/** A TorchTune runtime; its `tune run` command line is user data, read from the corpus file. */
function torchtune(chart: Chart, file: string, name: string, dataset: string, model: string, gpus: number): void {
  const command = load(file)[0].spec.template.spec.replicatedJobs[2].template.spec.template.spec.containers[0].command;
  new ClusterTrainingRuntime(chart, name, {
    metadata: { name },
    frameworkLabel: 'torchtune',
    mlPolicy: MlPolicy.torch(),
    datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer', storageUri: dataset },
    modelInitializer: { image: 'ghcr.io/kubeflow/trainer/model-initializer', storageUri: model },
    image: 'ghcr.io/kubeflow/trainer/torchtune-trainer',
    command,
    resources: { accelerator: Accelerator.nvidia(gpus) },
  });
}

/** The program for each corpus file. */
const BUILDERS: Record<string, (chart: Chart) => void> = {
  'runtimes/torch_distributed.yaml': chart => new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'torch-distributed' }, mlPolicy: MlPolicy.torch(), image: TORCH }),
  'runtimes/jax_distributed.yaml': chart => new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'jax-distributed' }, mlPolicy: MlPolicy.jax(), image: 'nvcr.io/nvidia/jax:25.10-py3' }),
  'runtimes/xgboost_distributed.yaml': chart => new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'xgboost-distributed' }, mlPolicy: MlPolicy.xgboost(), image: 'ghcr.io/kubeflow/trainer/xgboost-runtime' }),
  'runtimes/torch_distributed_with_cache.yaml': chart => new ClusterTrainingRuntime(chart, 'rt', {
    metadata: { name: 'torch-distributed-with-cache', labels: { 'trainer.kubeflow.org/webhook-validation': 'disabled' } },
    mlPolicy: MlPolicy.torch(),
    image: TORCH,
    env: { TRAIN_JOB_NAME: CACHE_JOB_NAME },
    datasetInitializer: {
      image: 'ghcr.io/kubeflow/trainer/dataset-initializer',
      mountWorkspace: false,
      serviceAccount: kplus.ServiceAccount.fromServiceAccountName(chart, 'sa', 'kubeflow-trainer-cache-initializer'),
      env: { CACHE_IMAGE: kplus.EnvValue.fromValue('ghcr.io/kubeflow/trainer/data-cache:v2.3.0'), TRAIN_JOB_NAME: CACHE_JOB_NAME },
    },
  }),
  'runtimes/deepspeed_distributed.yaml': chart => mpiRuntime(chart, 'runtimes/deepspeed_distributed.yaml', 'deepspeed-distributed', 'deepspeed', 'ghcr.io/kubeflow/trainer/deepspeed-runtime'),
  'runtimes/mlx_distributed.yaml': chart => mpiRuntime(chart, 'runtimes/mlx_distributed.yaml', 'mlx-distributed', 'mlx', 'ghcr.io/kubeflow/trainer/mlx-runtime'),
  'runtimes/llama3_2_1B.yaml': chart => torchtune(chart, 'runtimes/llama3_2_1B.yaml', 'torchtune-llama3.2-1b', 'hf://tatsu-lab/alpaca', 'hf://meta-llama/Llama-3.2-1B-Instruct', 2),
  'runtimes/llama3_2_3B.yaml': chart => torchtune(chart, 'runtimes/llama3_2_3B.yaml', 'torchtune-llama3.2-3b', 'hf://tatsu-lab/alpaca', 'hf://meta-llama/Llama-3.2-3B-Instruct', 2),
  'runtimes/qwen2_5_1.5B.yaml': chart => torchtune(chart, 'runtimes/qwen2_5_1.5B.yaml', 'torchtune-qwen2.5-1.5b', 'hf://tatsu-lab/alpaca', 'hf://Qwen/Qwen2.5-1.5B-Instruct', 2),
  'jobs/01-multi-node.yaml': chart => new TrainJob(chart, 'job', {
    metadata: { name: 'multi-node-example' },
    runtime: TrainingRuntimeRef.cluster('torch-distributed'),
    numNodes: 3,
    command: torchJobScript('jobs/01-multi-node.yaml'),
  }),
  'jobs/02-runtime-patches.yaml': chart => new TrainJob(chart, 'job', {
    metadata: { name: 'runtime-patches-example' },
    runtime: TrainingRuntimeRef.cluster('torch-distributed'),
    numNodes: 2,
    command: torchJobScript('jobs/02-runtime-patches.yaml'),
    env: { CUSTOM_VAR: kplus.EnvValue.fromValue('custom-value'), PYTHONUNBUFFERED: kplus.EnvValue.fromValue('1') },
    ...resources('jobs/02-runtime-patches.yaml'),
    patchManager: 'example.io/platform-team',
    jobSetLabels: { 'team': 'ml-platform', 'cost-center': 'research' },
    jobSetAnnotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '8080' },
    serviceAccountName: 'training-sa',
    nodeSelector: { 'node-type': 'training' },
    tolerations: [{ key: 'training-workload', operator: 'Equal', value: 'true', effect: 'NoSchedule' }],
  }),
  'jobs/03-kueue-integration.yaml': chart => new TrainJob(chart, 'job', {
    metadata: { name: 'kueue-example' },
    runtime: TrainingRuntimeRef.cluster('torch-distributed'),
    queue: 'training-queue',
    suspend: true,
    numNodes: 3,
    image: 'python:3.11-slim',
    command: torchJobScript('jobs/03-kueue-integration.yaml'),
    ...resources('jobs/03-kueue-integration.yaml'),
  }),
  'jobs/04-volcano-integration.yaml': chart => {
    const rt = new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'torch-distributed-volcano' }, mlPolicy: MlPolicy.torch(), image: TORCH, podGroupPolicy: PodGroupPolicy.volcano() });
    new TrainJob(chart, 'job', {
      metadata: { name: 'volcano-example' },
      runtime: rt.ref,
      numNodes: 4,
      command: torchJobScript('jobs/04-volcano-integration.yaml'),
      ...resources('jobs/04-volcano-integration.yaml'),
    });
  },
  'jobs/flux-runtime.yaml': chart => new ClusterTrainingRuntime(chart, 'rt', {
    metadata: { name: 'flux-distributed', labels: { 'trainer.kubeflow.org/webhook-validation': 'disabled' } }, mlPolicy: MlPolicy.flux(), image: 'ubuntu:jammy',
  }),
  'jobs/flux-interactive.yaml': chart => new TrainJob(chart, 'job', {
    metadata: { name: 'lammps-flux-interactive' },
    runtime: TrainingRuntimeRef.cluster('flux-distributed'),
    numNodes: 4,
    image: 'ghcr.io/converged-computing/metric-lammps:latest',
    command: ['sleep', 'infinity'],
  }),
  'jobs/lammps-train-gpus.yaml': chart => new TrainJob(chart, 'job', {
    metadata: { name: 'lammps-flux' },
    runtime: TrainingRuntimeRef.cluster('flux-distributed'),
    numNodes: 2,
    numProcPerNode: 1,
    image: 'ghcr.io/flux-framework/tutorials:gpu-lammps-hwloc',
    command: load('jobs/lammps-train-gpus.yaml')[0].spec.trainer.command,
    resourcesPerNode: { accelerator: Accelerator.nvidia(1) },
    env: { OMPI_MCA_btl: kplus.EnvValue.fromValue('tcp,self'), FLUX_VIEW_IMAGE: kplus.EnvValue.fromValue('ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy') },
  }),
  'jobs/lammps-train-job.yaml': chart => new TrainJob(chart, 'job', {
    metadata: { name: 'lammps-flux' },
    runtime: TrainingRuntimeRef.cluster('flux-distributed'),
    numNodes: 2,
    numProcPerNode: 4,
    image: 'ghcr.io/converged-computing/metric-lammps:latest',
    command: load('jobs/lammps-train-job.yaml')[0].spec.trainer.command,
    env: { FLUX_VIEW_IMAGE: kplus.EnvValue.fromValue('ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy') },
  }),
};

/** `resourcesPerNode` of a corpus TrainJob (CPU and memory requests below limits). */
function resources(file: string): { resourcesPerNode: any; resourceLimitsPerNode: any } {
  const r = load(file).find(d => d.kind === 'TrainJob')!.spec.trainer.resourcesPerNode;
  const size = (q: string) => Size.gibibytes(Number(q.replace('Gi', '')));
  const of = (m: any) => ({ cpu: kplus.Cpu.units(Number(m.cpu)), memory: size(m.memory) });
  return { resourcesPerNode: of(r.requests), resourceLimitsPerNode: of(r.limits) };
}

const files = [...fs.readdirSync(path.join(ROOT, 'runtimes')).map(f => `runtimes/${f}`), ...fs.readdirSync(path.join(ROOT, 'jobs')).map(f => `jobs/${f}`)].sort();

test('every corpus file has a program, except the one upstream refuses', () => {
  expect(files.filter(f => !BUILDERS[f])).toEqual(['jobs/05-multi-step.yaml']);
});

describe.each(Object.keys(BUILDERS).sort())('%s', file => {
  test('every upstream leaf is in the output, at the same value; the output is valid and deterministic', () => {
    const docs = expectDeterministic(app => BUILDERS[file](new Chart(app, 'c')));
    expectValidManifests(docs);
    const upstream = load(file);
    expect(docs.map(d => `${d.kind}/${d.metadata.name}`)).toEqual(upstream.map(d => `${d.kind}/${d.metadata.name}`));
    expect(upstream.flatMap((u, i) => missingLeaves(u, docs[i]))).toEqual([]);
    expect(hatched[file] ?? []).toEqual(ESCAPE_HATCHED[file] ?? []);
  });
});

test('jobs/05-multi-step.yaml: the runtime\'s dataset initializer lacks the workspace mount, so the TrainJob is refused', () => {
  const [runtime, job] = load('jobs/05-multi-step.yaml');
  const report = synthErrors(chart => {
    const rt = new TrainingRuntime(chart, 'rt', {
      metadata: { name: runtime.metadata.name },
      mlPolicy: MlPolicy.torch(),
      image: TORCH,
      datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer', mountWorkspace: false },
    });
    new TrainJob(chart, 'job', {
      metadata: { name: job.metadata.name },
      runtime: rt.ref,
      numNodes: 2,
      command: job.spec.trainer.command,
      datasetInitializer: { storageUri: job.spec.initializer.dataset.storageUri },
    });
  });
  expect(report).toBe(`${REPORT}  [test/job] spec.initializer.dataset (datasetInitializer) is {"storageUri":"hf://tatsu-lab/alpaca"}; expected the runtime "torch-with-dataset-init" to mount the "initializer" volume in its "dataset-initializer" container, where the initializer writes (the Trainer webhook refuses the job otherwise)`);
});
