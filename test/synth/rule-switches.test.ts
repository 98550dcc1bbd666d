/**
 * The rule groups' switches: the cdk8s context key `cdk8s-kubeflow/rules/<source>` drops the
 * findings of that source, and only those. One app holds a finding of every group (JobSet has no
 * rule of its own yet); each test switches one group off and expects exactly the others' findings.
 */
import { ApiObject, App, Chart, JsonPatch, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { kubeflow } from '../../src';
import { RuleSource } from '../../src/rules/rule';
import { RULE_SETS } from '../../src/rules/rule-sets';
import { KUBERNETES_RULES_CONTEXT, checkRenderedDocument, collectFindings } from '../../src/synth/engine';
import { pytorchJob, workspaceKind } from '../harness/example-documents';

/** The rule of every finding of the app, by source. */
const EVERY_GROUP: { [source in RuleSource]?: string[] } = {
  'kubernetes': ['kubernetes/label-key', 'kubernetes/duplicate-object'],
  'trainer': ['trainer/patch-manager'],
  'training-operator': ['training-operator/replica-type'],
  'notebooks': ['notebooks/option-default'],
  'kueue': ['kueue/multikueue-queue'],
  'library': ['library/schema'],
};

/** An app with a finding of every group, documents registered as a construct of the library would. */
function app(context: { [key: string]: unknown } = {}): App {
  const a = new App({ outdir: Testing.app().outdir });
  for (const [key, value] of Object.entries(context)) a.node.setContext(key, value);
  const chart = new Chart(a, 'test');
  const own = (id: string, doc: any) => {
    const owner = new Construct(chart, id);
    checkRenderedDocument(owner, new ApiObject(owner, 'Resource', doc));
  };
  // Kubernetes: a label key with a space; the same object twice.
  const labelled = pytorchJob();
  labelled.metadata.labels = { 'team name': 'vision' };
  own('labelled', labelled);
  own('twice', pytorchJob());
  // Training Operator: a replica type the kind does not have.
  const workers = pytorchJob();
  workers.metadata.name = 'workers';
  workers.spec.pytorchReplicaSpecs.Workers = workers.spec.pytorchReplicaSpecs.Worker;
  delete workers.spec.pytorchReplicaSpecs.Worker;
  own('workers', workers);
  // Trainer: a runtime patch whose manager is not a domain-prefixed path.
  own('trainjob', {
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'TrainJob',
    metadata: { name: 'job', namespace: 'ml' },
    spec: { runtimeRef: { name: 'torch-distributed' }, runtimePatches: [{ manager: 'Platform' }] },
  });
  // Notebooks: a default option that does not exist.
  const kind = workspaceKind();
  kind.spec.podTemplate.options.podConfig.spawner.default = 'tiny';
  own('kind', kind);
  // Kueue: dispatched by MultiKueue without a queue.
  const dispatched = pytorchJob();
  dispatched.metadata.name = 'dispatched';
  dispatched.spec.runPolicy = { ...dispatched.spec.runPolicy, managedBy: 'kueue.x-k8s.io/multikueue' };
  own('dispatched', dispatched);
  // The library's own: a JSON patch writing a field the pinned CRD lacks, on an L1.
  const owner = new Construct(chart, 'patched');
  const l1 = new kubeflow.PyTorchJob(owner, 'Resource', { metadata: { name: 'patched', namespace: 'ml' }, spec: { pytorchReplicaSpecs: {} } });
  l1.addJsonPatch(JsonPatch.add('/spec/newField', true));
  checkRenderedDocument(owner, l1);
  return a;
}

function rulesFound(a: App): string[] {
  return [...new Set(collectFindings(a).map(f => f.finding.rule ?? 'none'))].sort();
}

const all = (except: RuleSource[] = []) => Object.entries(EVERY_GROUP)
  .filter(([source]) => !except.includes(source as RuleSource)).flatMap(([, ids]) => ids!).sort();

test('with every group on, the app has a finding of each', () => {
  expect(rulesFound(app())).toEqual(all());
});

test.each(RULE_SETS.map(s => s.source))('cdk8s-kubeflow/rules/%s off drops that group\'s findings and keeps every other group\'s', source => {
  expect(rulesFound(app({ [`cdk8s-kubeflow/rules/${source}`]: 'off' }))).toEqual(all([source]));
});

test('false switches a group off too; "on" and true leave it on', () => {
  expect(rulesFound(app({ 'cdk8s-kubeflow/rules/kueue': false }))).toEqual(all(['kueue']));
  expect(rulesFound(app({ 'cdk8s-kubeflow/rules/kueue': 'on', 'cdk8s-kubeflow/rules/trainer': true }))).toEqual(all());
});

test('two groups off at once', () => {
  expect(rulesFound(app({ 'cdk8s-kubeflow/rules/kubernetes': 'off', 'cdk8s-kubeflow/rules/notebooks': 'off' }))).toEqual(all(['kubernetes', 'notebooks']));
});

test('the differential run\'s key switches the Kubernetes group alone: the Trainer webhook rules stay on', () => {
  expect(KUBERNETES_RULES_CONTEXT).toBe('cdk8s-kubeflow.internal/kubernetes-rules');
  const found = rulesFound(app({ [KUBERNETES_RULES_CONTEXT]: 'off' }));
  expect(found).toEqual(all(['kubernetes']));
  expect(found).toContain('trainer/patch-manager');
});

test('a Kubernetes rule that a Trainer check applies (to a patched pod) goes with the Kubernetes group', () => {
  const build = (context: { [key: string]: unknown }) => {
    const a = new App({ outdir: Testing.app().outdir });
    for (const [key, value] of Object.entries(context)) a.node.setContext(key, value);
    const owner = new Construct(new Chart(a, 'test'), 'trainjob');
    checkRenderedDocument(owner, new ApiObject(owner, 'Resource', {
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'TrainJob',
      metadata: { name: 'job', namespace: 'ml' },
      spec: {
        runtimeRef: { name: 'torch-distributed' },
        runtimePatches: [{
          manager: 'Platform',
          trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: { nodeSelector: { 'bad key!': 'x' } } } } } }] } } },
        }],
      },
    }));
    return rulesFound(a);
  };
  expect(build({})).toEqual(['kubernetes/label-key', 'trainer/patch-manager']);
  expect(build({ 'cdk8s-kubeflow/rules/kubernetes': 'off' })).toEqual(['trainer/patch-manager']);
  expect(build({ 'cdk8s-kubeflow/rules/trainer': 'off' })).toEqual(['kubernetes/label-key']);
});

test('a value that is neither on nor off fails the synth rather than leaving the group on', () => {
  expect(() => Testing.synth(new Chart(app({ 'cdk8s-kubeflow/rules/kueue': 'no' }), 'other')))
    .toThrow('context cdk8s-kubeflow/rules/kueue is "no"; expected "off" or false to switch the group off ("on", true or nothing leaves it on)');
});
