import * as fs from 'fs';
import * as path from 'path';
import { APP_RULES, appFindings } from '../../src/rules/across-documents';
import { DOCUMENT_RULES, ruleSource } from '../../src/rules/catalogue';
import { KUBERNETES_RULES, POD_SECURITY_RESTRICTED_RULES, TRAINER_DOCUMENT_RULES, kubernetesFindings, restrictedFindings } from '../../src/rules/kubernetes';
import { KUBEFLOW_RULES } from '../../src/rules/operators';
import { RULE_SOURCES } from '../../src/rules/rule';
import { pytorchJob } from '../harness/example-documents';

/** The rule catalogue: what the layer checks, per family, each rule named, sourced and tested. */
describe('the rule catalogue', () => {
  const all = [...KUBERNETES_RULES, ...POD_SECURITY_RESTRICTED_RULES, ...TRAINER_DOCUMENT_RULES, ...APP_RULES];

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
      'app': 16,
      'env': 1,
      'pod-security': 15,
      'runtimes': 6,
      'runtime-patches': 3,
    });
  });

  test('ids are unique and carry their layer', () => {
    expect(new Set(all.map(r => r.id)).size).toBe(all.length);
    expect([...KUBERNETES_RULES, ...POD_SECURITY_RESTRICTED_RULES].filter(r => !r.id.startsWith('k8s/'))).toEqual([]);
    expect(TRAINER_DOCUMENT_RULES.filter(r => !r.id.startsWith('trainer/'))).toEqual([]);
    expect(APP_RULES.filter(r => !r.id.startsWith('app/'))).toEqual([]);
  });

  test('every rule declares its source, one of the groups', () => {
    const sources = new Set<string>(RULE_SOURCES.map(s => s.source));
    expect(DOCUMENT_RULES.filter(r => !sources.has(r.source)).map(r => r.id)).toEqual([]);
    expect(new Set(DOCUMENT_RULES.map(r => r.id)).size).toBe(DOCUMENT_RULES.length);
    const bySource: Record<string, string[]> = {};
    for (const r of DOCUMENT_RULES) (bySource[r.source] ??= []).push(r.id);
    // The Kubernetes group: the k8s/ rules and the across-document rules of the API server and kubelet.
    expect(bySource.kubernetes).toEqual([...KUBERNETES_RULES, ...POD_SECURITY_RESTRICTED_RULES].map(r => r.id).concat('app/duplicate-object', 'app/claim-namespace'));
    // Trainer's webhook and plugin rules are not Kubernetes rules, though one walk applies both.
    expect(bySource.trainer).toEqual(['trainer/runtime-ref-kind', 'trainer/runtime-step', 'trainer/replicated-job-name', 'trainer/patch-manager', 'trainer/patch-env', 'trainer/kueue-patch-metadata', 'trainer/runtime-policy', 'trainer/counts', 'trainer/ssh-auth-mount-path', 'trainer/replicated-job-name-length', 'trainer/prte-env', 'app/trainjob-runtime', 'app/trainjob-reach', 'app/mpi-launcher-image', 'app/mpi-node-image']);
    expect(bySource.kueue).toEqual([
      'kueue/topology', 'kueue/slice-size', 'kueue/cluster-queue-resources', 'kueue/cluster-queue-flavors', 'kueue/cluster-queue-quotas', 'kueue/fair-sharing-weight',
      'kueue/cohort-resource-groups', 'kueue/resource-flavor-taints', 'kueue/api-version-served', 'app/multikueue-queue', 'app/kueue-queue-name', 'app/kueue-reference',
      'app/kueue-cohort-cycle', 'app/kueue-never-admitted', 'app/kueue-trainjob-placement',
    ]);
    expect(bySource.notebooks).toEqual([
      'kubeflow/option-default', 'kubeflow/option-redirect', 'kubeflow/image-port', 'kubeflow/activity-probe', 'kubeflow/activity-rules', 'kubeflow/home-mount',
      'kubeflow/filter-rules', 'kubeflow/workspace-kind-template', 'kubeflow/workspace-option',
    ]);
    expect(bySource['training-operator']).toEqual(['app/pod-name-collision', ...KUBEFLOW_RULES.map(r => r.id).filter(id => !bySource.notebooks.includes(id))]);
    expect(bySource.library).toEqual(['crd/schema', 'kai/topology']);
    expect(bySource.jobset).toEqual([
      'jobset/depends-on', 'jobset/subdomain', 'jobset/group-name', 'jobset/target-replicated-jobs', 'jobset/failure-policy-rule',
      'jobset/coordinator', 'jobset/volume-claim-template', 'jobset/replicas-parallelism', 'jobset/managed-by', 'app/jobset-pod-name',
      'app/jobset-coordinator', 'app/jobset-claim-name',
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
    expect(kubernetesFindings(doc).map(f => f.rule)).toEqual(['k8s/label-key', 'k8s/label-value', 'k8s/port-name']);
    expect(restrictedFindings(doc.spec.pytorchReplicaSpecs.Worker.template.spec, 'spec').length).toBeGreaterThan(0);
    expect(appFindings([{ path: 'a', doc }, { path: 'b', doc }]).map(f => f.finding.rule)).toEqual(['app/duplicate-object']);
    expect(JSON.stringify(doc)).toBe(before);
  });

  test('anything that is not an object gives no findings', () => {
    for (const doc of [null, undefined, 1, 'x', []]) expect(kubernetesFindings(doc)).toEqual([]);
  });
});
