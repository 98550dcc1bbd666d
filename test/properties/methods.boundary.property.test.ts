/**
 * The public methods of the constructs, one argument at a time set to an arbitrary value: the
 * library's own error, or a manifest for a value of the right type.
 */
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { MethodCase, PROPERTY_RUNS, methodsProperty } from './boundary-arbitraries';
import { DistributedPyTorch, FilterScope, Workspace, WorkspaceClaim, WorkspaceKind } from '../../src';
import { CLASSES } from '../../src/boundary/schema.generated';
import { JUPYTERLAB_KIND as KIND_PROPS } from '../harness/notebook-fixtures';

const IMAGE = 'registry.example.com/train:1.0';
const job = (chart: Chart) => new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE });
const env = () => kplus.EnvValue.fromValue('/data');
const volume = (chart: Chart, name: string) => kplus.Volume.fromEmptyDir(chart, `volume-${name}`, name);

/** Every method of a class must have a case here, so a new method is not left out. */
function expectAllMethods(classFqn: string, cases: readonly MethodCase[]) {
  expect(cases.map(c => c.method).sort()).toEqual(Object.keys(CLASSES[classFqn].methods ?? {}).sort());
}

const REPLICA_GROUP: MethodCase[] = [
  { method: 'addContainer', args: () => [{ name: 'sidecar', image: 'busybox:1.36' }] },
  { method: 'addEnv', args: () => ['DATA', env()] },
  { method: 'addImagePullSecret', args: () => ['regcred'] },
  { method: 'addInitContainer', args: () => [{ name: 'init', image: 'busybox:1.36' }] },
  { method: 'addNodeSelector', args: () => ['pool', 'gpu'] },
  { method: 'addPodAnnotation', args: () => ['team', 'research'] },
  { method: 'addPodLabel', args: () => ['team', 'research'] },
  { method: 'addToleration', args: () => [{ key: 'gpu', operator: 'Exists' }] },
  { method: 'addVolume', args: c => [volume(c, 'scratch')] },
  { method: 'mount', args: c => ['/data', volume(c, 'data'), { readOnly: true }] },
  { method: 'scale', args: () => [2] },
];

const TRAINING_JOB: MethodCase[] = [
  { method: 'addEnv', args: () => ['DATA', env()] },
  { method: 'addToleration', args: () => [{ key: 'gpu', operator: 'Exists' }] },
  { method: 'mount', args: c => ['/data', volume(c, 'data'), { readOnly: true }] },
];

/** A kind with one image and one pod config; the method under test adds to it. */
const kind = (chart: Chart) => {
  const k = new WorkspaceKind(chart, 'kind', KIND_PROPS);
  k.addImageConfig('scipy', { image: 'quay.io/jupyter/scipy-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] });
  k.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  return k;
};

const WORKSPACE_KIND: MethodCase[] = [
  { method: 'addActivityRule', args: () => [{ inactiveFor: Duration.hours(1) }] },
  { method: 'addClusterRole', args: () => ['kubeflow-edit'] },
  { method: 'addEnv', args: () => ['DATA', env()] },
  { method: 'addFilterRule', args: () => [{ scope: FilterScope.IMAGE_CONFIG, deny: true, denyMessage: 'not here' }] },
  { method: 'addImageConfig', args: () => ['codeserver', { image: 'ghcr.io/kubeflow/kubeflow/notebook-servers/codeserver:v1.10.0', ports: [{ id: 'jupyterlab', port: 8888 }] }] },
  { method: 'addPodConfig', args: () => ['large', { requests: { cpu: kplus.Cpu.units(2) } }] },
  { method: 'addPort', args: () => [{ id: 'tensorboard', displayName: 'TensorBoard' }] },
  { method: 'mount', args: c => ['/data', volume(c, 'data'), { readOnly: true }] },
];

const WORKSPACE: MethodCase[] = [
  { method: 'addDataVolume', args: () => ['/data', WorkspaceClaim.fromClaimName('datasets'), { readOnly: true }] },
  { method: 'addSecret', args: c => ['/secrets', kplus.Secret.fromSecretName(c, 'secret', 'credentials'), { defaultMode: 0o400 }] },
];
const workspace = (chart: Chart) => new Workspace(chart, 'ws', {
  metadata: { name: 'alice' }, kind: WorkspaceKind.fromName('jupyterlab'), imageConfig: 'scipy', podConfig: 'small',
});

/** The methods every top-level construct inherits from KubeflowResource, tried on a workspace kind. */
const KUBEFLOW_RESOURCE: MethodCase[] = [
  { method: 'addAnnotation', args: () => ['team', 'research'] },
  { method: 'addLabel', args: () => ['team', 'research'] },
  { method: 'addPodAnnotation', args: () => ['team', 'research'] },
  { method: 'addPodLabel', args: () => ['team', 'research'] },
];

test(`ReplicaGroup: ${PROPERTY_RUNS} arbitrary arguments of its methods end in the library's error or a manifest that keeps them`, () => {
  expectAllMethods('ReplicaGroup', REPLICA_GROUP);
  expect(methodsProperty('ReplicaGroup', 'ReplicaGroup', REPLICA_GROUP, c => job(c).worker, 'test/job/Worker')).toBe(17);
});

test(`TrainingJob: ${PROPERTY_RUNS} arbitrary arguments of its methods end in the library's error or a manifest that keeps them`, () => {
  expectAllMethods('TrainingJob', TRAINING_JOB);
  expect(methodsProperty('TrainingJob', 'TrainingJob', TRAINING_JOB, job, 'test/job')).toBe(6);
});

test(`WorkspaceKind: ${PROPERTY_RUNS} arbitrary arguments of its methods end in the library's error or a manifest that keeps them`, () => {
  expectAllMethods('WorkspaceKind', WORKSPACE_KIND);
  expect(methodsProperty('WorkspaceKind', 'WorkspaceKind', WORKSPACE_KIND, kind, 'test/kind')).toBe(13);
});

test(`Workspace: ${PROPERTY_RUNS} arbitrary arguments of its methods end in the library's error or a manifest that keeps them`, () => {
  expectAllMethods('Workspace', WORKSPACE);
  expect(methodsProperty('Workspace', 'Workspace', WORKSPACE, workspace, 'test/ws')).toBe(6);
});

test(`KubeflowResource: ${PROPERTY_RUNS} arbitrary arguments of its methods end in the library's error or a manifest that keeps them`, () => {
  expectAllMethods('KubeflowResource', KUBEFLOW_RESOURCE);
  expect(methodsProperty('KubeflowResource', 'KubeflowResource', KUBEFLOW_RESOURCE, kind, 'test/kind')).toBe(8);
});
