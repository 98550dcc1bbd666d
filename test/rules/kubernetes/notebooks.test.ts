import { workspaceKind } from '../../harness/example-documents';
import { DNS_1123_LABEL, PORT_NUMBER } from '../../harness/messages';
import { f, runCases } from '../cases';

const T = 'spec.podTemplate';
const LABEL_KEY = 'expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';

describe('WorkspaceKind pod pieces', () => {
  const pod = (d: any) => d.spec.podTemplate;
  const cfg = (d: any) => d.spec.podTemplate.options.podConfig.values[0].spec;
  const img = (d: any) => d.spec.podTemplate.options.imageConfig.values[0].spec;
  const podAt = `${T}.options.podConfig.values[0].spec`;
  const imgAt = `${T}.options.imageConfig.values[0].spec`;
  runCases(workspaceKind, [
    ['an extraEnv name with "="', d => { pod(d).extraEnv.push({ name: 'A=B', value: 'x' }); },
      [f(`${T}.extraEnv[1].name`, 'A=B', 'expected an environment variable name: one or more printable ASCII characters other than "="', 'kubernetes/env-name')]],
    ['an extraVolume name with capitals', d => { pod(d).extraVolumes[0].name = 'DShm'; },
      [f(`${T}.extraVolumes[DShm].name`, 'DShm', DNS_1123_LABEL, 'kubernetes/volume-name'),
        f(`${T}.extraVolumeMounts[0].name`, 'dshm', 'expected the name of a volume of the pod: "DShm"', 'kubernetes/volume-mount-name')]],
    ['an extraVolume with two types', d => { pod(d).extraVolumes[0].configMap = { name: 'c' }; },
      [f(`${T}.extraVolumes[dshm]`, { emptyDir: { medium: 'Memory', sizeLimit: '2048Mi' }, name: 'dshm', configMap: { name: 'c' } }, 'expected exactly one volume type, not emptyDir and configMap', 'kubernetes/volume-source')]],
    ['an extraVolumeMount with a relative path (the kubelet makes it absolute)', d => { pod(d).extraVolumeMounts[0].mountPath = 'dev/shm'; }, []],
    ['an extraVolumeMount with an empty path', d => { pod(d).extraVolumeMounts[0].mountPath = ''; },
      [f(`${T}.extraVolumeMounts[0].mountPath`, '', 'expected a path in the container such as /data', 'kubernetes/mount-path')]],
    ['an extraVolumeMount with a subPath and ".."', d => { pod(d).extraVolumeMounts[0].subPath = '../x'; },
      [f(`${T}.extraVolumeMounts[0].subPath`, '../x', 'expected a relative path inside the volume, without ".."', 'kubernetes/sub-path')]],
    ['privileged with allowPrivilegeEscalation false', d => { pod(d).containerSecurityContext.privileged = true; },
      [f(`${T}.containerSecurityContext.allowPrivilegeEscalation`, false, 'expected true or not set when privileged is true (the API server refuses privileged: true with allowPrivilegeEscalation: false)', 'kubernetes/privileged-escalation')]],
    ['runAsNonRoot with uid 0 across the two contexts', d => { pod(d).securityContext = { runAsNonRoot: true }; pod(d).containerSecurityContext.runAsUser = 0; },
      [f(`${T}.containerSecurityContext.runAsUser`, 0, 'expected a non-zero uid when runAsNonRoot is true (the kubelet refuses to start the container)', 'kubernetes/run-as-non-root')]],
    ['a pod config node selector key with a space', d => { cfg(d).nodeSelector = { 'gpu type': 'a100' }; },
      [f(`${podAt}.nodeSelector["gpu type"]`, 'gpu type', LABEL_KEY, 'kubernetes/label-key')]],
    ['a pod config toleration with Exists and a value', d => { cfg(d).tolerations = [{ key: 'gpu', operator: 'Exists', value: 'yes' }]; },
      [f(`${podAt}.tolerations[0].value`, 'yes', 'expected no value when operator is "Exists" (it matches any value)', 'kubernetes/toleration-value')]],
    ['a pod config with no node selector terms', d => { cfg(d).affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }; },
      [f(`${podAt}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`, [], 'expected at least one node selector term', 'kubernetes/node-selector-terms')]],
    ['a pod config request above its limit', d => { cfg(d).resources.requests.cpu = '3'; },
      [f(`${podAt}.resources.requests.cpu`, '3', 'expected at most the limit 2', 'kubernetes/resource-limit')]],
    ['probes with one handler each', d => {
      pod(d).probes = { readinessProbe: { httpGet: { path: '/api', port: 8888 } }, livenessProbe: { tcpSocket: { port: 8888 }, successThreshold: 1 } };
    }, []],
    ['a readiness probe with two handlers (a container probe once the controller builds the pod)', d => {
      pod(d).probes = { readinessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 8888 } } };
    }, [f(`${T}.probes.readinessProbe`, { exec: { command: ['true'] }, tcpSocket: { port: 8888 } }, 'expected exactly one handler, not exec and tcpSocket', 'kubernetes/probe-handler')]],
    ['a liveness probe that must succeed twice, on port 0', d => { pod(d).probes = { livenessProbe: { httpGet: { port: 0 }, successThreshold: 2 } }; }, [
      f(`${T}.probes.livenessProbe.httpGet.port`, 0, 'expected a port number between 1 and 65535', 'kubernetes/probe-action'),
      f(`${T}.probes.livenessProbe.successThreshold`, 2, 'expected 1 (liveness and startup probes succeed once)', 'kubernetes/probe-success-threshold'),
    ]],
    ['an image with a leading space', d => { img(d).image = ' jupyter:1'; },
      [f(`${imgAt}.image`, ' jupyter:1', 'expected an image reference without leading or trailing whitespace', 'kubernetes/image')]],
    ['a misspelt pull policy', d => { img(d).imagePullPolicy = 'Sometimes'; },
      [f(`${imgAt}.imagePullPolicy`, 'Sometimes', 'expected "Always", "IfNotPresent" or "Never"', 'kubernetes/image-pull-policy')]],
    ['an image port of 0', d => { img(d).ports[0].port = 0; },
      [f(`${imgAt}.ports[0].port`, 0, PORT_NUMBER, 'kubernetes/int-range')]],
  ]);
});
