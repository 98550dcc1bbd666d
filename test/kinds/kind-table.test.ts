/**
 * The kind table (src/kinds/) against what it stands for: each row's API version and kind are its
 * L1 class's and a pinned CRD's, its L2 is an export of the package, and the tables derived from
 * it are the ones written by hand before it (replica keys, the operator's defaults, the Kueue
 * lists, convert's kinds).
 */
import * as kf from '../../src';
import { OPERATOR_DEFAULTS } from '../../src/cli/convert/convert-v1-defaults';
import { V1_KINDS } from '../../src/cli/convert/convert-v1-kinds';
import { apiVersionOf, apiVersionsOf, isDocumentOf, isKueueQueued } from '../../src/kinds/kind';
import { KINDS, KUEUE_QUEUED_KINDS, kindOf } from '../../src/kinds/kind-table';
import { JAX_JOB, MPI_JOB, V1_JOBS } from '../../src/kinds/training-operator';
import { TRAINING_JOB_REPLICA_KEYS } from '../../src/rules/kubernetes/replica-keys';
import { kindSchema } from '../../src/rules/schema';
import { TRAINING_KINDS } from '../../src/rules/training-operator/training-kinds';

/* eslint-disable @typescript-eslint/no-require-imports */
const L1_MODULES: { [module: string]: any } = {
  kubeflow: require('../../imports/kubeflow'),
  trainer: require('../../imports/trainer'),
  notebooks: require('../../imports/notebooks'),
  kueue: require('../../imports/kueue'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

test('every kind is declared once', () => {
  const names = KINDS.map(k => `${k.group} ${k.kind}`);
  expect(new Set(names).size).toBe(names.length);
  expect(KINDS.map(k => k.kind)).toEqual([
    'PyTorchJob', 'TFJob', 'MPIJob', 'XGBoostJob', 'PaddleJob', 'JAXJob', 'MXJob',
    'WorkspaceKind', 'Workspace',
    'TrainingRuntime', 'ClusterTrainingRuntime', 'TrainJob',
    'ResourceFlavor', 'ClusterQueue', 'Cohort', 'LocalQueue', 'WorkloadPriorityClass', 'Topology',
  ]);
});

test.each(KINDS.map(k => [k.kind, k] as const))('%s: its L1 class writes its apiVersion and kind, and each version it reads has a pinned schema', (_, facts) => {
  const l1 = L1_MODULES[facts.l1!.module][facts.l1!.className];
  expect(l1.GVK).toEqual({ apiVersion: apiVersionOf(facts), kind: facts.kind });
  for (const apiVersion of apiVersionsOf(facts)) expect(kindSchema(apiVersion, facts.kind)).toBeDefined();
});

test.each(KINDS.filter(k => k.l2 !== undefined).map(k => [k.kind, k.l2!] as const))('%s: its L2 %s is a class the package exports', (_, l2) => {
  expect(typeof (kf as any)[l2]).toBe('function');
});

test('a document is found by any version the library reads, and only by those', () => {
  expect(kindOf({ apiVersion: 'kueue.x-k8s.io/v1beta1', kind: 'ClusterQueue' })?.l2).toBe('ClusterQueue');
  expect(kindOf({ apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'Topology' })?.l2).toBe('KueueTopology');
  expect(kindOf({ apiVersion: 'kueue.x-k8s.io/v1alpha1', kind: 'ClusterQueue' })).toBeUndefined();
  expect(kindOf({ apiVersion: 'kubeflow.org/v1', kind: 'JAXJob' })).toBe(JAX_JOB);
  expect(kindOf({ apiVersion: 'kubeflow.org/v1beta1', kind: 'JAXJob' })).toBeUndefined();
  expect(isDocumentOf({ apiVersion: 'kubeflow.org/v1', kind: 'MPIJob' }, MPI_JOB)).toBe(true);
  expect(isDocumentOf({ apiVersion: 'kubeflow.org/v2beta1', kind: 'MPIJob' }, MPI_JOB)).toBe(false);
});

test('the replica keys are the ones the v1 jobs\' CRDs declare', () => {
  expect(TRAINING_JOB_REPLICA_KEYS).toEqual({
    PyTorchJob: 'pytorchReplicaSpecs',
    TFJob: 'tfReplicaSpecs',
    MPIJob: 'mpiReplicaSpecs',
    XGBoostJob: 'xgbReplicaSpecs',
    PaddleJob: 'paddleReplicaSpecs',
    JAXJob: 'jaxReplicaSpecs',
    MXJob: 'mxReplicaSpecs',
  });
  for (const job of V1_JOBS) {
    const l1 = L1_MODULES.kubeflow[job.l1!.className];
    expect(Object.keys(l1.manifest({ spec: { [job.replicaKey]: {} } }).spec)).toEqual([job.replicaKey]);
  }
});

test('Kueue queues the v1 jobs of its kubeflow integration and the TrainJob; not the v1 MPIJob nor the MXJob', () => {
  expect(KUEUE_QUEUED_KINDS.map(k => `${apiVersionOf(k)} ${k.kind}`)).toEqual([
    'kubeflow.org/v1 PyTorchJob', 'kubeflow.org/v1 TFJob', 'kubeflow.org/v1 XGBoostJob', 'kubeflow.org/v1 PaddleJob', 'kubeflow.org/v1 JAXJob',
    'trainer.kubeflow.org/v1alpha1 TrainJob',
  ]);
  expect(V1_JOBS.filter(k => !isKueueQueued(k)).map(k => k.kind)).toEqual(['MPIJob', 'MXJob']);
});

test('the operator\'s facts and defaults derived for the rules and convert', () => {
  expect(TRAINING_KINDS.MPIJob).toEqual({
    kind: 'MPIJob', replicaKey: 'mpiReplicaSpecs', replicaTypes: ['Launcher', 'Worker'], injectedEnv: MPI_JOB.injectedEnv, envTarget: 'launcher',
  });
  expect(TRAINING_KINDS.JAXJob.container).toBe('jax');
  expect(OPERATOR_DEFAULTS).toEqual({
    PyTorchJob: { containerName: 'pytorch', port: { name: 'pytorchjob-port', number: 23456 }, restartPolicy: 'OnFailure' },
    TFJob: { containerName: 'tensorflow', port: { name: 'tfjob-port', number: 2222 }, restartPolicy: 'Never' },
    MPIJob: { containerName: 'mpi', restartPolicy: 'Never', replicas: { Worker: 0 } },
    XGBoostJob: { containerName: 'xgboost', port: { name: 'xgboostjob-port', number: 9999 }, restartPolicy: 'Never' },
    PaddleJob: { containerName: 'paddle', port: { name: 'master', number: 36543 }, restartPolicy: 'OnFailure' },
    JAXJob: { containerName: 'jax', port: { name: 'jaxjob-port', number: 6666 }, restartPolicy: 'Never' },
  });
  expect(Object.fromEntries(Object.entries(V1_KINDS).map(([kind, k]) => [kind, [k.construct, k.queueable]]))).toEqual({
    PyTorchJob: ['DistributedPyTorch', true],
    TFJob: ['ParameterServerTF', true],
    MPIJob: ['MpiAllReduce', false],
    XGBoostJob: ['DistributedXGBoost', true],
    PaddleJob: ['DistributedPaddle', true],
    JAXJob: ['DistributedJax', true],
  });
  expect(V1_KINDS.TFJob.cleansRunningPods(['Worker'])).toBe(false);
  expect(V1_KINDS.TFJob.cleansRunningPods(['PS', 'Worker'])).toBe(true);
  expect(V1_KINDS.MPIJob.cleansRunningPods([])).toBe(true);
  expect(V1_KINDS.PyTorchJob.cleansRunningPods(['Master', 'Worker'])).toBe(false);
});

// The modules are required inside isolateModules, after the row is added, so that they derive their tables from it.
/* eslint-disable @typescript-eslint/no-require-imports */
test('a new v1 job kind is one row: every table derived from the kind table has it', () => {
  jest.isolateModules(() => {
    const actual = jest.requireActual('../../src/kinds/training-operator');
    const row = {
      ...actual.JAX_JOB,
      kind: 'FooJob',
      l2: 'DistributedFoo',
      replicaKey: 'fooReplicaSpecs',
      replicaTypes: ['Worker'],
      container: 'foo',
      port: { name: 'foojob-port', number: 7777 },
    };
    jest.doMock('../../src/kinds/training-operator', () => ({ ...actual, V1_JOBS: [...actual.V1_JOBS, row] }));
    const job = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'FooJob',
      metadata: { name: 'foo', labels: { 'kueue.x-k8s.io/queue-name': 'Not_A_Queue' } },
      spec: { fooReplicaSpecs: { Worker: { replicas: 2, template: { metadata: { annotations: { 'kueue.x-k8s.io/podset-slice-size': '3' } }, spec: {} } } } },
    };
    expect(require('../../src/rules/kubernetes/replica-keys').TRAINING_JOB_REPLICA_KEYS.FooJob).toBe('fooReplicaSpecs');
    expect(require('../../src/rules/training-operator/training-kinds').trainingKindOf(job)?.container).toBe('foo');
    expect(require('../../src/rules/kubernetes/documents').documentKind(job)?.podTemplates).toEqual(['spec.fooReplicaSpecs.*.template']);
    expect(require('../../src/rules/kueue/capacity-podsets').kueuePodSets(job, new Map())?.podSets.map((p: any) => [p.name, p.count])).toEqual([['Worker', 2]]);
    const queueNames: any[] = [];
    require('../../src/rules/kueue/queue-name').kueueQueueNames([{ path: 'c/foo', doc: job }], queueNames);
    expect(queueNames.map(f => f.finding.value)).toEqual(['Not_A_Queue']);
    const slices: any[] = [];
    require('../../src/rules/kueue/topology-slices').checkReplicaSlices('FooJob', job.spec.fooReplicaSpecs, 'spec.fooReplicaSpecs', slices);
    expect(slices.map(f => f.value)).toEqual(['3']);
    expect(require('../../src/cli/convert/convert-v1-kinds').V1_KINDS.FooJob).toMatchObject({ construct: 'DistributedFoo', queueable: true });
    expect(require('../../src/cli/convert/convert-v1-defaults').OPERATOR_DEFAULTS.FooJob)
      .toEqual({ containerName: 'foo', port: { name: 'foojob-port', number: 7777 }, restartPolicy: 'Never' });
    const { propForField } = require('../../src/common/internal/prop-fields');
    expect(propForField('spec.fooReplicaSpecs.Worker.template.spec.containers[foo].image', { worker: { image: 'x' } }, 'FooJob')).toBe('worker.image');
  });
});
/* eslint-enable @typescript-eslint/no-require-imports */
