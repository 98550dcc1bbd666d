/**
 * kueue/namespace-selector: a LocalQueue whose ClusterQueue resolves but does not select the
 * LocalQueue's namespace (the ClusterQueue's namespaceSelector leaves it out, or there is none,
 * which selects nothing) admits no workload. Judged on what the input knows of the namespace: its
 * Namespace document's labels, and the name label the API server sets on every namespace.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { ClusterQueue, LocalQueue, ResourceFlavor, ResourceQuota } from '../../../src';
import { lint } from '../../../src/cli/lint/lint';

const clusterQueue = (namespaceSelector?: object) => ({
  apiVersion: 'kueue.x-k8s.io/v1beta2',
  kind: 'ClusterQueue',
  metadata: { name: 'gpus' },
  spec: { ...(namespaceSelector === undefined ? {} : { namespaceSelector }), resourceGroups: [] },
});
const localQueue = (namespace?: string) => ({
  apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'LocalQueue', metadata: { name: 'team', ...(namespace === undefined ? {} : { namespace }) }, spec: { clusterQueue: 'gpus' },
});
const namespaceDoc = (name: string, labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

/** The messages of kueue/namespace-selector that `lint` reports on the documents. */
function findings(...docs: object[]): string[] {
  return lint(docs.map((doc, i) => ({ file: 'queues.yaml', line: i + 1, doc })))
    .findings.filter(f => f.rule === 'kueue/namespace-selector').map(f => `${f.kind} ${f.message}`);
}

const TAIL = 'Kueue admits none of the LocalQueue\'s workloads ("Workload namespace doesn\'t match ClusterQueue selector")';

test('a ClusterQueue without a namespaceSelector selects no namespace', () => {
  expect(findings(clusterQueue(), localQueue('ml'))).toEqual([
    `LocalQueue spec.clusterQueue is "gpus"; expected a ClusterQueue whose namespaceSelector selects the LocalQueue's namespace "ml"; ClusterQueue "gpus" has no namespaceSelector, which selects no namespace (namespaceSelector: {} selects every one). ${TAIL}`,
  ]);
  expect(findings(clusterQueue({}), localQueue('ml'))).toEqual([]);
});

test('the name label the API server sets is known for every namespace', () => {
  const selector = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['research', 'vision'] }] };
  expect(findings(clusterQueue(selector), localQueue('ml'))).toEqual([
    `LocalQueue spec.clusterQueue is "gpus"; expected a ClusterQueue whose namespaceSelector selects the LocalQueue's namespace "ml"; ClusterQueue "gpus"'s namespaceSelector asks kubernetes.io/metadata.name In (research, vision), and namespace "ml" has label kubernetes.io/metadata.name "ml". ${TAIL}`,
  ]);
  expect(findings(clusterQueue(selector), localQueue('vision'))).toEqual([]);
});

test('with the Namespace in the input, every label is known; without it, other labels are the cluster\'s', () => {
  const selector = { matchLabels: { team: 'research' } };
  expect(findings(clusterQueue(selector), localQueue('ml'), namespaceDoc('ml', { team: 'infra' }))).toEqual([
    `LocalQueue spec.clusterQueue is "gpus"; expected a ClusterQueue whose namespaceSelector selects the LocalQueue's namespace "ml"; ClusterQueue "gpus"'s namespaceSelector asks team In (research), and namespace "ml" has label team "infra". ${TAIL}`,
  ]);
  expect(findings(clusterQueue({ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }), localQueue('ml'), namespaceDoc('ml', {}))).toEqual([
    `LocalQueue spec.clusterQueue is "gpus"; expected a ClusterQueue whose namespaceSelector selects the LocalQueue's namespace "ml"; ClusterQueue "gpus"'s namespaceSelector asks gpu Exists, and namespace "ml" has no label gpu. ${TAIL}`,
  ]);
  expect(findings(clusterQueue(selector), localQueue('ml'), namespaceDoc('ml', { team: 'research' }))).toEqual([]);
  expect(findings(clusterQueue(selector), localQueue('ml'))).toEqual([]);
  expect(findings(clusterQueue({ matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['infra'] }] }), localQueue('ml'), namespaceDoc('ml', {}))).toEqual([]);
});

test('a LocalQueue without a namespace is in kubectl\'s context: only a missing selector is judged', () => {
  expect(findings(clusterQueue({ matchLabels: { 'kubernetes.io/metadata.name': 'ml' } }), localQueue())).toEqual([]);
  expect(findings(clusterQueue(), localQueue()).length).toBe(1);
});

test('at synth, on the constructs: the LocalQueue construct reports it', () => {
  const app = Testing.app();
  const chart = new Chart(app, 'queues');
  new kplus.Namespace(chart, 'ns', { metadata: { name: 'ml', labels: { team: 'infra' } } });
  const flavor = new ResourceFlavor(chart, 'flavor', { metadata: { name: 'cpu' } });
  const queue = new ClusterQueue(chart, 'cq', {
    metadata: { name: 'gpus' },
    namespaceSelector: { matchLabels: { team: 'research' } },
    resourceGroups: [{ flavors: [{ flavor, quotas: [ResourceQuota.cpu(kplus.Cpu.units(8))] }] }],
  });
  new LocalQueue(chart, 'lq', { metadata: { name: 'team', namespace: 'ml' }, clusterQueue: queue });
  expect(() => app.synth()).toThrow(`[queues/lq] spec.clusterQueue is "gpus"; expected a ClusterQueue whose namespaceSelector selects the LocalQueue's namespace "ml"; ClusterQueue "gpus"'s namespaceSelector asks team In (research), and namespace "ml" has label team "infra". ${TAIL}`);
});
