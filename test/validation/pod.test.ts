import { f, runCases } from './cases';
import { CONTAINER, WORKER, pytorchJob, workerContainer as c, workerSpec as s } from './fixtures';

const LABEL = 'expected a DNS-1123 label: at most 63 lower-case letters, digits or "-", starting and ending with a letter or digit';
const SUBDOMAIN = 'at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit';
const LABEL_KEY = 'expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const LABEL_VALUE = 'expected a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const PORT_NAME = 'expected an IANA service name: at most 15 lower-case letters, digits or "-", with at least one letter, no "--" and no "-" at either end';
const ENV_NAME = 'expected an environment variable name: one or more printable ASCII characters other than "="';
const MOUNT_ABSOLUTE = 'expected an absolute path such as /data (the container runtime refuses a relative mount path)';
const SUB_PATH = 'expected a relative path inside the volume, without ".."';
const HANDLER_PORT = 'expected a port number between 1 and 65535 or a port name (at most 15 lower-case letters, digits or "-", with at least one letter)';
const FIELD_PATHS = 'expected one of "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs", or metadata.labels[\'<key>\'] or metadata.annotations[\'<key>\']';
const RESOURCES = 'expected one of "limits.cpu", "limits.memory", "limits.ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage", or a huge pages request or limit';
const SIDECAR_ONLY = 'expected not set on an init container without restartPolicy "Always" (only sidecar init containers take probes and lifecycle hooks)';
const REF_NAME = `expected the object's name: a DNS-1123 subdomain: ${SUBDOMAIN}`;
const REF_KEY = 'expected a key: at most 253 letters, digits, "-", "_" or ".", not "." and not starting with ".."';

describe('containers', () => {
  runCases(pytorchJob, [
    ['a container name with capitals', d => { c(d).name = 'PyTorch'; }, [f(`${WORKER}.containers[PyTorch].name`, 'PyTorch', LABEL, 'k8s/container-name')]],
    ['a container name with a dot', d => { c(d).name = 'py.torch'; }, [f(`${WORKER}.containers[py.torch].name`, 'py.torch', LABEL, 'k8s/container-name')]],
    ['two containers with one name', d => { s(d).containers.push({ name: 'pytorch', image: 'busybox' }); },
      [f(`${CONTAINER}.name`, 'pytorch', 'expected a name no other container or init container of the pod has', 'k8s/container-name-unique')]],
    ['an init container with the name of a container', d => { s(d).initContainers = [{ name: 'pytorch', image: 'busybox' }]; },
      [f(`${CONTAINER}.name`, 'pytorch', 'expected a name no other container or init container of the pod has', 'k8s/container-name-unique')]],
    ['no containers', d => { s(d).containers = []; }, [f(`${WORKER}.containers`, [], 'expected at least one container', 'k8s/containers-required')]],
    ['an image with a trailing space', d => { c(d).image = 'pytorch/pytorch:2.5.0 '; },
      [f(`${CONTAINER}.image`, 'pytorch/pytorch:2.5.0 ', 'expected an image reference without leading or trailing whitespace', 'k8s/image')]],
    ['an empty image', d => { c(d).image = ''; }, [f(`${CONTAINER}.image`, '', 'expected a container image reference such as ghcr.io/org/image:tag', 'k8s/image')]],
    ['a misspelt pull policy', d => { c(d).imagePullPolicy = 'IfNotExists'; }, [f(`${CONTAINER}.imagePullPolicy`, 'IfNotExists', 'expected "Always", "IfNotPresent" or "Never"', 'k8s/image-pull-policy')]],
    ['a termination message policy', d => { c(d).terminationMessagePolicy = 'Logs'; }, [f(`${CONTAINER}.terminationMessagePolicy`, 'Logs', 'expected "File" or "FallbackToLogsOnError"', 'k8s/termination-message-policy')]],
    ['a relative working directory', d => { c(d).workingDir = 'workspace'; },
      [f(`${CONTAINER}.workingDir`, 'workspace', 'expected an absolute path (the container runtime refuses a relative working directory)', 'k8s/working-dir')]],
    ['an absolute working directory', d => { c(d).workingDir = '/workspace'; }, []],
    ['restartPolicy on a regular container', d => { c(d).restartPolicy = 'Always'; },
      [f(`${CONTAINER}.restartPolicy`, 'Always', 'expected not set on a regular container (only init containers take restartPolicy "Always", as sidecars)', 'k8s/container-restart-policy')]],
    ['a sidecar init container', d => { s(d).initContainers = [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }]; }, []],
    ['empty policies, which Kubernetes defaults as unset ones', d => { c(d).imagePullPolicy = ''; c(d).terminationMessagePolicy = ''; c(d).ports[0].protocol = ''; s(d).dnsPolicy = ''; s(d).restartPolicy = ''; }, []],
    ['a sidecar init container with probes and a hook', d => {
      s(d).initContainers = [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always', readinessProbe: { tcpSocket: { port: 15021 } }, lifecycle: { preStop: { sleep: { seconds: 5 } } } }];
    }, []],
    ['an init container with a readiness probe and a hook', d => {
      s(d).initContainers = [{ name: 'prep', image: 'busybox', readinessProbe: { exec: { command: ['true'] } }, lifecycle: { postStart: { exec: { command: ['true'] } } } }];
    }, [
      f(`${WORKER}.initContainers[prep].lifecycle`, { postStart: { exec: { command: ['true'] } } }, SIDECAR_ONLY, 'k8s/init-container-probes'),
      f(`${WORKER}.initContainers[prep].readinessProbe`, { exec: { command: ['true'] } }, SIDECAR_ONLY, 'k8s/init-container-probes'),
    ]],
    ['an init container with restartPolicy Never and a liveness probe', d => {
      s(d).initContainers = [{ name: 'prep', image: 'busybox', restartPolicy: 'Never', livenessProbe: { exec: { command: ['true'] } } }];
    }, [
      f(`${WORKER}.initContainers[prep].restartPolicy`, 'Never', 'expected "Always" (a sidecar init container) or not set', 'k8s/container-restart-policy'),
      f(`${WORKER}.initContainers[prep].livenessProbe`, { exec: { command: ['true'] } }, SIDECAR_ONLY, 'k8s/init-container-probes'),
    ]],
    ['an init container with restartPolicy Never', d => { s(d).initContainers = [{ name: 'prep', image: 'busybox', restartPolicy: 'Never' }]; },
      [f(`${WORKER}.initContainers[prep].restartPolicy`, 'Never', 'expected "Always" (a sidecar init container) or not set', 'k8s/container-restart-policy')]],
    ['ephemeral containers in a template', d => { s(d).ephemeralContainers = [{ name: 'debug', image: 'busybox' }]; },
      [f(`${WORKER}.ephemeralContainers`, [{ name: 'debug', image: 'busybox' }], 'expected not set (ephemeral containers are added to running pods, not in templates)', 'k8s/ephemeral-containers')]],
  ]);
});

describe('ports', () => {
  const port = `${CONTAINER}.ports[0]`;
  runCases(pytorchJob, [
    ['a port name over 15 characters', d => { c(d).ports[0].name = 'pytorchjob-port1'; }, [f(`${port}.name`, 'pytorchjob-port1', PORT_NAME, 'k8s/port-name')]],
    ['a port name with capitals', d => { c(d).ports[0].name = 'Http'; }, [f(`${port}.name`, 'Http', PORT_NAME, 'k8s/port-name')]],
    ['a port name of digits only', d => { c(d).ports[0].name = '8080'; }, [f(`${port}.name`, '8080', PORT_NAME, 'k8s/port-name')]],
    ['a port name with "--"', d => { c(d).ports[0].name = 'a--b'; }, [f(`${port}.name`, 'a--b', PORT_NAME, 'k8s/port-name')]],
    ['a port name ending with "-"', d => { c(d).ports[0].name = 'http-'; }, [f(`${port}.name`, 'http-', PORT_NAME, 'k8s/port-name')]],
    ['two ports with one name', d => { c(d).ports.push({ containerPort: 8080, name: 'pytorchjob-port' }); },
      [f(`${CONTAINER}.ports[1].name`, 'pytorchjob-port', 'expected a port name not used by another port of the container', 'k8s/port-name-unique')]],
    ['port 0', d => { c(d).ports[0].containerPort = 0; }, [f(`${port}.containerPort`, 0, 'expected a port number between 1 and 65535', 'k8s/port-number')]],
    ['port 65536', d => { c(d).ports[0].containerPort = 65536; }, [f(`${port}.containerPort`, 65536, 'expected a port number between 1 and 65535', 'k8s/port-number')]],
    ['a host port over 65535', d => { c(d).ports[0].hostPort = 70000; }, [f(`${port}.hostPort`, 70000, 'expected a port number between 1 and 65535, or 0 for none', 'k8s/port-number')]],
    ['a lower-case protocol', d => { c(d).ports[0].protocol = 'tcp'; }, [f(`${port}.protocol`, 'tcp', 'expected "TCP", "UDP" or "SCTP"', 'k8s/port-protocol')]],
    ['host network with a different host port', d => { s(d).hostNetwork = true; c(d).ports[0].hostPort = 8080; },
      [f(`${port}.hostPort`, 8080, 'expected the containerPort (23456) or not set, because hostNetwork is true', 'k8s/host-network-port')]],
    ['host network with the same host port', d => { s(d).hostNetwork = true; c(d).ports[0].hostPort = 23456; }, []],
    ['one host port twice in a pod', d => {
      c(d).ports[0].hostPort = 9000;
      s(d).containers.push({ name: 'sidecar', image: 'busybox', ports: [{ containerPort: 9001, hostPort: 9000 }] });
    }, [f(`${WORKER}.containers[sidecar].ports[0].hostPort`, 9000, 'expected a host port no other port of the pod binds with the same protocol (TCP) and host IP', 'k8s/host-port-unique')]],
  ]);
});

describe('environment', () => {
  runCases(pytorchJob, [
    ['an env name with "="', d => { c(d).env = [{ name: 'A=B', value: 'x' }]; }, [f(`${CONTAINER}.env[0].name`, 'A=B', ENV_NAME, 'k8s/env-name')]],
    ['an empty env name', d => { c(d).env = [{ name: '', value: 'x' }]; }, [f(`${CONTAINER}.env[0].name`, '', ENV_NAME, 'k8s/env-name')]],
    ['an env name with a tab', d => { c(d).env = [{ name: 'A\tB' }]; }, [f(`${CONTAINER}.env[0].name`, 'A\tB', ENV_NAME, 'k8s/env-name')]],
    ['an env name with non-ASCII', d => { c(d).env = [{ name: 'ÄPFEL' }]; }, [f(`${CONTAINER}.env[0].name`, 'ÄPFEL', ENV_NAME, 'k8s/env-name')]],
    ['env names 1.34 accepts (dots, dashes, leading digit, spaces)', d => { c(d).env = [{ name: 'my.var-1' }, { name: '1ST' }, { name: 'A B' }]; }, []],
    ['valueFrom with two sources', d => { c(d).env = [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom`, { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } }, 'expected exactly one source, not fieldRef and secretKeyRef', 'k8s/env-value-from')]],
    ['valueFrom with no source', d => { c(d).env = [{ name: 'A', valueFrom: {} }]; },
      [f(`${CONTAINER}.env[0].valueFrom`, {}, 'expected exactly one of fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef', 'k8s/env-value-from')]],
    ['value and valueFrom', d => { c(d).env = [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }]; },
      [f(`${CONTAINER}.env[0].value`, 'x', 'expected not set (or empty) when valueFrom is set', 'k8s/env-value-from')]],
    ['valueFrom with only fileKeyRef, which the API server drops', d => { c(d).env = [{ name: 'A', valueFrom: { fileKeyRef: { volumeName: 'env', path: 'a.env', key: 'A' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom`, { fileKeyRef: { volumeName: 'env', path: 'a.env', key: 'A' } },
        'expected exactly one of fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef (the API server drops fileKeyRef: the EnvFiles feature gate is off by default in Kubernetes 1.34)', 'k8s/env-value-from')]],
    ['a secret key reference with an empty name and a key with "/"', d => { c(d).env = [{ name: 'A', valueFrom: { secretKeyRef: { name: '', key: 'a/b' } } }]; }, [
      f(`${CONTAINER}.env[0].valueFrom.secretKeyRef.name`, '', REF_NAME, 'k8s/env-reference-name'),
      f(`${CONTAINER}.env[0].valueFrom.secretKeyRef.key`, 'a/b', REF_KEY, 'k8s/env-reference-name'),
    ]],
    ['a config map key reference with no name and an empty key', d => { c(d).env = [{ name: 'A', valueFrom: { configMapKeyRef: { key: '' } } }]; }, [
      f(`${CONTAINER}.env[0].valueFrom.configMapKeyRef.name`, '', REF_NAME, 'k8s/env-reference-name'),
      f(`${CONTAINER}.env[0].valueFrom.configMapKeyRef.key`, '', REF_KEY, 'k8s/env-reference-name'),
    ]],
    ['a config map key reference with a name in capitals', d => { c(d).env = [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'Settings', key: 'a.b_c-d' } } }]; },
      [f(`${CONTAINER}.env[0].valueFrom.configMapKeyRef.name`, 'Settings', REF_NAME, 'k8s/env-reference-name')]],
    ['envFrom with an empty secret name', d => { c(d).envFrom = [{ secretRef: { name: '' } }]; },
      [f(`${CONTAINER}.envFrom[0].secretRef.name`, '', REF_NAME, 'k8s/env-reference-name')]],
    ['envFrom names: a trailing "-" is allowed (a name prefix), "_" is not', d => { c(d).envFrom = [{ configMapRef: { name: 'settings-' } }, { configMapRef: { name: 'my_settings' } }]; },
      [f(`${CONTAINER}.envFrom[1].configMapRef.name`, 'my_settings', REF_NAME, 'k8s/env-reference-name')]],
    ['downward API references to unknown pod fields, a bad label key and an unknown resource', d => {
      c(d).env = [
        { name: 'A', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } },
        { name: 'B', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: "metadata.labels['a b']" } } },
        { name: 'C', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
      ];
    }, [
      f(`${CONTAINER}.env[0].valueFrom.fieldRef.fieldPath`, 'status.phase', FIELD_PATHS, 'k8s/env-field-reference'),
      f(`${CONTAINER}.env[1].valueFrom.fieldRef.apiVersion`, 'v2', 'expected "v1" (the pod\'s API version) or not set', 'k8s/env-field-reference'),
      f(`${CONTAINER}.env[1].valueFrom.fieldRef.fieldPath`, "metadata.labels['a b']",
        'expected a label or annotation key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'k8s/env-field-reference'),
      f(`${CONTAINER}.env[2].valueFrom.resourceFieldRef.resource`, 'limits.gpu', RESOURCES, 'k8s/env-field-reference'),
    ]],
    ['downward API references Kubernetes accepts', d => {
      c(d).env = [
        { name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.host' } } },
        { name: 'B', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['Example.com/Owner']" } } },
        { name: 'C', valueFrom: { resourceFieldRef: { containerName: 'pytorch', resource: 'requests.hugepages-2Mi' } } },
      ];
    }, []],
    ['envFrom with both sources', d => { c(d).envFrom = [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }]; },
      [f(`${CONTAINER}.envFrom[0]`, { configMapRef: { name: 'a' }, secretRef: { name: 'b' } }, 'expected exactly one of configMapRef or secretRef', 'k8s/env-from')]],
    ['an envFrom prefix with "="', d => { c(d).envFrom = [{ prefix: 'A=', configMapRef: { name: 'a' } }]; },
      [f(`${CONTAINER}.envFrom[0].prefix`, 'A=', 'expected printable ASCII characters other than "="', 'k8s/env-from')]],
    ['a reference to a later entry stays unexpanded', d => { c(d).env = [{ name: 'TRAIN', value: '$(DATA_ROOT)/train' }, { name: 'DATA_ROOT', value: '/data' }]; },
      [f(`${CONTAINER}.env[0].value`, '$(DATA_ROOT)/train', 'expected references only to variables defined before this entry: "DATA_ROOT" is defined at '
        + `${CONTAINER}.env[1], after it, so the kubelet leaves "$(DATA_ROOT)" unexpanded; move "DATA_ROOT" before ${CONTAINER}.env[0], or write "$$(DATA_ROOT)" to keep the text literal`, 'k8s/env-reference-order')]],
    ['a reference to the entry itself', d => { c(d).env = [{ name: 'PATH_X', value: '$(PATH_X):/opt' }]; },
      [f(`${CONTAINER}.env[0].value`, '$(PATH_X):/opt', 'expected references only to variables defined before this entry: "PATH_X" is defined at this entry itself, '
        + `so the kubelet leaves "$(PATH_X)" unexpanded; move "PATH_X" before ${CONTAINER}.env[0], or write "$$(PATH_X)" to keep the text literal`, 'k8s/env-reference-order')]],
    ['accepted: earlier entries, escapes, unknown names, an unclosed reference, a later name defined earlier too',
      d => { c(d).env = [{ name: 'A', value: '1' }, { name: 'B', value: '$(A) $$(C) $$$(A) $(OTHER) $(C' }, { name: 'D', value: '$(A)' }, { name: 'A', value: '2' }, { name: 'C', value: '3' }]; }, []],
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
      [f(`${WORKER}.volumes[DShm].name`, 'DShm', LABEL, 'k8s/volume-name')]],
    ['two volumes with one name', d => { s(d).volumes.push({ name: 'dshm', configMap: { name: 'c' } }); },
      [f(`${WORKER}.volumes[dshm].name`, 'dshm', 'expected a volume name not used by another volume of the pod', 'k8s/volume-name-unique')]],
    ['a volume with no type', d => { s(d).volumes.push({ name: 'data' }); },
      [f(`${WORKER}.volumes[data]`, { name: 'data' }, 'expected exactly one volume type, such as emptyDir, configMap, secret or persistentVolumeClaim', 'k8s/volume-source')]],
    ['a volume with two types', d => { s(d).volumes[0].configMap = { name: 'c' }; },
      [f(`${WORKER}.volumes[dshm]`, { emptyDir: { medium: 'Memory', sizeLimit: '2048Mi' }, name: 'dshm', configMap: { name: 'c' } },
        'expected exactly one volume type, not emptyDir and configMap', 'k8s/volume-source')]],
    ['a mount of a volume the pod does not have', d => { c(d).volumeMounts[0].name = 'data'; },
      [f(`${mount}.name`, 'data', 'expected the name of a volume of the pod: "dshm"', 'k8s/volume-mount-name')]],
    ['a mount in a pod with no volumes', d => { delete s(d).volumes; },
      [f(`${mount}.name`, 'dshm', 'expected the name of a volume of the pod (the pod has none)', 'k8s/volume-mount-name')]],
    ['a relative mount path', d => { c(d).volumeMounts[0].mountPath = 'dev/shm'; }, [f(`${mount}.mountPath`, 'dev/shm', MOUNT_ABSOLUTE, 'k8s/mount-path')]],
    ['an empty mount path', d => { c(d).volumeMounts[0].mountPath = ''; }, [f(`${mount}.mountPath`, '', MOUNT_ABSOLUTE, 'k8s/mount-path')]],
    ['"/dev/shm" and "/dev/shm/" mounted twice', d => { c(d).volumeMounts.push({ name: 'dshm', mountPath: '/dev/shm/' }); },
      [f(`${CONTAINER}.volumeMounts[1].mountPath`, '/dev/shm/', 'expected a mount path no other mount of the container uses ("/data" and "/data/" are the same path)', 'k8s/mount-path-unique')]],
    ['an absolute subPath', d => { c(d).volumeMounts[0].subPath = '/etc'; }, [f(`${mount}.subPath`, '/etc', SUB_PATH, 'k8s/sub-path')]],
    ['a subPath with ".."', d => { c(d).volumeMounts[0].subPath = 'a/../../etc'; }, [f(`${mount}.subPath`, 'a/../../etc', SUB_PATH, 'k8s/sub-path')]],
    ['a subPath with ".." inside a name is fine', d => { c(d).volumeMounts[0].subPath = 'a..b/c'; }, []],
    ['subPath and subPathExpr', d => { c(d).volumeMounts[0].subPath = 'a'; c(d).volumeMounts[0].subPathExpr = '$(POD)'; },
      [f(`${mount}.subPathExpr`, '$(POD)', 'expected not set when subPath is set (they are mutually exclusive)', 'k8s/sub-path')]],
  ]);
});

describe('probes', () => {
  runCases(pytorchJob, [
    ['a probe with two handlers', d => { c(d).readinessProbe = { exec: { command: ['true'] }, tcpSocket: { port: 1 } }; },
      [f(`${CONTAINER}.readinessProbe`, { exec: { command: ['true'] }, tcpSocket: { port: 1 } }, 'expected exactly one handler, not exec and tcpSocket', 'k8s/probe-handler')]],
    ['a probe with no handler', d => { c(d).startupProbe = { periodSeconds: 5 }; },
      [f(`${CONTAINER}.startupProbe`, { periodSeconds: 5 }, 'expected exactly one of exec, httpGet, tcpSocket or grpc', 'k8s/probe-handler')]],
    ['a liveness probe with successThreshold 2', d => { c(d).livenessProbe = { exec: { command: ['true'] }, successThreshold: 2 }; },
      [f(`${CONTAINER}.livenessProbe.successThreshold`, 2, 'expected 1 (liveness and startup probes succeed once)', 'k8s/probe-success-threshold')]],
    ['an httpGet probe with a bad port, scheme and header name', d => { c(d).readinessProbe = { httpGet: { port: 'x%', scheme: 'TCP', httpHeaders: [{ name: 'X Token', value: 'a' }] } }; }, [
      f(`${CONTAINER}.readinessProbe.httpGet.port`, 'x%', HANDLER_PORT, 'k8s/handler-action'),
      f(`${CONTAINER}.readinessProbe.httpGet.scheme`, 'TCP', 'expected "HTTP" or "HTTPS"', 'k8s/handler-action'),
      f(`${CONTAINER}.readinessProbe.httpGet.httpHeaders[0].name`, 'X Token', 'expected an HTTP header name: one or more letters, digits or "-"', 'k8s/handler-action'),
    ]],
    ['a tcpSocket probe on port 0 and a grpc probe on port 70000', d => { c(d).livenessProbe = { tcpSocket: { port: 0 } }; c(d).startupProbe = { grpc: { port: 70000 } }; }, [
      f(`${CONTAINER}.livenessProbe.tcpSocket.port`, 0, HANDLER_PORT, 'k8s/handler-action'),
      f(`${CONTAINER}.startupProbe.grpc.port`, 70000, 'expected a whole number from 1 to 65535', 'k8s/int-range'),
    ]],
    ['probes on a named port, an empty scheme and path (defaulted), and a grpc port', d => {
      c(d).livenessProbe = { httpGet: { port: 'metrics', scheme: '', path: '' } };
      c(d).startupProbe = { grpc: { port: 9090 } };
    }, []],
    ['a lifecycle hook with no handler and one with a numeric port name', d => { c(d).lifecycle = { postStart: {}, preStop: { httpGet: { port: '8080' } } }; }, [
      f(`${CONTAINER}.lifecycle.postStart`, {}, 'expected exactly one of exec, httpGet, tcpSocket or sleep', 'k8s/lifecycle-handler'),
      f(`${CONTAINER}.lifecycle.preStop.httpGet.port`, '8080', HANDLER_PORT, 'k8s/handler-action'),
    ]],
    ['a lifecycle hook with two handlers', d => { c(d).lifecycle = { preStop: { exec: { command: ['true'] }, sleep: { seconds: 5 } } }; },
      [f(`${CONTAINER}.lifecycle.preStop`, { exec: { command: ['true'] }, sleep: { seconds: 5 } }, 'expected exactly one handler, not exec and sleep', 'k8s/lifecycle-handler')]],
    ['a readiness probe with successThreshold 2', d => { c(d).readinessProbe = { exec: { command: ['true'] }, successThreshold: 2 }; }, []],
    ['a liveness probe with successThreshold 0 (defaulted to 1)', d => { c(d).livenessProbe = { exec: { command: ['true'] }, successThreshold: 0 }; }, []],
  ]);
});

describe('topology spread', () => {
  const t = `${WORKER}.topologySpreadConstraints[0]`;
  const spread = { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'train' } } };
  runCases(pytorchJob, [
    ['a constraint Kubernetes accepts', d => { s(d).topologySpreadConstraints = [{ ...spread, minDomains: 2, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' }]; }, []],
    ['no topology key and an unknown action', d => { s(d).topologySpreadConstraints = [{ ...spread, topologyKey: '', whenUnsatisfiable: 'Wait' }]; }, [
      f(`${t}.topologyKey`, '', 'expected a non-empty node label key such as topology.kubernetes.io/zone', 'k8s/topology-spread'),
      f(`${t}.whenUnsatisfiable`, 'Wait', 'expected "DoNotSchedule" or "ScheduleAnyway"', 'k8s/topology-spread'),
    ]],
    ['minDomains with ScheduleAnyway, an unknown node policy and a bad selector key', d => {
      s(d).topologySpreadConstraints = [{ ...spread, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2, nodeTaintsPolicy: 'honor', labelSelector: { matchLabels: { 'a b': 'x' } } }];
    }, [
      f(`${t}.minDomains`, 2, 'expected not set unless whenUnsatisfiable is "DoNotSchedule"', 'k8s/topology-spread'),
      f(`${t}.nodeTaintsPolicy`, 'honor', 'expected "Honor" or "Ignore"', 'k8s/topology-spread'),
      f(`${t}.labelSelector.matchLabels["a b"]`, 'a b', LABEL_KEY, 'k8s/label-key'),
    ]],
  ]);
});

describe('scheduling', () => {
  const t = `${WORKER}.tolerations[0]`;
  runCases(pytorchJob, [
    ['a toleration with Exists and a value', d => { s(d).tolerations[0].value = 'present'; },
      [f(`${t}.value`, 'present', 'expected no value when operator is "Exists" (it matches any value)', 'k8s/toleration-value')]],
    ['a misspelt effect', d => { s(d).tolerations[0].effect = 'NoScheduled'; },
      [f(`${t}.effect`, 'NoScheduled', 'expected "NoSchedule", "PreferNoSchedule", "NoExecute", or empty for all effects', 'k8s/toleration-effect')]],
    ['a misspelt operator', d => { s(d).tolerations[0].operator = 'Exist'; }, [f(`${t}.operator`, 'Exist', 'expected "Equal" or "Exists"', 'k8s/toleration-operator')]],
    ['a toleration key with a space', d => { s(d).tolerations[0].key = 'nvidia gpu'; },
      [f(`${t}.key`, 'nvidia gpu', 'expected a taint key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'k8s/toleration-key')]],
    ['an empty key with Equal', d => { s(d).tolerations[0] = { operator: 'Equal', value: 'x' }; },
      [f(`${t}.key`, undefined, 'expected a taint key, or operator "Exists" to tolerate every taint', 'k8s/toleration-key')]],
    ['an empty key with Exists tolerates everything', d => { s(d).tolerations[0] = { operator: 'Exists' }; }, []],
    ['an Equal value that is not a label value', d => { s(d).tolerations[0] = { key: 'k', operator: 'Equal', value: 'a b' }; },
      [f(`${t}.value`, 'a b', LABEL_VALUE, 'k8s/toleration-value')]],
    ['tolerationSeconds without NoExecute', d => { s(d).tolerations[0].tolerationSeconds = 60; },
      [f(`${t}.tolerationSeconds`, 60, 'expected not set unless effect is "NoExecute"', 'k8s/toleration-seconds')]],
    ['tolerationSeconds with NoExecute', d => { s(d).tolerations[0] = { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }; }, []],
    ['a node selector key with a space', d => { s(d).nodeSelector = { 'gpu type': 'a100' }; }, [f(`${WORKER}.nodeSelector["gpu type"]`, 'gpu type', LABEL_KEY, 'k8s/label-key')]],
    ['a node selector value with a slash', d => { s(d).nodeSelector = { gpu: 'nvidia/a100' }; }, [f(`${WORKER}.nodeSelector.gpu`, 'nvidia/a100', LABEL_VALUE, 'k8s/label-value')]],
    ['a priority class name with capitals', d => { s(d).priorityClassName = 'High'; },
      [f(`${WORKER}.priorityClassName`, 'High', `expected a priority class name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'k8s/priority-class-name')]],
    ['a scheduler name with an underscore', d => { s(d).schedulerName = 'volcano_sched'; },
      [f(`${WORKER}.schedulerName`, 'volcano_sched', `expected a scheduler name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'k8s/scheduler-name')]],
    ['a service account name with a space', d => { s(d).serviceAccountName = 'trainer sa'; },
      [f(`${WORKER}.serviceAccountName`, 'trainer sa', `expected a service account name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'k8s/service-account-name')]],
    ['a runtime class name with capitals', d => { s(d).runtimeClassName = 'Nvidia'; },
      [f(`${WORKER}.runtimeClassName`, 'Nvidia', `expected a runtime class name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'k8s/runtime-class-name')]],
    ['a node name with capitals', d => { s(d).nodeName = 'Node1'; },
      [f(`${WORKER}.nodeName`, 'Node1', `expected a node name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'k8s/node-name')]],
    ['a hostname with a dot', d => { s(d).hostname = 'a.b'; }, [f(`${WORKER}.hostname`, 'a.b', LABEL, 'k8s/hostname')]],
    ['a misspelt restartPolicy', d => { s(d).restartPolicy = 'OnFail'; }, [f(`${WORKER}.restartPolicy`, 'OnFail', 'expected "Always", "OnFailure" or "Never"', 'k8s/restart-policy')]],
    ['a misspelt dnsPolicy', d => { s(d).dnsPolicy = 'ClusterFirstWithHostNetwork'; },
      [f(`${WORKER}.dnsPolicy`, 'ClusterFirstWithHostNetwork', 'expected "ClusterFirst", "ClusterFirstWithHostNet", "Default" or "None"', 'k8s/dns-policy')]],
    ['dnsPolicy None without dnsConfig', d => { s(d).dnsPolicy = 'None'; },
      [f(`${WORKER}.dnsConfig`, undefined, 'expected a dnsConfig with at least one nameserver when dnsPolicy is "None"', 'k8s/dns-policy')]],
    ['a misspelt preemptionPolicy', d => { s(d).preemptionPolicy = 'Preempt'; },
      [f(`${WORKER}.preemptionPolicy`, 'Preempt', 'expected "PreemptLowerPriority" or "Never"', 'k8s/preemption-policy')]],
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
    ['no node selector terms', withNodeTerms([]), [f(`${req}.nodeSelectorTerms`, [], 'expected at least one node selector term', 'k8s/node-selector-terms')]],
    ['an empty node selector term', withNodeTerms([{}]),
      [f(`${req}.nodeSelectorTerms[0]`, {}, 'expected at least one matchExpressions or matchFields entry (an empty term matches no node, so the pod never schedules)', 'k8s/node-selector-term-empty')]],
    ['a term with empty lists', withNodeTerms([{ matchExpressions: [] }]),
      [f(`${req}.nodeSelectorTerms[0]`, { matchExpressions: [] }, 'expected at least one matchExpressions or matchFields entry (an empty term matches no node, so the pod never schedules)', 'k8s/node-selector-term-empty')]],
    ['a valid node term', withNodeTerms([{ matchExpressions: [{ key: 'nvidia.com/gpu.product', operator: 'In', values: ['A100'] }] }]), []],
    ['In without values', withNodeTerms([{ matchExpressions: [{ key: 'zone', operator: 'In', values: [] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].values`, [], 'expected at least one value when operator is "In"', 'k8s/node-selector-requirement')]],
    ['Exists with values', withNodeTerms([{ matchExpressions: [{ key: 'zone', operator: 'Exists', values: ['a'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].values`, ['a'], 'expected no values when operator is "Exists"', 'k8s/node-selector-requirement')]],
    ['Gt with two values', withNodeTerms([{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['1', '2'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].values`, ['1', '2'], 'expected exactly one value when operator is "Gt"', 'k8s/node-selector-requirement')]],
    ['a misspelt node operator', withNodeTerms([{ matchExpressions: [{ key: 'zone', operator: 'in', values: ['a'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].operator`, 'in', 'expected "In", "NotIn", "Exists", "DoesNotExist", "Gt" or "Lt"', 'k8s/node-selector-requirement')]],
    ['a node requirement key with a space', withNodeTerms([{ matchExpressions: [{ key: 'gpu type', operator: 'Exists' }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].key`, 'gpu type', LABEL_KEY, 'k8s/node-selector-requirement')]],
    ['a node requirement value with a space', withNodeTerms([{ matchExpressions: [{ key: 'gpu', operator: 'In', values: ['a 100'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchExpressions[0].values[0]`, 'a 100', LABEL_VALUE, 'k8s/node-selector-requirement')]],
    ['a field selector on a label', withNodeTerms([{ matchFields: [{ key: 'metadata.labels', operator: 'In', values: ['a'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchFields[0].key`, 'metadata.labels', 'expected "metadata.name" (the only node field a selector may use)', 'k8s/node-selector-requirement')]],
    ['a preferred term value with a space is not checked (allowed there)', d => {
      s(d).affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'gpu', operator: 'In', values: ['a 100'] }] } }] } };
    }, []],
    ['a field selector value that is not a node name', withNodeTerms([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['Node_1'] }] }]),
      [f(`${req}.nodeSelectorTerms[0].matchFields[0].values[0]`, 'Node_1', `expected a node name: a DNS-1123 subdomain: ${SUBDOMAIN}`, 'k8s/node-selector-requirement')]],
    ['a pod anti-affinity value with a space', withPodTerm({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] }, topologyKey: 'zone' }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values[0]`, 'a b', LABEL_VALUE, 'k8s/label-selector')]],
    ['an empty preferred term is allowed (it only weighs)', d => { s(d).affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }] } }; }, []],
    ['a pod anti-affinity operator', withPodTerm({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] }, topologyKey: 'kubernetes.io/hostname' }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator`, 'Gt', 'expected "In", "NotIn", "Exists" or "DoesNotExist"', 'k8s/label-selector')]],
    ['a pod anti-affinity In without values', withPodTerm({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] }, topologyKey: 'kubernetes.io/hostname' }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values`, undefined, 'expected at least one value when operator is "In"', 'k8s/label-selector')]],
    ['a pod affinity term without topologyKey', withPodTerm({ labelSelector: { matchLabels: { app: 'x' } } }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey`, undefined, 'expected a node label key such as kubernetes.io/hostname: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'k8s/topology-key')]],
    ['a pod affinity matchLabels value with a space', withPodTerm({ labelSelector: { matchLabels: { app: 'x y' } }, topologyKey: 'zone' }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels.app`, 'x y', LABEL_VALUE, 'k8s/label-value')]],
    ['a pod affinity namespace with capitals', withPodTerm({ labelSelector: {}, topologyKey: 'zone', namespaces: ['Team'] }),
      [f(`${pa}.requiredDuringSchedulingIgnoredDuringExecution[0].namespaces[0]`, 'Team', `expected a namespace: ${LABEL.slice('expected '.length)}`, 'k8s/affinity-namespace')]],
  ]);
});

describe('resources', () => {
  const r = `${CONTAINER}.resources`;
  runCases(pytorchJob, [
    ['a request above its limit', d => { c(d).resources.requests.memory = '32Gi'; },
      [f(`${r}.requests.memory`, '32Gi', 'expected at most the limit 16Gi', 'k8s/resource-limit')]],
    ['a request equal to its limit in other units', d => { c(d).resources.requests.cpu = '4000m'; c(d).resources.requests.memory = '16384Mi'; }, []],
    ['a request in exponent form below its limit', d => { c(d).resources.requests.cpu = '15e-1'; }, []],
    ['a request in exponent form above its limit', d => { c(d).resources.requests.cpu = '5e0'; },
      [f(`${r}.requests.cpu`, '5e0', 'expected at most the limit 4', 'k8s/resource-limit')]],
    ['an exponent and a suffix together (not a quantity)', d => { c(d).resources.requests.cpu = '1e3m'; },
      [f(`${r}.requests.cpu`, '1e3m', 'expected a non-negative quantity such as 500m, 2, 1.5Gi or 100M', 'k8s/resource-quantity')]],
    ['a quantity that does not parse', d => { c(d).resources.limits.memory = '16GB'; },
      [f(`${r}.limits.memory`, '16GB', 'expected a non-negative quantity such as 500m, 2, 1.5Gi or 100M', 'k8s/resource-quantity')]],
    ['a negative quantity', d => { c(d).resources.requests.cpu = '-1'; },
      [f(`${r}.requests.cpu`, '-1', 'expected a non-negative quantity such as 500m, 2, 1.5Gi or 100M', 'k8s/resource-quantity')]],
    ['a GPU request below its limit', d => { c(d).resources.requests['nvidia.com/gpu'] = 0; },
      [f(`${r}.requests["nvidia.com/gpu"]`, 0, 'expected the same value as the limit 1 (nvidia.com/gpu cannot be overcommitted)', 'k8s/resource-not-overcommitted')]],
    ['a GPU request without a limit', d => { delete c(d).resources.limits['nvidia.com/gpu']; },
      [f(`${r}.limits["nvidia.com/gpu"]`, undefined, 'expected a limit equal to the request 1 (nvidia.com/gpu cannot be overcommitted)', 'k8s/resource-not-overcommitted')]],
    ['a GPU limit without a request (the request defaults to it)', d => { delete c(d).resources.requests['nvidia.com/gpu']; }, []],
    ['half a GPU', d => { c(d).resources.limits['nvidia.com/gpu'] = '500m'; c(d).resources.requests['nvidia.com/gpu'] = '500m'; },
      [f(`${r}.limits["nvidia.com/gpu"]`, '500m', 'expected a whole number (nvidia.com/gpu is an extended resource, counted in units)', 'k8s/resource-integer'),
        f(`${r}.requests["nvidia.com/gpu"]`, '500m', 'expected a whole number (nvidia.com/gpu is an extended resource, counted in units)', 'k8s/resource-integer')]],
    ['an unprefixed resource that is not standard', d => { c(d).resources.limits.gpu = 1; },
      [f(`${r}.limits.gpu`, 'gpu', 'expected cpu, memory, ephemeral-storage, hugepages-<size>, or an extended resource with a domain prefix such as nvidia.com/gpu', 'k8s/resource-name')]],
    ['a resource name with a space', d => { c(d).resources.limits['nvidia.com/a gpu'] = 1; },
      [f(`${r}.limits["nvidia.com/a gpu"]`, 'nvidia.com/a gpu', 'expected a resource name: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'k8s/resource-name')]],
    ['huge pages request below the limit', d => { c(d).resources.limits['hugepages-2Mi'] = '1Gi'; c(d).resources.requests['hugepages-2Mi'] = '512Mi'; },
      [f(`${r}.requests["hugepages-2Mi"]`, '512Mi', 'expected the same value as the limit 1Gi (hugepages-2Mi cannot be overcommitted)', 'k8s/resource-not-overcommitted')]],
  ]);
});
