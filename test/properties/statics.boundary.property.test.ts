/**
 * The static factories (accelerators, enum-like `of()`, platform defaults, workspace claims, spawner
 * images, activity probes), one argument at a time set to an arbitrary value and the result used in
 * a construct: the library's own error, or a manifest for a value of the right type.
 */
import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { PROPERTY_RUNS, StaticCase, staticsProperty } from './boundary-arbitraries';
import {
  Accelerator, ClusterQueue, ClusterTrainingRuntime, Cohort, DistributedPaddle, DistributedPyTorch, MlPolicy, Nccl, ParameterServerTF, ResourceFlavor,
  TrainJob, Workspace, WorkspaceKind,
} from '../../src';
import { CLASSES } from '../../src/boundary/schema.generated';
import { JUPYTERLAB_KIND as KIND_PROPS } from '../harness/notebook-fixtures';

const IMAGE = 'registry.example.com/train:1.0';
const job = (chart: Chart, props: object) => new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
const kind = (chart: Chart, props: object = {}) => {
  const k = new WorkspaceKind(chart, 'kind', { ...KIND_PROPS, ...props });
  k.addImageConfig('scipy', { image: 'quay.io/jupyter/scipy-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] });
  k.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  return k;
};
const workspace = (chart: Chart, props: object) => new Workspace(chart, 'ws', {
  metadata: { name: 'alice' }, kind: WorkspaceKind.fromName('jupyterlab'), imageConfig: 'scipy', podConfig: 'small', ...props,
});
const runtime = (chart: Chart, props: object) => new ClusterTrainingRuntime(chart, 'rt', { mlPolicy: MlPolicy.torch(), image: IMAGE, ...props } as any);
const accelerator = (chart: Chart, a: unknown) => job(chart, { resources: { accelerator: a } });
// A quota in a ClusterQueue of a cohort (so that its borrowing and lending limits may be set).
const quota = (chart: Chart, q: unknown) => new ClusterQueue(chart, 'job', {
  cohort: Cohort.fromName('gpus'), resourceGroups: [{ flavors: [{ flavor: new ResourceFlavor(chart, 'flavor'), quotas: [q as any] }] }],
});

const CASES: StaticCase[] = [
  { cls: 'Accelerator', method: 'nvidia', args: () => [1], use: accelerator },
  { cls: 'Accelerator', method: 'amd', args: () => [1], use: accelerator },
  { cls: 'Accelerator', method: 'intel', args: () => [1], use: accelerator },
  { cls: 'Accelerator', method: 'custom', args: () => ['habana.ai/gaudi', 1], use: accelerator },
  { cls: 'CleanPodPolicy', method: 'of', args: () => ['Running'], use: (c, p) => job(c, { runPolicy: { cleanPodPolicy: p } }) },
  { cls: 'RestartPolicy', method: 'of', args: () => ['OnFailure'], use: (c, p) => job(c, { restartPolicy: p }) },
  { cls: 'GangScheduler', method: 'of', args: () => ['volcano'], use: (c, s) => job(c, { gangScheduling: { scheduler: s } }) },
  { cls: 'NprocPerNode', method: 'of', args: () => [2], use: (c, n) => job(c, { nprocPerNode: n }) },
  { cls: 'PlatformDefaults', method: 'set', args: c => [c, { queue: 'research' }], use: c => job(c, {}) },
  { cls: 'PlatformDefaults', method: 'of', args: c => [c], use: c => job(c, {}) },
  { cls: 'Topology', method: 'required', args: () => ['cloud.provider.com/topology-block', {}], use: (c, topology) => job(c, { topology, queue: 'research' }) },
  { cls: 'Topology', method: 'preferred', args: () => ['cloud.provider.com/topology-rack', {}], use: (c, topology) => job(c, { topology, queue: 'research' }) },
  { cls: 'Topology', method: 'unconstrained', args: () => [], use: (c, topology) => job(c, { topology, queue: 'research' }) },
  { cls: 'Topology', method: 'kai', args: () => [{ topologyName: 'cluster-topology', requiredLevel: 'cloud.provider.com/topology-block' }], use: (c, topology) => job(c, { topology }) },
  { cls: 'RdmaDevice', method: 'of', args: () => ['rdma/hca'], use: (c, rdmaDevice) => job(c, { network: { rdmaDevice } }) },
  { cls: 'Nccl', method: 'infiniband', args: () => [{}], use: (c, nccl) => job(c, { network: { nccl } }) },
  { cls: 'Nccl', method: 'roce', args: () => [{}], use: (c, nccl) => job(c, { network: { nccl } }) },
  { cls: 'NodeHealth', method: 'labelNotIn', args: () => ['example.com/health', ['ERR']], use: (c, h) => job(c, { nodeHealth: [h] }) },
  { cls: 'NodeHealth', method: 'avoidHosts', args: () => [['node-7']], use: (c, h) => job(c, { nodeHealth: [h] }) },
  { cls: 'MlPolicy', method: 'torch', args: () => [], use: (c, mlPolicy) => runtime(c, { mlPolicy }) },
  { cls: 'MlPolicy', method: 'mpi', args: () => [{}], use: (c, mlPolicy) => runtime(c, { mlPolicy }) },
  { cls: 'MlPolicy', method: 'jax', args: () => [], use: (c, mlPolicy) => runtime(c, { mlPolicy }) },
  { cls: 'MlPolicy', method: 'xgboost', args: () => [], use: (c, mlPolicy) => runtime(c, { mlPolicy }) },
  { cls: 'MlPolicy', method: 'flux', args: () => [{}], use: (c, mlPolicy) => runtime(c, { mlPolicy }) },
  { cls: 'PodGroupPolicy', method: 'coscheduling', args: () => [{}], use: (c, podGroupPolicy) => runtime(c, { mlPolicy: MlPolicy.torch(), podGroupPolicy }) },
  { cls: 'PodGroupPolicy', method: 'volcano', args: () => [{}], use: (c, podGroupPolicy) => runtime(c, { mlPolicy: MlPolicy.torch(), podGroupPolicy }) },
  { cls: 'TrainingRuntimeRef', method: 'cluster', args: () => ['torch-distributed'], use: (c, ref) => new TrainJob(c, 'tj', { runtime: ref }) },
  { cls: 'TrainingRuntimeRef', method: 'namespaced', args: () => ['torch-team'], use: (c, ref) => new TrainJob(c, 'tj', { runtime: ref }) },
  { cls: 'TrainingRuntimeRef', method: 'providedByCluster', args: () => ['team-torch'], use: (c, ref) => new TrainJob(c, 'tj', { runtime: ref }) },
  { cls: 'TrainingRuntimeRef', method: 'providedInNamespace', args: () => ['team-torch'], use: (c, ref) => new TrainJob(c, 'tj', { runtime: ref }) },
  { cls: 'EscapeHatch', method: 'allowUnknownField', args: c => [job(c, {}).apiObject, '/spec/runPolicy/futurePolicy'], use: () => undefined },
  { cls: 'SpawnerImage', method: 'fromUrl', args: () => ['https://jupyter.org/favicon.png'], use: (c, icon) => kind(c, { icon }) },
  { cls: 'SpawnerImage', method: 'fromConfigMap', args: () => ['icons', 'jupyter.svg', 'kubeflow'], use: (c, icon) => kind(c, { icon }) },
  { cls: 'ActivityProbe', method: 'jupyter', args: () => ['jupyterlab', {}], use: (c, activityProbe) => kind(c, { activityProbe }) },
  { cls: 'ActivityProbe', method: 'script', args: () => ['/usr/local/bin/idle.sh', {}], use: (c, activityProbe) => kind(c, { activityProbe }) },
  { cls: 'WorkspaceClaim', method: 'fromClaimName', args: () => ['alice-home'], use: (c, home) => workspace(c, { home }) },
  { cls: 'WorkspaceClaim', method: 'newClaim', args: () => [{ storage: Size.gibibytes(10) }], use: (c, home) => workspace(c, { home }) },
  {
    cls: 'WorkspaceClaim',
    method: 'fromClaim',
    args: c => [kplus.PersistentVolumeClaim.fromClaimName(c, 'claim', 'alice-home')],
    use: (c, home) => workspace(c, { home }),
  },
  { cls: 'WorkspaceKind', method: 'fromName', args: () => ['jupyterlab'], use: (c, k) => workspace(c, { kind: k }) },
  { cls: 'Cohort', method: 'fromName', args: () => ['gpus'], use: (c, cohort) => new ClusterQueue(c, 'job', { cohort, resourceGroups: [] }) },
  { cls: 'WorkspaceKind', method: 'httpPathPrefix', args: () => ['jupyterlab'], use: () => undefined },
  // The config path: each parse with a known value and no key, the result used where it goes.
  { cls: 'CleanPodPolicy', method: 'parse', args: () => ['Running'], use: (c, p) => job(c, { runPolicy: { cleanPodPolicy: p } }) },
  { cls: 'RestartPolicy', method: 'parse', args: () => ['OnFailure'], use: (c, p) => job(c, { restartPolicy: p }) },
  { cls: 'ManagedBy', method: 'parse', args: () => ['kubeflow.org/training-operator'], use: (c, m) => job(c, { runPolicy: { managedBy: m } }) },
  { cls: 'RdmaDevice', method: 'parse', args: () => ['rdma/hca'], use: (c, rdmaDevice) => job(c, { network: { rdmaDevice } }) },
  { cls: 'NcclDebug', method: 'parse', args: () => ['WARN'], use: (c, debug) => job(c, { network: { nccl: Nccl.infiniband({ debug }) } }) },
  { cls: 'NodeHealth', method: 'parse', args: () => ['autopilot'], use: (c, h) => job(c, { nodeHealth: [h] }) },
  { cls: 'GangScheduler', method: 'parse', args: () => ['volcano'], use: (c, s) => job(c, { gangScheduling: { scheduler: s } }) },
  { cls: 'PodSecurity', method: 'parse', args: () => ['restricted'], use: (c, security) => job(c, { security }) },
  { cls: 'FilterScope', method: 'parse', args: () => ['IMAGE_CONFIG'], use: () => undefined },
  { cls: 'RedirectLevel', method: 'parse', args: () => ['Warning'], use: () => undefined },
  { cls: 'PaddleMode', method: 'parse', args: () => ['Collective'], use: (c, mode) => new DistributedPaddle(c, 'job', { image: IMAGE, mode }) },
  { cls: 'NprocPerNode', method: 'parse', args: () => ['gpu'], use: (c, n) => job(c, { nprocPerNode: n }) },
  {
    cls: 'RendezvousBackend',
    method: 'parse',
    args: () => ['c10d'],
    use: (c, rendezvousBackend) => job(c, { workers: 1, elastic: { minWorkers: 1, maxWorkers: 2, rendezvousBackend } }),
  },
  { cls: 'SuccessPolicy', method: 'parse', args: () => ['AllWorkers'], use: (c, successPolicy) => new ParameterServerTF(c, 'job', { image: IMAGE, successPolicy }) },
  { cls: 'Accelerator', method: 'parse', args: () => ['nvidia', 1], use: accelerator },
  { cls: 'Parse', method: 'size', args: () => ['16Gi'], use: (c, sharedMemory) => job(c, { sharedMemory }) },
  { cls: 'ResourceQuota', method: 'cpu', args: () => [kplus.Cpu.units(8), kplus.Cpu.units(4), kplus.Cpu.units(2)], use: quota },
  { cls: 'ResourceQuota', method: 'memory', args: () => [Size.gibibytes(64), Size.gibibytes(32), Size.gibibytes(16)], use: quota },
  { cls: 'ResourceQuota', method: 'ephemeralStorage', args: () => [Size.gibibytes(64), Size.gibibytes(32), Size.gibibytes(16)], use: quota },
  { cls: 'ResourceQuota', method: 'accelerator', args: () => [Accelerator.nvidia(8), 4, 2], use: quota },
  { cls: 'ResourceQuota', method: 'pods', args: () => [10, 5, 2], use: quota },
  { cls: 'ResourceQuota', method: 'custom', args: () => ['example.com/license', '3', '1', '1'], use: quota },
  { cls: 'PreemptionPolicy', method: 'parse', args: () => ['LowerPriority'], use: (c, p) => new ClusterQueue(c, 'job', { preemption: { withinClusterQueue: p as any }, resourceGroups: [] }) },
  { cls: 'QueueingStrategy', method: 'parse', args: () => ['StrictFIFO'], use: (c, s) => new ClusterQueue(c, 'job', { queueingStrategy: s as any, resourceGroups: [] }) },
  { cls: 'Parse', method: 'duration', args: () => ['1d'], use: (c, ttlAfterFinished) => job(c, { runPolicy: { ttlAfterFinished } }) },
  { cls: 'Parse', method: 'cpu', args: () => ['500m'], use: (c, cpu) => job(c, { resources: { cpu } }) },
  { cls: 'Parse', method: 'count', args: () => ['4', undefined, 1], use: (c, workers) => job(c, { workers }) },
];

test(`static factories: ${PROPERTY_RUNS} arbitrary arguments end in the library's error or a manifest that keeps them`, () => {
  const all = Object.entries(CLASSES).flatMap(([cls, entry]) => Object.keys(entry.statics ?? {}).map(m => `${cls}.${m}`)).sort();
  expect(CASES.map(c => `${c.cls}.${c.method}`).sort()).toEqual(all);
  expect(staticsProperty(CASES, ['test', 'test/job', 'test/kind', 'test/ws', 'test/tj', 'test/claim'])).toBe(30 + 11 + 6 + 45 + 19); // 30: the arguments of the factories above (Cohort.fromName's one among them); 45: the arguments of the parse functions; 19: of ResourceQuota's factories
});
