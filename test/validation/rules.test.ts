import * as fs from 'fs';
import * as path from 'path';
import { pytorchJob } from './fixtures';
import { APP_RULES, appFindings } from '../../src/private/validation/app';
import { KUBERNETES_RULES, POD_SECURITY_RESTRICTED_RULES, kubernetesFindings, restrictedFindings } from '../../src/private/validation/k8s';

/** The rule catalogue: what the layer checks, per family, each rule named, sourced and tested. */
describe('the rule catalogue', () => {
  const all = [...KUBERNETES_RULES, ...POD_SECURITY_RESTRICTED_RULES, ...APP_RULES];

  test('rules per family', () => {
    const families: Record<string, string[]> = {};
    for (const rule of all) (families[rule.family] ??= []).push(rule.id);
    expect(Object.fromEntries(Object.entries(families).map(([family, ids]) => [family, ids.length]))).toEqual({
      'metadata': 8, 'pod': 26, 'volumes': 7, 'scheduling': 14, 'resources': 5, 'security': 7, 'numbers': 3, 'objects': 2, 'app': 5, 'pod-security': 13, 'trainer': 4,
    });
  });

  test('ids are unique and carry their layer', () => {
    expect(new Set(all.map(r => r.id)).size).toBe(all.length);
    expect([...KUBERNETES_RULES, ...POD_SECURITY_RESTRICTED_RULES].filter(r => !r.id.startsWith('k8s/'))).toEqual([]);
    expect(APP_RULES.filter(r => !r.id.startsWith('app/'))).toEqual([]);
  });

  test('every rule names the upstream function or behaviour it mirrors', () => {
    expect(all.filter(r => !/(k8s\.io\/|kubelet|runtime|training-operator|kubeflow\/trainer|kueue|kube-apiserver|kube-scheduler|Go int|encoding\/json)/.test(r.source))).toEqual([]);
  });

  test('every rule has a test that expects one of its findings', () => {
    const tests = fs.readdirSync(__dirname).filter(f => f.endsWith('.test.ts') && f !== 'rules.test.ts')
      .map(f => fs.readFileSync(path.join(__dirname, f), 'utf8')).join('\n');
    expect(all.filter(r => !tests.includes(`'${r.id}'`)).map(r => r.id)).toEqual([]);
  });
});

describe('the rules only read the document', () => {
  function deepFreeze<T>(value: T): T {
    if (value !== null && typeof value === 'object') {
      for (const v of Object.values(value)) deepFreeze(v);
      Object.freeze(value);
    }
    return value;
  }

  test('a frozen document with findings is checked without being changed', () => {
    const doc = pytorchJob();
    doc.metadata.labels = { 'team name': 'a b' };
    doc.spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].ports[0].name = 'Port';
    const before = JSON.stringify(doc);
    deepFreeze(doc);
    expect(kubernetesFindings(doc).map(f => f.rule)).toEqual(['k8s/label-key', 'k8s/label-value', 'k8s/port-name']);
    expect(restrictedFindings(doc.spec.pytorchReplicaSpecs.Worker.template.spec, 'spec').length).toBeGreaterThan(0);
    expect(appFindings([{ path: 'a', doc }, { path: 'b', doc }]).map(f => f.finding.rule)).toEqual(['app/duplicate-object']);
    expect(JSON.stringify(doc)).toBe(before);
  });

  test('anything that is not an object gives no findings', () => {
    for (const doc of [null, undefined, 1, 'x', []]) expect(kubernetesFindings(doc)).toEqual([]);
  });
});
