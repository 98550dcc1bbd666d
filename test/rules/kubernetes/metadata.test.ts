import { kubernetesFindings } from '../../../src/rules/kubernetes';
import { exampleDocument, pytorchJob, workspaceKind } from '../../harness/example-documents';
import { DNS_1035_LABEL, DNS_1123_LABEL } from '../../harness/messages';
import { f, runCases } from '../cases';

const LABEL_KEY = 'expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const LABEL_VALUE = 'expected a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const ANNOTATION_KEY = 'expected an annotation key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const SUBDOMAIN = 'expected a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit';
const DNS1035 = DNS_1035_LABEL;
const LABEL = DNS_1123_LABEL;

describe('object metadata of a PyTorchJob', () => {
  const long = 'a'.repeat(64);
  runCases(pytorchJob, [
    // A training job's name must be a DNS-1035 label: the operator names Services after it.
    ['a name with capitals', d => { d.metadata.name = 'ResNet'; }, [f('metadata.name', 'ResNet', DNS1035, 'kubernetes/object-name')]],
    ['a name over 63 characters', d => { d.metadata.name = 'a'.repeat(64); }, [f('metadata.name', 'a'.repeat(64), DNS1035, 'kubernetes/object-name')]],
    ['a dotted name, a subdomain but not a DNS-1035 label', d => { d.metadata.name = 'resnet.v2'; }, [f('metadata.name', 'resnet.v2', DNS1035, 'kubernetes/object-name')]],
    ['a name starting with a digit', d => { d.metadata.name = '1resnet'; }, [f('metadata.name', '1resnet', DNS1035, 'kubernetes/object-name')]],
    ['no name and no generateName', d => { delete d.metadata.name; },
      [f('metadata.name', undefined, `${DNS1035} (name or generateName is required)`, 'kubernetes/object-name')]],
    ['generateName with a trailing dash', d => { delete d.metadata.name; d.metadata.generateName = 'resnet-'; }, []],
    ['generateName with an underscore', d => { delete d.metadata.name; d.metadata.generateName = 'res_net-'; },
      [f('metadata.generateName', 'res_net-', 'expected a prefix of a DNS-1035 label: at most 63 lower-case letters, digits or "-", starting with a letter and ending with a letter or digit (a trailing "-" is allowed)', 'kubernetes/generate-name')]],
    ['a namespace with a dot', d => { d.metadata.namespace = 'team.vision'; }, [f('metadata.namespace', 'team.vision', LABEL, 'kubernetes/namespace')]],
    ['a namespace over 63 characters', d => { d.metadata.namespace = long; }, [f('metadata.namespace', long, LABEL, 'kubernetes/namespace')]],
    ['a label key with a space', d => { d.metadata.labels = { 'team name': 'x' }; }, [f('metadata.labels["team name"]', 'team name', LABEL_KEY, 'kubernetes/label-key')]],
    ['a label key with two slashes', d => { d.metadata.labels = { 'a/b/c': 'x' }; }, [f('metadata.labels["a/b/c"]', 'a/b/c', LABEL_KEY, 'kubernetes/label-key')]],
    ['a label key with an upper-case prefix', d => { d.metadata.labels = { 'Example.com/team': 'x' }; },
      [f('metadata.labels["Example.com/team"]', 'Example.com/team', LABEL_KEY, 'kubernetes/label-key')]],
    ['a label key with a 64-character name', d => { d.metadata.labels = { [`example.com/${long}`]: 'x' }; },
      [f(`metadata.labels["example.com/${long}"]`, `example.com/${long}`, LABEL_KEY, 'kubernetes/label-key')]],
    ['a label key with an empty prefix', d => { d.metadata.labels = { '/team': 'x' }; }, [f('metadata.labels["/team"]', '/team', LABEL_KEY, 'kubernetes/label-key')]],
    ['valid label keys and values', d => { d.metadata.labels = { 'app.kubernetes.io/name': 'resnet', 'team_A': 'Vision.1', 'empty': '' }; }, []],
    ['a label value with a space', d => { d.metadata.labels = { team: 'computer vision' }; }, [f('metadata.labels.team', 'computer vision', LABEL_VALUE, 'kubernetes/label-value')]],
    ['a label value with an emoji', d => { d.metadata.labels = { team: 'vision🚀' }; }, [f('metadata.labels.team', 'vision🚀', LABEL_VALUE, 'kubernetes/label-value')]],
    ['a label value over 63 characters', d => { d.metadata.labels = { team: long }; }, [f('metadata.labels.team', long, LABEL_VALUE, 'kubernetes/label-value')]],
    ['a label value ending with a dash', d => { d.metadata.labels = { team: 'vision-' }; }, [f('metadata.labels.team', 'vision-', LABEL_VALUE, 'kubernetes/label-value')]],
    ['a label value that is a number', d => { d.metadata.labels = { version: 2 }; }, [f('metadata.labels.version', 2, LABEL_VALUE, 'kubernetes/label-value')]],
    ['an annotation key with a space', d => { d.metadata.annotations = { 'my note': 'x' }; },
      [f('metadata.annotations["my note"]', 'my note', ANNOTATION_KEY, 'kubernetes/annotation-key')]],
    ['an annotation key with an upper-case prefix (lower-cased first, as the API server does)', d => { d.metadata.annotations = { 'Example.com/Note': 'x' }; }, []],
    ['annotations of exactly 256 KiB', d => { d.metadata.annotations = { a: 'x'.repeat(256 * 1024 - 1) }; }, []],
    ['annotations over 256 KiB in total', d => { d.metadata.annotations = { a: 'x'.repeat(200 * 1024), b: 'y'.repeat(56 * 1024) }; },
      [f('metadata.annotations', '262146 bytes', 'expected at most 262144 bytes (256 KiB) of annotation keys and values in total', 'kubernetes/annotation-size')]],
    ['annotations over 256 KiB counted in UTF-8 bytes', d => { d.metadata.annotations = { a: 'é'.repeat(128 * 1024) }; },
      [f('metadata.annotations', '262145 bytes', 'expected at most 262144 bytes (256 KiB) of annotation keys and values in total', 'kubernetes/annotation-size')]],
    ['a finalizer that is not a qualified name', d => { d.metadata.finalizers = ['example.com/keep', 'keep it']; },
      [f('metadata.finalizers[1]', 'keep it', 'expected a finalizer name: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'kubernetes/finalizer')]],
    ['orphan and foregroundDeletion together', d => { d.metadata.finalizers = ['orphan', 'foregroundDeletion']; },
      [f('metadata.finalizers', ['orphan', 'foregroundDeletion'], 'expected "orphan" or "foregroundDeletion", not both (they ask for opposite deletions)', 'kubernetes/finalizer')]],
  ]);
});

describe('pod template metadata', () => {
  const at = 'spec.pytorchReplicaSpecs.Worker.template.metadata';
  runCases(pytorchJob, [
    ['a template label key with a space', d => { d.spec.pytorchReplicaSpecs.Worker.template.metadata.labels = { 'team name': 'x' }; },
      [f(`${at}.labels["team name"]`, 'team name', LABEL_KEY, 'kubernetes/label-key')]],
    ['a template label value with a slash', d => { d.spec.pytorchReplicaSpecs.Worker.template.metadata.labels = { team: 'a/b' }; },
      [f(`${at}.labels.team`, 'a/b', LABEL_VALUE, 'kubernetes/label-value')]],
    ['a template annotation key with a colon', d => { d.spec.pytorchReplicaSpecs.Worker.template.metadata.annotations['a:b'] = 'x'; },
      [f(`${at}.annotations["a:b"]`, 'a:b', ANNOTATION_KEY, 'kubernetes/annotation-key')]],
    ['template annotations over 256 KiB', d => { d.spec.pytorchReplicaSpecs.Worker.template.metadata.annotations.big = 'x'.repeat(256 * 1024); },
      [f(`${at}.annotations`, `${256 * 1024 + 3 + 'sidecar.istio.io/inject'.length + 5} bytes`, 'expected at most 262144 bytes (256 KiB) of annotation keys and values in total', 'kubernetes/annotation-size')]],
    ['a template name is not checked (the operator names the pods)', d => { d.spec.pytorchReplicaSpecs.Worker.template.metadata.name = 'Not A Name'; }, []],
  ]);
});

describe('WorkspaceKind pod metadata', () => {
  runCases(workspaceKind, [
    ['a pod label key with a space', d => { d.spec.podTemplate.podMetadata = { labels: { 'team name': 'x' } }; },
      [f('spec.podTemplate.podMetadata.labels["team name"]', 'team name', LABEL_KEY, 'kubernetes/label-key')]],
    ['a pod annotation key with a space', d => { d.spec.podTemplate.podMetadata = { annotations: { 'a b': 'x' } }; },
      [f('spec.podTemplate.podMetadata.annotations["a b"]', 'a b', ANNOTATION_KEY, 'kubernetes/annotation-key')]],
    ['a name with an underscore', d => { d.metadata.name = 'jupyter_lab'; }, [f('metadata.name', 'jupyter_lab', SUBDOMAIN, 'kubernetes/object-name')]],
  ]);
});

describe('Workspace pod metadata', () => {
  runCases(() => exampleDocument('notebooks-team-vision.k8s.yaml', 'Workspace', 'alice'), [
    ['a pod label value with a space', d => { d.spec.podTemplate.podMetadata = { labels: { team: 'a b' } }; },
      [f('spec.podTemplate.podMetadata.labels.team', 'a b', LABEL_VALUE, 'kubernetes/label-value')]],
    ['a namespace with capitals', d => { d.metadata.namespace = 'Team'; }, [f('metadata.namespace', 'Team', LABEL, 'kubernetes/namespace')]],
    // The controller's StatefulSet, Service, pod and selector labels carry the name: a label, not a subdomain.
    ['a name over 63 characters', d => { d.metadata.name = 'a'.repeat(64); }, [f('metadata.name', 'a'.repeat(64), LABEL, 'kubernetes/object-name')]],
    ['a dotted name', d => { d.metadata.name = 'alice.v2'; }, [f('metadata.name', 'alice.v2', LABEL, 'kubernetes/object-name')]],
  ]);
});

describe('core objects', () => {
  const KEY = 'expected a key of at most 253 letters, digits, "-", "_" or ".", not "." or ".." and not starting with ".."';
  const configMap = () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'train-config', namespace: 'training' }, data: { 'config.yaml': 'a: 1' } });
  runCases(configMap, [
    ['a data key with a slash', d => { d.data['conf/a'] = 'x'; }, [f('data["conf/a"]', 'conf/a', KEY, 'kubernetes/data-key')]],
    ['a data key starting with ".."', d => { d.data['..a'] = 'x'; }, [f('data["..a"]', '..a', KEY, 'kubernetes/data-key')]],
    ['a key in both data and binaryData', d => { d.binaryData = { 'config.yaml': 'AAAA' }; },
      [f('binaryData["config.yaml"]', 'config.yaml', 'expected a key not also in data (a key appears once across data and binaryData)', 'kubernetes/data-key')]],
    ['data over 1 MiB', d => { d.data['config.yaml'] = 'x'.repeat(1024 * 1024 + 1); },
      [f('data', '1048577 bytes', 'expected at most 1048576 bytes (1 MiB) of data and binaryData in total', 'kubernetes/config-map-size')]],
    ['a name with capitals', d => { d.metadata.name = 'Config'; }, [f('metadata.name', 'Config', SUBDOMAIN, 'kubernetes/object-name')]],
  ]);
  const secret = () => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, stringData: { token: 'x' } });
  runCases(secret, [
    ['a stringData key with a space', d => { d.stringData['my token'] = 'x'; }, [f('stringData["my token"]', 'my token', KEY, 'kubernetes/data-key')]],
    ['a TLS Secret with both keys, one in data and one in stringData', d => {
      d.type = 'kubernetes.io/tls'; d.data = { 'tls.crt': Buffer.from('cert').toString('base64') }; d.stringData = { 'tls.key': 'key' };
    }, []],
    ['a TLS Secret without its key', d => { d.type = 'kubernetes.io/tls'; d.stringData = { 'tls.crt': 'cert' }; },
      [f('data', ['tls.crt'], 'expected the key "tls.key" in data or stringData (a kubernetes.io/tls Secret needs it)', 'kubernetes/secret-type')]],
    ['a basic-auth Secret with a password only', d => { d.type = 'kubernetes.io/basic-auth'; d.stringData = { password: '' }; }, []],
    ['a basic-auth Secret with neither', d => { d.type = 'kubernetes.io/basic-auth'; },
      [f('data', ['token'], 'expected the key "username" or "password" in data or stringData (a kubernetes.io/basic-auth Secret needs one of them)', 'kubernetes/secret-type')]],
    ['an ssh-auth Secret with an empty key', d => { d.type = 'kubernetes.io/ssh-auth'; d.stringData = { 'ssh-privatekey': '' }; },
      [f('data', ['ssh-privatekey'], 'expected the key "ssh-privatekey" in data or stringData (a kubernetes.io/ssh-auth Secret needs it)', 'kubernetes/secret-type')]],
    ['a dockerconfigjson Secret whose content is a JSON object', d => {
      d.type = 'kubernetes.io/dockerconfigjson'; d.data = { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') }; delete d.stringData;
    }, []],
    ['a dockerconfigjson Secret whose content is not JSON', d => {
      d.type = 'kubernetes.io/dockerconfigjson'; d.data = { '.dockerconfigjson': Buffer.from('auths: {}').toString('base64') }; delete d.stringData;
    }, [f('data[".dockerconfigjson"]', '<secret contents redacted>', 'expected a JSON object (a kubernetes.io/dockerconfigjson Secret\'s registry credentials)', 'kubernetes/secret-type')]],
    ['data and stringData of 1 MiB together', d => { d.stringData.token = 'x'.repeat(512 * 1024); d.data = { ca: Buffer.alloc(512 * 1024).toString('base64') }; }, []],
    ['data and stringData over 1 MiB together', d => { d.stringData.token = 'x'.repeat(512 * 1024 + 1); d.data = { ca: Buffer.alloc(512 * 1024).toString('base64') }; },
      [f('data', '1048577 bytes', 'expected at most 1048576 bytes (1 MiB) of data, stringData included', 'kubernetes/secret-size')]],
    ['a stringData key over a data key counts once', d => { d.stringData.token = 'x'.repeat(1024 * 1024); d.data = { token: Buffer.alloc(16).toString('base64') }; }, []],
    ['a service account token Secret without its ServiceAccount', d => { d.type = 'kubernetes.io/service-account-token'; },
      [f('metadata.annotations["kubernetes.io/service-account.name"]', undefined, 'expected the name of the ServiceAccount the token is for (a kubernetes.io/service-account-token Secret needs it)', 'kubernetes/secret-type')]],
  ]);
  runCases(() => exampleDocument('notebooks-team-vision.k8s.yaml', 'PersistentVolumeClaim', 'alice-home'), [
    ['a claim name with an underscore', d => { d.metadata.name = 'alice_home'; }, [f('metadata.name', 'alice_home', SUBDOMAIN, 'kubernetes/object-name')]],
    ['a claim label key with a space', d => { d.metadata.labels = { 'a b': 'c' }; }, [f('metadata.labels["a b"]', 'a b', LABEL_KEY, 'kubernetes/label-key')]],
  ]);
  const service = () => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: {} });
  runCases(service, [
    ['a Service name starting with a digit (DNS-1035)', d => { d.metadata.name = '1svc'; },
      [f('metadata.name', '1svc', DNS_1035_LABEL, 'kubernetes/object-name')]],
  ]);
  const other = () => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', labels: { 'a b': 'x' } } });
  test('a kind the rules do not know gets the metadata rules', () => {
    expect(kubernetesFindings(other())).toEqual([f('metadata.labels["a b"]', 'a b', LABEL_KEY, 'kubernetes/label-key')]);
  });
});
