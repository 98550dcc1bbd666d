/**
 * `plan` on Trainer v2: a TrainJob's pods and amounts come from its runtime, with the job's node
 * count and resources per node laid over it as the v2.3 Trainer does.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { formatAccelerators, formatBytes, formatCpu } from '../../../src/cli/plan/amounts';
import { runtimeIndex, trainJobDemand } from '../../../src/cli/plan/train-job-plan';
import { runCli } from '../run-cli';

const ANCESTOR = 'trainer.kubeflow.org/trainjob-ancestor-step';
const API = 'trainer.kubeflow.org/v1alpha1';

/** A replicated job with one container. */
function rJob(name: string, container: string, resources: object, extra: { step?: string; parallelism?: number; replicas?: number } = {}) {
  return {
    name,
    ...(extra.replicas === undefined ? {} : { replicas: extra.replicas }),
    template: {
      ...(extra.step === undefined ? {} : { metadata: { labels: { [ANCESTOR]: extra.step } } }),
      spec: {
        ...(extra.parallelism === undefined ? {} : { parallelism: extra.parallelism }),
        template: { spec: { containers: [{ name: container, image: 'img', resources }] } },
      },
    },
  };
}

const GPU4 = { limits: { 'cpu': '16', 'memory': '64Gi', 'nvidia.com/gpu': 4 } };

const torchRuntime = {
  apiVersion: API,
  kind: 'ClusterTrainingRuntime',
  metadata: { name: 'torch-4gpu' },
  spec: {
    mlPolicy: { numNodes: 2, torch: {} },
    template: {
      spec: {
        replicatedJobs: [
          rJob('dataset-initializer', 'dataset-initializer', { requests: { cpu: '2', memory: '8Gi' } }, { step: 'dataset-initializer' }),
          rJob('node', 'node', GPU4, { step: 'trainer', parallelism: 7 }),
        ],
      },
    },
  },
};

const mpiRuntime = (launcherAsNode: boolean) => ({
  apiVersion: API,
  kind: 'TrainingRuntime',
  metadata: { name: 'mpi', namespace: 'hpc' },
  spec: {
    mlPolicy: { numNodes: 1, mpi: { runLauncherAsNode: launcherAsNode, numProcPerNode: 4 } },
    template: {
      spec: {
        replicatedJobs: [
          rJob('launcher', 'node', { limits: { cpu: '1' } }, { step: 'trainer' }),
          rJob('node', 'node', GPU4),
        ],
      },
    },
  },
});

const job = (namespace: string, runtimeRef: object, trainer: object = {}) => ({
  apiVersion: API, kind: 'TrainJob', metadata: { name: 'train', namespace }, spec: { runtimeRef, trainer },
});

/** Pods per role and the amounts, as the plan's table writes them. */
function demandOf(trainJob: object, runtimes: object[]) {
  const d = trainJobDemand(trainJob, runtimeIndex(runtimes));
  return {
    roles: d.roles.map(([r, n]) => `${r} ${n}`).join(', '),
    pods: d.pods,
    amounts: `${formatAccelerators(d.amounts.accelerators)} | ${formatCpu(d.amounts.milliCpu)} | ${formatBytes(d.amounts.memoryBytes)}`,
    note: d.note,
  };
}

describe('a TrainJob resolved against its runtime', () => {
  test('the trainer step runs the policy\'s numNodes, not its parallelism; an initializer runs its own; Kueue charges both', () => {
    expect(demandOf(job('ml', { name: 'torch-4gpu' }), [torchRuntime])).toEqual({
      roles: 'dataset-initializer 1, node 2', pods: 3, amounts: '8 nvidia.com/gpu | 34 | 136Gi', note: undefined,
    });
  });

  test('the job\'s numNodes replaces the runtime\'s; its resourcesPerNode is merged key by key into the node container', () => {
    const trainer = { numNodes: 4, resourcesPerNode: { limits: { 'nvidia.com/gpu': 8, 'memory': '128Gi' } } };
    // cpu 16 stays from the runtime; memory and GPUs come from the job.
    expect(demandOf(job('ml', { name: 'torch-4gpu', kind: 'ClusterTrainingRuntime' }, trainer), [torchRuntime])).toEqual({
      roles: 'dataset-initializer 1, node 4', pods: 5, amounts: '32 nvidia.com/gpu | 66 | 520Gi', note: undefined,
    });
  });

  test('MPI: numNodes sets the node job, one less when the launcher runs as a node; the launcher keeps the policy\'s count', () => {
    const ref = { name: 'mpi', kind: 'TrainingRuntime' };
    expect(demandOf(job('hpc', ref, { numNodes: 3 }), [mpiRuntime(false)]).roles).toBe('launcher 1, node 3');
    expect(demandOf(job('hpc', ref, { numNodes: 3 }), [mpiRuntime(true)]).roles).toBe('launcher 1, node 2');
    expect(demandOf(job('hpc', ref, { numNodes: 1 }), [mpiRuntime(true)]).roles).toBe('launcher 1, node 1');
    // With the launcher as a node, the job's resources reach the launcher (the trainer step) and the nodes.
    const resources = { numNodes: 3, resourcesPerNode: { limits: { 'nvidia.com/gpu': 8 } } };
    expect(demandOf(job('hpc', ref, resources), [mpiRuntime(true)]).amounts).toBe('24 nvidia.com/gpu | 33 | 128Gi');
  });

  test('a replicated job with replicas runs replicas x parallelism pods', () => {
    const runtime = {
      ...torchRuntime,
      spec: {
        ...torchRuntime.spec,
        template: {
          spec: {
            replicatedJobs: [
              rJob('node', 'node', GPU4, { step: 'trainer' }), rJob('cache', 'cache', { limits: { cpu: '1' } }, { replicas: 2, parallelism: 3 }),
            ],
          },
        },
      },
    };
    expect(demandOf(job('ml', { name: 'torch-4gpu' }), [runtime]).roles).toBe('node 2, cache 6');
  });

  test('a runtime that is not in the input: only the job\'s own fields are counted, and the plan says so', () => {
    expect(demandOf(job('ml', { name: 'in-house' }, { numNodes: 2, resourcesPerNode: { limits: { 'nvidia.com/gpu': 4 } } }), [])).toEqual({
      roles: 'node 2',
      pods: 2,
      amounts: '8 nvidia.com/gpu | 0 | 0',
      note: 'runtime ClusterTrainingRuntime in-house is not in the input: counted 2 node pods with the job\'s trainer.resourcesPerNode only',
    });
    // A namespaced runtime is looked up in the job's own namespace.
    expect(demandOf(job('other', { name: 'mpi', kind: 'TrainingRuntime' }), [mpiRuntime(false)]).note)
      .toBe('runtime TrainingRuntime other/mpi is not in the input: counted 1 node pod with the job\'s trainer.resourcesPerNode only');
  });

  test('a built-in runtime the input lacks is counted as the Trainer ships it: its initializers and its own requests too', () => {
    // torchtune-llama3.2-1b: a dataset and a model initializer, and a node of 2 GPUs that the job's CPU and memory join.
    expect(demandOf(job('ml', { name: 'torchtune-llama3.2-1b' }, { resourcesPerNode: { requests: { cpu: '8', memory: '64Gi' } } }), [])).toEqual({
      roles: 'dataset-initializer 1, model-initializer 1, node 1',
      pods: 3,
      amounts: '2 nvidia.com/gpu | 8 | 64Gi',
      note: 'runtime ClusterTrainingRuntime torchtune-llama3.2-1b is not in the input: counted as the one built into Trainer v2.3.0',
    });
    // A runtime of the input with a built-in name is the input's.
    const own = { ...torchRuntime, metadata: { name: 'torch-distributed' } };
    expect(demandOf(job('ml', { name: 'torch-distributed' }), [own])).toEqual({ roles: 'dataset-initializer 1, node 2', pods: 3, amounts: '8 nvidia.com/gpu | 34 | 136Gi', note: undefined });
  });
});

describe('plan --against with TrainJobs', () => {
  const dump = (docs: object[]) => docs.map(d => yaml.dump(d)).join('---\n');

  test('a runtime that grows changes every job on it, although the job documents are the same', () => {
    const before = dump([torchRuntime, job('ml', { name: 'torch-4gpu' })]);
    const bigger = { ...torchRuntime, spec: { ...torchRuntime.spec, mlPolicy: { numNodes: 8, torch: {} } } };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'train-job-plan-'));
    fs.writeFileSync(path.join(dir, 'before.yaml'), before);
    const result = runCli(['plan', '-', '--against', path.join(dir, 'before.yaml')], dump([bigger, job('ml', { name: 'torch-4gpu' })]));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(result.stdout.split('\n').slice(0, 7)).toEqual([
      '## Change: 0 added, 0 removed, 1 changed',
      '',
      '| Change | Job | Kind | Queue | Pods | Accelerators | CPU | Memory |',
      '|---|---|---|---|---|---|---|---|',
      '| changed | ml/train | TrainJob | (none) | dataset-initializer 1, node 2 -> dataset-initializer 1, node 8 | +24 nvidia.com/gpu | +96 | +384Gi |',
      '',
      'Changed jobs show the difference in accelerators, CPU and memory.',
    ]);
    expect(result.status).toBe(0);
  });
});
