/**
 * The annotation that silences one rule on one object (`ignore-rule.cdk8s-kubeflow.io/<source>.<name>:
 * "<reason>"`): honoured by the synth engine and by `lint`, which lists every rule silenced; an
 * annotation that names no rule or gives no reason silences nothing and is a finding.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import * as yaml from 'js-yaml';
import { DistributedPyTorch } from '../../../src';
import { hasErrors, LintReport } from '../../../src/cli/lint/lint';
import { formatLint } from '../../../src/cli/lint/lint-output';
import { describe as describeFinding } from '../../../src/rules/finding';
import { ignoreRuleKey } from '../../../src/rules/library/ignore-rule';
import { checkRenderedDocument, collectFindings } from '../../../src/synth/engine';
import { runCli } from '../../cli/run-cli';
import { pytorchJob } from '../../harness/example-documents';

const LABEL_KEY = ignoreRuleKey('kubernetes/label-key');
const REASON = 'the label is read by our own dashboard, never by Kubernetes';

/** A PyTorchJob with a label key Kubernetes refuses (a space), and these annotations. */
function labelled(annotations: Record<string, unknown> = {}): any {
  const doc = pytorchJob();
  doc.metadata.labels = { 'team name': 'vision' };
  doc.metadata.annotations = annotations;
  return doc;
}

function findings(...docs: any[]): string[] {
  const app = new App({ outdir: Testing.app().outdir });
  const chart = new Chart(app, 'test');
  docs.forEach((doc, i) => {
    const owner = new Construct(chart, `job${i}`);
    checkRenderedDocument(owner, new ApiObject(owner, 'Resource', doc));
  });
  return collectFindings(app).map(f => `${f.path} ${f.finding.rule}: ${describeFinding(f.finding)}`);
}

describe('at synth', () => {
  test('the annotation drops the rule\'s findings on its object, and only that rule\'s', () => {
    expect(findings(labelled())).toEqual([
      'test/job0 kubernetes/label-key: metadata.labels["team name"] is "team name"; expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit',
    ]);
    expect(findings(labelled({ [LABEL_KEY]: REASON }))).toEqual([]);
    // Another rule of the same object still applies.
    const two = labelled({ [LABEL_KEY]: REASON });
    two.metadata.labels.team = 'a b';
    expect(findings(two).map(f => f.split(':')[0])).toEqual(['test/job0 kubernetes/label-value']);
  });

  test('a finding across documents is silenced on the object that carries the annotation only', () => {
    const silenced = pytorchJob();
    silenced.metadata.annotations = { [ignoreRuleKey('kubernetes/duplicate-object')]: 'replaced by the second on purpose' };
    expect(findings(silenced, pytorchJob()).map(f => f.split(':')[0])).toEqual(['test/job1 kubernetes/duplicate-object']);
  });

  test('an annotation that names no rule, or gives no reason, silences nothing and is a finding', () => {
    expect(findings(labelled({ 'ignore-rule.cdk8s-kubeflow.io/kubernetes.label-keys': REASON, [LABEL_KEY]: ' ' }))).toEqual([
      'test/job0 kubernetes/label-key: metadata.labels["team name"] is "team name"; expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit',
      // cdk8s writes annotations sorted by key.
      'test/job0 library/ignore-rule: metadata.annotations["ignore-rule.cdk8s-kubeflow.io/kubernetes.label-key"] is " "; expected the reason the rule kubernetes/label-key does not apply to this object',
      'test/job0 library/ignore-rule: metadata.annotations["ignore-rule.cdk8s-kubeflow.io/kubernetes.label-keys"] is "the label is read by our own dashboard, never by Kubernetes"; expected the key to name a rule of `cdk8s-kubeflow rules` as ignore-rule.cdk8s-kubeflow.io/<source>.<name> (such as ignore-rule.cdk8s-kubeflow.io/kubernetes.run-as-non-root); "kubernetes/label-keys" is no rule',
    ]);
  });

  test('a construct of the library takes the annotation with addAnnotation, and synth reads it', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'vision');
    const job = new DistributedPyTorch(chart, 'resnet', { image: 'pytorch/pytorch:2.5.0', workers: 1 });
    job.addAnnotation(ignoreRuleKey('kubernetes/no-such-rule'), REASON);
    expect(() => app.synth()).toThrow('[vision/resnet] metadata.annotations["ignore-rule.cdk8s-kubeflow.io/kubernetes.no-such-rule"] is "the label is read by our own dashboard, never by Kubernetes"; expected the key to name a rule of `cdk8s-kubeflow rules`');
  });
});

describe('in lint', () => {
  const input = () => [labelled({ [LABEL_KEY]: REASON }), { ...labelled(), metadata: { ...labelled().metadata, name: 'other' } }]
    .map(d => yaml.dump(d)).join('---\n');

  test('lists every rule silenced, with its object, its findings and the reason (text)', () => {
    const result = runCli(['lint', '-'], input());
    expect(result.stdout).toBe([
      '<stdin>:104:5: PyTorchJob training/other: metadata.labels["team name"] is "team name"; expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit [kubernetes/label-key]',
      '<stdin>:1: PyTorchJob training/resnet: rule kubernetes/label-key silenced (1 finding): "the label is read by our own dashboard, never by Kubernetes" [ignore-rule.cdk8s-kubeflow.io/kubernetes.label-key]',
      '2 documents checked; 1 finding; 1 rule silenced',
      '',
    ].join('\n'));
    expect(result.status).toBe(1);
  });

  test('lists every rule silenced (JSON), and exits with 0 when nothing else is found', () => {
    const result = runCli(['lint', '--format', 'json', '-'], yaml.dump(labelled({ [LABEL_KEY]: REASON })));
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.findings).toEqual([]);
    expect(report.silenced).toEqual([{
      file: '<stdin>',
      line: 1,
      document: { kind: 'PyTorchJob', namespace: 'training', name: 'resnet' },
      rule: 'kubernetes/label-key',
      annotation: LABEL_KEY,
      reason: REASON,
      findings: 1,
    }]);
  });

  test('an annotation that names no rule is a finding of library/ignore-rule', () => {
    const result = runCli(['lint', '-'], yaml.dump({ ...pytorchJob(), metadata: { ...pytorchJob().metadata, annotations: { 'ignore-rule.cdk8s-kubeflow.io/k8s.label-key': REASON } } }));
    expect(result.stdout.split('\n')[0]).toMatch(/^<stdin>:7:5: PyTorchJob training\/resnet: metadata\.annotations\["ignore-rule\.cdk8s-kubeflow\.io\/k8s\.label-key"\] is "the label is read by our own dashboard, never by Kubernetes"; expected the key to name a rule of `cdk8s-kubeflow rules` as ignore-rule\.cdk8s-kubeflow\.io\/<source>\.<name> \(such as ignore-rule\.cdk8s-kubeflow\.io\/kubernetes\.run-as-non-root\); "k8s\/label-key" is no rule \[library\/ignore-rule\]$/);
    expect(result.status).toBe(1);
  });
});

test('docs/cli.md: the example manifest gives the output the page shows', () => {
  const page = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'cli.md'), 'utf8');
  const section = page.slice(page.indexOf('#### Silencing one rule on one object'));
  const [manifest, shown] = [...section.matchAll(/```(?:yaml)?\n([\s\S]*?)```/g)].slice(0, 2).map(m => m[1]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'silencing-'));
  const file = path.join(dir, 'job.yaml');
  fs.writeFileSync(file, manifest);
  const result = runCli(['lint', file]);
  expect(`$ cdk8s-kubeflow lint job.yaml\n${result.stdout.split(file).join('job.yaml')}`).toBe(shown);
  expect(result.status).toBe(0);
});

describe('severity in lint\'s exit status and output', () => {
  const report = (severity: 'error' | 'warning'): LintReport => ({
    documents: 1,
    checked: 1,
    skipped: 0,
    skippedKinds: [],
    silenced: [],
    findings: [{ document: 0, file: 'a.yaml', line: 3, column: 5, kind: 'PyTorchJob', namespace: 'ml', name: 'train', rule: 'kubernetes/label-key', severity, field: 'f', value: 1, allowed: 'expected 2', message: 'f is 1; expected 2' }],
  });

  test('warnings alone leave the status 0 and are marked in the text', () => {
    expect(hasErrors(report('warning'))).toBe(false);
    expect(hasErrors(report('error'))).toBe(true);
    expect(formatLint(report('warning'), 'text')).toBe('a.yaml:3:5: PyTorchJob ml/train: f is 1; expected 2 [kubernetes/label-key, warning]\n1 document checked; 1 finding (1 warning)\n');
    expect(formatLint(report('warning'), 'github')).toBe('::warning file=a.yaml,line=3,col=5,title=kubernetes/label-key (PyTorchJob ml/train)::PyTorchJob ml/train: f is 1; expected 2\n1 document checked; 1 finding (1 warning)\n');
  });
});
