import { kubernetesFindings } from '../../../src/rules/kubernetes';
import { exampleDocument, pytorchJob, WORKER, workerSpec as s } from '../../harness/example-documents';
import { LABEL_KEY } from '../../harness/messages';
import { f, runCases } from '../cases';

const SUBDOMAIN = 'a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit';
const MODES = '"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany" or "ReadWriteOncePod"';

/** The dataset claim of the Kueue example (ReadWriteMany, 200Gi, class shared-rwx). */
const claim = () => exampleDocument('pytorch-kueue-dataset.k8s.yaml', 'PersistentVolumeClaim');

describe('PersistentVolumeClaim spec', () => {
  runCases(claim, [
    ['a request of size 0', d => { d.spec.resources.requests.storage = '0'; },
      [f('spec.resources.requests.storage', '0', 'expected a size greater than zero, such as 10Gi', 'kubernetes/claim-storage')]],
    ['a request of 0Gi', d => { d.spec.resources.requests.storage = '0Gi'; },
      [f('spec.resources.requests.storage', '0Gi', 'expected a size greater than zero, such as 10Gi', 'kubernetes/claim-storage')]],
    ['a negative request', d => { d.spec.resources.requests.storage = '-1Gi'; },
      [f('spec.resources.requests.storage', '-1Gi', 'expected a size greater than zero, such as 10Gi', 'kubernetes/claim-storage')]],
    ['no storage request', d => { delete d.spec.resources; },
      [f('spec.resources.requests.storage', undefined, 'expected the size to request, such as 10Gi', 'kubernetes/claim-storage')]],
    ['a request of one byte is enough', d => { d.spec.resources.requests.storage = 1; }, []],
    ['no access mode', d => { d.spec.accessModes = []; },
      [f('spec.accessModes', [], `expected at least one access mode: ${MODES}`, 'kubernetes/claim-access-modes')]],
    ['a misspelt access mode', d => { d.spec.accessModes = ['ReadWriteAll']; },
      [f('spec.accessModes[0]', 'ReadWriteAll', `expected ${MODES}`, 'kubernetes/claim-access-modes')]],
    ['ReadWriteOncePod with another mode', d => { d.spec.accessModes = ['ReadWriteOncePod', 'ReadOnlyMany']; },
      [f('spec.accessModes', ['ReadWriteOncePod', 'ReadOnlyMany'], 'expected "ReadWriteOncePod" alone (it cannot be combined with other access modes)', 'kubernetes/claim-access-modes')]],
    ['ReadWriteOncePod alone', d => { d.spec.accessModes = ['ReadWriteOncePod']; }, []],
    ['a volume mode in lower case', d => { d.spec.volumeMode = 'block'; }, [f('spec.volumeMode', 'block', 'expected "Filesystem" or "Block"', 'kubernetes/claim-volume-mode')]],
    ['a storage class with an underscore', d => { d.spec.storageClassName = 'shared_rwx'; },
      [f('spec.storageClassName', 'shared_rwx', `expected a class name: ${SUBDOMAIN}`, 'kubernetes/claim-class-name')]],
    ['an empty storage class (no dynamic provisioning) is fine', d => { d.spec.storageClassName = ''; }, []],
    ['a selector with In and no values', d => { d.spec.selector = { matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] }; },
      [f('spec.selector.matchExpressions[0].values', [], 'expected at least one value when operator is "In"', 'kubernetes/label-selector')]],
    ['a data source of a core kind other than a claim', d => { d.spec.dataSource = { kind: 'Secret', name: 'x' }; },
      [f('spec.dataSource.kind', 'Secret', 'expected "PersistentVolumeClaim" when apiGroup is empty (the core group), or the apiGroup of the kind, such as snapshot.storage.k8s.io', 'kubernetes/claim-data-source')]],
    ['a data source without a name', d => { d.spec.dataSourceRef = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot' }; },
      [f('spec.dataSourceRef.name', undefined, 'expected the name of the object to copy from', 'kubernetes/claim-data-source')]],
    ['a snapshot as the data source', d => { d.spec.dataSource = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'resnet-2024' }; }, []],
    ['dataSource and dataSourceRef naming one snapshot', d => {
      d.spec.dataSource = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'resnet-2024' };
      d.spec.dataSourceRef = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'resnet-2024' };
    }, []],
    ['dataSource and dataSourceRef naming two snapshots', d => {
      d.spec.dataSource = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'resnet-2024' };
      d.spec.dataSourceRef = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'resnet-2025' };
    }, [f('spec.dataSource', { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'resnet-2024' },
      'expected the same apiGroup, kind and name as dataSourceRef, or only one of the two (the API server copies one into the other)', 'kubernetes/claim-data-source')]],
    ['an empty apiGroup beside an absent one (not the same to the API server)', d => {
      d.spec.dataSource = { apiGroup: '', kind: 'PersistentVolumeClaim', name: 'base' };
      d.spec.dataSourceRef = { kind: 'PersistentVolumeClaim', name: 'base' };
    }, [f('spec.dataSource', { apiGroup: '', kind: 'PersistentVolumeClaim', name: 'base' },
      'expected the same apiGroup, kind and name as dataSourceRef, or only one of the two (the API server copies one into the other)', 'kubernetes/claim-data-source')]],
    ['a dataSourceRef in another namespace', d => { d.spec.dataSourceRef = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'resnet-2024', namespace: 'shared' }; },
      [f('spec.dataSourceRef.namespace', 'shared',
        'expected no namespace (the claim\'s own): a source in another namespace needs the CrossNamespaceVolumeDataSource feature gate, off by default in 1.34, without which the API server drops the dataSourceRef and the claim starts empty',
        'kubernetes/claim-data-source')]],
  ]);
});

describe('ephemeral volume claim templates', () => {
  const at = `${WORKER}.volumes[scratch].ephemeral.volumeClaimTemplate`;
  const ephemeral = (template: unknown) => (d: any) => { s(d).volumes.push({ name: 'scratch', ephemeral: { volumeClaimTemplate: template } }); };
  const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Gi' } } };
  runCases(pytorchJob, [
    ['a valid template', ephemeral({ metadata: { labels: { app: 'scratch' } }, spec }), []],
    ['a template of size 0', ephemeral({ spec: { ...spec, resources: { requests: { storage: '0' } } } }),
      [f(`${at}.spec.resources.requests.storage`, '0', 'expected a size greater than zero, such as 10Gi', 'kubernetes/claim-storage')]],
    ['a template with a name', ephemeral({ metadata: { name: 'scratch' }, spec }),
      [f(`${at}.metadata.name`, 'scratch', 'expected not set: a claim template\'s metadata takes labels and annotations only (the claim is named <pod>-<volume>)', 'kubernetes/claim-template-metadata')]],
    ['a template label with a space', ephemeral({ metadata: { labels: { 'a b': 'x' } }, spec }),
      [f(`${at}.metadata.labels["a b"]`, 'a b', LABEL_KEY, 'kubernetes/label-key')]],
    ['an ephemeral volume without a template', d => { s(d).volumes.push({ name: 'scratch', ephemeral: {} }); },
      [f(at, undefined, 'expected the claim template of the ephemeral volume (validateEphemeralVolumeSource requires it)', 'kubernetes/volume-source')]],
  ]);
});

test('the claim templates of a runtime\'s JobSet volume claim policies', () => {
  const runtime = {
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'ClusterTrainingRuntime',
    metadata: { name: 'r' },
    spec: {
      template: {
        spec: {
          volumeClaimPolicies: [{ templates: [{ metadata: { name: 'cache' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0Gi' } } } }] }],
          replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: { containers: [{ name: 'node', image: 'i', volumeMounts: [{ name: 'cache', mountPath: '/cache' }] }] } } } } }],
        },
      },
    },
  };
  expect(kubernetesFindings(runtime)).toEqual([
    f('spec.template.spec.volumeClaimPolicies[0].templates[0].spec.resources.requests.storage', '0Gi', 'expected a size greater than zero, such as 10Gi', 'kubernetes/claim-storage'),
  ]);
});
