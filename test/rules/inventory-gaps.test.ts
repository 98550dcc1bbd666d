import { kubernetesFindings } from '../../src/rules/kubernetes';
import { documentFindings } from '../../src/rules/rule-sets';
import { DNS_1035_LABEL } from '../harness/messages';

/**
 * Checks the rules inventory found upstream making and no library rule covering, now covered:
 * each with the exact finding, and the nearest valid input without one.
 */

const container = { name: 'pytorch', image: 'pytorch/pytorch:2.4.0' };
const replica = (replicas?: number) => ({ ...(replicas === undefined ? {} : { replicas }), template: { spec: { containers: [container] } } });
const pytorch = (specs: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'kubeflow.org/v1',
  kind: 'PyTorchJob',
  metadata: { name: 'train', namespace: 'ml' },
  spec: { pytorchReplicaSpecs: specs, ...extra },
});

describe('training-operator pkg/webhooks/pytorch validatePyTorchReplicaSpecs and validateSpec', () => {
  test('a Worker with replicas 0 is refused (training-operator/replica-count)', () => {
    expect(documentFindings(pytorch({ Master: replica(1), Worker: replica(0) }))).toEqual([{
      field: 'spec.pytorchReplicaSpecs.Worker.replicas',
      value: 0,
      allowed: 'expected at least 1; the operator refuses a Worker written with fewer replicas (leave the Worker out instead)',
      rule: 'training-operator/replica-count',
    }]);
    expect(documentFindings(pytorch({ Master: replica(1), Worker: replica(1) }))).toEqual([]);
    expect(documentFindings(pytorch({ Master: replica(1), Worker: replica() }))).toEqual([]);
  });

  test('an elastic job without a Worker is refused (training-operator/replica-count)', () => {
    const elastic = { elasticPolicy: { minReplicas: 1, maxReplicas: 2, rdzvBackend: 'c10d' } };
    expect(documentFindings(pytorch({}, elastic))).toEqual([{
      field: 'spec.pytorchReplicaSpecs.Worker',
      value: undefined,
      allowed: 'expected at least 1 for an elastic job, which runs workers only',
      rule: 'training-operator/replica-count',
    }]);
    expect(documentFindings(pytorch({ Worker: replica(2) }, elastic))).toEqual([]);
  });
});

describe('sigs.k8s.io/jobset v0.12.0 pkg/webhooks/jobset_webhook.go ValidateCreate, on a runtime\'s JobSet template', () => {
  const REFUSED = 'the JobSet webhook refuses it, so every TrainJob of this runtime is admitted and never starts';
  const pod = (mounts: string[] = [], volumes: string[] = []) => ({
    spec: {
      containers: [{ name: 'node', image: 'pytorch/pytorch:2.4.0', volumeMounts: mounts.map(m => ({ name: m, mountPath: `/${m}` })) }],
      volumes: volumes.map(v => ({ name: v, emptyDir: {} })),
    },
  });
  const runtime = (spec: Record<string, unknown>, jobs: Array<Record<string, unknown>> = [
    { name: 'init', template: { spec: { template: pod() } } },
    { name: 'node', template: { spec: { template: pod(['data']) } } },
  ]) => ({
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'TrainingRuntime',
    metadata: { name: 'rt', namespace: 'ml' },
    spec: { template: { spec: { replicatedJobs: jobs, ...spec } } },
  });
  const jobsetFindings = (doc: unknown) => kubernetesFindings(doc).filter(f => f.rule?.startsWith('jobset/'));
  const one = (field: string, value: unknown, allowed: string, rule: string) => [{ field, value, allowed: `${allowed}; ${REFUSED}`, rule }];

  test('a runtime without any of these has no finding', () => {
    expect(jobsetFindings(runtime({}))).toEqual([]);
    expect(jobsetFindings(runtime({
      network: { subdomain: 'train' },
      successPolicy: { operator: 'All', targetReplicatedJobs: ['node'] },
      failurePolicy: { rules: [{ name: 'retry_on:backoff', action: 'RestartJobSet', onJobFailureReasons: ['BackoffLimitExceeded'], targetReplicatedJobs: ['node'] }, { action: 'FailJobSet' }] },
      coordinator: { replicatedJob: 'node' },
      volumeClaimPolicies: [{ templates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] }],
    }, [
      { name: 'init', template: { spec: { template: pod() } } },
      { name: 'node', dependsOn: [{ name: 'init', status: 'Complete' }], groupName: 'trainers', template: { spec: { template: pod(['data']) } } },
    ]))).toEqual([]);
  });

  test('jobset/depends-on: the first job depends on nothing; a dependency is listed before', () => {
    expect(jobsetFindings(runtime({}, [
      { name: 'init', dependsOn: [{ name: 'node', status: 'Ready' }], template: { spec: { template: pod() } } },
      { name: 'node', template: { spec: { template: pod() } } },
    ]))).toEqual(one('spec.template.spec.replicatedJobs[0].dependsOn', [{ name: 'node', status: 'Ready' }],
      'expected no dependsOn on the first replicated job', 'jobset/depends-on'));
    expect(jobsetFindings(runtime({}, [
      { name: 'init', template: { spec: { template: pod() } } },
      { name: 'node', dependsOn: [{ name: 'later', status: 'Ready' }], template: { spec: { template: pod() } } },
    ]))).toEqual(one('spec.template.spec.replicatedJobs[1].dependsOn[0].name', 'later',
      'expected a replicated job listed before this one ("init")', 'jobset/depends-on'));
  });

  test('jobset/subdomain and jobset/group-name: DNS-1035 labels', () => {
    const label = DNS_1035_LABEL;
    expect(jobsetFindings(runtime({ network: { subdomain: 'my.train' } }))).toEqual(one('spec.template.spec.network.subdomain', 'my.train',
      `${label} (it names the JobSet's Service)`, 'jobset/subdomain'));
    expect(jobsetFindings(runtime({}, [{ name: 'node', groupName: '1st', template: { spec: { template: pod() } } }])))
      .toEqual(one('spec.template.spec.replicatedJobs[0].groupName', '1st', label, 'jobset/group-name'));
  });

  test('jobset/target-replicated-jobs: success and failure policies target jobs of the runtime', () => {
    expect(jobsetFindings(runtime({ successPolicy: { operator: 'All', targetReplicatedJobs: ['trainer'] } }))).toEqual(
      one('spec.template.spec.successPolicy.targetReplicatedJobs[0]', 'trainer', 'expected a replicated job of this runtime ("init", "node")', 'jobset/target-replicated-jobs'));
    expect(jobsetFindings(runtime({ failurePolicy: { rules: [{ action: 'FailJobSet', targetReplicatedJobs: ['nodes'] }] } }))).toEqual(
      one('spec.template.spec.failurePolicy.rules[0].targetReplicatedJobs[0]', 'nodes', 'expected a replicated job of this runtime ("init", "node")', 'jobset/target-replicated-jobs'));
  });

  test('jobset/failure-policy-rule: names, their uniqueness (defaulted names included), failure reasons', () => {
    const nameText = 'expected at most 128 letters, digits, "_", "," or ":", starting with a letter and ending with a letter, digit or "_"';
    expect(jobsetFindings(runtime({ failurePolicy: { rules: [{ name: 'retry-on-oom', action: 'FailJobSet' }] } }))).toEqual(
      one('spec.template.spec.failurePolicy.rules[0].name', 'retry-on-oom', nameText, 'jobset/failure-policy-rule'));
    expect(jobsetFindings(runtime({ failurePolicy: { rules: [{ action: 'FailJobSet' }, { name: 'failurePolicyRule0', action: 'FailJobSet' }] } }))).toEqual(
      one('spec.template.spec.failurePolicy.rules[1].name', 'failurePolicyRule0', 'expected a name no other rule has (rule 0 has it)', 'jobset/failure-policy-rule'));
    expect(jobsetFindings(runtime({ failurePolicy: { rules: [{ action: 'FailJobSet', onJobFailureReasons: ['OOMKilled'] }] } }))).toEqual(
      one('spec.template.spec.failurePolicy.rules[0].onJobFailureReasons[0]', 'OOMKilled',
        'expected one of "BackoffLimitExceeded", "DeadlineExceeded", "FailedIndexes", "MaxFailedIndexesExceeded", "PodFailurePolicy"', 'jobset/failure-policy-rule'));
  });

  test('jobset/coordinator: the coordinator is a job of the runtime', () => {
    expect(jobsetFindings(runtime({ coordinator: { replicatedJob: 'launcher' } }))).toEqual(
      one('spec.template.spec.coordinator.replicatedJob', 'launcher', 'expected a replicated job of this runtime ("init", "node")', 'jobset/coordinator'));
  });

  test('jobset/volume-claim-template: unique DNS-1123 names, mounted, not a pod volume\'s name', () => {
    const claims = (...names: string[]) => ({ volumeClaimPolicies: [{ templates: names.map(name => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'] } })) }] });
    expect(jobsetFindings(runtime(claims('data', 'data')))).toEqual(one('spec.template.spec.volumeClaimPolicies[0].templates[1].metadata.name', 'data',
      'expected a name no other claim template has', 'jobset/volume-claim-template'));
    expect(jobsetFindings(runtime(claims('data', 'cache')))).toEqual(one('spec.template.spec.volumeClaimPolicies[0].templates[1].metadata.name', 'cache',
      'expected a container of the runtime to mount it (volumeMounts[].name)', 'jobset/volume-claim-template'));
    expect(jobsetFindings(runtime(claims('data'), [{ name: 'node', template: { spec: { template: pod(['data'], ['data']) } } }]))).toEqual(
      one('spec.template.spec.volumeClaimPolicies[0].templates[0].metadata.name', 'data',
        'expected a name no pod volume of the runtime has (the JobSet adds the claim\'s volume under it)', 'jobset/volume-claim-template'));
  });

  test('jobset/managed-by: a domain-prefixed path of at most 63 characters', () => {
    const allowed = 'expected a domain-prefixed path such as "example.io/controller" of at most 63 characters';
    expect(jobsetFindings(runtime({ managedBy: 'my-controller' }))).toEqual(one('spec.template.spec.managedBy', 'my-controller', allowed, 'jobset/managed-by'));
    const long = `example.io/${'c'.repeat(53)}`;
    expect(jobsetFindings(runtime({ managedBy: long }))).toEqual(one('spec.template.spec.managedBy', long, allowed, 'jobset/managed-by'));
    expect(jobsetFindings(runtime({ managedBy: long.slice(0, 63) }))).toEqual([]);
  });

  test('jobset/replicas-parallelism: their product fits int32', () => {
    expect(jobsetFindings(runtime({}, [{ name: 'node', replicas: 65536, template: { spec: { parallelism: 65536, template: pod() } } }]))).toEqual(
      one('spec.template.spec.replicatedJobs[0].replicas', 65536, 'expected replicas x parallelism (65536 x 65536) of at most 2147483647', 'jobset/replicas-parallelism'));
  });
});
