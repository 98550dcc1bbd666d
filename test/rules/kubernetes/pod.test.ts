import { CONTAINER, WORKER, pytorchJob, workerContainer as c, workerSpec as s } from '../../harness/example-documents';
import { DNS_1123_LABEL } from '../../harness/messages';
import { f, runCases } from '../cases';

const LABEL = DNS_1123_LABEL;
const SUBDOMAIN = 'at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit';
const LABEL_KEY = 'expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const LABEL_VALUE = 'expected a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const PORT_NAME = 'expected an IANA service name: at most 15 lower-case letters, digits or "-", with at least one letter, no "--" and no "-" at either end';
const ENV_NAME = 'expected an environment variable name: one or more printable ASCII characters other than "="';
const MOUNT_REQUIRED = 'expected a path in the container such as /data';
const MOUNT_UNIQUE = 'expected a mount path no other mount of the container uses ("/data", "/data/" and "data" are the same path)';
const SUB_PATH = 'expected a relative path inside the volume, without ".."';
const PROBE_PORT_NAME = 'expected a port number, or the name of a container port: at most 15 lower-case letters, digits or "-", with at least one letter (a number in quotes is read as a name)';
const INIT_HOOKS = 'expected not set on an init container without restartPolicy "Always" (only sidecar init containers take probes and lifecycle hooks)';
const DNS_SEARCH = 'expected a search domain: at most 253 lower-case letters, digits, "-", "_" or ".", each dot-separated part ending with a letter or digit (a trailing "." and "." alone are allowed)';
const ITEM_PATH = 'expected a relative file path inside the volume, without ".." and not starting with ".."';
const VOLUME_FIELDS = 'a pod field a volume file can show: metadata.name, metadata.namespace, metadata.labels, metadata.annotations, metadata.uid, '
  + 'or metadata.labels[\'<key>\'] / metadata.annotations[\'<key>\']';
const KEY_TEXT = 'at most 253 letters, digits, "-", "_" or ".", not "." or ".." and not starting with ".."';
const QUALIFIED = 'an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const FIELD_PATHS = 'metadata.name, metadata.namespace, metadata.uid, spec.nodeName, spec.serviceAccountName, status.hostIP, status.hostIPs, status.podIP, status.podIPs, '
  + 'or metadata.labels[\'<key>\'] / metadata.annotations[\'<key>\']';
const RESOURCES = 'limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory, requests.ephemeral-storage, or requests.hugepages-<size> / limits.hugepages-<size>';

describe('containers', () => {
  runCases(pytorchJob, [
    ['a container name with capitals', d => { c(d).name = 'PyTorch'; }, [f(`${WORKER}.containers[PyTorch].name`, 'PyTorch', LABEL, 'kubernetes/container-name')]],
    ['a container name with a dot', d => { c(d).name = 'py.torch'; }, [f(`${WORKER}.containers[py.torch].name`, 'py.torch', LABEL, 'kubernetes/container-name')]],
    ['two containers with one name', d => { s(d).containers.push({ name: 'pytorch', image: 'busybox' }); },
      [f(`${CONTAINER}.name`, 'pytorch', 'expected a name no other container or init container of the pod has', 'kubernetes/container-name-unique')]],
    ['an init container with the name of a container', d => { s(d).initContainers = [{ name: 'pytorch', image: 'busybox' }]; },
      [f(`${CONTAINER}.name`, 'pytorch', 'expected a name no other container or init container of the pod has', 'kubernetes/container-name-unique')]],
    ['empty policies, which Kubernetes defaults as unset ones', d => { c(d).imagePullPolicy = ''; c(d).terminationMessagePolicy = ''; c(d).ports = [{ containerPort: 8080, protocol: '' }]; s(d).dnsPolicy = ''; s(d).restartPolicy = ''; }, []],
    ['no containers', d => { s(d).containers = []; }, [f(`${WORKER}.containers`, [], 'expected at least one container', 'kubernetes/containers-required')]],
    ['an image with a trailing space', d => { c(d).image = 'pytorch/pytorch:2.5.0 '; },
      [f(`${CONTAINER}.image`, 'pytorch/pytorch:2.5.0 ', 'expected an image reference without leading or trailing whitespace', 'kubernetes/image')]],
    ['an empty image', d => { c(d).image = ''; }, [f(`${CONTAINER}.image`, '', 'expected a container image reference such as ghcr.io/org/image:tag', 'kubernetes/image')]],
    ['a misspelt pull policy', d => { c(d).imagePullPolicy = 'IfNotExists'; }, [f(`${CONTAINER}.imagePullPolicy`, 'IfNotExists', 'expected "Always", "IfNotPresent" or "Never"', 'kubernetes/image-pull-policy')]],
    ['a termination message policy', d => { c(d).terminationMessagePolicy = 'Logs'; }, [f(`${CONTAINER}.terminationMessagePolicy`, 'Logs', 'expected "File" or "FallbackToLogsOnError"', 'kubernetes/termination-message-policy')]],
    ['a relative working directory', d => { c(d).workingDir = 'workspace'; },
      [f(`${CONTAINER}.workingDir`, 'workspace', 'expected an absolute path (the container runtime refuses a relative working directory)', 'kubernetes/working-dir')]],
    ['an absolute working directory', d => { c(d).workingDir = '/workspace'; }, []],
    ['restartPolicy on a regular container', d => { c(d).restartPolicy = 'Always'; },
      [f(`${CONTAINER}.restartPolicy`, 'Always', 'expected not set on a regular container (only init containers take restartPolicy "Always", as sidecars)', 'kubernetes/container-restart-policy')]],
    ['a sidecar init container', d => { s(d).initContainers = [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }]; }, []],
    ['an init container with restartPolicy Never', d => { s(d).initContainers = [{ name: 'prep', image: 'busybox', restartPolicy: 'Never' }]; },
      [f(`${WORKER}.initContainers[prep].restartPolicy`, 'Never', 'expected "Always" (a sidecar init container) or not set', 'kubernetes/container-restart-policy')]],
    ['ephemeral containers in a template', d => { s(d).ephemeralContainers = [{ name: 'debug', image: 'busybox' }]; },
      [f(`${WORKER}.ephemeralContainers`, [{ name: 'debug', image: 'busybox' }], 'expected not set (ephemeral containers are added to running pods, not in templates)', 'kubernetes/ephemeral-containers')]],
  ]);
});

describe('ports', () => {
  const port = `${CONTAINER}.ports[0]`;
  runCases(pytorchJob, [
    ['a port name over 15 characters', d => { c(d).ports[0].name = 'pytorchjob-port1'; }, [f(`${port}.name`, 'pytorchjob-port1', PORT_NAME, 'kubernetes/port-name')]],
    ['a port name with capitals', d => { c(d).ports[0].name = 'Http'; }, [f(`${port}.name`, 'Http', PORT_NAME, 'kubernetes/port-name')]],
    ['a port name of digits only', d => { c(d).ports[0].name = '8080'; }, [f(`${port}.name`, '8080', PORT_NAME, 'kubernetes/port-name')]],
    ['a port name with "--"', d => { c(d).ports[0].name = 'a--b'; }, [f(`${port}.name`, 'a--b', PORT_NAME, 'kubernetes/port-name')]],
    ['a port name ending with "-"', d => { c(d).ports[0].name = 'http-'; }, [f(`${port}.name`, 'http-', PORT_NAME, 'kubernetes/port-name')]],
    ['two ports with one name', d => { c(d).ports.push({ containerPort: 8080, name: 'pytorchjob-port' }); },
      [f(`${CONTAINER}.ports[1].name`, 'pytorchjob-port', 'expected a port name not used by another port of the container', 'kubernetes/port-name-unique')]],
    ['port 0', d => { c(d).ports[0].containerPort = 0; }, [f(`${port}.containerPort`, 0, 'expected a port number between 1 and 65535', 'kubernetes/port-number')]],
    ['port 65536', d => { c(d).ports[0].containerPort = 65536; }, [f(`${port}.containerPort`, 65536, 'expected a port number between 1 and 65535', 'kubernetes/port-number')]],
    ['a host port over 65535', d => { c(d).ports[0].hostPort = 70000; }, [f(`${port}.hostPort`, 70000, 'expected a port number between 1 and 65535, or 0 for none', 'kubernetes/port-number')]],
    ['a lower-case protocol', d => { c(d).ports[0].protocol = 'tcp'; }, [f(`${port}.protocol`, 'tcp', 'expected "TCP", "UDP" or "SCTP"', 'kubernetes/port-protocol')]],
    ['host network with a different host port', d => { s(d).hostNetwork = true; c(d).ports[0].hostPort = 8080; },
      [f(`${port}.hostPort`, 8080, 'expected the containerPort (23456) or not set, because hostNetwork is true', 'kubernetes/host-network-port')]],
    ['host network with the same host port', d => { s(d).hostNetwork = true; c(d).ports[0].hostPort = 23456; }, []],
    ['one host port twice in a pod', d => {
      c(d).ports[0].hostPort = 9000;
      s(d).containers.push({ name: 'sidecar', image: 'busybox', ports: [{ containerPort: 9001, hostPort: 9000 }] });
    }, [f(`${WORKER}.containers[sidecar].ports[0].hostPort`, 9000, 'expected a host port no other port of the pod binds with the same protocol (TCP) and host IP', 'kubernetes/host-port-unique')]],
    ['an init container and a container on one host port (init containers run first, one at a time)', d => {
      c(d).ports[0].hostPort = 9000;
      s(d).initContainers = [{ name: 'prep', image: 'busybox', ports: [{ containerPort: 9000, hostPort: 9000 }] }];
    }, []],
    ['one host port twice in an init container', d => {
      s(d).initContainers = [{ name: 'prep', image: 'busybox', ports: [{ containerPort: 9000, hostPort: 9000 }, { containerPort: 9001, hostPort: 9000 }] }];
    }, [f(`${WORKER}.initContainers[prep].ports[1].hostPort`, 9000, 'expected a host port no other port of the pod binds with the same protocol (TCP) and host IP', 'kubernetes/host-port-unique')]],
  ]);
});

describe('environment', () => {
  runCases(pytorchJob, [
    ['an env name with "="', d => { c(d).env = [{ name: 'A=B', value: 'x' }]; }, [f(`${CONTAINER}.env[0].name`, 'A=B', ENV_NAME, 'kubernetes/env-name')]],
    ['an empty env name', d => { c(d).env = [{ name: '', value: 'x' }]; }, [f(`${CONTAINER}.env[0].name`, '', ENV_NAME, 'kubernetes/env-name')]],
    ['an env name with a tab', d => { c(d).env = [{ name: 'A\tB' }]; }, [f(`${CONTAINER}.env[0].name`, 'A\tB', ENV_NAME, 'kubernetes/env-name')]],
    ['an env name with non-ASCII', d => { c(d).env = [{ name: 'ÄPFEL' }]; }, [f(`${CONTAINER}.env[0].name`, 'ÄPFEL', ENV_NAME, 'kubernetes/env-name')]],
    ['env names 1.34 accepts (dots, dashes, leading digit, spaces)', d => { c(d).env = [{ name: 'my.var-1' }, { name: '1ST' }, { name: 'A B' }]; }, []],
    ['valueFrom with two sources', d => { c(d).env = [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom`, { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } }, 'expected exactly one source, not fieldRef and secretKeyRef', 'kubernetes/env-value-from')]],
    ['valueFrom with no source', d => { c(d).env = [{ name: 'A', valueFrom: {} }]; },
      [f(`${CONTAINER}.env[0].valueFrom`, {}, 'expected exactly one of fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef', 'kubernetes/env-value-from')]],
    ['a fileKeyRef (dropped while the EnvFiles gate is off)', d => { c(d).env = [{ name: 'A', valueFrom: { fileKeyRef: { volumeName: 'dshm', path: 'env', key: 'A' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom`, { fileKeyRef: { volumeName: 'dshm', path: 'env', key: 'A' } },
        'expected one of fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef (fileKeyRef needs the EnvFiles feature gate, alpha and off in 1.34, without which the API server drops it)', 'kubernetes/env-value-from')]],
    ['value and valueFrom', d => { c(d).env = [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }]; },
      [f(`${CONTAINER}.env[0].value`, 'x', 'expected not set (or empty) when valueFrom is set', 'kubernetes/env-value-from')]],
    ['envFrom with both sources', d => { c(d).envFrom = [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }]; },
      [f(`${CONTAINER}.envFrom[0]`, { configMapRef: { name: 'a' }, secretRef: { name: 'b' } }, 'expected exactly one of configMapRef or secretRef', 'kubernetes/env-from')]],
    ['an envFrom prefix with "="', d => { c(d).envFrom = [{ prefix: 'A=', configMapRef: { name: 'a' } }]; },
      [f(`${CONTAINER}.envFrom[0].prefix`, 'A=', 'expected printable ASCII characters other than "="', 'kubernetes/env-from')]],
    ['a reference to a later entry stays unexpanded', d => { c(d).env = [{ name: 'TRAIN', value: '$(DATA_ROOT)/train' }, { name: 'DATA_ROOT', value: '/data' }]; },
      [f(`${CONTAINER}.env[0].value`, '$(DATA_ROOT)/train', 'expected references only to variables defined before this entry: "DATA_ROOT" is defined at '
        + `${CONTAINER}.env[1], after it, so the kubelet leaves "$(DATA_ROOT)" unexpanded; move "DATA_ROOT" before ${CONTAINER}.env[0], or write "$$(DATA_ROOT)" to keep the text literal`, 'kubernetes/env-reference-order')]],
    ['a reference to the entry itself', d => { c(d).env = [{ name: 'PATH_X', value: '$(PATH_X):/opt' }]; },
      [f(`${CONTAINER}.env[0].value`, '$(PATH_X):/opt', 'expected references only to variables defined before this entry: "PATH_X" is defined at this entry itself, '
        + `so the kubelet leaves "$(PATH_X)" unexpanded; move "PATH_X" before ${CONTAINER}.env[0], or write "$$(PATH_X)" to keep the text literal`, 'kubernetes/env-reference-order')]],
    ['accepted: earlier entries, escapes, unknown names, an unclosed reference, a later name defined earlier too',
      d => { c(d).env = [{ name: 'A', value: '1' }, { name: 'B', value: '$(A) $$(C) $$$(A) $(OTHER) $(C' }, { name: 'D', value: '$(A)' }, { name: 'A', value: '2' }, { name: 'C', value: '3' }]; }, []],
    ['a secretKeyRef key with a space', d => { c(d).env = [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'hf token' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.secretKeyRef.key`, 'hf token', `expected a key of the Secret: ${KEY_TEXT}`, 'kubernetes/env-key-ref')]],
    ['a configMapKeyRef with no key', d => { c(d).env = [{ name: 'LR', valueFrom: { configMapKeyRef: { name: 'hparams' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.configMapKeyRef.key`, undefined, `expected a key of the ConfigMap: ${KEY_TEXT}`, 'kubernetes/env-key-ref')]],
    ['a configMapKeyRef key ".."', d => { c(d).env = [{ name: 'LR', valueFrom: { configMapKeyRef: { name: 'hparams', key: '..' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.configMapKeyRef.key`, '..', `expected a key of the ConfigMap: ${KEY_TEXT}`, 'kubernetes/env-key-ref')]],
    ['a secretKeyRef with no name', d => { c(d).env = [{ name: 'TOKEN', valueFrom: { secretKeyRef: { key: 'token' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.secretKeyRef.name`, undefined, `expected a Secret name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/env-key-ref')]],
    ['a configMapKeyRef name with capitals', d => { c(d).env = [{ name: 'LR', valueFrom: { configMapKeyRef: { name: 'HParams', key: 'lr' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.configMapKeyRef.name`, 'HParams', `expected a ConfigMap name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/env-key-ref')]],
    ['keys with dots, dashes and underscores', d => { c(d).env = [{ name: 'A', valueFrom: { secretKeyRef: { name: 's.x', key: '.dockerconfig_json-1' } } }]; }, []],
    ['an envFrom secretRef with an empty name', d => { c(d).envFrom = [{ secretRef: { name: '' } }]; },
      [f(`${CONTAINER}.envFrom[0].secretRef.name`, '', `expected a Secret name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/env-key-ref')]],
    ['a fieldRef to a field env cannot read', d => { c(d).env = [{ name: 'PHASE', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.fieldRef.fieldPath`, 'status.phase', `expected a pod field an env variable can read: ${FIELD_PATHS}`, 'kubernetes/env-field-ref')]],
    ['a fieldRef to all labels', d => { c(d).env = [{ name: 'L', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.fieldRef.fieldPath`, 'metadata.labels', `expected a pod field an env variable can read: ${FIELD_PATHS}`, 'kubernetes/env-field-ref')]],
    ['a fieldRef with apiVersion v2', d => { c(d).env = [{ name: 'N', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.fieldRef.apiVersion`, 'v2', 'expected "v1" (the only pod version the downward API reads)', 'kubernetes/env-field-ref')]],
    ['a fieldRef subscript on a field that has none', d => { c(d).env = [{ name: 'N', valueFrom: { fieldRef: { fieldPath: "metadata.name['x']" } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.fieldRef.fieldPath`, "metadata.name['x']", 'expected a subscript only on metadata.labels or metadata.annotations', 'kubernetes/env-field-ref')]],
    ['a fieldRef label subscript that is no label key', d => { c(d).env = [{ name: 'N', valueFrom: { fieldRef: { fieldPath: "metadata.labels['a b']" } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.fieldRef.fieldPath`, "metadata.labels['a b']", `expected a label key in the subscript: ${QUALIFIED}`, 'kubernetes/env-field-ref')]],
    ['accepted fieldRefs: name, a label, an upper-case annotation, the legacy spec.host', d => {
      c(d).env = ['metadata.name', "metadata.labels['app.kubernetes.io/name']", "metadata.annotations['Example.com/Note']", 'spec.host', 'status.podIPs']
        .map((fieldPath, i) => ({ name: `F${i}`, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } }));
    }, []],
    ['a resourceFieldRef to a resource env cannot read', d => { c(d).env = [{ name: 'G', valueFrom: { resourceFieldRef: { resource: 'limits.nvidia.com/gpu' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.resourceFieldRef.resource`, 'limits.nvidia.com/gpu', `expected a container resource: ${RESOURCES}`, 'kubernetes/env-field-ref')]],
    ['a cpu divisor of 2', d => { c(d).env = [{ name: 'C', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.resourceFieldRef.divisor`, '2', 'expected 1m or 1 as the divisor of limits.cpu', 'kubernetes/env-field-ref')]],
    ['a memory divisor of 1024 (canonically "1024", not "1Ki")', d => { c(d).env = [{ name: 'M', valueFrom: { resourceFieldRef: { resource: 'requests.memory', divisor: '1024' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.resourceFieldRef.divisor`, '1024', 'expected 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi or 1Ei as the divisor of requests.memory', 'kubernetes/env-field-ref')]],
    ['accepted divisors: 1m, 1Mi, 1024Ki (canonically 1Mi), 1000 (canonically 1k), a huge page resource', d => {
      c(d).env = [['limits.cpu', '1m'], ['limits.memory', '1Mi'], ['limits.memory', '1024Ki'], ['requests.ephemeral-storage', '1000'], ['limits.hugepages-2Mi', '1Gi']]
        .map(([resource, divisor], i) => ({ name: `R${i}`, valueFrom: { resourceFieldRef: { resource, divisor } } }));
    }, []],
    ['accepted: with envFrom, a later name may come from the ConfigMap', d => {
      c(d).envFrom = [{ configMapRef: { name: 'paths' } }];
      c(d).env = [{ name: 'TRAIN', value: '$(DATA_ROOT)/train' }, { name: 'DATA_ROOT', value: '/data' }];
    }, []],
  ]);
});

describe('volumes and mounts', () => {
  const mount = `${CONTAINER}.volumeMounts[0]`;
  runCases(pytorchJob, [
    ['a volume name with capitals', d => { s(d).volumes[0].name = 'DShm'; c(d).volumeMounts[0].name = 'DShm'; },
      [f(`${WORKER}.volumes[DShm].name`, 'DShm', LABEL, 'kubernetes/volume-name')]],
    ['two volumes with one name', d => { s(d).volumes.push({ name: 'dshm', configMap: { name: 'c' } }); },
      [f(`${WORKER}.volumes[dshm].name`, 'dshm', 'expected a volume name not used by another volume of the pod', 'kubernetes/volume-name-unique')]],
    // The API server defaults a volume without a type to an emptyDir (SetDefaults_Volume).
    ['a volume with no type (an emptyDir)', d => { s(d).volumes.push({ name: 'data' }); }, []],
    ['an image volume (dropped while the ImageVolume gate is off)', d => { s(d).volumes.push({ name: 'model', image: { reference: 'registry.example.com/llama:3' } }); },
      [f(`${WORKER}.volumes[model]`, { name: 'model', image: { reference: 'registry.example.com/llama:3' } },
        'expected another volume type: image volumes need the ImageVolume feature gate (beta, off by default in 1.34), without which the API server drops the volume and its mounts', 'kubernetes/volume-source')]],
    ['a volume with two types', d => { s(d).volumes[0].configMap = { name: 'c' }; },
      [f(`${WORKER}.volumes[dshm]`, { emptyDir: { medium: 'Memory', sizeLimit: '2048Mi' }, name: 'dshm', configMap: { name: 'c' } },
        'expected exactly one volume type, not emptyDir and configMap', 'kubernetes/volume-source')]],
    ['a mount of a volume the pod does not have', d => { c(d).volumeMounts[0].name = 'data'; },
      [f(`${mount}.name`, 'data', 'expected the name of a volume of the pod: "dshm"', 'kubernetes/volume-mount-name')]],
    ['a mount in a pod with no volumes', d => { delete s(d).volumes; },
      [f(`${mount}.name`, 'dshm', 'expected the name of a volume of the pod (the pod has none)', 'kubernetes/volume-mount-name')]],
    // The kubelet makes a relative mount path absolute (makeMounts: Clean("/" + path)), and the pod runs.
    ['a relative mount path is accepted', d => { c(d).volumeMounts[0].mountPath = 'dev/shm'; }, []],
    ['an empty mount path', d => { c(d).volumeMounts[0].mountPath = ''; }, [f(`${mount}.mountPath`, '', MOUNT_REQUIRED, 'kubernetes/mount-path')]],
    ['no mount path', d => { delete c(d).volumeMounts[0].mountPath; }, [f(`${mount}.mountPath`, undefined, MOUNT_REQUIRED, 'kubernetes/mount-path')]],
    ['"/dev/shm" and "/dev/shm/" mounted twice', d => { c(d).volumeMounts.push({ name: 'dshm', mountPath: '/dev/shm/' }); },
      [f(`${CONTAINER}.volumeMounts[1].mountPath`, '/dev/shm/', MOUNT_UNIQUE, 'kubernetes/mount-path-unique')]],
    ['"/dev/shm" and "dev/shm" (made absolute by the kubelet) mounted twice', d => { c(d).volumeMounts.push({ name: 'dshm', mountPath: 'dev/shm' }); },
      [f(`${CONTAINER}.volumeMounts[1].mountPath`, 'dev/shm', MOUNT_UNIQUE, 'kubernetes/mount-path-unique')]],
    ['"/dev/shm" and "./dev/../dev/shm" mounted twice', d => { c(d).volumeMounts.push({ name: 'dshm', mountPath: './dev/../dev/shm' }); },
      [f(`${CONTAINER}.volumeMounts[1].mountPath`, './dev/../dev/shm', MOUNT_UNIQUE, 'kubernetes/mount-path-unique')]],
    ['"/dev/shm" and "dev/shm2" are two paths', d => { c(d).volumeMounts.push({ name: 'dshm', mountPath: 'dev/shm2' }); }, []],
    ['an absolute subPath', d => { c(d).volumeMounts[0].subPath = '/etc'; }, [f(`${mount}.subPath`, '/etc', SUB_PATH, 'kubernetes/sub-path')]],
    ['a subPath with ".."', d => { c(d).volumeMounts[0].subPath = 'a/../../etc'; }, [f(`${mount}.subPath`, 'a/../../etc', SUB_PATH, 'kubernetes/sub-path')]],
    ['Bidirectional propagation in a container that is not privileged', d => { c(d).volumeMounts[0].mountPropagation = 'Bidirectional'; },
      [f(`${mount}.mountPropagation`, 'Bidirectional', 'expected "None" or "HostToContainer" (only a privileged container may use "Bidirectional")', 'kubernetes/mount-options')]],
    ['a misspelt propagation', d => { c(d).volumeMounts[0].mountPropagation = 'HostToPod'; },
      [f(`${mount}.mountPropagation`, 'HostToPod', 'expected "None", "HostToContainer" or "Bidirectional"', 'kubernetes/mount-options')]],
    ['recursiveReadOnly on a writable mount', d => { c(d).volumeMounts[0].recursiveReadOnly = 'Enabled'; },
      [f(`${mount}.recursiveReadOnly`, 'Enabled', 'expected "Disabled" or not set unless readOnly is true', 'kubernetes/mount-options')]],
    ['recursiveReadOnly with propagation', d => { Object.assign(c(d).volumeMounts[0], { readOnly: true, recursiveReadOnly: 'IfPossible', mountPropagation: 'HostToContainer' }); },
      [f(`${mount}.recursiveReadOnly`, 'IfPossible', 'expected "Disabled" or not set unless mountPropagation is "None" or not set', 'kubernetes/mount-options')]],
    ['recursiveReadOnly on a read-only mount', d => { Object.assign(c(d).volumeMounts[0], { readOnly: true, recursiveReadOnly: 'Enabled' }); }, []],
    ['a subPath with ".." inside a name is fine', d => { c(d).volumeMounts[0].subPath = 'a..b/c'; }, []],
    ['subPath and subPathExpr', d => { c(d).volumeMounts[0].subPath = 'a'; c(d).volumeMounts[0].subPathExpr = '$(POD)'; },
      [f(`${mount}.subPathExpr`, '$(POD)', 'expected not set when subPath is set (they are mutually exclusive)', 'kubernetes/sub-path')]],
  ]);
});

describe('volume types', () => {
  const v = `${WORKER}.volumes`;
  const add = (volume: any) => (d: any) => { s(d).volumes.push(volume); };
  runCases(pytorchJob, [
    ['a secret volume without a secret name', add({ name: 'creds', secret: {} }),
      [f(`${v}[creds].secret.secretName`, undefined, 'expected the name of the Secret to mount', 'kubernetes/volume-fields')]],
    ['a configMap volume with an empty name', add({ name: 'cfg', configMap: { name: '' } }),
      [f(`${v}[cfg].configMap.name`, '', 'expected the name of the ConfigMap to mount', 'kubernetes/volume-fields')]],
    ['a claim volume without a claim name', add({ name: 'data', persistentVolumeClaim: { readOnly: true } }),
      [f(`${v}[data].persistentVolumeClaim.claimName`, undefined, 'expected the name of the PersistentVolumeClaim to mount', 'kubernetes/volume-fields')]],
    ['a negative emptyDir size', add({ name: 'scratch', emptyDir: { sizeLimit: '-1Gi' } }),
      [f(`${v}[scratch].emptyDir.sizeLimit`, '-1Gi', 'expected a size of 0 or more, such as 2Gi', 'kubernetes/volume-fields')]],
    ['a hostPath with ".."', add({ name: 'logs', hostPath: { path: '/var/log/../../etc' } }),
      [f(`${v}[logs].hostPath.path`, '/var/log/../../etc', 'expected a path on the node without ".." elements', 'kubernetes/volume-fields')]],
    ['a misspelt hostPath type', add({ name: 'logs', hostPath: { path: '/var/log', type: 'Dir' } }),
      [f(`${v}[logs].hostPath.type`, 'Dir', 'expected "", "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket", "CharDevice" or "BlockDevice"', 'kubernetes/volume-fields')]],
    ['an NFS export with a relative path', add({ name: 'nfs', nfs: { server: 'nas.local', path: 'exports/data' } }),
      [f(`${v}[nfs].nfs.path`, 'exports/data', 'expected the absolute path of the export on the server, such as /exports/data', 'kubernetes/volume-fields')]],
    ['a CSI driver name with a space', add({ name: 'lustre', csi: { driver: 'lustre csi' } }),
      [f(`${v}[lustre].csi.driver`, 'lustre csi', `expected a CSI driver name of at most 63 characters: a DNS-1123 subdomain: ${SUBDOMAIN} (upper case allowed)`, 'kubernetes/volume-fields')]],
    ['a CSI driver name in upper case', add({ name: 'lustre', csi: { driver: 'Lustre.CSI.example.com' } }), []],
    ['a secret item without a key, and an absolute path', add({ name: 'creds', secret: { secretName: 'hf', items: [{ path: '/token' }] } }),
      [f(`${v}[creds].secret.items[0].key`, undefined, 'expected the key whose value the file holds', 'kubernetes/volume-items'),
        f(`${v}[creds].secret.items[0].path`, '/token', ITEM_PATH, 'kubernetes/volume-items')]],
    ['a configMap item path starting with ".."', add({ name: 'cfg', configMap: { name: 'c', items: [{ key: 'a', path: '..data' }] } }),
      [f(`${v}[cfg].configMap.items[0].path`, '..data', ITEM_PATH, 'kubernetes/volume-items')]],
    ['a downward API file of a field it cannot show', add({ name: 'info', downwardAPI: { items: [{ path: 'node', fieldRef: { fieldPath: 'spec.nodeName' } }] } }),
      [f(`${v}[info].downwardAPI.items[0].fieldRef.fieldPath`, 'spec.nodeName', `expected ${VOLUME_FIELDS}`, 'kubernetes/volume-items')]],
    ['a downward API file of a resource without the container', add({ name: 'info', downwardAPI: { items: [{ path: 'cpu', resourceFieldRef: { resource: 'limits.cpu' } }] } }),
      [f(`${v}[info].downwardAPI.items[0].resourceFieldRef.containerName`, undefined, 'expected the name of the container whose resources the file shows', 'kubernetes/volume-items')]],
    ['a downward API file with no source', add({ name: 'info', downwardAPI: { items: [{ path: 'x' }] } }),
      [f(`${v}[info].downwardAPI.items[0]`, { path: 'x' }, 'expected one of fieldRef or resourceFieldRef', 'kubernetes/volume-items')]],
    ['downward API files 1.34 accepts', add({
      name: 'info',
      downwardAPI: {
        items: [
          { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
          { path: 'mem', resourceFieldRef: { containerName: 'pytorch', resource: 'limits.memory', divisor: '1Mi' } },
        ],
      },
    }), []],
    ['a projected volume writing one path twice', add({
      name: 'all',
      projected: {
        sources: [
          { secret: { name: 's', items: [{ key: 'a', path: 'conf' }] } }, { configMap: { name: 'c', items: [{ key: 'b', path: 'conf' }] } },
        ],
      },
    }),
    [f(`${v}[all].projected.sources[1].configMap.items[0].path`, 'conf', `expected a path no other source of the projected volume writes (${v}[all].projected.sources[0].secret.items[0].path has it)`, 'kubernetes/volume-items')]],
    ['a projected source with two kinds', add({ name: 'all', projected: { sources: [{ secret: { name: 's' }, configMap: { name: 'c' } }] } }),
      [f(`${v}[all].projected.sources[0]`, { secret: { name: 's' }, configMap: { name: 'c' } }, 'expected one source per entry, not secret and configMap', 'kubernetes/volume-items')]],
    ['a projected token with an absolute path', add({ name: 'tok', projected: { sources: [{ serviceAccountToken: { path: '/token', expirationSeconds: 3600 } }] } }),
      [f(`${v}[tok].projected.sources[0].serviceAccountToken.path`, '/token', ITEM_PATH, 'kubernetes/volume-items')]],
  ]);
});

describe('probes', () => {
  runCases(pytorchJob, [
    ['a probe with two handlers', d => { c(d).readinessProbe = { exec: { command: ['true'] }, tcpSocket: { port: 1 } }; },
      [f(`${CONTAINER}.readinessProbe`, { exec: { command: ['true'] }, tcpSocket: { port: 1 } }, 'expected exactly one handler, not exec and tcpSocket', 'kubernetes/probe-handler')]],
    ['a probe with no handler', d => { c(d).startupProbe = { periodSeconds: 5 }; },
      [f(`${CONTAINER}.startupProbe`, { periodSeconds: 5 }, 'expected exactly one of exec, httpGet, tcpSocket or grpc', 'kubernetes/probe-handler')]],
    ['a liveness probe with successThreshold 2', d => { c(d).livenessProbe = { exec: { command: ['true'] }, successThreshold: 2 }; },
      [f(`${CONTAINER}.livenessProbe.successThreshold`, 2, 'expected 1 (liveness and startup probes succeed once)', 'kubernetes/probe-success-threshold')]],
    ['a readiness probe with successThreshold 2', d => { c(d).readinessProbe = { exec: { command: ['true'] }, successThreshold: 2 }; }, []],
    ['a liveness probe with successThreshold 0 (defaulted to 1)', d => { c(d).livenessProbe = { exec: { command: ['true'] }, successThreshold: 0 }; }, []],
    ['an exec probe without a command', d => { c(d).livenessProbe = { exec: {} }; },
      [f(`${CONTAINER}.livenessProbe.exec.command`, undefined, 'expected the command to run, such as ["cat", "/tmp/healthy"]', 'kubernetes/probe-action')]],
    ['an httpGet probe on port 0', d => { c(d).readinessProbe = { httpGet: { path: '/healthz', port: 0 } }; },
      [f(`${CONTAINER}.readinessProbe.httpGet.port`, 0, 'expected a port number between 1 and 65535', 'kubernetes/probe-action')]],
    ['an httpGet probe on the port "8080" (a name, not a number)', d => { c(d).readinessProbe = { httpGet: { path: '/healthz', port: '8080' } }; },
      [f(`${CONTAINER}.readinessProbe.httpGet.port`, '8080', PROBE_PORT_NAME, 'kubernetes/probe-action')]],
    ['an httpGet probe in lower-case scheme', d => { c(d).readinessProbe = { httpGet: { path: '/', port: 'http', scheme: 'https' } }; },
      [f(`${CONTAINER}.readinessProbe.httpGet.scheme`, 'https', 'expected "HTTP" or "HTTPS"', 'kubernetes/probe-action')]],
    ['an httpGet header name with a space', d => { c(d).readinessProbe = { httpGet: { path: '/', port: 8080, httpHeaders: [{ name: 'X Probe', value: '1' }] } }; },
      [f(`${CONTAINER}.readinessProbe.httpGet.httpHeaders[0].name`, 'X Probe', 'expected an HTTP header name of letters, digits and "-", such as X-Probe', 'kubernetes/probe-action')]],
    ['a tcpSocket probe on a named port', d => { c(d).startupProbe = { tcpSocket: { port: 'pytorchjob-port' } }; }, []],
    ['a preStop hook with two handlers', d => { c(d).lifecycle = { preStop: { exec: { command: ['sync'] }, sleep: { seconds: 5 } } }; },
      [f(`${CONTAINER}.lifecycle.preStop`, { exec: { command: ['sync'] }, sleep: { seconds: 5 } }, 'expected exactly one handler, not exec and sleep', 'kubernetes/lifecycle-handler')]],
    ['a postStart hook with no handler', d => { c(d).lifecycle = { postStart: {} }; },
      [f(`${CONTAINER}.lifecycle.postStart`, {}, 'expected exactly one of exec, httpGet, tcpSocket or sleep', 'kubernetes/lifecycle-handler')]],
    ['a preStop sleep longer than the grace period', d => { s(d).terminationGracePeriodSeconds = 10; c(d).lifecycle = { preStop: { sleep: { seconds: 20 } } }; },
      [f(`${CONTAINER}.lifecycle.preStop.sleep.seconds`, 20, 'expected 0 to 10 seconds (the pod\'s terminationGracePeriodSeconds)', 'kubernetes/lifecycle-handler')]],
    ['a preStop sleep of 0 and one of the default 30 seconds', d => {
      c(d).lifecycle = { preStop: { sleep: { seconds: 30 } }, postStart: { sleep: { seconds: 0 } } };
    }, []],
    ['a probe on an init container that is no sidecar', d => { s(d).initContainers = [{ name: 'prep', image: 'busybox', readinessProbe: { exec: { command: ['true'] } } }]; },
      [f(`${WORKER}.initContainers[prep].readinessProbe`, { exec: { command: ['true'] } }, INIT_HOOKS, 'kubernetes/init-container-hooks')]],
    ['a lifecycle hook on an init container that is no sidecar', d => { s(d).initContainers = [{ name: 'prep', image: 'busybox', lifecycle: { preStop: { exec: { command: ['x'] } } } }]; },
      [f(`${WORKER}.initContainers[prep].lifecycle`, { preStop: { exec: { command: ['x'] } } }, INIT_HOOKS, 'kubernetes/init-container-hooks')]],
    ['probes and hooks on a sidecar', d => {
      s(d).initContainers = [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always', startupProbe: { tcpSocket: { port: 9901 } }, lifecycle: { preStop: { sleep: { seconds: 5 } } } }];
    }, []],
  ]);
});

describe('scheduling', () => {
  const t = `${WORKER}.tolerations[0]`;
  runCases(pytorchJob, [
    ['a toleration with Exists and a value', d => { s(d).tolerations[0].value = 'present'; },
      [f(`${t}.value`, 'present', 'expected no value when operator is "Exists" (it matches any value)', 'kubernetes/toleration-value')]],
    ['a misspelt effect', d => { s(d).tolerations[0].effect = 'NoScheduled'; },
      [f(`${t}.effect`, 'NoScheduled', 'expected "NoSchedule", "PreferNoSchedule", "NoExecute", or empty for all effects', 'kubernetes/toleration-effect')]],
    ['a misspelt operator', d => { s(d).tolerations[0].operator = 'Exist'; }, [f(`${t}.operator`, 'Exist', 'expected "Equal" or "Exists"', 'kubernetes/toleration-operator')]],
    ['a toleration key with a space', d => { s(d).tolerations[0].key = 'nvidia gpu'; },
      [f(`${t}.key`, 'nvidia gpu', 'expected a taint key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'kubernetes/toleration-key')]],
    ['an empty key with Equal', d => { s(d).tolerations[0] = { operator: 'Equal', value: 'x' }; },
      [f(`${t}.key`, undefined, 'expected a taint key, or operator "Exists" to tolerate every taint', 'kubernetes/toleration-key')]],
    ['an empty key with Exists tolerates everything', d => { s(d).tolerations[0] = { operator: 'Exists' }; }, []],
    ['an Equal value that is not a label value', d => { s(d).tolerations[0] = { key: 'k', operator: 'Equal', value: 'a b' }; },
      [f(`${t}.value`, 'a b', LABEL_VALUE, 'kubernetes/toleration-value')]],
    ['tolerationSeconds without NoExecute', d => { s(d).tolerations[0].tolerationSeconds = 60; },
      [f(`${t}.tolerationSeconds`, 60, 'expected not set unless effect is "NoExecute"', 'kubernetes/toleration-seconds')]],
    ['tolerationSeconds with NoExecute', d => { s(d).tolerations[0] = { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }; }, []],
    ['a node selector key with a space', d => { s(d).nodeSelector = { 'gpu type': 'a100' }; }, [f(`${WORKER}.nodeSelector["gpu type"]`, 'gpu type', LABEL_KEY, 'kubernetes/label-key')]],
    ['a node selector value with a slash', d => { s(d).nodeSelector = { gpu: 'nvidia/a100' }; }, [f(`${WORKER}.nodeSelector.gpu`, 'nvidia/a100', LABEL_VALUE, 'kubernetes/label-value')]],
    ['a priority class name with capitals', d => { s(d).priorityClassName = 'High'; },
      [f(`${WORKER}.priorityClassName`, 'High', `expected a priority class name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/priority-class-name')]],
    // Kubernetes 1.34 checks no schedulerName form, and a scheduler profile may have any non-empty name.
    ['a scheduler name with an underscore (a profile may be so named)', d => { s(d).schedulerName = 'volcano_sched'; }, []],
    ['a service account name with a space', d => { s(d).serviceAccountName = 'trainer sa'; },
      [f(`${WORKER}.serviceAccountName`, 'trainer sa', `expected a service account name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/service-account-name')]],
    // v1 conversion copies the deprecated alias into serviceAccountName when that is empty (found by the leaf fuzzer).
    ['a deprecated serviceAccount with capitals', d => { s(d).serviceAccount = 'Trainer'; },
      [f(`${WORKER}.serviceAccount`, 'Trainer', `expected a service account name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/service-account-name')]],
    ['a deprecated serviceAccount beside a serviceAccountName (the new field wins)', d => { s(d).serviceAccount = 'Trainer'; s(d).serviceAccountName = 'trainer'; }, []],
    ['a runtime class name with capitals', d => { s(d).runtimeClassName = 'Nvidia'; },
      [f(`${WORKER}.runtimeClassName`, 'Nvidia', `expected a runtime class name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/runtime-class-name')]],
    ['a node name with capitals', d => { s(d).nodeName = 'Node1'; },
      [f(`${WORKER}.nodeName`, 'Node1', `expected a node name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/node-name')]],
    ['a hostname with a dot', d => { s(d).hostname = 'a.b'; }, [f(`${WORKER}.hostname`, 'a.b', LABEL, 'kubernetes/hostname')]],
    ['a misspelt restartPolicy', d => { s(d).restartPolicy = 'OnFail'; }, [f(`${WORKER}.restartPolicy`, 'OnFail', 'expected "Always", "OnFailure" or "Never"', 'kubernetes/restart-policy')]],
    ['a misspelt dnsPolicy', d => { s(d).dnsPolicy = 'ClusterFirstWithHostNetwork'; },
      [f(`${WORKER}.dnsPolicy`, 'ClusterFirstWithHostNetwork', 'expected "ClusterFirst", "ClusterFirstWithHostNet", "Default" or "None"', 'kubernetes/dns-policy')]],
    ['dnsPolicy None without dnsConfig', d => { s(d).dnsPolicy = 'None'; },
      [f(`${WORKER}.dnsConfig`, undefined, 'expected a dnsConfig with at least one nameserver when dnsPolicy is "None"', 'kubernetes/dns-policy')]],
    ['a misspelt preemptionPolicy', d => { s(d).preemptionPolicy = 'Preempt'; },
      [f(`${WORKER}.preemptionPolicy`, 'Preempt', 'expected "PreemptLowerPriority" or "Never"', 'kubernetes/preemption-policy')]],
  ]);
});

describe('name resolution, gates, OS', () => {
  runCases(pytorchJob, [
    ['four nameservers', d => { s(d).dnsConfig = { nameservers: ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'] }; },
      [f(`${WORKER}.dnsConfig.nameservers`, ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'], 'expected at most 3 nameservers (what the resolver reads)', 'kubernetes/dns-config')]],
    ['a nameserver that is a host name', d => { s(d).dnsPolicy = 'None'; s(d).dnsConfig = { nameservers: ['dns.example.com'] }; },
      [f(`${WORKER}.dnsConfig.nameservers[0]`, 'dns.example.com', 'expected an IPv4 or IPv6 address such as 10.0.0.10', 'kubernetes/dns-config')]],
    ['IPv4 with leading zeros, IPv6 and an IPv4-mapped IPv6 nameserver', d => { s(d).dnsConfig = { nameservers: ['010.000.000.010', 'fd00::a', '::ffff:10.0.0.1'] }; }, []],
    ['a search domain with a space', d => { s(d).dnsConfig = { searches: ['ml team.svc.cluster.local'] }; },
      [f(`${WORKER}.dnsConfig.searches[0]`, 'ml team.svc.cluster.local', DNS_SEARCH, 'kubernetes/dns-config')]],
    ['search domains 1.34 accepts: a trailing dot, an underscore, "."', d => { s(d).dnsConfig = { searches: ['svc.cluster.local.', '_tcp.example.com', '.'] }; }, []],
    ['33 search domains', d => { s(d).dnsConfig = { searches: Array.from({ length: 33 }, (_, i) => `d${i}.local`) }; },
      [f(`${WORKER}.dnsConfig.searches`, Array.from({ length: 33 }, (_, i) => `d${i}.local`), 'expected at most 32 search domains', 'kubernetes/dns-config')]],
    ['a resolver option without a name', d => { s(d).dnsConfig = { options: [{ value: '2' }] }; },
      [f(`${WORKER}.dnsConfig.options[0].name`, undefined, 'expected the name of the resolver option, such as ndots', 'kubernetes/dns-config')]],
    ['a host alias with a bad IP and an upper-case host name', d => { s(d).hostAliases = [{ ip: '10.0.0.256', hostnames: ['Registry.local'] }]; },
      [f(`${WORKER}.hostAliases[0].ip`, '10.0.0.256', 'expected an IPv4 or IPv6 address such as 10.0.0.10', 'kubernetes/host-aliases'),
        f(`${WORKER}.hostAliases[0].hostnames[0]`, 'Registry.local', `expected a host name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/host-aliases')]],
    ['a readiness gate with a space', d => { s(d).readinessGates = [{ conditionType: 'warm cache' }]; },
      [f(`${WORKER}.readinessGates[0].conditionType`, 'warm cache', `expected a pod condition type: ${QUALIFIED}`, 'kubernetes/pod-gates')]],
    ['a scheduling gate twice', d => { s(d).schedulingGates = [{ name: 'example.com/quota' }, { name: 'example.com/quota' }]; },
      [f(`${WORKER}.schedulingGates[1].name`, 'example.com/quota', 'expected a scheduling gate not listed twice', 'kubernetes/pod-gates')]],
    ['an OS in capitals', d => { s(d).os = { name: 'Linux' }; }, [f(`${WORKER}.os.name`, 'Linux', 'expected "linux" or "windows"', 'kubernetes/pod-os')]],
  ]);
});

describe('topology spread', () => {
  const t = `${WORKER}.topologySpreadConstraints`;
  const zone = { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'train' } } };
  runCases(pytorchJob, [
    ['a valid constraint with matchLabelKeys', d => { s(d).topologySpreadConstraints = [{ ...zone, matchLabelKeys: ['pod-template-hash'], minDomains: 2, nodeTaintsPolicy: 'Honor' }]; }, []],
    ['no topologyKey', d => { s(d).topologySpreadConstraints = [{ ...zone, topologyKey: '' }]; },
      [f(`${t}[0].topologyKey`, '', 'expected the node label to spread over, such as topology.kubernetes.io/zone', 'kubernetes/topology-spread')]],
    ['a misspelt whenUnsatisfiable', d => { s(d).topologySpreadConstraints = [{ ...zone, whenUnsatisfiable: 'DoNotScheduled' }]; },
      [f(`${t}[0].whenUnsatisfiable`, 'DoNotScheduled', 'expected "DoNotSchedule" or "ScheduleAnyway"', 'kubernetes/topology-spread')]],
    ['two constraints on one pair', d => { s(d).topologySpreadConstraints = [zone, { ...zone, maxSkew: 2 }]; },
      [f(`${t}[0]`, 'topology.kubernetes.io/zone/DoNotSchedule', `expected one constraint per topologyKey and whenUnsatisfiable (${t}[1] has the same pair)`, 'kubernetes/topology-spread')]],
    ['minDomains with ScheduleAnyway', d => { s(d).topologySpreadConstraints = [{ ...zone, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 3 }]; },
      [f(`${t}[0].minDomains`, 3, 'expected not set unless whenUnsatisfiable is "DoNotSchedule"', 'kubernetes/topology-spread')]],
    ['a misspelt node policy', d => { s(d).topologySpreadConstraints = [{ ...zone, nodeAffinityPolicy: 'Honour' }]; },
      [f(`${t}[0].nodeAffinityPolicy`, 'Honour', 'expected "Honor" or "Ignore"', 'kubernetes/topology-spread')]],
    ['matchLabelKeys without a labelSelector', d => { s(d).topologySpreadConstraints = [{ ...zone, labelSelector: undefined, matchLabelKeys: ['app'] }]; },
      [f(`${t}[0].matchLabelKeys`, ['app'], 'expected not set when labelSelector is not set', 'kubernetes/topology-spread')]],
    ['a matchLabelKey the selector has, on a pod labelled with it', d => {
      d.spec.pytorchReplicaSpecs.Worker.template.metadata = { labels: { app: 'train' } };
      s(d).topologySpreadConstraints = [{ ...zone, matchLabelKeys: ['app'] }];
    }, [f(`${t}[0].matchLabelKeys[0]`, 'app', 'expected a key the labelSelector does not have: the API server adds "app In (train)" from the pod\'s labels when it creates the pod, and refuses the key twice', 'kubernetes/topology-spread')]],
    ['a matchLabelKey the selector has, on a pod without that label (nothing is merged)', d => { s(d).topologySpreadConstraints = [{ ...zone, matchLabelKeys: ['app'] }]; }, []],
    ['a selector expression with a bad operator', d => { s(d).topologySpreadConstraints = [{ ...zone, labelSelector: { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['x'] }] } }]; },
      [f(`${t}[0].labelSelector.matchExpressions[0].operator`, 'Equals', 'expected "In", "NotIn", "Exists" or "DoesNotExist"', 'kubernetes/label-selector')]],
  ]);
});

describe('affinity', () => {
  const na = `${WORKER}.affinity.nodeAffinity`;
  const req = `${na}.requiredDuringSchedulingIgnoredDuringExecution`;
  const pa = `${WORKER}.affinity.podAntiAffinity`;
  const withNodeTerms = (terms: unknown) => (d: any) => {
    s(d).affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
  };
  const withPodTerm = (term: unknown) => (d: any) => {
    s(d).affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } };
  };
  runCases(pytorchJob, [
    ['no node selector terms', withNodeTerms([]), [f(`${req}.nodeSelectorTerms`, [], 'expected at least one node selector term', 'kubernetes/node-selector-terms')]],
    ['an empty node selector term', withNodeTerms([{}]),
      [f(`${req}.nodeSelectorTerms[0]`, {}, 'expected at least one matchExpressions or matchFields entry (an empty term matches no node, so the pod never schedules)', 'kubernetes/node-selector-term-empty')]],
    ['a term with empty lists', withNodeTerms([{ matchExpressions: [] }]),
      [f(`${req}.nodeSelectorTerms[0]`, { matchExpressions: [] }, 'expected at least one matchExpressions or matchFields entry (an empty term matches no node, so the pod never schedules)', 'kubernetes/node-selector-term-empty')]],
    ['a valid node term', withNodeTerms([{ matchExpressions: [{ key: 'nvidia.com/gpu.product', operator: 'In', values: ['A100'] }] }]), []],
    ['In without values', withNodeTerms([{ matchExpressions: [{ key: 'zone', operator: 'In', values: [] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].values`, [], 'expected at least one value when operator is "In"', 'kubernetes/node-selector-requirement')]],
    ['Exists with values', withNodeTerms([{ matchExpressions: [{ key: 'zone', operator: 'Exists', values: ['a'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].values`, ['a'], 'expected no values when operator is "Exists"', 'kubernetes/node-selector-requirement')]],
    ['Gt with two values', withNodeTerms([{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['1', '2'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].values`, ['1', '2'], 'expected exactly one value when operator is "Gt"', 'kubernetes/node-selector-requirement')]],
    ['a misspelt node operator', withNodeTerms([{ matchExpressions: [{ key: 'zone', operator: 'in', values: ['a'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].operator`, 'in', 'expected "In", "NotIn", "Exists", "DoesNotExist", "Gt" or "Lt"', 'kubernetes/node-selector-requirement')]],
    ['a node requirement key with a space', withNodeTerms([{ matchExpressions: [{ key: 'gpu type', operator: 'Exists' }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].key`, 'gpu type', LABEL_KEY, 'kubernetes/node-selector-requirement')]],
    ['a node requirement value with a space', withNodeTerms([{ matchExpressions: [{ key: 'gpu', operator: 'In', values: ['a 100'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].values[0]`, 'a 100', LABEL_VALUE, 'kubernetes/node-selector-requirement')]],
    ['a field selector on a label', withNodeTerms([{ matchFields: [{ key: 'metadata.labels', operator: 'In', values: ['a'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchFields[0].key`, 'metadata.labels', 'expected "metadata.name" (the only node field a selector may use)', 'kubernetes/node-selector-requirement')]],
    ['a preferred term value with a space is not checked (allowed there)', d => {
      s(d).affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'gpu', operator: 'In', values: ['a 100'] }] } }] } };
    }, []],
    ['a field selector value that is not a node name', withNodeTerms([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['Node_1'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchFields[0].values[0]`, 'Node_1', `expected a node name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'kubernetes/node-selector-requirement')]],
    ['a pod anti-affinity value with a space', withPodTerm({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] }, topologyKey: 'zone' }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values[0]`, 'a b', LABEL_VALUE, 'kubernetes/label-selector')]],
    ['an empty preferred term is allowed (it only weighs)', d => { s(d).affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }] } }; }, []],
    ['a pod anti-affinity operator', withPodTerm({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] }, topologyKey: 'kubernetes.io/hostname' }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator`, 'Gt', 'expected "In", "NotIn", "Exists" or "DoesNotExist"', 'kubernetes/label-selector')]],
    ['a pod anti-affinity In without values', withPodTerm({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] }, topologyKey: 'kubernetes.io/hostname' }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values`, undefined, 'expected at least one value when operator is "In"', 'kubernetes/label-selector')]],
    ['a pod affinity term without topologyKey', withPodTerm({ labelSelector: { matchLabels: { app: 'x' } } }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey`, undefined, 'expected a node label key such as kubernetes.io/hostname: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'kubernetes/topology-key')]],
    ['a pod affinity matchLabels value with a space', withPodTerm({ labelSelector: { matchLabels: { app: 'x y' } }, topologyKey: 'zone' }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels.app`, 'x y', LABEL_VALUE, 'kubernetes/label-value')]],
    ['a pod affinity namespace with capitals', withPodTerm({ labelSelector: {}, topologyKey: 'zone', namespaces: ['Team'] }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].namespaces[0]`, 'Team', `expected a namespace: ${LABEL.slice('expected '.length)}`, 'kubernetes/affinity-namespace')]],
  ]);
});

describe('resources', () => {
  const r = `${CONTAINER}.resources`;
  runCases(pytorchJob, [
    ['a request above its limit', d => { c(d).resources.requests.memory = '32Gi'; },
      [f(`${r}.requests.memory`, '32Gi', 'expected at most the limit 16Gi', 'kubernetes/resource-limit')]],
    ['a request equal to its limit in other units', d => { c(d).resources.requests.cpu = '4000m'; c(d).resources.requests.memory = '16384Mi'; }, []],
    ['a request in exponent form below its limit', d => { c(d).resources.requests.cpu = '15e-1'; }, []],
    ['a request in exponent form above its limit', d => { c(d).resources.requests.cpu = '5e0'; },
      [f(`${r}.requests.cpu`, '5e0', 'expected at most the limit 4', 'kubernetes/resource-limit')]],
    ['an exponent and a suffix together (not a quantity)', d => { c(d).resources.requests.cpu = '1e3m'; },
      [f(`${r}.requests.cpu`, '1e3m', 'expected a non-negative quantity such as 500m, 2, 1.5Gi or 100M', 'kubernetes/resource-quantity')]],
    ['a quantity that does not parse', d => { c(d).resources.limits.memory = '16GB'; },
      [f(`${r}.limits.memory`, '16GB', 'expected a non-negative quantity such as 500m, 2, 1.5Gi or 100M', 'kubernetes/resource-quantity')]],
    ['a negative quantity', d => { c(d).resources.requests.cpu = '-1'; },
      [f(`${r}.requests.cpu`, '-1', 'expected a non-negative quantity such as 500m, 2, 1.5Gi or 100M', 'kubernetes/resource-quantity')]],
    ['a GPU request below its limit', d => { c(d).resources.requests['nvidia.com/gpu'] = 0; },
      [f(`${r}.requests["nvidia.com/gpu"]`, 0, 'expected the same value as the limit 1 (nvidia.com/gpu cannot be overcommitted)', 'kubernetes/resource-not-overcommitted')]],
    ['a GPU request without a limit', d => { delete c(d).resources.limits['nvidia.com/gpu']; },
      [f(`${r}.limits["nvidia.com/gpu"]`, undefined, 'expected a limit equal to the request 1 (nvidia.com/gpu cannot be overcommitted)', 'kubernetes/resource-not-overcommitted')]],
    ['a GPU limit without a request (the request defaults to it)', d => { delete c(d).resources.requests['nvidia.com/gpu']; }, []],
    ['half a GPU', d => { c(d).resources.limits['nvidia.com/gpu'] = '500m'; c(d).resources.requests['nvidia.com/gpu'] = '500m'; },
      [f(`${r}.limits["nvidia.com/gpu"]`, '500m', 'expected a whole number (nvidia.com/gpu is an extended resource, counted in units)', 'kubernetes/resource-integer'),
        f(`${r}.requests["nvidia.com/gpu"]`, '500m', 'expected a whole number (nvidia.com/gpu is an extended resource, counted in units)', 'kubernetes/resource-integer')]],
    ['an unprefixed resource that is not standard', d => { c(d).resources.limits.gpu = 1; },
      [f(`${r}.limits.gpu`, 'gpu', 'expected cpu, memory, ephemeral-storage, hugepages-<size>, or an extended resource with a domain prefix such as nvidia.com/gpu', 'kubernetes/resource-name')]],
    ['a resource name with a space', d => { c(d).resources.limits['nvidia.com/a gpu'] = 1; },
      [f(`${r}.limits["nvidia.com/a gpu"]`, 'nvidia.com/a gpu', 'expected a resource name: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'kubernetes/resource-name')]],
    ['huge pages request below the limit', d => { c(d).resources.limits['hugepages-2Mi'] = '1Gi'; c(d).resources.requests['hugepages-2Mi'] = '512Mi'; },
      [f(`${r}.requests["hugepages-2Mi"]`, '512Mi', 'expected the same value as the limit 1Gi (hugepages-2Mi cannot be overcommitted)', 'kubernetes/resource-not-overcommitted')]],
    ['huge pages that are no whole number of pages', d => { c(d).resources.limits['hugepages-2Mi'] = '3Mi'; c(d).resources.requests['hugepages-2Mi'] = '3Mi'; },
      [f(`${r}.limits["hugepages-2Mi"]`, '3Mi', 'expected a whole number of 2Mi pages', 'kubernetes/resource-huge-pages'),
        f(`${r}.requests["hugepages-2Mi"]`, '3Mi', 'expected a whole number of 2Mi pages', 'kubernetes/resource-huge-pages')]],
    ['huge pages of a size that is no quantity', d => { c(d).resources.limits['hugepages-big'] = '1Gi'; },
      [f(`${r}.limits["hugepages-big"]`, '1Gi', 'expected huge pages of a valid page size: the name hugepages-big holds no page size such as 2Mi or 1Gi', 'kubernetes/resource-huge-pages')]],
    ['huge pages of 1.5Mi in 512Ki pages', d => { c(d).resources.limits['hugepages-512Ki'] = '1.5Mi'; c(d).resources.requests['hugepages-512Ki'] = '1.5Mi'; }, []],
    ['huge pages without cpu or memory', d => { c(d).resources = { limits: { 'hugepages-1Gi': '2Gi' } }; },
      [f(r, 'hugepages-1Gi', 'expected a cpu or memory request or limit beside the huge pages (the API server refuses huge pages alone)', 'kubernetes/resource-huge-pages')]],
    ['a resize policy for a GPU', d => { c(d).resizePolicy = [{ resourceName: 'nvidia.com/gpu', restartPolicy: 'NotRequired' }]; },
      [f(`${CONTAINER}.resizePolicy[0].resourceName`, 'nvidia.com/gpu', 'expected "cpu" or "memory"', 'kubernetes/resize-policy')]],
    ['a resize policy naming memory twice', d => { c(d).resizePolicy = [{ resourceName: 'memory', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'NotRequired' }]; },
      [f(`${CONTAINER}.resizePolicy[1].resourceName`, 'memory', 'expected each resource once in the resize policy', 'kubernetes/resize-policy')]],
    ['a misspelt resize restart policy', d => { c(d).resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'Restart' }]; },
      [f(`${CONTAINER}.resizePolicy[0].restartPolicy`, 'Restart', 'expected "NotRequired" or "RestartContainer"', 'kubernetes/resize-policy')]],
    ['RestartContainer in a pod that never restarts', d => { s(d).restartPolicy = 'Never'; c(d).resizePolicy = [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }]; },
      [f(`${CONTAINER}.resizePolicy[0].restartPolicy`, 'RestartContainer', 'expected "NotRequired", because the pod\'s restartPolicy is "Never"', 'kubernetes/resize-policy')]],
  ]);
});

describe('pod-level resources and resource claims', () => {
  const r = `${WORKER}.resources`;
  runCases(pytorchJob, [
    ['pod resources above the container (4 CPU, 16Gi limits)', d => { s(d).resources = { requests: { cpu: '8', memory: '32Gi' }, limits: { cpu: '8', memory: '32Gi' } }; }, []],
    ['a pod request below the container\'s', d => { s(d).resources = { requests: { cpu: '2' } }; },
      [f(`${r}.requests.cpu`, '2', 'expected at least the containers\' requests of cpu together (4)', 'kubernetes/pod-resources')]],
    // The pod's v1 defaults copy a container's limit into its unset request (found by the leaf fuzzer).
    ['a pod request below a container\'s limit, which is its request', d => { c(d).resources = { limits: { cpu: '1' } }; s(d).resources = { requests: { cpu: '500m' } }; },
      [f(`${r}.requests.cpu`, '500m', 'expected at least the containers\' requests of cpu together (1)', 'kubernetes/pod-resources')]],
    ['a pod request at a container\'s limit', d => { c(d).resources = { limits: { cpu: '1' } }; s(d).resources = { requests: { cpu: '1' } }; }, []],
    ['a container limit above the pod\'s', d => { s(d).resources = { limits: { memory: '8Gi' } }; },
      [f(`${CONTAINER}.resources.limits.memory`, '16Gi', 'expected at most the pod\'s limit 8Gi', 'kubernetes/pod-resources')]],
    ['a GPU at pod level', d => { s(d).resources = { limits: { 'nvidia.com/gpu': 1 } }; },
      [f(`${r}.limits["nvidia.com/gpu"]`, 'nvidia.com/gpu', 'expected cpu, memory or hugepages-<size> (the resources a pod-level request or limit takes)', 'kubernetes/resource-name')]],
    ['claims at pod level', d => { s(d).resources = { claims: [{ name: 'gpu' }] }; },
      [f(`${r}.claims`, [{ name: 'gpu' }], 'expected not set: claims go on the containers\' resources, not the pod\'s', 'kubernetes/pod-resources')]],
    ['a container claim the pod does not have', d => { c(d).resources.claims = [{ name: 'gpu' }]; },
      [f(`${CONTAINER}.resources.claims[0].name`, 'gpu', 'expected the name of a claim in the pod\'s resourceClaims (the pod has none)', 'kubernetes/resource-claims')]],
    ['a claim of the pod, used once', d => { s(d).resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'a100' }]; c(d).resources.claims = [{ name: 'gpu' }]; }, []],
    ['a claim used whole and by request', d => { s(d).resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'a100' }]; c(d).resources.claims = [{ name: 'gpu', request: 'one' }, { name: 'gpu' }]; },
      [f(`${CONTAINER}.resources.claims[1]`, 'gpu', 'expected each claim (or request of a claim) once per container', 'kubernetes/resource-claims')]],
    ['a pod claim with two sources', d => { s(d).resourceClaims = [{ name: 'gpu', resourceClaimName: 'a', resourceClaimTemplateName: 'b' }]; },
      [f(`${WORKER}.resourceClaims[0]`, { name: 'gpu', resourceClaimName: 'a', resourceClaimTemplateName: 'b' }, 'expected only one of resourceClaimName or resourceClaimTemplateName', 'kubernetes/resource-claims')]],
    ['a pod claim name with capitals', d => { s(d).resourceClaims = [{ name: 'GPU', resourceClaimName: 'a' }]; },
      [f(`${WORKER}.resourceClaims[0].name`, 'GPU', LABEL, 'kubernetes/resource-claims')]],
  ]);
});
