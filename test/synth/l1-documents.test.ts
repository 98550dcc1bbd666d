/**
 * Every rule `lint` applies to a document runs at synth on the same document when an L1 a program
 * constructed wrote it (src/synth/l1-documents.ts, registered by src/boundary/l1-guard.ts): the
 * rules over one document, across the documents, the pinned CRD's schema and the walks `lint` alone
 * applies across its input (a namespace's Pod Security level, a Workspace's options). Each L1 kind's
 * family is tried: v1 jobs, Trainer, notebooks and Kueue; the findings at synth are lint's, message
 * for message, each reported by the L1 under its own path.
 */
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { ImagePullPolicy, k8s } from 'cdk8s-plus-28';
import { SpawnerImage, WorkspaceKind, kubeflow, kueue, notebooks, trainer } from '../../src';
import { lint } from '../../src/cli/lint/lint';
import { describe as message } from '../../src/rules/finding';
import { collectFindings } from '../../src/synth/engine';

const POD = { spec: { containers: [{ name: 'pytorch', image: 'train:1' }] } };

/** `<path> <message>` of what `lint` finds in the documents the app's objects write. */
function linted(app: App): string[] {
  const objects = app.node.findAll().filter((o): o is ApiObject => o instanceof ApiObject);
  const report = lint(objects.map((o, i) => ({ file: 'app.yaml', line: i + 1, doc: o.toJson() })));
  return report.findings.map(f => `${objects[f.document].node.path.replace(/\/Resource$/, '')} ${f.message}`).sort();
}

/** `<path> <message>` of what synth finds in the app (the owner's path: the L1's own for an L1). */
function synthesized(app: App): string[] {
  return collectFindings(app).map(f => `${f.path.replace(/\/Resource$/, '')} ${message(f.finding)}`).sort();
}

test('v1 jobs: a document rule and a rule `lint` applies across its input (the namespace enforces Pod Security "restricted")', () => {
  const app = Testing.app();
  const c = new Chart(app, 'test');
  new ApiObject(c, 'ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
  new kubeflow.PyTorchJob(c, 'job', { metadata: { name: 'job', namespace: 'ml' }, spec: { pytorchReplicaSpecs: { Worker: { replicas: 2, template: POD } } } });
  const at = 'test/job spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].securityContext';
  expect(synthesized(app)).toEqual([
    'test/job spec.pytorchReplicaSpecs.Master is not set; expected a Master in a job without elasticPolicy: the operator sets RANK and WORLD_SIZE only when one exists',
    `${at}.allowPrivilegeEscalation is not set; expected false (Pod Security "restricted")`,
    `${at}.capabilities.drop is not set; expected a list with "ALL" (Pod Security "restricted")`,
    `${at}.runAsNonRoot is not set; expected true on the container or the pod (Pod Security "restricted")`,
    `${at}.seccompProfile.type is not set; expected "RuntimeDefault" or "Localhost" on the container or the pod (Pod Security "restricted")`,
  ]);
  expect(synthesized(app)).toEqual(linted(app));
  expect(() => app.synth()).toThrow('[test/job] spec.pytorchReplicaSpecs.Master is not set');
});

test('Trainer: the webhook\'s counts, the runtime kind and the patch manager', () => {
  const app = Testing.app();
  new trainer.TrainJob(new Chart(app, 'test'), 'tj', {
    metadata: { name: 'tj', namespace: 'ml' },
    spec: { runtimeRef: { name: 'mine', kind: 'Runtime' }, trainer: { numNodes: 0 }, runtimePatches: [{ manager: 'platform' }] },
  });
  expect(synthesized(app)).toEqual([
    'test/tj spec.runtimePatches[0].manager is "platform"; expected a domain-prefixed path such as "example.io/platform-team"',
    'test/tj spec.runtimeRef.kind is "Runtime"; expected "ClusterTrainingRuntime" or "TrainingRuntime" (or none, for a ClusterTrainingRuntime): the Trainer webhook refuses any other kind as an unsupported runtime',
    'test/tj spec.trainer.numNodes is 0; expected a whole number of 1 or more',
  ]);
  expect(synthesized(app)).toEqual(linted(app));
});

test('notebooks: a Workspace (L1) whose option its WorkspaceKind (a construct) lacks', () => {
  const app = Testing.app();
  const c = new Chart(app, 'test');
  const kind = new WorkspaceKind(c, 'kind', {
    displayName: 'JupyterLab', description: 'JupyterLab in a pod', icon: SpawnerImage.fromUrl('https://jupyter.org/favicon.png'), ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }],
  });
  kind.addImageConfig('lab', { image: 'jupyter:1', ports: [{ id: 'jupyterlab', port: 8888 }], imagePullPolicy: ImagePullPolicy.IF_NOT_PRESENT });
  kind.addPodConfig('small');
  new notebooks.Workspace(c, 'ws', { metadata: { name: 'ws', namespace: 'ml' }, spec: { kind: kind.name, podTemplate: { options: { imageConfig: 'labb', podConfig: 'small' }, volumes: { home: 'home' } } } });
  expect(synthesized(app)).toEqual([
    `test/ws spec.podTemplate.options.imageConfig is "labb"; expected the id of an image option of WorkspaceKind "${kind.name}": "lab"`,
  ]);
  expect(synthesized(app)).toEqual(linted(app));
});

test('Kueue: an app of L1s alone is checked as `lint` checks its documents (references that do not resolve)', () => {
  const app = Testing.app();
  const c = new Chart(app, 'test');
  new kueue.LocalQueue(c, 'lq', { metadata: { name: 'team', namespace: 'ml' }, spec: { clusterQueue: 'gpus' } });
  new kueue.ClusterQueue(c, 'cq', {
    metadata: { name: 'gpu' },
    spec: { namespaceSelector: {}, resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'missing', resources: [{ name: 'cpu', nominalQuota: k8s.Quantity.fromString('4') }] }] }] },
  });
  expect(synthesized(app)).toEqual([
    'test/cq spec.resourceGroups[0].flavors[0].name is "missing"; expected a ResourceFlavor the input defines; the input defines no ResourceFlavor. Without it the ClusterQueue admits nothing',
    'test/lq spec.clusterQueue is "gpus"; expected a ClusterQueue the input defines; did you mean "gpu"? Without it the LocalQueue admits nothing',
  ]);
  expect(synthesized(app)).toEqual(linted(app));
});

test('the pinned CRD\'s schema, the rule switches and the ignore-rule annotation apply as to a construct\'s object', () => {
  const app = Testing.app();
  const c = new Chart(app, 'test');
  new kueue.WorkloadPriorityClass(c, 'wpc', { metadata: { name: 'High' }, value: 100 });
  expect(synthesized(app)).toEqual(linted(app));
  expect(synthesized(app).length).toBeGreaterThan(0);

  const off = Testing.app();
  off.node.setContext('cdk8s-kubeflow/rules/kueue', 'off');
  new kueue.LocalQueue(new Chart(off, 'test'), 'lq', { metadata: { name: 'team', namespace: 'ml' }, spec: { clusterQueue: 'gpus' } });
  new kueue.ClusterQueue(new Chart(off, 'other'), 'cq', { metadata: { name: 'gpu' }, spec: { namespaceSelector: {}, resourceGroups: [] } });
  expect(synthesized(off)).toEqual([]);

  const silenced = Testing.app();
  new kueue.LocalQueue(new Chart(silenced, 'test'), 'lq', {
    metadata: { name: 'team', namespace: 'ml', annotations: { 'ignore-rule.cdk8s-kubeflow.io/kueue.reference': 'the ClusterQueue is kept elsewhere' } },
    spec: { clusterQueue: 'gpus' },
  });
  new kueue.ClusterQueue(new Chart(silenced, 'other'), 'cq', { metadata: { name: 'gpu' }, spec: { namespaceSelector: {}, resourceGroups: [] } });
  expect(synthesized(silenced)).toEqual([]);
});
