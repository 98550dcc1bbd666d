/**
 * TrainJobs for the Trainer oracle (conformance/trainer, TestOracle): every field of a TrainJob
 * the props can ask for, on each kind of runtime a job can name (the built-in torch, MPI, JAX and
 * XGBoost runtimes, and runtime constructs of the app). The oracle can only prove what the tests
 * write, so this suite writes what the other suites do not combine.
 *
 * Each job either synthesizes (deterministic, schema-valid, dumped with its recorded intent when
 * MANIFESTS_DUMP_DIR is set) or is refused at synth with a message that names the construct and
 * one of the props the case sets: what the oracle then finds different between the props and
 * Trainer v2.3.0's JobSet is its business.
 */
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, MlPolicy, TrainingRuntime, TrainingRuntimeRef, TrainJob, TrainJobProps } from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';

const TORCH_IMAGE = 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime';

/** A volume of an existing claim. */
const claim = (chart: Chart, id: string, name: string) =>
  kplus.Volume.fromPersistentVolumeClaim(chart, `${id}-volume`, kplus.PersistentVolumeClaim.fromClaimName(chart, id, name));

/** A runtime a job names: a built-in one, or a construct the case adds to its chart. */
interface RuntimeCase {
  readonly name: string;
  /** Part of the job's name, so that the oracle's report names the case. */
  readonly slug: string;
  readonly ref: (chart: Chart) => TrainingRuntimeRef;
}

const builtin = (name: string): RuntimeCase => ({ name, slug: name.replace(/-distributed$/, ''), ref: () => TrainingRuntimeRef.cluster(name) });

const runtimes: RuntimeCase[] = [
  builtin('torch-distributed'),
  builtin('deepspeed-distributed'),
  builtin('mlx-distributed'),
  builtin('jax-distributed'),
  builtin('xgboost-distributed'),
  {
    name: 'app MPI runtime (launcher apart)',
    slug: 'app-mpi',
    ref: chart => new TrainingRuntime(chart, 'mpi', {
      metadata: { name: 'app-mpi' }, mlPolicy: MlPolicy.mpi(), image: 'ghcr.io/kubeflow/trainer/deepspeed-runtime',
    }).ref,
  },
  {
    name: 'app torch runtime with a dataset initializer',
    slug: 'app-torch-init',
    ref: chart => new TrainingRuntime(chart, 'torch', {
      metadata: { name: 'app-torch-init' },
      mlPolicy: MlPolicy.torch(),
      image: TORCH_IMAGE,
      datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer' },
    }).ref,
  },
];

/** What a job asks, and how: props, and the calls made on the construct. */
interface JobCase {
  readonly name: string;
  readonly slug: string;
  readonly props: Omit<TrainJobProps, 'runtime' | 'metadata'>;
  readonly after?: (job: TrainJob, chart: Chart) => void;
  /** The props (or method) a refusal must name: one of them. */
  readonly fields: string[];
}

const jobs: JobCase[] = [
  {
    name: 'trainer',
    slug: 'trainer',
    props: { image: 'example.com/train:1', command: ['python3', 'train.py'], args: ['--epochs', '3'], numNodes: 2 },
    fields: ['image', 'command', 'args', 'numNodes'],
  },
  {
    name: 'gpus',
    slug: 'gpus',
    props: {
      resourcesPerNode: { accelerator: Accelerator.nvidia(4), cpu: kplus.Cpu.units(8), memory: Size.gibibytes(32) },
      numProcPerNode: 4,
      numNodes: 2,
    },
    fields: ['resourcesPerNode', 'numProcPerNode', 'numNodes'],
  },
  {
    name: 'other accelerators',
    slug: 'other-accel',
    props: { resourcesPerNode: { accelerator: Accelerator.custom('habana.ai/gaudi', 8), cpu: kplus.Cpu.units(64) } },
    fields: ['resourcesPerNode', 'numProcPerNode'],
  },
  {
    name: 'processes without accelerators',
    slug: 'procs',
    props: { numProcPerNode: 4 },
    fields: ['numProcPerNode'],
  },
  {
    name: 'env',
    slug: 'env',
    props: {
      env: {
        RUN_DIR: kplus.EnvValue.fromValue('$(BASE)/run'),
        BASE: kplus.EnvValue.fromValue('/data'),
        RANK_TAG: kplus.EnvValue.fromValue('rank-$(PET_NODE_RANK)'),
        LOG_LEVEL: kplus.EnvValue.fromValue('debug'),
      },
    },
    fields: ['env'],
  },
  {
    name: 'pods',
    slug: 'pods',
    props: {
      podLabels: { team: 'vision' },
      podAnnotations: { 'example.com/owner': 'vision' },
      nodeSelector: { 'example.com/pool': 'gpu' },
      tolerations: [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      serviceAccountName: 'trainer',
      jobSetLabels: { 'example.com/cost-center': 'research' },
    },
    after: (job, chart) => job.mount('/data', claim(chart, 'data', 'training-data'), { readOnly: true }),
    fields: ['podLabels', 'podAnnotations', 'nodeSelector', 'tolerations', 'serviceAccountName', 'jobSetLabels', 'mount'],
  },
  {
    name: 'mount at the workspace',
    slug: 'workspace-mount',
    props: { datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca' } },
    after: (job, chart) => job.mount('/workspace', claim(chart, 'own', 'own-workspace')),
    fields: ['mount', 'datasetInitializer', 'initializer.dataset'],
  },
  {
    name: 'mount at the SSH key path of MPI',
    slug: 'ssh-mount',
    props: {},
    after: (job, chart) => job.mount('/home/mpiuser/.ssh', claim(chart, 'keys', 'team-keys')),
    fields: ['mount'],
  },
  {
    name: 'suspended with a deadline',
    slug: 'suspended',
    props: { suspend: true, activeDeadline: Duration.hours(2) },
    fields: ['suspend', 'activeDeadline'],
  },
];

const cases = runtimes.flatMap(runtime => jobs.map(job => ({ runtime, job })));

describe('TrainJobs for the Trainer oracle', () => {
  test.each(cases.map(c => [c.job.name, c.runtime.name, c] as const))('%s on %s: synthesized, or refused naming the field', (_job, _runtime, c) => {
    const build = (chart: Chart) => {
      const job = new TrainJob(chart, 'job', { ...c.job.props, metadata: { name: `${c.job.slug}-on-${c.runtime.slug}` }, runtime: c.runtime.ref(chart) });
      c.job.after?.(job, chart);
    };
    let docs: any[];
    try {
      docs = expectDeterministic(app => build(new Chart(app, 'test', { namespace: 'ml' })));
    } catch (e: any) {
      const message: string = e.message;
      // Refused: the message names the job and one of the fields the case sets.
      expect(message).toContain('test/job');
      expect({ message, named: c.job.fields.some(f => message.includes(f)) }).toEqual({ message, named: true });
      return;
    }
    expect(docs.filter(d => d.kind === 'TrainJob')).toHaveLength(1);
    expectValidManifests(docs);
  });
});
