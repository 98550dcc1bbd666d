import { kueueV1beta2Form } from '../../../src/rules/kueue/v1beta2-form';

/**
 * The v1beta2 form of each v1beta1 Kueue kind, as Kueue v0.15.2's conversion makes it
 * (apis/kueue/v1beta1/*_conversion.go), field by field, with the changes listed.
 */

const v1 = (kind: string, rest: object) => ({ apiVersion: 'kueue.x-k8s.io/v1beta1', kind, metadata: { name: 'x' }, ...rest });
const v2 = (kind: string, rest: object) => ({ apiVersion: 'kueue.x-k8s.io/v1beta2', kind, metadata: { name: 'x' }, ...rest });

describe('kinds whose fields are the same in both versions', () => {
  test.each([
    ['ResourceFlavor', { spec: { nodeLabels: { pool: 'a100' }, nodeTaints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }], topologyName: 'dc' } }],
    ['ResourceFlavor', {}],
    ['LocalQueue', { metadata: { name: 'x', namespace: 'team' }, spec: { clusterQueue: 'gpus', stopPolicy: 'Hold' } }],
    ['WorkloadPriorityClass', { value: 1000, description: 'prod' }],
    ['Topology', { spec: { levels: [{ nodeLabel: 'cloud.provider.com/rack' }, { nodeLabel: 'kubernetes.io/hostname' }] } }],
    ['Cohort', { spec: { parentName: 'org', fairSharing: { weight: '2' }, resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'f', resources: [{ name: 'cpu', nominalQuota: '8' }] }] }] } }],
  ])('%s: only the apiVersion changes', (kind, rest) => {
    expect(kueueV1beta2Form(v1(kind, rest))).toEqual({ doc: v2(kind, rest), changes: [] });
  });
});

test('ClusterQueue: cohort, admission checks and the deprecated fungibility values, keys kept in place', () => {
  const input = v1('ClusterQueue', {
    spec: {
      cohort: 'research',
      namespaceSelector: {},
      admissionChecks: ['prov', 'multikueue'],
      flavorFungibility: { whenCanBorrow: 'Borrow', whenCanPreempt: 'Preempt' },
      resourceGroups: [],
    },
  });
  const before = JSON.stringify(input);
  const form = kueueV1beta2Form(input);
  expect(JSON.stringify(input)).toBe(before);
  expect(JSON.stringify(form.doc)).toBe(JSON.stringify(v2('ClusterQueue', {
    spec: {
      cohortName: 'research',
      namespaceSelector: {},
      admissionChecksStrategy: { admissionChecks: [{ name: 'prov' }, { name: 'multikueue' }] },
      flavorFungibility: { whenCanBorrow: 'MayStopSearch', whenCanPreempt: 'MayStopSearch' },
      resourceGroups: [],
    },
  })));
  expect(form.changes).toEqual([
    'spec.cohort -> spec.cohortName',
    'spec.admissionChecks -> spec.admissionChecksStrategy.admissionChecks[].name',
    'spec.flavorFungibility.whenCanBorrow: Borrow -> MayStopSearch',
    'spec.flavorFungibility.whenCanPreempt: Preempt -> MayStopSearch',
  ]);
});

test('ClusterQueue: an empty admissionChecks is dropped, the strategy form and new fungibility values are kept', () => {
  const strategy = { admissionChecks: [{ name: 'prov', onFlavors: ['a100'] }] };
  expect(kueueV1beta2Form(v1('ClusterQueue', { spec: { admissionChecks: [], flavorFungibility: { whenCanBorrow: 'TryNextFlavor' } } })))
    .toEqual({ doc: v2('ClusterQueue', { spec: { flavorFungibility: { whenCanBorrow: 'TryNextFlavor' } } }), changes: ['spec.admissionChecks (empty) dropped'] });
  expect(kueueV1beta2Form(v1('ClusterQueue', { spec: { admissionChecksStrategy: strategy } })))
    .toEqual({ doc: v2('ClusterQueue', { spec: { admissionChecksStrategy: strategy } }), changes: [] });
});

test('status is left out of every kind', () => {
  expect(kueueV1beta2Form(v1('LocalQueue', { spec: { clusterQueue: 'q' }, status: { flavorUsage: [] } })))
    .toEqual({ doc: v2('LocalQueue', { spec: { clusterQueue: 'q' } }), changes: ['status left out (Kueue writes it)'] });
});

test('Topology without spec: a note, the document as it is', () => {
  expect(kueueV1beta2Form(v1('Topology', {}))).toEqual({ doc: v2('Topology', {}), changes: ['spec: v1beta2 Topologies need spec.levels'] });
});

test('AdmissionCheck: retryDelayMinutes dropped', () => {
  expect(kueueV1beta2Form(v1('AdmissionCheck', { spec: { controllerName: 'kueue.x-k8s.io/multikueue', retryDelayMinutes: 15 } })))
    .toEqual({ doc: v2('AdmissionCheck', { spec: { controllerName: 'kueue.x-k8s.io/multikueue' } }), changes: ['spec.retryDelayMinutes dropped (v1beta2 has none)'] });
});

test('MultiKueueCluster: the kubeconfig and the cluster profile move under clusterSource', () => {
  expect(kueueV1beta2Form(v1('MultiKueueCluster', { spec: { kubeConfig: { locationType: 'Secret', location: 'worker1' } } })))
    .toEqual({
      doc: v2('MultiKueueCluster', { spec: { clusterSource: { kubeConfig: { locationType: 'Secret', location: 'worker1' } } } }),
      changes: ['spec.kubeConfig -> spec.clusterSource.kubeConfig'],
    });
  expect(kueueV1beta2Form(v1('MultiKueueCluster', { spec: { clusterProfileRef: { name: 'east' } } })))
    .toEqual({ doc: v2('MultiKueueCluster', { spec: { clusterSource: { clusterProfileRef: { name: 'east' } } } }), changes: ['spec.clusterProfileRef -> spec.clusterSource.clusterProfileRef'] });
});

test('Workload: the priority class source and name become a reference', () => {
  expect(kueueV1beta2Form(v1('Workload', { spec: { queueName: 'q', priorityClassSource: 'kueue.x-k8s.io/workloadpriorityclass', priorityClassName: 'prod', priority: 1000 } })))
    .toEqual({
      doc: v2('Workload', { spec: { queueName: 'q', priorityClassRef: { group: 'kueue.x-k8s.io', kind: 'WorkloadPriorityClass', name: 'prod' }, priority: 1000 } }),
      changes: ['spec.priorityClassSource, spec.priorityClassName -> spec.priorityClassRef'],
    });
  expect(kueueV1beta2Form(v1('Workload', { spec: { priorityClassName: 'high', priorityClassSource: 'scheduling.k8s.io/priorityclass' } })).doc.spec)
    .toEqual({ priorityClassRef: { group: 'scheduling.k8s.io', kind: 'PriorityClass', name: 'high' } });
  expect(kueueV1beta2Form(v1('Workload', { spec: { priorityClassName: 'high' } })))
    .toEqual({ doc: v2('Workload', { spec: {} }), changes: ['spec.priorityClassName dropped (no known spec.priorityClassSource)'] });
});

test('a document that is not v1beta1 Kueue comes back as it is', () => {
  const doc = v2('ClusterQueue', { spec: { cohortName: 'a' } });
  expect(kueueV1beta2Form(doc)).toEqual({ doc, changes: [] });
  expect(kueueV1beta2Form({ apiVersion: 'v1', kind: 'ConfigMap' }).changes).toEqual([]);
});
