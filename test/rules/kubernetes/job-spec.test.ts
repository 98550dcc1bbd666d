import { describe as describeFinding } from '../../../src/rules/finding';
import { kubernetesFindings } from '../../../src/rules/kubernetes';
import { appFindings } from '../../../src/rules/rule-sets';

/**
 * The Job spec of a runtime's replicated jobs and the TrainJob's container fields: what the API
 * server refuses in the Jobs the JobSet controller creates (the derived-object oracle's findings,
 * conformance/trainer TestJobSetDerived and TestLeafFuzz, validated by conformance/kube).
 */
const API = 'trainer.kubeflow.org/v1alpha1';
const NEVER = 'the API server refuses the Jobs the JobSet controller creates from it, so no TrainJob of this runtime gets pods';
const JOB = 'spec.template.spec.replicatedJobs[0].template.spec';

function runtime(jobSpec: any, podSpec: any = {}): any {
  return {
    apiVersion: API,
    kind: 'ClusterTrainingRuntime',
    metadata: { name: 'rt' },
    spec: {
      mlPolicy: { numNodes: 1, torch: {} },
      template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { ...jobSpec, template: { spec: { containers: [{ name: 'node', image: 'i' }], ...podSpec } } } } }] } },
    },
  };
}

const rules = (doc: any) => kubernetesFindings(doc).filter(f => /^kubernetes\/(job-|env|resource|image)/.test(f.rule ?? ''))
  .map(f => `${f.rule} ${describeFinding(f)}`);

describe('kubernetes/job-spec: a replicated job\'s Job spec', () => {
  test('the upstream runtimes\' shape (no Job fields, the JobSet\'s defaults) has no findings', () => {
    expect(rules(runtime({ parallelism: 2, completions: 2, backoffLimit: 0 }))).toEqual([]);
    expect(rules(runtime({ completionMode: 'NonIndexed' }, { restartPolicy: 'Never' }))).toEqual([]);
  });

  test('negative counts, an unknown or empty completionMode, a too large Indexed parallelism', () => {
    expect(rules(runtime({ activeDeadlineSeconds: -1, backoffLimit: -1, completionMode: '' }))).toEqual([
      `kubernetes/job-spec ${JOB}.activeDeadlineSeconds is -1; expected 0 or more; ${NEVER}`,
      `kubernetes/job-spec ${JOB}.backoffLimit is -1; expected 0 or more; ${NEVER}`,
      `kubernetes/job-spec ${JOB}.completionMode is ""; expected "NonIndexed" or "Indexed" (or not set: the JobSet makes it Indexed); ${NEVER}`,
    ]);
    expect(rules(runtime({ parallelism: 100001, completions: 100001 }))).toEqual([
      `kubernetes/job-spec ${JOB}.parallelism is 100001; expected at most 100000 in an Indexed Job (the JobSet's default); ${NEVER}`,
    ]);
  });

  test('per-index limits need Indexed, and maxFailedIndexes needs backoffLimitPerIndex', () => {
    expect(rules(runtime({ completionMode: 'NonIndexed', maxFailedIndexes: 1 }, { restartPolicy: 'Never' }))).toEqual([
      `kubernetes/job-spec ${JOB}.backoffLimitPerIndex is not set; expected a value when maxFailedIndexes is set; ${NEVER}`,
      `kubernetes/job-spec ${JOB}.maxFailedIndexes is 1; expected not set in a NonIndexed Job (it needs completionMode Indexed); ${NEVER}`,
    ]);
  });

  test('a selector without manualSelector, manualSelector without a selector', () => {
    expect(rules(runtime({ selector: { matchLabels: { app: 'x' } } }))).toEqual([
      `kubernetes/job-spec ${JOB}.selector is {"matchLabels":{"app":"x"}}; expected not set (the API server generates it from the Job's UID; a written one needs manualSelector true and labels the JobSet cannot know); ${NEVER}`,
    ]);
    expect(rules(runtime({ manualSelector: true }))).toEqual([
      `kubernetes/job-spec ${JOB}.selector is not set; expected a selector when manualSelector is true; ${NEVER}`,
    ]);
  });

  test('an Indexed Job\'s successPolicy: rules with a count within the completions, or indexes', () => {
    expect(rules(runtime({ completions: 2, parallelism: 2, successPolicy: { rules: [{ succeededCount: 3 }, {}] } }))).toEqual([
      `kubernetes/job-spec ${JOB}.successPolicy.rules[0].succeededCount is 3; expected 0 to the completions (2); ${NEVER}`,
      `kubernetes/job-spec ${JOB}.successPolicy.rules[1] is {}; expected succeededCount or succeededIndexes; ${NEVER}`,
    ]);
    expect(rules(runtime({ completions: 2, parallelism: 2, successPolicy: { rules: [{ succeededIndexes: '0-1' }] } }))).toEqual([]);
  });

  // Found by the leaf fuzzer's derived-jobset source: the Job refuses what validateIndexesFormat cannot parse.
  test('succeededIndexes the Job cannot parse: a word, an interval of three parts, a decreasing order', () => {
    const allowed = `expected indexes such as "0,2-4": whole numbers and intervals a-b with a < b, separated by commas, in increasing order; ${NEVER}`;
    expect(rules(runtime({ successPolicy: { rules: [{ succeededIndexes: 'fuzz' }, { succeededIndexes: '1-2-3' }, { succeededIndexes: '3,1' }, { succeededIndexes: '0,2-4,7' }] } }))).toEqual([
      `kubernetes/job-spec ${JOB}.successPolicy.rules[0].succeededIndexes is "fuzz"; ${allowed}`,
      `kubernetes/job-spec ${JOB}.successPolicy.rules[1].succeededIndexes is "1-2-3"; ${allowed}`,
      `kubernetes/job-spec ${JOB}.successPolicy.rules[2].succeededIndexes is "3,1"; ${allowed}`,
    ]);
  });

  test('an empty pod restartPolicy is the JobSet\'s default, as an unset one', () => {
    expect(rules(runtime({}, { restartPolicy: '' }))).toEqual([]);
  });

  test('the pod restartPolicy Always, an unknown podReplacementPolicy', () => {
    expect(rules(runtime({ podReplacementPolicy: 'Sometimes' }, { restartPolicy: 'Always' }))).toEqual([
      `kubernetes/job-spec ${JOB}.template.spec.restartPolicy is "Always"; expected "OnFailure" or "Never" (or not set: the JobSet makes it OnFailure); ${NEVER}`,
      `kubernetes/job-spec ${JOB}.podReplacementPolicy is "Sometimes"; expected "Failed", "TerminatingOrFailed"; ${NEVER}`,
    ]);
  });
});

describe('kubernetes/job-pod-failure-policy', () => {
  test('an empty or unknown action, FailIndex without backoffLimitPerIndex, restartPolicy not Never', () => {
    expect(rules(runtime({
      podFailurePolicy: {
        rules: [
          { action: '', onExitCodes: { operator: 'In', values: [1] } },
          { action: 'fuzz', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          { action: 'FailIndex', onExitCodes: { operator: 'In', values: [2] } },
        ],
      },
    }))).toEqual([
      `kubernetes/job-pod-failure-policy ${JOB}.template.spec.restartPolicy is not set; expected "Never" with a podFailurePolicy (not set, the JobSet makes it OnFailure); ${NEVER}`,
      `kubernetes/job-pod-failure-policy ${JOB}.podFailurePolicy.rules[0].action is ""; expected one of "Count", "FailIndex", "FailJob", "Ignore"; ${NEVER}`,
      `kubernetes/job-pod-failure-policy ${JOB}.podFailurePolicy.rules[1].action is "fuzz"; expected one of "Count", "FailIndex", "FailJob", "Ignore"; ${NEVER}`,
      `kubernetes/job-pod-failure-policy ${JOB}.podFailurePolicy.rules[2].action is "FailIndex"; expected another action, or backoffLimitPerIndex set (FailIndex needs it); ${NEVER}`,
    ]);
  });

  test('patterns: exactly one, exit codes ordered and unique (no 0 for In), a container of the pod, a known status', () => {
    expect(rules(runtime({
      podFailurePolicy: {
        rules: [
          { action: 'Ignore' },
          { action: 'FailJob', onExitCodes: { operator: 'In', values: [3, 0], containerName: 'sidecar' } },
          { action: 'Count', onPodConditions: [{ type: 'DisruptionTarget', status: 'Maybe' }] },
        ],
      },
    }, { restartPolicy: 'Never' }))).toEqual([
      `kubernetes/job-pod-failure-policy ${JOB}.podFailurePolicy.rules[0] is {"action":"Ignore"}; expected exactly one of onExitCodes and onPodConditions; ${NEVER}`,
      `kubernetes/job-pod-failure-policy ${JOB}.podFailurePolicy.rules[1].onExitCodes.containerName is "sidecar"; expected a container or init container of the pod template; ${NEVER}`,
      `kubernetes/job-pod-failure-policy ${JOB}.podFailurePolicy.rules[1].onExitCodes.values is [3, 0]; expected exit codes in increasing order, each once, without 0 for In; ${NEVER}`,
      `kubernetes/job-pod-failure-policy ${JOB}.podFailurePolicy.rules[2].onPodConditions[0].status is "Maybe"; expected one of "False", "True", "Unknown"; ${NEVER}`,
    ]);
  });
});

test('each Job spec rule is found by its id', () => {
  const doc = runtime({ backoffLimit: -1, podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } }] } }, { restartPolicy: 'Never' });
  doc.spec.template.spec.replicatedJobs[0].template.spec.podFailurePolicy.rules[0].action = 'fuzz';
  expect([...new Set(kubernetesFindings(doc).map(f => f.rule))]).toEqual(['kubernetes/job-spec', 'kubernetes/job-pod-failure-policy']);
});

describe('a TrainJob\'s env and resources, which land in the JobSet\'s containers', () => {
  const job = (spec: any) => ({
    apiVersion: API,
    kind: 'TrainJob',
    metadata: { name: 'job', namespace: 'ml' },
    spec: { runtimeRef: { name: 'torch-distributed' }, ...spec },
  });

  test('a resource name that is not standard or qualified, a Secret reference without a name', () => {
    expect(rules(job({
      trainer: { resourcesPerNode: { limits: { 'fuzz-key': '1' } }, env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { key: 'k', optional: true } } }] },
      initializer: { model: { env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: '' } } }] } },
    }))).toEqual([
      'kubernetes/env-key-ref spec.trainer.env[0].valueFrom.secretKeyRef.name is not set; expected a Secret name: a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit',
      'kubernetes/resource-name spec.trainer.resourcesPerNode.limits["fuzz-key"] is "fuzz-key"; expected cpu, memory, ephemeral-storage, hugepages-<size>, or an extended resource with a domain prefix such as nvidia.com/gpu',
      'kubernetes/env-key-ref spec.initializer.model.env[0].valueFrom.configMapKeyRef.key is ""; expected a key of the ConfigMap: at most 253 letters, digits, "-", "_" or ".", not "." or ".." and not starting with ".."',
    ]);
  });

  test('an env name with "=", two sources, a pod field env cannot read (the dataset initializer\'s env)', () => {
    expect(rules(job({
      initializer: {
        dataset: {
          env: [
            { name: 'A=B', value: '1' },
            { name: 'C', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } },
            { name: 'D', valueFrom: { fieldRef: { fieldPath: 'spec.containers' } } },
          ],
        },
      },
    })).map(r => r.split(' ').slice(0, 2).join(' '))).toEqual([
      'kubernetes/env-name spec.initializer.dataset.env[0].name',
      'kubernetes/env-value-from spec.initializer.dataset.env[1].valueFrom',
      'kubernetes/env-field-ref spec.initializer.dataset.env[2].valueFrom.fieldRef.fieldPath',
    ]);
  });

  test('an empty image, or one with surrounding spaces, replaces the runtime\'s', () => {
    expect(rules(job({ trainer: { image: '' } })).concat(kubernetesFindings(job({ trainer: { image: ' image:1 ' } })).map(f => `${f.rule} ${describeFinding(f)}`))).toEqual([
      'kubernetes/image spec.trainer.image is ""; expected a container image reference such as ghcr.io/org/image:tag',
      'kubernetes/image spec.trainer.image is " image:1 "; expected an image reference without leading or trailing whitespace',
    ]);
  });

  test('valid env and resources have no findings', () => {
    expect(rules(job({ trainer: { resourcesPerNode: { limits: { 'nvidia.com/gpu': '1', 'cpu': '2' } }, env: [{ name: 'A', value: '1' }] } }))).toEqual([]);
  });
});

test('kubernetes/job-spec on a TrainJob: more nodes than an Indexed Job runs at once', () => {
  const job = (numNodes: number) => ({
    apiVersion: API,
    kind: 'TrainJob',
    metadata: { name: 'big', namespace: 'ml' },
    spec: { runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'torch-distributed' }, trainer: { numNodes } },
  });
  const found = (numNodes: number) => appFindings([{ path: 'chart/0', doc: job(numNodes) }]).filter(f => f.finding.rule === 'kubernetes/job-spec')
    .map(f => `${f.finding.rule} ${describeFinding(f.finding)}`);
  expect(found(100000)).toEqual([]);
  expect(found(100001)).toEqual([
    'kubernetes/job-spec spec.trainer.numNodes is 100001; expected at most 100000 pods in the "node" job of the runtime "torch-distributed" (built into Trainer v2.3.0), here 100001: '
    + 'the job is Indexed (the JobSet\'s default), and the API server refuses an Indexed Job with a larger parallelism, so the JobSet\'s Jobs are never created and the TrainJob never gets pods',
  ]);
});

test('the labels and annotations the Trainer copies onto the JobSet and the JobSet controller onto its Jobs', () => {
  const doc = runtime({});
  doc.spec.template.metadata = { labels: { 'bad key!': 'v' } };
  doc.spec.template.spec.replicatedJobs[0].template.metadata = { labels: { 'job key!': 'v' }, annotations: { 'Bad Annotation': 'v' } };
  const job = {
    apiVersion: API,
    kind: 'TrainJob',
    metadata: { name: 'job', namespace: 'ml' },
    spec: {
      runtimeRef: { name: 'rt' },
      runtimePatches: [{ manager: 'example.io/p', trainingRuntimeSpec: { template: { metadata: { annotations: { 'Patch Bad': 'v' } }, spec: { replicatedJobs: [{ name: 'node', template: { metadata: { labels: { a: 'x'.repeat(64) } } } }] } } } }],
    },
  };
  const meta = (d: any) => kubernetesFindings(d).filter(f => /^kubernetes\/(label|annotation)/.test(f.rule ?? '')).map(f => `${f.rule} ${f.field}`);
  expect([...meta(doc), ...meta(job)]).toEqual([
    'kubernetes/label-key spec.template.metadata.labels["bad key!"]',
    'kubernetes/label-key spec.template.spec.replicatedJobs[0].template.metadata.labels["job key!"]',
    'kubernetes/annotation-key spec.template.spec.replicatedJobs[0].template.metadata.annotations["Bad Annotation"]',
    'kubernetes/annotation-key spec.runtimePatches[0].trainingRuntimeSpec.template.metadata.annotations["Patch Bad"]',
    'kubernetes/label-value spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.metadata.labels.a',
  ]);
});

test('jobset/exclusive-topology: the annotation becomes the leader pods\' topologyKey', () => {
  const doc = runtime({});
  doc.spec.template.metadata = { annotations: { 'alpha.jobset.sigs.k8s.io/exclusive-topology': 'Bad Key!' } };
  doc.spec.template.spec.replicatedJobs[0].template.metadata = { annotations: { 'alpha.jobset.sigs.k8s.io/exclusive-topology': 'cloud.google.com/gke-nodepool' } };
  const allowed = 'expected a topology label key such as "cloud.google.com/gke-nodepool" (an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit): '
    + 'the JobSet\'s pod webhook makes it the leader pods\' affinity topologyKey, and the API server refuses those pods, so the Jobs never run';
  expect(kubernetesFindings(doc).filter(f => f.rule === 'jobset/exclusive-topology').map(f => `${f.rule} ${describeFinding(f)}`)).toEqual([
    `jobset/exclusive-topology spec.template.metadata.annotations["alpha.jobset.sigs.k8s.io/exclusive-topology"] is "Bad Key!"; ${allowed}`,
  ]);
});

test('jobset/pod-priority-label: a negative pod priority becomes a label value the API server refuses', () => {
  expect(kubernetesFindings(runtime({}, { priority: -1 })).filter(f => f.rule === 'jobset/pod-priority-label').map(f => `${f.rule} ${describeFinding(f)}`)).toEqual([
    `jobset/pod-priority-label ${JOB}.template.spec.priority is -1; expected 0 or more, or not set (the PriorityClass gives it): the JobSet's pod webhook labels each pod jobset.sigs.k8s.io/priority: "-1", not a label value, so the API server refuses the pods; every TrainJob of this runtime is admitted and never gets pods`,
  ]);
  expect(kubernetesFindings(runtime({}, { priority: 0 })).filter(f => f.rule === 'jobset/pod-priority-label')).toEqual([]);
});
