import * as fs from 'fs';
import * as path from 'path';
import { ALL_RULES, ruleSeverity, ruleSource } from '../../src/rules/catalogue';
import { kubernetesFindings, restrictedFindings } from '../../src/rules/kubernetes';
import { KUBERNETES_RULE_SET } from '../../src/rules/kubernetes/rule-set';
import { appFindings, RULE_SETS } from '../../src/rules/rule-sets';
import { TRAINER_RULE_SET } from '../../src/rules/trainer/rule-set';
import { TRAINING_OPERATOR_RULE_SET } from '../../src/rules/training-operator/rule-set';
import { pytorchJob } from '../harness/example-documents';

/** The rule catalogue: what the layer checks, per family, each rule named, sourced and tested. */
describe('the rule catalogue', () => {
  // The rules test/validation covers: Kubernetes', Trainer's and every rule across documents.
  const sets = [...KUBERNETES_RULE_SET.rules, ...TRAINER_RULE_SET.rules];
  const all = [...sets, ...ALL_RULES.filter(r => r.family === 'app' && !sets.some(s => s.id === r.id))];

  test('rules per family', () => {
    const families: Record<string, string[]> = {};
    for (const rule of all) (families[rule.family] ??= []).push(rule.id);
    expect(Object.fromEntries(Object.entries(families).map(([family, ids]) => [family, ids.length]))).toEqual({
      'metadata': 8,
      'pod': 37,
      'volumes': 12,
      'scheduling': 15,
      'resources': 9,
      'security': 11,
      'numbers': 4,
      'objects': 4,
      'claims': 6,
      'app': 20,
      'env': 1,
      'pod-security': 15,
      'runtimes': 13,
      'runtime-patches': 3,
    });
  });

  test('ids are unique and start with their source', () => {
    expect(new Set(ALL_RULES.map(r => r.id)).size).toBe(ALL_RULES.length);
    expect(ALL_RULES.filter(r => !r.id.startsWith(`${r.source}/`)).map(r => r.id)).toEqual([]);
  });

  test('every rule has a one-line description, a severity and its anchor on the rules page', () => {
    expect(ALL_RULES.filter(r => r.description.trim() === '' || r.description.includes('\n')).map(r => r.id)).toEqual([]);
    // Every rule is an error today: each finds what its upstream refuses or what never works.
    expect(ALL_RULES.filter(r => r.severity !== 'error').map(r => r.id)).toEqual([]);
    expect(ruleSeverity('kubernetes/label-key')).toBe('error');
    expect(ruleSeverity(undefined)).toBe('error');
    expect(ALL_RULES.find(r => r.id === 'kubernetes/label-key')?.anchor).toBe('docs/rules.md#rule-kubernetes-label-key');
    const page = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
    expect(ALL_RULES.filter(r => !page.includes(`<a id="${r.anchor.slice(r.anchor.indexOf('#') + 1)}"></a>`)).map(r => r.id)).toEqual([]);
  });

  test('every rule is in the set of its source, and every set is of a different source', () => {
    expect(RULE_SETS.flatMap(s => s.rules.filter(r => r.source !== s.source).map(r => r.id))).toEqual([]);
    expect(new Set(RULE_SETS.map(s => s.source)).size).toBe(RULE_SETS.length);
    expect(RULE_SETS.map(s => s.source)).toEqual(['kubernetes', 'jobset', 'trainer', 'training-operator', 'notebooks', 'kueue', 'library']);
  });

  test('every rule declares its source, one of the groups', () => {
    const bySource: Record<string, string[]> = {};
    for (const r of ALL_RULES) (bySource[r.source] ??= []).push(r.id);
    // The Kubernetes group: the Kubernetes rules and the across-document rules of the API server and kubelet.
    expect(bySource.kubernetes.slice(-2)).toEqual(['kubernetes/duplicate-object', 'kubernetes/claim-namespace']);
    expect(bySource.kubernetes.length).toBe(124);
    // Trainer's webhook and plugin rules are not Kubernetes rules, though one walk applies both.
    expect(bySource.trainer).toEqual(['trainer/runtime-ref-kind', 'trainer/runtime-step', 'trainer/replicated-job-name', 'trainer/patch-manager', 'trainer/patch-env', 'trainer/kueue-patch-metadata', 'trainer/runtime-policy', 'trainer/counts', 'trainer/ssh-auth-mount-path', 'trainer/replicated-job-name-length', 'trainer/prte-env', 'trainer/runtime-plugin-env', 'trainer/rendezvous-address', 'trainer/mpi-implementation', 'trainer/runtime-plugin-port', 'trainer/runtime-plugin-volume', 'trainer/initializer-storage-uri', 'trainer/patch-replaces-list', 'trainer/trainjob-runtime', 'trainer/trainjob-reach', 'trainer/mpi-launcher-image', 'trainer/mpi-node-image']);
    expect(bySource.kueue).toEqual([
      'kueue/topology', 'kueue/slice-size', 'kueue/cluster-queue-resources', 'kueue/cluster-queue-flavors', 'kueue/cluster-queue-quotas', 'kueue/fair-sharing-weight',
      'kueue/cohort-resource-groups', 'kueue/resource-flavor-taints', 'kueue/api-version-served', 'kueue/multikueue-queue', 'kueue/queue-name', 'kueue/reference',
      'kueue/cohort-cycle', 'kueue/never-admitted', 'kueue/trainjob-placement', 'kueue/namespace-selector',
    ]);
    expect(bySource.notebooks).toEqual([
      'notebooks/option-default', 'notebooks/option-redirect', 'notebooks/image-port', 'notebooks/activity-probe', 'notebooks/activity-rules', 'notebooks/home-mount',
      'notebooks/filter-rules', 'notebooks/workspace-kind-template', 'notebooks/workspace-option', 'notebooks/workspace-pod-annotations',
      'notebooks/reserved-pod-label', 'notebooks/reserved-volume-name', 'notebooks/workspace-mount-path',
    ]);
    expect(bySource['training-operator']).toEqual(TRAINING_OPERATOR_RULE_SET.rules.map(r => r.id));
    expect(bySource['training-operator'][0]).toBe('training-operator/pod-name-collision');
    expect(bySource.library).toEqual(['library/yaml-syntax', 'library/schema', 'library/kai-topology', 'library/ignore-rule']);
    expect(bySource.jobset).toEqual([
      'jobset/depends-on', 'jobset/subdomain', 'jobset/group-name', 'jobset/target-replicated-jobs', 'jobset/failure-policy-rule',
      'jobset/coordinator', 'jobset/volume-claim-template', 'jobset/replicas-parallelism', 'jobset/managed-by', 'jobset/exclusive-topology',
      'jobset/pod-priority-label', 'jobset/pod-name', 'jobset/coordinator-index', 'jobset/claim-name', 'jobset/controller-keys',
    ]);
    expect(ruleSource('trainer/patch-env')).toBe('trainer');
    expect(ruleSource(undefined)).toBeUndefined();
  });

  test('every rule names the upstream function or behaviour it mirrors', () => {
    expect(all.filter(r => !/(k8s\.io\/|kubelet|runtime|training-operator|kubeflow\/trainer|kueue|kube-apiserver|kube-scheduler|Go int|encoding\/json)/.test(r.upstream))).toEqual([]);
  });

  test('every rule has a test that expects one of its findings', () => {
    // The rule tests: every test file under test/rules/ but this one.
    const tests = (fs.readdirSync(__dirname, { recursive: true }) as string[])
      .filter(f => f.endsWith('.test.ts') && path.join(__dirname, f) !== __filename)
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
    expect(kubernetesFindings(doc).map(f => f.rule)).toEqual(['kubernetes/label-key', 'kubernetes/label-value', 'kubernetes/port-name']);
    expect(restrictedFindings(doc.spec.pytorchReplicaSpecs.Worker.template.spec, 'spec').length).toBeGreaterThan(0);
    expect(appFindings([{ path: 'a', doc }, { path: 'b', doc }]).map(f => f.finding.rule)).toEqual(['kubernetes/duplicate-object']);
    expect(JSON.stringify(doc)).toBe(before);
  });

  test('anything that is not an object gives no findings', () => {
    for (const doc of [null, undefined, 1, 'x', []]) expect(kubernetesFindings(doc)).toEqual([]);
  });
});
