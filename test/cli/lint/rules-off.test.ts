/**
 * `lint --rules-off SOURCE`: the findings of one rule group are left out and every other group's
 * stay. One input holds a finding of every group (JobSet has no rule of its own yet).
 */
import * as yaml from 'js-yaml';
import { RuleSource } from '../../../src/rules/rule';
import { RULE_SETS } from '../../../src/rules/rule-sets';
import { pytorchJob, workspaceKind } from '../../harness/example-documents';
import { runCli } from '../run-cli';

const EVERY_GROUP: { [source in RuleSource]?: string[] } = {
  'kubernetes': ['kubernetes/duplicate-object', 'kubernetes/label-key'],
  'trainer': ['trainer/patch-manager'],
  'training-operator': ['training-operator/replica-type'],
  'notebooks': ['notebooks/option-default'],
  'kueue': ['kueue/multikueue-queue'],
  'library': ['library/schema'],
};

function input(): string {
  const labelled = pytorchJob();
  labelled.metadata.labels = { 'team name': 'vision' };
  const workers = pytorchJob();
  workers.metadata.name = 'workers';
  workers.spec.pytorchReplicaSpecs.Workers = workers.spec.pytorchReplicaSpecs.Worker;
  delete workers.spec.pytorchReplicaSpecs.Worker;
  const trainJob = {
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'TrainJob',
    metadata: { name: 'job', namespace: 'ml' },
    spec: { runtimeRef: { name: 'torch-distributed' }, runtimePatches: [{ manager: 'Platform' }] },
  };
  const kind = workspaceKind();
  kind.spec.podTemplate.options.podConfig.spawner.default = 'tiny';
  const dispatched = pytorchJob();
  dispatched.metadata.name = 'dispatched';
  dispatched.spec.runPolicy = { ...dispatched.spec.runPolicy, managedBy: 'kueue.x-k8s.io/multikueue' };
  const unknownField = pytorchJob();
  unknownField.metadata.name = 'unknown-field';
  unknownField.spec.newField = true;
  return [labelled, pytorchJob(), workers, trainJob, kind, dispatched, unknownField].map(d => yaml.dump(d, { lineWidth: -1 })).join('---\n');
}

function rulesFound(args: string[]): string[] {
  const result = runCli(['lint', '--format', 'json', ...args, '-'], input());
  expect(result.status).toBe(1);
  return [...new Set<string>(JSON.parse(result.stdout).findings.map((f: { rule: string }) => f.rule))].sort();
}

const all = (except: RuleSource[] = []) => Object.entries(EVERY_GROUP)
  .filter(([source]) => !except.includes(source as RuleSource)).flatMap(([, ids]) => ids!).sort();

test('with every group on, the input has a finding of each', () => {
  expect(rulesFound([])).toEqual(all());
});

test.each(RULE_SETS.map(s => s.source))('--rules-off %s leaves that group out and keeps every other group', source => {
  expect(rulesFound(['--rules-off', source])).toEqual(all([source]));
});

test('repeated, and in the --name=value form', () => {
  expect(rulesFound(['--rules-off', 'kubernetes', '--rules-off=trainer'])).toEqual(all(['kubernetes', 'trainer']));
});

test('a document that is not YAML is reported whatever is off', () => {
  const result = runCli(['lint', '--rules-off', 'library', '-'], 'kind: [unclosed\n');
  expect(result.stdout.split('\n')[0]).toBe('<stdin>:2:1: document is "Flow sequence in block collection must be sufficiently indented and end with a ]"; expected valid YAML [library/yaml-syntax]');
  expect(result.status).toBe(1);
});

test('every group off: nothing found, status 0', () => {
  const off = RULE_SETS.flatMap(s => ['--rules-off', s.source]);
  expect(runCli(['lint', ...off, '-'], input())).toEqual({ status: 0, stdout: '7 documents checked; no findings\n', stderr: '' });
});

test('a source that is no group is a usage error', () => {
  const result = runCli(['lint', '--rules-off', 'k8s', '-'], input());
  expect(result.status).toBe(2);
  expect(result.stderr.split('\n')[0]).toBe('cdk8s-kubeflow: --rules-off is "k8s"; expected one of kubernetes, jobset, trainer, training-operator, notebooks, kueue, library');
});
