/**
 * Where the audit gives each struct and calls each method: one root per public construct (its
 * props struct, built with the fewest props it takes), one per struct that only a static factory
 * or a method takes (the factory's or the method's options), and the platform defaults over a
 * chart with one object of each family. A root's `build` makes the object with `props` spread over
 * its minimal ones and returns the construct whose methods the audit calls (if it has any).
 */
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as lib from '../../../src';

const IMAGE = 'registry.example.com/train:1.0';
const NOTEBOOK_IMAGE = 'quay.io/jupyter/scipy-notebook:2025-01-06';

export interface Root {
  /** How the audit names the root's members: `DistributedPyTorch: master.image`. */
  readonly name: string;
  /** The struct the root is given. */
  readonly struct: string;
  /** Builds the object with `props` over the minimal ones; returns the construct whose methods are walked. */
  build(chart: Chart, props: any): any;
}

/** The props a WorkspaceKind needs to synthesize: one port, one image serving it, one pod config. */
const KIND: lib.WorkspaceKindProps = {
  metadata: { name: 'jupyterlab' },
  displayName: 'JupyterLab',
  description: 'JupyterLab in a pod',
  icon: lib.SpawnerImage.fromUrl('https://jupyter.org/favicon.png'),
  ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }],
};

/** A minimal valid WorkspaceKind, `props` spread over it, with two images and two pod configs (a redirect needs another option). */
export function workspaceKind(chart: Chart, props: Partial<lib.WorkspaceKindProps> = {}): lib.WorkspaceKind {
  const kind = new lib.WorkspaceKind(chart, 'kind', { ...KIND, ...props });
  kind.addImageConfig('scipy', { image: NOTEBOOK_IMAGE, ports: [{ id: 'jupyterlab', port: 8888 }] });
  kind.addImageConfig('base', { image: 'quay.io/jupyter/base-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] });
  kind.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  kind.addPodConfig('medium', { requests: { cpu: kplus.Cpu.units(1), memory: Size.gibibytes(2) } });
  return kind;
}

/** A Workspace of that kind, `props` spread over the minimal ones. */
export function workspace(chart: Chart, props: Partial<lib.WorkspaceProps> = {}): lib.Workspace {
  const kind = workspaceKind(chart);
  return new lib.Workspace(chart, 'workspace', { kind, imageConfig: 'scipy', podConfig: 'small', ...props });
}

function flavor(chart: Chart): lib.ResourceFlavor {
  return new lib.ResourceFlavor(chart, 'flavor', { metadata: { name: 'default-flavor' } });
}

function clusterQueue(chart: Chart, props: Partial<lib.ClusterQueueProps> = {}): lib.ClusterQueue {
  const resourceGroups = [{ flavors: [{ flavor: flavor(chart), quotas: [lib.ResourceQuota.cpu(kplus.Cpu.units(8))] }] }];
  return new lib.ClusterQueue(chart, 'cluster-queue', { metadata: { name: 'team' }, resourceGroups, ...props });
}

const v1Job = (name: string, make: (chart: Chart, id: string, props: any) => unknown): Root => ({
  name, struct: `${name}Props`, build: (chart, props) => make(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props }),
});

const runtime = (name: string, make: (chart: Chart, props: any) => unknown): Root => ({
  name,
  struct: 'TrainingRuntimeProps',
  build: (chart, props) => make(chart, { metadata: { name: 'torch-audit' }, mlPolicy: lib.MlPolicy.torch(), image: IMAGE, ...props }),
});

/** A runtime given `props` through the factory of one of its policies. */
const runtimeWith = (name: string, struct: string, props: (options: any) => Partial<lib.TrainingRuntimeProps>): Root => ({
  name,
  struct,
  build: (chart, options) => new lib.TrainingRuntime(chart, 'runtime', { metadata: { name: 'audit' }, mlPolicy: lib.MlPolicy.torch(), image: IMAGE, ...props(options) }),
});

/** A WorkspaceKind given `props` through one of its `add*` methods or factories. */
type KindProps = (options: any) => Partial<lib.WorkspaceKindProps>;
type KindApply = (kind: lib.WorkspaceKind, props: any, chart: Chart) => void;
const kindWith = (name: string, struct: string, apply: KindApply, props: KindProps = () => ({})): Root => ({
  name,
  struct,
  build: (chart, options) => {
    const kind = workspaceKind(chart, props(options));
    apply(kind, options, chart);
    return kind;
  },
});

/**
 * A queued PyTorch job given `options` through `Topology.required`, on its workers (the Master's
 * one pod takes no slice of two), and on the Master too for a podset group (a group has two roles).
 */
const jobWithTopology = (name: string, struct: string, topology: (options: any) => lib.Topology): Root => ({
  name,
  struct,
  build: (chart, options) => new lib.DistributedPyTorch(chart, 'job', {
    metadata: { name: 'train' },
    image: IMAGE,
    queue: 'team',
    workers: 4,
    worker: { topology: topology(options) },
    master: options.podSetGroup ? { topology: topology(options) } : undefined,
  }),
});

/** A Kueue topology is read on a queued job only: each role's `topology` and the job's, with a queue. */
function queuedForTopology(jobs: string[]): { [rootPath: string]: (chart: Chart) => object } {
  const roles = ['topology', 'master.topology', 'worker.topology', 'chief.topology', 'evaluator.topology', 'parameterServer.topology'];
  return Object.fromEntries(jobs.flatMap(job => roles.map(role => [`${job}: ${role}`, () => ({ queue: 'team' })])));
}

export const ROOTS: Root[] = [
  // The constructs, each from its props struct.
  v1Job('DistributedPyTorch', (c, id, p) => new lib.DistributedPyTorch(c, id, p)),
  v1Job('ParameterServerTF', (c, id, p) => new lib.ParameterServerTF(c, id, p)),
  v1Job('MpiAllReduce', (c, id, p) => new lib.MpiAllReduce(c, id, p)),
  v1Job('DistributedXGBoost', (c, id, p) => new lib.DistributedXGBoost(c, id, p)),
  v1Job('DistributedPaddle', (c, id, p) => new lib.DistributedPaddle(c, id, p)),
  v1Job('DistributedJax', (c, id, p) => new lib.DistributedJax(c, id, p)),
  runtime('TrainingRuntime', (c, p) => new lib.TrainingRuntime(c, 'runtime', p)),
  runtime('ClusterTrainingRuntime', (c, p) => new lib.ClusterTrainingRuntime(c, 'runtime', p)),
  {
    name: 'TrainJob',
    struct: 'TrainJobProps',
    build: (chart, props) => new lib.TrainJob(chart, 'job', { metadata: { name: 'train' }, runtime: lib.TrainingRuntimeRef.providedByCluster('torch-distributed'), ...props }),
  },
  { name: 'Workspace', struct: 'WorkspaceProps', build: (chart, props) => workspace(chart, props) },
  { name: 'WorkspaceKind', struct: 'WorkspaceKindProps', build: (chart, props) => workspaceKind(chart, props) },
  { name: 'ClusterQueue', struct: 'ClusterQueueProps', build: (chart, props) => clusterQueue(chart, props) },
  { name: 'Cohort', struct: 'CohortProps', build: (chart, props) => new lib.Cohort(chart, 'cohort', { metadata: { name: 'org' }, ...props }) },
  {
    name: 'LocalQueue',
    struct: 'LocalQueueProps',
    build: (chart, props) => new lib.LocalQueue(chart, 'queue', { metadata: { name: 'team' }, clusterQueue: clusterQueue(chart), ...props }),
  },
  { name: 'ResourceFlavor', struct: 'ResourceFlavorProps', build: (chart, props) => new lib.ResourceFlavor(chart, 'flavor', { metadata: { name: 'default-flavor' }, ...props }) },
  {
    name: 'WorkloadPriorityClass',
    struct: 'WorkloadPriorityClassProps',
    build: (chart, props) => new lib.WorkloadPriorityClass(chart, 'priority', { metadata: { name: 'high' }, value: 1000, ...props }),
  },
  {
    name: 'KueueTopology',
    struct: 'KueueTopologyProps',
    build: (chart, props) => new lib.KueueTopology(chart, 'topology', { metadata: { name: 'default' }, levels: ['kubernetes.io/hostname'], ...props }),
  },
  { name: 'PyTorchInitContainerTemplate', struct: 'PyTorchInitContainerTemplateProps', build: (chart, props) => new lib.PyTorchInitContainerTemplate(chart, 'init', props) },
  {
    // The platform defaults, over one object of each family that takes them.
    name: 'PlatformDefaults',
    struct: 'PlatformDefaultsProps',
    build: (chart, props) => {
      lib.PlatformDefaults.set(chart, props);
      new lib.DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE });
      new lib.TrainJob(chart, 'train-job', { metadata: { name: 'train-v2' }, runtime: lib.TrainingRuntimeRef.providedByCluster('torch-distributed') });
      new lib.TrainingRuntime(chart, 'runtime', { metadata: { name: 'torch-audit' }, mlPolicy: lib.MlPolicy.torch(), image: IMAGE });
      workspace(chart);
    },
  },

  // The structs only a static factory takes.
  runtimeWith('MlPolicy.mpi', 'MpiPolicyOptions', options => ({ mlPolicy: lib.MlPolicy.mpi(options) })),
  runtimeWith('MlPolicy.flux', 'FluxPolicyOptions', options => ({ mlPolicy: lib.MlPolicy.flux(options) })),
  runtimeWith('PodGroupPolicy.coscheduling', 'CoschedulingOptions', options => ({ podGroupPolicy: lib.PodGroupPolicy.coscheduling(options) })),
  runtimeWith('PodGroupPolicy.volcano', 'VolcanoPodGroupOptions', options => ({ podGroupPolicy: lib.PodGroupPolicy.volcano(options) })),
  kindWith('ActivityProbe.jupyter', 'ActivityProbeOptions', () => undefined, options => ({ activityProbe: lib.ActivityProbe.jupyter('jupyterlab', options) })),
  kindWith('ActivityProbe.script', 'ScriptActivityProbeOptions', () => undefined,
    options => ({ activityProbe: lib.ActivityProbe.script('#!/bin/sh\ntest "$(cat /tmp/idle)" = yes', options) })),
  jobWithTopology('Topology.required', 'TopologyOptions', options => lib.Topology.required('cloud.provider.com/topology-block', options)),
  {
    // The KAI scheduler reads the job's annotations: on the job, not on a role.
    name: 'Topology.kai',
    struct: 'KaiTopologyOptions',
    build: (chart, options) => new lib.DistributedPyTorch(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, topology: lib.Topology.kai({ topologyName: 'gpu-fabric', requiredLevel: 'cloud.provider.com/topology-block', ...options }),
    }),
  },
  {
    name: 'WorkspaceClaim.newClaim',
    struct: 'NewClaimOptions',
    build: (chart, options) => workspace(chart, { home: lib.WorkspaceClaim.newClaim({ storage: Size.gibibytes(10), ...options }) }),
  },

  // The structs only a method takes.
  {
    name: 'Workspace.addDataVolume',
    struct: 'DataVolumeOptions',
    build: (chart, options) => workspace(chart).addDataVolume('/data', lib.WorkspaceClaim.fromClaimName('datasets'), options),
  },
  {
    name: 'Workspace.addSecret',
    struct: 'SecretVolumeOptions',
    build: (chart, options) => workspace(chart).addSecret('/etc/credentials', kplus.Secret.fromSecretName(chart, 'credentials', 'credentials'), options),
  },
  kindWith('WorkspaceKind.addImageConfig', 'ImageConfigOptions',
    (kind, options) => kind.addImageConfig('minimal', { image: 'quay.io/jupyter/minimal-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }], ...options })),
  kindWith('WorkspaceKind.addImageConfig ports[0]', 'ImagePort',
    (kind, options) => kind.addImageConfig('minimal', { image: 'quay.io/jupyter/minimal-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888, ...options }] }),
    // A second port of the kind, for the walked id to name.
    () => ({ ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }, { id: 'code', displayName: 'Code' }] })),
  kindWith('WorkspaceKind.addPodConfig', 'PodConfigOptions', (kind, options) => kind.addPodConfig('large', options)),
  kindWith('WorkspaceKind.addActivityRule', 'ActivityRule', (kind, options) => kind.addActivityRule({ inactiveFor: Duration.hours(1), ...options }),
    () => ({ activityProbe: lib.ActivityProbe.jupyter('jupyterlab') })),
  kindWith('WorkspaceKind.addFilterRule', 'FilterRule',
    (kind, options) => kind.addFilterRule({ scope: lib.FilterScope.IMAGE_CONFIG, namespaceSelector: { matchLabels: { team: 'vision' } }, hideInUi: true, hideInApi: true, ...options })),
  kindWith('WorkspaceKind.addPort', 'WorkspacePort', (kind, options) => kind.addPort({ id: 'vscode', displayName: 'VS Code', ...options })),

  // The structs of a list prop, as one element of it.
  kindWith('WorkspaceKindProps.ports[1]', 'WorkspacePort', () => undefined,
    options => ({ ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }, { id: 'vscode', displayName: 'VS Code', ...options }] })),
  kindWith('WorkspaceKindProps.activityRules[0]', 'ActivityRule', () => undefined,
    options => ({ activityProbe: lib.ActivityProbe.jupyter('jupyterlab'), activityRules: [{ inactiveFor: Duration.hours(1), ...options }] })),
  kindWith('WorkspaceKindProps.filterRules[0]', 'FilterRule', () => undefined, options => ({
    filterRules: [{ scope: lib.FilterScope.IMAGE_CONFIG, namespaceSelector: { matchLabels: { team: 'vision' } }, hideInUi: true, hideInApi: true, ...options }],
  })),
  {
    name: 'WorkspaceProps.data[0]',
    struct: 'DataVolume',
    build: (chart, options) => workspace(chart, { data: [{ mountPath: '/data', claim: lib.WorkspaceClaim.fromClaimName('datasets'), ...options }] }),
  },
  {
    name: 'WorkspaceProps.secrets[0]',
    struct: 'SecretVolume',
    build: (chart, options) => workspace(chart, {
      secrets: [{ mountPath: '/etc/credentials', secret: kplus.Secret.fromSecretName(chart, 'credentials', 'credentials'), ...options }],
    }),
  },
  {
    name: 'ClusterQueueProps.resourceGroups[0]',
    struct: 'ResourceGroup',
    build: (chart, options) => new lib.ClusterQueue(chart, 'cluster-queue', {
      metadata: { name: 'team' }, resourceGroups: [{ flavors: [{ flavor: flavor(chart), quotas: [lib.ResourceQuota.cpu(kplus.Cpu.units(8))] }], ...options }],
    }),
  },
  {
    name: 'ResourceGroup.flavors[0]',
    struct: 'FlavorQuotas',
    build: (chart, options) => new lib.ClusterQueue(chart, 'cluster-queue', {
      metadata: { name: 'team' }, resourceGroups: [{ flavors: [{ flavor: flavor(chart), quotas: [lib.ResourceQuota.cpu(kplus.Cpu.units(8))], ...options }] }],
    }),
  },
];

/**
 * What a path of a root needs of the root's other props (`root: first segment of the path`, and
 * `root: path` over it), in both builds: the launcher's options are read by an MPI runtime only, a parameter
 * server's when there is one, a TrainJob's initializer when its runtime has that step, a Kueue
 * topology when the job is queued.
 */
export const CONTEXTS: { [rootPath: string]: (chart: Chart) => object } = {
  ...queuedForTopology(['DistributedPyTorch', 'ParameterServerTF', 'DistributedXGBoost', 'DistributedPaddle', 'DistributedJax']),
  'DistributedPyTorch: elastic': () => ({ workers: 2 }),
  'DistributedPaddle: elastic': () => ({ workers: 2 }),
  // With automatic processes per node every pod needs the accelerators the workers have.
  'DistributedPyTorch: worker.resources.accelerator': () => ({ nprocPerNode: lib.NprocPerNode.of(1) }),
  'DistributedPyTorch: runPolicy': () => ({ queue: 'team' }),
  'ParameterServerTF: runPolicy': () => ({ queue: 'team' }),
  'DistributedXGBoost: runPolicy': () => ({ queue: 'team' }),
  'DistributedPaddle: runPolicy': () => ({ queue: 'team' }),
  'DistributedJax: runPolicy': () => ({ queue: 'team' }),
  'MpiAllReduce: mpirunArgs': () => ({ trainingCommand: ['python', 'train.py'] }),
  'TrainJob: multiKueue': () => ({ queue: 'team' }),
  // The patch's manager and jobs are read when the job has a runtime patch (their docs say so).
  'TrainJob: patchManager': () => ({ podLabels: { team: 'vision' } }),
  'TrainJob: patchedJobs': () => ({ podLabels: { team: 'vision' }, runtime: lib.TrainingRuntimeRef.providedByCluster('torchtune-llama3.2-1b') }),
  // The runtime's claim is written when an initializer mounts it.
  'TrainingRuntime: workspace': () => ({ datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer:v2.0.0' } }),
  'ClusterTrainingRuntime: workspace': () => ({ datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer:v2.0.0' } }),
  'ResourceFlavor: topology': () => ({ nodeLabels: { 'cloud.provider.com/node-group': 'gpu' } }),
  'WorkspaceKind.addFilterRule: denyMessage': () => ({ deny: true }),
  'WorkspaceKindProps.filterRules[0]: denyMessage': () => ({ deny: true }),
  'TrainingRuntime: launcher': () => ({ mlPolicy: lib.MlPolicy.mpi() }),
  'ClusterTrainingRuntime: launcher': () => ({ mlPolicy: lib.MlPolicy.mpi() }),
  'ParameterServerTF: parameterServer': () => ({ parameterServers: 1 }),
  'DistributedPaddle: parameterServer': () => ({ parameterServers: 1, mode: lib.PaddleMode.PARAMETER_SERVER }),
  // A gang of one pod has no other minAvailable than 1: two workers make room for the walked one.
  'ParameterServerTF: gangScheduling': () => ({ workers: 2 }),
  'DistributedPaddle: gangScheduling': () => ({ workers: 2 }),
  'DistributedJax: gangScheduling': () => ({ workers: 2 }),
  'TrainJob: datasetInitializer': () => ({ runtime: lib.TrainingRuntimeRef.providedByCluster('torchtune-llama3.2-1b') }),
  'TrainJob: modelInitializer': () => ({ runtime: lib.TrainingRuntimeRef.providedByCluster('torchtune-llama3.2-1b') }),
};

/**
 * The values a nested struct needs before any of its props can be walked (its required props), by
 * root and path (`WorkspaceKind.addPodConfig: redirect`) or by struct.
 */
export const MINIMAL_STRUCTS: { [struct: string]: (chart: Chart) => object } = {
  'WorkspaceKind.addPodConfig: redirect': () => ({ to: 'small' }),
  // Kueue's CRD refuses borrowing within the cohort when reclaiming is Never (its default).
  'ClusterQueue: preemption': () => ({ reclaimWithinCohort: lib.PreemptionPolicy.ANY }),
  'GpuNetworking': () => ({ rdmaDevice: lib.RdmaDevice.HCA }),
  'GangScheduling': () => ({ scheduler: lib.GangScheduler.VOLCANO }),
  'ElasticBounds': () => ({ minWorkers: 1, maxWorkers: 4 }),
  'ElasticOptions': () => ({ minWorkers: 1, maxWorkers: 4 }),
  'TopologySlices': () => ({ level: 'kubernetes.io/hostname', size: 2 }),
  'InitializerStepOptions': () => ({ image: 'ghcr.io/kubeflow/trainer/dataset-initializer:v2.0.0' }),
  'OptionRedirect': () => ({ to: 'scipy' }),
};
