/**
 * Every public entry point of the table is guarded: each class is registered, each method and
 * static factory with parameters is wrapped, and each construct's constructor checks its props.
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as lib from '../../src';
import { OWN_CLASSES as INSTALLED } from '../../src/boundary/registry';
import { CLASSES } from '../../src/boundary/schema.generated';

const GUARDED = Symbol.for('cdk8s-kubeflow.boundary.guarded');
const own = Object.keys(CLASSES).filter(name => !name.includes('.'));

test('every class of the library in the table is registered for instanceof checks', () => {
  expect(own.filter(name => INSTALLED.get(name) !== (lib as any)[name])).toEqual([]);
});

test('every public method and static factory with parameters checks its arguments', () => {
  const unguarded: string[] = [];
  for (const name of own) {
    const cls = (lib as any)[name];
    for (const [method, params] of Object.entries(CLASSES[name].methods ?? {})) {
      if (params.length && !cls.prototype[method][GUARDED]) unguarded.push(`${name}.prototype.${method}`);
    }
    for (const [method, params] of Object.entries(CLASSES[name].statics ?? {})) {
      if (params.length && !cls[method][GUARDED]) unguarded.push(`${name}.${method}`);
    }
  }
  expect(unguarded).toEqual([]);
});

const IMAGE = 'registry.example.com/train:1.0';
const KIND = {
  displayName: 'JupyterLab', description: 'JupyterLab in a pod', icon: lib.SpawnerImage.fromUrl('https://jupyter.org/favicon.png'),
};
/** A valid first argument set of each construct the table lists with a public constructor. */
const VALID: { [construct: string]: (chart: Chart) => [string, object] } = {
  DistributedPyTorch: () => ['job', { image: IMAGE }],
  ParameterServerTF: () => ['job', { image: IMAGE }],
  MpiAllReduce: () => ['job', { image: IMAGE }],
  DistributedXGBoost: () => ['job', { image: IMAGE }],
  DistributedPaddle: () => ['job', { image: IMAGE }],
  DistributedJax: () => ['job', { image: IMAGE }],
  Workspace: () => ['job', { kind: lib.WorkspaceKind.fromName('jupyterlab') }],
  WorkspaceKind: () => ['job', KIND],
  PyTorchInitContainerTemplate: () => ['job', {}],
  ClusterTrainingRuntime: () => ['job', { mlPolicy: lib.MlPolicy.torch(), image: IMAGE }],
  TrainingRuntime: () => ['job', { mlPolicy: lib.MlPolicy.torch(), image: IMAGE }],
  TrainJob: () => ['job', { runtime: lib.TrainingRuntimeRef.cluster('torch-distributed') }],
  ResourceFlavor: () => ['job', {}],
  KueueTopology: () => ['job', { levels: ['kubernetes.io/hostname'] }],
  ClusterQueue: chart => ['job', { resourceGroups: [{ flavors: [{ flavor: new lib.ResourceFlavor(chart, 'flavor'), quotas: [lib.ResourceQuota.pods(1)] }] }] }],
  LocalQueue: chart => ['job', { clusterQueue: new lib.ClusterQueue(chart, 'cq', { resourceGroups: [] }) }],
  Cohort: chart => ['job', { parent: lib.Cohort.fromName('org'), resourceGroups: [{ flavors: [{ flavor: new lib.ResourceFlavor(chart, 'flavor'), quotas: [lib.ResourceQuota.pods(1)] }] }] }],
  WorkloadPriorityClass: () => ['job', { value: 1 }],
};

test('every construct checks its props in its constructor', () => {
  // StableFileNamesApp is an App (no scope, cdk8s's AppProps), not a construct in a chart;
  // ConfigReader takes no props (a scope and an id).
  const constructs = own.filter(name => CLASSES[name].init && !['TrainingJob', 'TrainingRuntimeBase', 'KubeflowResource', 'StableFileNamesApp', 'ConfigReader'].includes(name));
  expect(constructs.sort()).toEqual(Object.keys(VALID).sort());
  for (const name of constructs) {
    const chart = new Chart(Testing.app(), 'test');
    const [id, props] = VALID[name](chart);
    expect(() => new (lib as any)[name](chart, id, { ...props, sharedMemroy: Size.gibibytes(1) }))
      .toThrow(new RegExp(`^test/job: sharedMemroy is an? Size; expected no such field in ${name === 'ClusterTrainingRuntime' ? 'TrainingRuntime' : name}Props(: did you mean "sharedMemory"\\?|, whose fields are .*)$`));
  }
});
