import { CONTAINER, WORKER, pytorchJob, workerContainer as c, workerSpec as s } from '../../harness/example-documents';
import { f, runCases } from '../cases';

/**
 * Pod checks the rules inventory listed as open: affinity terms' label keys, raw block devices,
 * pod overhead and the fields a pod's os.name rules out. Each case gives the exact finding; the
 * neighbouring valid variant gives none.
 */

const LABEL_KEY = 'expected a label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
const AFFINITY = `${WORKER}.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]`;
const antiAffinity = (d: any, term: Record<string, unknown>, labels?: Record<string, string>) => {
  s(d).affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', ...term }] } };
  if (labels !== undefined) d.spec.pytorchReplicaSpecs.Worker.template.metadata = { ...d.spec.pytorchReplicaSpecs.Worker.template.metadata, labels };
};

describe('kubernetes/affinity-label-keys: matchLabelKeys and mismatchLabelKeys of pod affinity terms', () => {
  runCases(pytorchJob, [
    ['keys beside a selector, a key the pod has not in the selector', d => antiAffinity(d,
      { labelSelector: { matchLabels: { app: 'train' } }, matchLabelKeys: ['run'], mismatchLabelKeys: ['team'] }, { run: 'r1', team: 't' }), []],
    ['matchLabelKeys without a labelSelector', d => antiAffinity(d, { matchLabelKeys: ['run'] }),
      [f(`${AFFINITY}.matchLabelKeys`, ['run'], 'expected not set when labelSelector is not set (the keys narrow the selector)', 'kubernetes/affinity-label-keys')]],
    ['mismatchLabelKeys without a labelSelector', d => antiAffinity(d, { mismatchLabelKeys: ['team'] }),
      [f(`${AFFINITY}.mismatchLabelKeys`, ['team'], 'expected not set when labelSelector is not set (the keys narrow the selector)', 'kubernetes/affinity-label-keys')]],
    ['a key that is not a label key', d => antiAffinity(d, { labelSelector: { matchLabels: { app: 'train' } }, mismatchLabelKeys: ['-team'] }),
      [f(`${AFFINITY}.mismatchLabelKeys[0]`, '-team', LABEL_KEY, 'kubernetes/affinity-label-keys')]],
    ['a key in both lists', d => antiAffinity(d, { labelSelector: { matchLabels: { app: 'train' } }, matchLabelKeys: ['run'], mismatchLabelKeys: ['run'] }),
      [f(`${AFFINITY}.matchLabelKeys[0]`, 'run', 'expected a key that mismatchLabelKeys does not list (a key cannot both match and mismatch the pod)', 'kubernetes/affinity-label-keys')]],
    ['a matchLabelKey the selector has and the pod carries', d => antiAffinity(d, { labelSelector: { matchLabels: { run: 'r1' } }, matchLabelKeys: ['run'] }, { run: 'r1' }),
      [f(`${AFFINITY}.matchLabelKeys[0]`, 'run',
        'expected a key the labelSelector does not have: the API server adds "run In (r1)" from the pod\'s labels when it creates the pod, and refuses the key twice',
        'kubernetes/affinity-label-keys')]],
    ['a matchLabelKey the selector has but the pod does not carry (nothing is merged)', d => antiAffinity(d,
      { labelSelector: { matchLabels: { run: 'r1' } }, matchLabelKeys: ['run'] }, { app: 'train' }), []],
    ['preferred terms are checked too', d => {
      s(d).affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', matchLabelKeys: ['run'] } }] } };
    }, [f(`${WORKER}.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys`, ['run'],
      'expected not set when labelSelector is not set (the keys narrow the selector)', 'kubernetes/affinity-label-keys')]],
  ]);
});

describe('kubernetes/volume-devices: raw block devices of a container', () => {
  const DEVICES = `${CONTAINER}.volumeDevices`;
  const withClaim = (d: any) => { s(d).volumes = [...(s(d).volumes ?? []), { name: 'raw', persistentVolumeClaim: { claimName: 'raw-disk' } }]; };
  runCases(pytorchJob, [
    ['a device of a claim volume', d => { withClaim(d); c(d).volumeDevices = [{ name: 'raw', devicePath: '/dev/xvda' }]; }, []],
    ['a device of an ephemeral volume', d => {
      s(d).volumes.push({ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Block', resources: { requests: { storage: '1Gi' } } } } } });
      c(d).volumeDevices = [{ name: 'scratch', devicePath: '/dev/xvdb' }];
    }, []],
    ['a device of no volume', d => { c(d).volumeDevices = [{ name: 'raw', devicePath: '/dev/xvda' }]; },
      [f(`${DEVICES}[0].name`, 'raw', 'expected the name of a volume of the pod', 'kubernetes/volume-devices')]],
    ['a device of an emptyDir volume', d => { s(d).volumes.push({ name: 'scratch', emptyDir: {} }); c(d).volumeDevices = [{ name: 'scratch', devicePath: '/dev/xvda' }]; },
      [f(`${DEVICES}[0].name`, 'scratch', 'expected a persistentVolumeClaim or ephemeral volume (only a claim gives a block device)', 'kubernetes/volume-devices')]],
    ['two devices of one volume, at one path', d => { withClaim(d); c(d).volumeDevices = [{ name: 'raw', devicePath: '/dev/xvda' }, { name: 'raw', devicePath: '/dev/xvda' }]; }, [
      f(`${DEVICES}[1].name`, 'raw', 'expected a volume no other device of the container names', 'kubernetes/volume-devices'),
      f(`${DEVICES}[1].devicePath`, '/dev/xvda', 'expected a device path no other device of the container uses', 'kubernetes/volume-devices'),
    ]],
    ['a device path with ".." and an empty one', d => {
      withClaim(d); s(d).volumes.push({ name: 'raw2', persistentVolumeClaim: { claimName: 'raw-two' } });
      c(d).volumeDevices = [{ name: 'raw', devicePath: '/dev/../xvda' }, { name: 'raw2', devicePath: '' }];
    }, [
      f(`${DEVICES}[0].devicePath`, '/dev/../xvda', 'expected a path without ".."', 'kubernetes/volume-devices'),
      f(`${DEVICES}[1].devicePath`, '', 'expected the path of the device in the container, such as /dev/xvda', 'kubernetes/volume-devices'),
    ]],
    ['a device the container also mounts, at a mount\'s path', d => {
      withClaim(d);
      c(d).volumeMounts = [...(c(d).volumeMounts ?? []), { name: 'raw', mountPath: '/raw' }];
      c(d).volumeDevices = [{ name: 'raw', devicePath: '/raw' }];
    }, [
      f(`${DEVICES}[0].name`, 'raw', 'expected a volume the container does not also mount (volumeMounts names it)', 'kubernetes/volume-devices'),
      f(`${DEVICES}[0].devicePath`, '/raw', 'expected a path no volume mount of the container uses', 'kubernetes/volume-devices'),
    ]],
    ['a device in a pod with hostUsers false', d => { withClaim(d); s(d).hostUsers = false; c(d).volumeDevices = [{ name: 'raw', devicePath: '/dev/xvda' }]; },
      [f(DEVICES, [{ name: 'raw', devicePath: '/dev/xvda' }],
        'expected no volume devices in a pod with hostUsers false (block devices cannot be mapped into its user namespace)', 'kubernetes/volume-devices')]],
  ]);
});

describe('validateOverhead: pod overhead follows the container limits\' rules (kubernetes/resource-name, kubernetes/resource-quantity, kubernetes/resource-huge-pages)', () => {
  runCases(pytorchJob, [
    ['an overhead of cpu and memory', d => { s(d).overhead = { cpu: '250m', memory: '120Mi' }; }, []],
    ['an unknown resource name', d => { s(d).overhead = { gpu: '1' }; },
      [f(`${WORKER}.overhead.gpu`, 'gpu', 'expected cpu, memory, ephemeral-storage, hugepages-<size>, or an extended resource with a domain prefix such as nvidia.com/gpu', 'kubernetes/resource-name')]],
    ['a negative quantity', d => { s(d).overhead = { cpu: '-1' }; },
      [f(`${WORKER}.overhead.cpu`, '-1', 'expected a non-negative quantity such as 500m, 2, 1.5Gi or 100M', 'kubernetes/resource-quantity')]],
    ['huge pages alone', d => { s(d).overhead = { 'hugepages-2Mi': '2Mi' }; },
      [f(`${WORKER}.overhead`, 'hugepages-2Mi', 'expected a cpu or memory overhead beside the huge pages (the API server refuses huge pages alone)', 'kubernetes/resource-huge-pages')]],
  ]);
});

describe('kubernetes/pod-os-fields: the fields a pod\'s os.name rules out', () => {
  const WINDOWS = { gmsaCredentialSpecName: 'gmsa', runAsUserName: 'ContainerUser' };
  const linux = '(the pod\'s os.name is "linux")';
  const windows = 'expected not set: a Linux-only field (the pod\'s os.name is "windows")';
  runCases(pytorchJob, [
    ['a Linux pod with Linux fields', d => { s(d).os = { name: 'linux' }; s(d).securityContext = { ...s(d).securityContext, runAsUser: 1000 }; }, []],
    ['a pod without os.name may carry Windows options (the node decides)', d => { c(d).securityContext = { ...c(d).securityContext, windowsOptions: WINDOWS }; }, []],
    ['Windows options in a Linux pod, pod and container', d => {
      s(d).os = { name: 'linux' };
      s(d).securityContext = { ...s(d).securityContext, windowsOptions: WINDOWS };
      c(d).securityContext = { ...c(d).securityContext, windowsOptions: WINDOWS };
    }, [
      f(`${WORKER}.securityContext.windowsOptions`, WINDOWS, `expected not set: Windows options are for Windows pods ${linux}`, 'kubernetes/pod-os-fields'),
      f(`${CONTAINER}.securityContext.windowsOptions`, WINDOWS, `expected not set: Windows options are for Windows pods ${linux}`, 'kubernetes/pod-os-fields'),
    ]],
    ['a Windows pod with Windows options only', d => {
      s(d).os = { name: 'windows' }; s(d).securityContext = { windowsOptions: WINDOWS }; delete c(d).securityContext;
    }, []],
    ['Linux-only fields in a Windows pod', d => {
      s(d).os = { name: 'windows' };
      s(d).securityContext = { runAsUser: 1000, sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }] };
      s(d).hostPID = true;
      s(d).shareProcessNamespace = false;
      c(d).securityContext = { privileged: false };
    }, [
      f(`${WORKER}.securityContext.runAsUser`, 1000, windows, 'kubernetes/pod-os-fields'),
      f(`${WORKER}.securityContext.sysctls`, [{ name: 'kernel.shm_rmid_forced', value: '1' }], windows, 'kubernetes/pod-os-fields'),
      f(`${WORKER}.shareProcessNamespace`, false, windows, 'kubernetes/pod-os-fields'),
      f(`${WORKER}.hostPID`, true, windows, 'kubernetes/pod-os-fields'),
      f(`${CONTAINER}.securityContext.privileged`, false, windows, 'kubernetes/pod-os-fields'),
    ]],
  ]);
});

describe('kubernetes/windows-options: gMSA fields, the user name, HostProcess containers', () => {
  const POD = `${WORKER}.securityContext.windowsOptions`;
  const CTR = `${CONTAINER}.securityContext.windowsOptions`;
  const user = (problem: string) => `expected a Windows user name, [DOMAIN\\]USER: ${problem}`;
  const podOptions = (d: any, options: Record<string, unknown>) => {
    s(d).securityContext = { windowsOptions: options };
    delete c(d).securityContext;
  };
  runCases(pytorchJob, [
    ['good options', d => podOptions(d, { gmsaCredentialSpecName: 'webapp-gmsa', gmsaCredentialSpec: '{}', runAsUserName: 'NT AUTHORITY\\NETWORK SERVICE' }), []],
    ['a user in a DNS domain, and a user alone', d => { podOptions(d, { runAsUserName: 'corp.example.com\\trainer' }); c(d).securityContext = { windowsOptions: { runAsUserName: 'ContainerUser' } }; }, []],
    ['a credential spec name that is no object name', d => podOptions(d, { gmsaCredentialSpecName: 'WebApp' }),
      [f(`${POD}.gmsaCredentialSpecName`, 'WebApp', 'expected the name of a GMSACredentialSpec object: a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit', 'kubernetes/windows-options')]],
    ['an empty credential spec', d => podOptions(d, { gmsaCredentialSpec: '' }),
      [f(`${POD}.gmsaCredentialSpec`, '', 'expected a credential spec of 1 byte to 64 KiB', 'kubernetes/windows-options')]],
    ['a credential spec over 64 KiB', d => podOptions(d, { gmsaCredentialSpec: 'x'.repeat(65537) }),
      [f(`${POD}.gmsaCredentialSpec`, '65537 bytes', 'expected a credential spec of 1 byte to 64 KiB', 'kubernetes/windows-options')]],
    ['a user name with two backslashes', d => podOptions(d, { runAsUserName: 'a\\b\\c' }), [f(`${POD}.runAsUserName`, 'a\\b\\c', user('it holds more than one backslash'), 'kubernetes/windows-options')]],
    ['a user name with a control character', d => podOptions(d, { runAsUserName: 'us\ter' }), [f(`${POD}.runAsUserName`, 'us\ter', user('it holds a control character'), 'kubernetes/windows-options')]],
    ['a domain that is neither NetBIOS nor DNS', d => podOptions(d, { runAsUserName: 'a.very-long-domain_name.\\u' }),
      [f(`${POD}.runAsUserName`, 'a.very-long-domain_name.\\u', user('the domain "a.very-long-domain_name." is neither a NetBIOS name nor a DNS name'), 'kubernetes/windows-options')]],
    ['an empty user, a user of periods, a user with "@"', d => {
      podOptions(d, { runAsUserName: 'CORP\\' });
      c(d).securityContext = { windowsOptions: { runAsUserName: '. .' } };
      s(d).initContainers = [{ name: 'init', image: 'busybox', securityContext: { windowsOptions: { runAsUserName: 'me@corp' } } }];
    }, [
      f(`${POD}.runAsUserName`, 'CORP\\', user('the user is empty'), 'kubernetes/windows-options'),
      f(`${WORKER}.initContainers[init].securityContext.windowsOptions.runAsUserName`, 'me@corp', user('the user holds one of "/\\:;|=,+*?<>@[]'), 'kubernetes/windows-options'),
      f(`${CTR}.runAsUserName`, '. .', user('the user is only periods and spaces'), 'kubernetes/windows-options'),
    ]],
    ['a user of 105 bytes', d => podOptions(d, { runAsUserName: 'u'.repeat(105) }), [f(`${POD}.runAsUserName`, 'u'.repeat(105), user('the user has more than 104 bytes'), 'kubernetes/windows-options')]],
    ['HostProcess on the pod, with hostNetwork', d => { podOptions(d, { hostProcess: true }); s(d).hostNetwork = true; }, []],
    ['a container\'s hostProcess unlike the pod\'s (the container\'s own value counts, so none is a HostProcess one)', d => {
      podOptions(d, { hostProcess: true }); s(d).hostNetwork = true; c(d).securityContext = { windowsOptions: { hostProcess: false } };
    }, [f(`${CTR}.hostProcess`, false, 'expected true, the pod\'s hostProcess, or not set', 'kubernetes/windows-options')]],
    ['one HostProcess container of two, without hostNetwork', d => {
      delete c(d).securityContext;
      s(d).initContainers = [{ name: 'init', image: 'busybox', securityContext: { windowsOptions: { hostProcess: true } } }];
    }, [
      f(WORKER, '1 of 2 containers', 'expected every container to be a HostProcess container when one is (set hostProcess on the pod\'s windowsOptions)', 'kubernetes/windows-options'),
      f(`${WORKER}.hostNetwork`, undefined, 'expected true: a pod with HostProcess containers uses the host\'s network', 'kubernetes/windows-options'),
    ]],
  ]);
});

describe('volume sources the 1.34 API server or kubelet discards: kubernetes/volume-items (dropped projections), kubernetes/volume-plugin (no kubelet plugin)', () => {
  const VOLUMES = `${WORKER}.volumes`;
  runCases(pytorchJob, [
    ['a projected service account token', d => { s(d).volumes.push({ name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }); }, []],
    ['a clusterTrustBundle projection', d => { s(d).volumes.push({ name: 'ca', projected: { sources: [{ clusterTrustBundle: { name: 'ca-bundle', path: 'ca.pem' } }] } }); },
      [f(`${VOLUMES}[ca].projected.sources[0].clusterTrustBundle`, { name: 'ca-bundle', path: 'ca.pem' },
        'expected another source: clusterTrustBundle needs the ClusterTrustBundleProjection feature gate, off by default in 1.34, without which the API server drops it without a word and the file never appears',
        'kubernetes/volume-items')]],
    ['a podCertificate projection', d => { s(d).volumes.push({ name: 'cert', projected: { sources: [{ podCertificate: { signerName: 'example.com/signer', keyType: 'ED25519', credentialBundlePath: 'creds.pem' } }] } }); },
      [f(`${VOLUMES}[cert].projected.sources[0].podCertificate`, { signerName: 'example.com/signer', keyType: 'ED25519', credentialBundlePath: 'creds.pem' },
        'expected another source: podCertificate needs the PodCertificateRequest feature gate, off by default in 1.34, without which the API server drops it without a word and the file never appears',
        'kubernetes/volume-items')]],
    ['a CSI volume', d => { s(d).volumes.push({ name: 'data', csi: { driver: 'rbd.csi.ceph.com' } }); }, []],
    ['an NFS volume with a relative path (the fields of the types training pods use are kubernetes/volume-fields\')', d => { s(d).volumes.push({ name: 'data', nfs: { server: 'nfs.local', path: 'exports' } }); },
      [f(`${VOLUMES}[data].nfs.path`, 'exports', 'expected the absolute path of the export on the server, such as /exports/data', 'kubernetes/volume-fields')]],
    ['an rbd volume', d => { s(d).volumes.push({ name: 'data', rbd: { monitors: ['10.0.0.1:6789'], image: 'data' } }); },
      [f(`${VOLUMES}[data].rbd`, { monitors: ['10.0.0.1:6789'], image: 'data' },
        'expected another volume type, such as csi or persistentVolumeClaim: the rbd plugin is no longer in the kubelet (1.34), so the volume is never mounted and the pod never starts', 'kubernetes/volume-plugin')]],
    ['a glusterfs volume', d => { s(d).volumes.push({ name: 'data', glusterfs: { endpoints: 'gluster', path: 'vol' } }); },
      [f(`${VOLUMES}[data].glusterfs`, { endpoints: 'gluster', path: 'vol' },
        'expected another volume type, such as csi or persistentVolumeClaim: the glusterfs plugin is no longer in the kubelet (1.34), so the volume is never mounted and the pod never starts', 'kubernetes/volume-plugin')]],
  ]);
});

describe('kubernetes/volume-fields: the in-tree types the 1.34 kubelet still mounts', () => {
  const V = `${WORKER}.volumes[disk]`;
  const add = (source: Record<string, unknown>) => (d: any) => { s(d).volumes.push({ name: 'disk', ...source }); };
  const ISCSI = 'expected an iSCSI name: iqn.<yyyy-mm>.<reversed domain>:<name>, eui.<16 letters or digits> or naa.<32 letters or digits>';
  runCases(pytorchJob, [
    ['good in-tree volumes', d => {
      s(d).volumes.push(
        { name: 'a', iscsi: { targetPortal: '10.0.0.5:3260', iqn: 'iqn.2001-04.com.example:storage.disk1', lun: 0 } },
        { name: 'b', fc: { targetWWNs: ['500a0982991b8dc5'], lun: 2 } },
        { name: 'c', azureDisk: { diskName: 'data', diskURI: 'https://acct.blob.core.windows.net/vhds/data.vhd' } },
        { name: 'e', azureDisk: { diskName: 'data', diskURI: '/subscriptions/1/resourceGroups/g/providers/Microsoft.Compute/disks/data', kind: 'Managed' } },
        { name: 'f', awsElasticBlockStore: { volumeID: 'vol-0123' } },
      );
    }, []],
    ['an iSCSI volume with a malformed iqn and CHAP without a Secret', add({ iscsi: { targetPortal: '10.0.0.5:3260', iqn: 'iqn.2001.example', lun: 0, chapAuthSession: true } }), [
      f(`${V}.iscsi.iqn`, 'iqn.2001.example', ISCSI, 'kubernetes/volume-fields'),
      f(`${V}.iscsi.secretRef`, undefined, 'expected the Secret with the CHAP credentials (CHAP authentication is on)', 'kubernetes/volume-fields'),
    ]],
    ['an FC volume with both targetWWNs and wwids', add({ fc: { targetWWNs: ['500a0982991b8dc5'], wwids: ['3600508b400105e210000900000490000'], lun: 1 } }),
      [f(`${V}.fc.targetWWNs`, ['500a0982991b8dc5'], 'expected either targetWWNs (with lun) or wwids, not both', 'kubernetes/volume-fields')]],
    ['an FC volume with targetWWNs and no lun', add({ fc: { targetWWNs: ['500a0982991b8dc5'] } }),
      [f(`${V}.fc.lun`, undefined, 'expected the LUN of the target (targetWWNs needs it)', 'kubernetes/volume-fields')]],
    ['a FlexVolume with a reserved option', add({ flexVolume: { driver: 'example/lvm', options: { 'kubernetes.io/size': '1Gi' } } }),
      [f(`${V}.flexVolume.options["kubernetes.io/size"]`, 'kubernetes.io/size', 'expected an option outside the kubernetes.io and k8s.io namespaces, which Kubernetes reserves', 'kubernetes/volume-fields')]],
    ['an Azure disk of the default kind (Shared) with a managed disk path', add({ azureDisk: { diskName: 'data', diskURI: '/subscriptions/1/disks/data' } }),
      [f(`${V}.azureDisk.diskURI`, '/subscriptions/1/disks/data', 'expected a blob disk URL: https://<account>.blob.core.windows.net/<container>/<disk>.vhd', 'kubernetes/volume-fields')]],
    ['an Azure file share without a Secret, a GCE disk without a name', d => {
      s(d).volumes.push({ name: 'disk', azureFile: { shareName: 'data' } }, { name: 'pd', gcePersistentDisk: { pdName: '' } });
    }, [
      f(`${V}.azureFile.secretName`, undefined, 'expected the name of the Secret with the storage account', 'kubernetes/volume-fields'),
      f(`${WORKER}.volumes[pd].gcePersistentDisk.pdName`, '', 'expected the persistent disk name', 'kubernetes/volume-fields'),
    ]],
  ]);
});
