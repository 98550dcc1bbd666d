/**
 * The static methods the audit calls, each parameter in turn: the factories whose value a prop
 * takes (`ResourceQuota.cpu(nominal, borrowingLimit, lendingLimit)`), and the other statics with
 * parameters. A struct parameter is walked prop by prop where roots.ts gives it; `parse` (and the
 * `Parse` class) read configuration text into the values the constants and factories give, tested
 * in test/config/, and are not walked. For each static: the minimal arguments, and where its value goes.
 */
import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { workspace, workspaceKind } from './roots';
import * as lib from '../../../src';

const IMAGE = 'registry.example.com/train:1.0';

export interface StaticCall {
  /** The arguments that make the baseline value (required ones only, unless the call needs more). */
  args(chart: Chart): unknown[];
  /** Calls the static with `args` and gives its value to a construct. */
  run(chart: Chart, args: unknown[]): void;
}

const call = (owner: any, method: string, args: unknown[]) => owner[method](...args);
/** A kind with a second port, for a port id to name. */
const TWO_PORTS = { ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }, { id: 'code', displayName: 'Code' }] };
const job = (chart: Chart, props: Partial<lib.DistributedPyTorchProps>) =>
  new lib.DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
/** A ClusterQueue in a cohort (a lending limit needs one), with one quota. */
const queueWith = (chart: Chart, quota: lib.ResourceQuota) => new lib.ClusterQueue(chart, 'cluster-queue', {
  metadata: { name: 'team' },
  cohort: lib.Cohort.fromName('org'),
  resourceGroups: [{ flavors: [{ flavor: new lib.ResourceFlavor(chart, 'flavor', { metadata: { name: 'default-flavor' } }), quotas: [quota] }] }],
});

const accelerator = (method: string, args: (chart: Chart) => unknown[]): StaticCall => ({
  args, run: (chart, a) => job(chart, { resources: { accelerator: call(lib.Accelerator, method, a) } }),
});
const quota = (method: string, args: (chart: Chart) => unknown[]): StaticCall => ({
  args, run: (chart, a) => queueWith(chart, call(lib.ResourceQuota, method, a)),
});
/** A TrainJob naming a runtime of the app (two of each kind are there) or one the Trainer ships. */
const runtimeRef = (method: string, name: string): StaticCall => ({
  args: () => [name],
  run: (chart, a) => {
    for (const id of ['torch-a', 'torch-b']) {
      new lib.ClusterTrainingRuntime(chart, `cluster-${id}`, { metadata: { name: id }, mlPolicy: lib.MlPolicy.torch(), image: IMAGE });
      new lib.TrainingRuntime(chart, `namespaced-${id}`, { metadata: { name: id }, mlPolicy: lib.MlPolicy.torch(), image: IMAGE });
    }
    new lib.TrainJob(chart, 'train-job', { metadata: { name: 'train' }, runtime: call(lib.TrainingRuntimeRef, method, a) });
  },
});
const topology = (method: string): StaticCall => ({
  args: () => ['cloud.provider.com/topology-block'],
  run: (chart, a) => job(chart, { queue: 'team', workers: 4, worker: { topology: call(lib.Topology, method, a) } }),
});

export const STATICS: { [method: string]: StaticCall } = {
  'Accelerator.amd': accelerator('amd', () => [1]),
  'Accelerator.intel': accelerator('intel', () => [1]),
  'Accelerator.nvidia': accelerator('nvidia', () => [1]),
  'Accelerator.custom': accelerator('custom', () => ['habana.ai/gaudi', 1]),
  'ActivityProbe.jupyter': { args: () => ['jupyterlab'], run: (chart, a) => workspaceKind(chart, { ...TWO_PORTS, activityProbe: call(lib.ActivityProbe, 'jupyter', a) }) },
  'ActivityProbe.script': {
    args: () => ['#!/bin/sh\ntest -f /tmp/idle'],
    run: (chart, a) => workspaceKind(chart, { activityProbe: call(lib.ActivityProbe, 'script', a) }),
  },
  'CleanPodPolicy.of': { args: () => ['Running'], run: (chart, a) => job(chart, { runPolicy: { cleanPodPolicy: call(lib.CleanPodPolicy, 'of', a) } }) },
  'Cohort.fromName': {
    args: () => ['org'],
    run: (chart, a) => new lib.ClusterQueue(chart, 'cluster-queue', { metadata: { name: 'team' }, cohort: call(lib.Cohort, 'fromName', a), resourceGroups: [] }),
  },
  'EscapeHatch.allowUnknownField': {
    args: () => [undefined, '/spec/runPolicy/auditField'],
    run: (chart, a) => {
      const made = job(chart, {});
      lib.EscapeHatch.allowUnknownField((a[0] ?? made.apiObject) as any, a[1] as string);
    },
  },
  'GangScheduler.of': { args: () => ['volcano'], run: (chart, a) => job(chart, { gangScheduling: { scheduler: call(lib.GangScheduler, 'of', a) } }) },
  'NodeHealth.avoidHosts': { args: () => [['node-1']], run: (chart, a) => job(chart, { nodeHealth: [call(lib.NodeHealth, 'avoidHosts', a)] }) },
  'NodeHealth.labelNotIn': { args: () => ['example.com/health', ['bad']], run: (chart, a) => job(chart, { nodeHealth: [call(lib.NodeHealth, 'labelNotIn', a)] }) },
  'NprocPerNode.of': { args: () => [1], run: (chart, a) => job(chart, { nprocPerNode: call(lib.NprocPerNode, 'of', a) }) },
  'PlatformDefaults.of': {
    args: chart => [chart],
    run: (chart, a) => {
      job(chart, {});
      lib.PlatformDefaults.of(a[0] as Chart);
    },
  },
  'RdmaDevice.of': { args: () => ['rdma/hca'], run: (chart, a) => job(chart, { network: { rdmaDevice: call(lib.RdmaDevice, 'of', a) } }) },
  'ResourceQuota.accelerator': quota('accelerator', () => [lib.Accelerator.nvidia(8)]),
  'ResourceQuota.cpu': quota('cpu', () => [kplus.Cpu.units(8)]),
  'ResourceQuota.custom': quota('custom', () => ['example.com/licence', '4']),
  'ResourceQuota.ephemeralStorage': quota('ephemeralStorage', () => [Size.gibibytes(100)]),
  'ResourceQuota.memory': quota('memory', () => [Size.gibibytes(64)]),
  'ResourceQuota.pods': quota('pods', () => [10]),
  'RestartPolicy.of': { args: () => ['OnFailure'], run: (chart, a) => job(chart, { restartPolicy: call(lib.RestartPolicy, 'of', a) }) },
  'SpawnerImage.fromConfigMap': {
    args: () => ['logos', 'jupyter.svg', 'kubeflow'],
    run: (chart, a) => workspaceKind(chart, { icon: call(lib.SpawnerImage, 'fromConfigMap', a) }),
  },
  'SpawnerImage.fromUrl': { args: () => ['https://jupyter.org/favicon.png'], run: (chart, a) => workspaceKind(chart, { icon: call(lib.SpawnerImage, 'fromUrl', a) }) },
  'Topology.preferred': topology('preferred'),
  'Topology.required': topology('required'),
  'TrainingRuntimeRef.cluster': runtimeRef('cluster', 'torch-a'),
  'TrainingRuntimeRef.namespaced': runtimeRef('namespaced', 'torch-a'),
  'TrainingRuntimeRef.providedByCluster': runtimeRef('providedByCluster', 'torch-distributed'),
  'TrainingRuntimeRef.providedInNamespace': runtimeRef('providedInNamespace', 'torch-distributed'),
  'WorkspaceClaim.fromClaim': {
    args: chart => [kplus.PersistentVolumeClaim.fromClaimName(chart, 'home-claim', 'home')],
    run: (chart, a) => workspace(chart, { home: call(lib.WorkspaceClaim, 'fromClaim', a) }),
  },
  'WorkspaceClaim.fromClaimName': { args: () => ['home'], run: (chart, a) => workspace(chart, { home: call(lib.WorkspaceClaim, 'fromClaimName', a) }) },
  'WorkspaceKind.fromName': {
    args: () => ['jupyterlab'],
    run: (chart, a) => new lib.Workspace(chart, 'workspace', { kind: call(lib.WorkspaceKind, 'fromName', a), imageConfig: 'scipy', podConfig: 'small' }),
  },
  'WorkspaceKind.httpPathPrefix': {
    args: () => ['jupyterlab'],
    run: (chart, a) => workspaceKind(chart, { ...TWO_PORTS, env: { NB_PREFIX: kplus.EnvValue.fromValue(call(lib.WorkspaceKind, 'httpPathPrefix', a)) } }),
  },
};

/** A value for each static's parameter, by `Class.method.param`, where its type's sample would not do. */
export const BY_PARAM: { [param: string]: (chart: Chart) => unknown } = {
  'Accelerator.custom.resourceName': () => 'example.com/tpu',
  'ActivityProbe.jupyter.portId': () => 'code',
  'ActivityProbe.script.script': () => '#!/bin/sh\ntest -f /tmp/busy',
  'CleanPodPolicy.of.value': () => 'All',
  'Cohort.fromName.name': () => 'audit',
  // Another job's object: the field is allowed there instead.
  'EscapeHatch.allowUnknownField.apiObject': chart => new lib.DistributedXGBoost(chart, 'other', { metadata: { name: 'other' }, image: IMAGE }).apiObject,
  'EscapeHatch.allowUnknownField.pointer': () => '/spec/runPolicy/otherField',
  'GangScheduler.of.schedulerName': () => 'scheduler-plugins-scheduler',
  'NodeHealth.avoidHosts.hostnames': () => ['node-2'],
  'NodeHealth.labelNotIn.labelKey': () => 'example.com/state',
  'NodeHealth.labelNotIn.values': () => ['broken'],
  'NprocPerNode.of.processes': () => 2,
  'PlatformDefaults.of.construct': chart => chart.node.root,
  'RdmaDevice.of.resourceName': () => 'rdma/roce_gdr',
  'ResourceQuota.accelerator.nominal': () => lib.Accelerator.nvidia(16),
  'ResourceQuota.accelerator.borrowingLimit': () => 4,
  'ResourceQuota.accelerator.lendingLimit': () => 2,
  'ResourceQuota.cpu.nominal': () => kplus.Cpu.units(16),
  'ResourceQuota.cpu.borrowingLimit': () => kplus.Cpu.units(4),
  'ResourceQuota.cpu.lendingLimit': () => kplus.Cpu.units(2),
  'ResourceQuota.custom.resourceName': () => 'example.com/seat',
  'ResourceQuota.custom.nominal': () => '8',
  'ResourceQuota.custom.borrowingLimit': () => '2',
  'ResourceQuota.custom.lendingLimit': () => '1',
  'ResourceQuota.ephemeralStorage.nominal': () => Size.gibibytes(200),
  'ResourceQuota.ephemeralStorage.borrowingLimit': () => Size.gibibytes(50),
  'ResourceQuota.ephemeralStorage.lendingLimit': () => Size.gibibytes(20),
  'ResourceQuota.memory.nominal': () => Size.gibibytes(128),
  'ResourceQuota.memory.borrowingLimit': () => Size.gibibytes(16),
  'ResourceQuota.memory.lendingLimit': () => Size.gibibytes(8),
  'ResourceQuota.pods.nominal': () => 20,
  'ResourceQuota.pods.borrowingLimit': () => 4,
  'ResourceQuota.pods.lendingLimit': () => 2,
  'RestartPolicy.of.value': () => 'Never',
  'SpawnerImage.fromConfigMap.name': () => 'icons',
  'SpawnerImage.fromConfigMap.key': () => 'lab.svg',
  'SpawnerImage.fromConfigMap.namespace': () => 'kubeflow-system',
  'SpawnerImage.fromUrl.url': () => 'https://example.com/lab.png',
  'Topology.preferred.level': () => 'cloud.provider.com/topology-rack',
  'Topology.required.level': () => 'cloud.provider.com/topology-rack',
  'TrainingRuntimeRef.cluster.name': () => 'torch-b',
  'TrainingRuntimeRef.namespaced.name': () => 'torch-b',
  'TrainingRuntimeRef.providedByCluster.name': () => 'deepspeed-distributed',
  'TrainingRuntimeRef.providedInNamespace.name': () => 'deepspeed-distributed',
  'WorkspaceClaim.fromClaim.claim': chart => kplus.PersistentVolumeClaim.fromClaimName(chart, 'audit-claim', 'audit-home'),
  'WorkspaceClaim.fromClaimName.claimName': () => 'audit-home',
  'WorkspaceKind.fromName.name': () => 'vscode',
  'WorkspaceKind.httpPathPrefix.portId': () => 'code',
};
