/**
 * The fields of the in-tree volume types the 1.34 kubelet still mounts, in tree (iscsi, fc,
 * flexVolume) or through CSI migration (awsElasticBlockStore, gcePersistentDisk, azureDisk,
 * azureFile, cinder, vsphereVolume, portworxVolume), as their validators in
 * k8s.io/kubernetes/pkg/apis/core/validation check them. Their integer bounds (lun, partition) are
 * the integer table's; the types with no kubelet plugin at all are refused whole (kubernetes/volume-plugin).
 */
import { child } from './field-path';
import { isObject } from './names';

/** Reports one problem: the field's path, its value, what is allowed. */
export type VolumeReport = (at: string, value: unknown, allowed: string) => void;

const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;
const ISCSI_NAME_TEXT = 'an iSCSI name: iqn.<yyyy-mm>.<reversed domain>:<name>, eui.<16 letters or digits> or naa.<32 letters or digits>';
const AZURE_CACHING = ['None', 'ReadOnly', 'ReadWrite'];
const AZURE_KINDS = ['Shared', 'Dedicated', 'Managed'];

/** Required strings of each type: field and what to write there. */
const REQUIRED: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  iscsi: [['targetPortal', 'the target portal, such as 10.0.0.5:3260']],
  flexVolume: [['driver', 'the FlexVolume driver name']],
  awsElasticBlockStore: [['volumeID', 'the EBS volume ID']],
  gcePersistentDisk: [['pdName', 'the persistent disk name']],
  azureDisk: [['diskName', 'the data disk name'], ['diskURI', 'the data disk URI']],
  azureFile: [['secretName', 'the name of the Secret with the storage account'], ['shareName', 'the file share name']],
  cinder: [['volumeID', 'the Cinder volume ID']],
  vsphereVolume: [['volumePath', 'the path of the vSphere volume (vmdk)']],
  portworxVolume: [['volumeID', 'the Portworx volume ID']],
};

/** REQUIRED as pairs, made once: every volume of every pod is looked up in it. */
const REQUIRED_TYPES = Object.entries(REQUIRED);

const isSet = (v: unknown) => typeof v === 'string' && v !== '';

function iscsiNameProblem(name: string): boolean {
  if (name.startsWith('iqn')) return !IQN.test(name);
  if (name.startsWith('eui')) return !EUI.test(name);
  if (name.startsWith('naa')) return !NAA.test(name);
  return true;
}

/** Checks the in-tree volume types of `volume` (at `at`). */
export function checkInTreeVolume(volume: Record<string, any>, at: string, report: VolumeReport): void {
  for (const [type, fields] of REQUIRED_TYPES) {
    const source = volume[type];
    if (!isObject(source)) continue;
    for (const [key, what] of fields) if (!isSet(source[key])) report(child(child(at, type), key), source[key], `expected ${what}`);
  }
  const iscsi = volume.iscsi;
  if (isObject(iscsi)) {
    const iAt = child(at, 'iscsi');
    if (!isSet(iscsi.iqn)) report(child(iAt, 'iqn'), iscsi.iqn, `expected the target's ${ISCSI_NAME_TEXT}`);
    else if (iscsiNameProblem(iscsi.iqn)) report(child(iAt, 'iqn'), iscsi.iqn, `expected ${ISCSI_NAME_TEXT}`);
    if (typeof iscsi.initiatorName === 'string' && iscsiNameProblem(iscsi.initiatorName)) report(child(iAt, 'initiatorName'), iscsi.initiatorName, `expected ${ISCSI_NAME_TEXT}`);
    if ((iscsi.chapAuthDiscovery === true || iscsi.chapAuthSession === true) && !isObject(iscsi.secretRef)) {
      report(child(iAt, 'secretRef'), iscsi.secretRef, 'expected the Secret with the CHAP credentials (CHAP authentication is on)');
    }
  }
  const fc = volume.fc;
  if (isObject(fc)) {
    const fAt = child(at, 'fc');
    const wwns = Array.isArray(fc.targetWWNs) && fc.targetWWNs.length > 0;
    const wwids = Array.isArray(fc.wwids) && fc.wwids.length > 0;
    if (wwns === wwids) report(child(fAt, 'targetWWNs'), fc.targetWWNs, 'expected either targetWWNs (with lun) or wwids, not both');
    else if (wwns && (fc.lun === undefined || fc.lun === null)) report(child(fAt, 'lun'), fc.lun, 'expected the LUN of the target (targetWWNs needs it)');
  }
  const flex = volume.flexVolume;
  if (isObject(flex) && isObject(flex.options)) {
    for (const key of Object.keys(flex.options)) {
      const prefix = `.${(key.includes('/') ? key.split('/')[0] : key).toLowerCase()}`;
      if (prefix.endsWith('.kubernetes.io') || prefix.endsWith('.k8s.io')) {
        report(child(child(child(at, 'flexVolume'), 'options'), key), key, 'expected an option outside the kubernetes.io and k8s.io namespaces, which Kubernetes reserves');
      }
    }
  }
  const azure = volume.azureDisk;
  if (isObject(azure)) {
    const aAt = child(at, 'azureDisk');
    if (azure.cachingMode !== undefined && !AZURE_CACHING.includes(azure.cachingMode)) report(child(aAt, 'cachingMode'), azure.cachingMode, `expected ${AZURE_CACHING.map(m => `"${m}"`).join(', ')}`);
    if (azure.kind !== undefined && !AZURE_KINDS.includes(azure.kind)) report(child(aAt, 'kind'), azure.kind, `expected ${AZURE_KINDS.map(m => `"${m}"`).join(', ')}`);
    // SetDefaults (zz_generated.defaults.go) makes an unset kind "Shared", a blob disk.
    const kind = azure.kind ?? 'Shared';
    if (AZURE_KINDS.includes(kind) && isSet(azure.diskURI)) {
      if (kind === 'Managed' && !azure.diskURI.startsWith('/subscriptions/')) {
        report(child(aAt, 'diskURI'), azure.diskURI, 'expected a managed disk URI: /subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Compute/disks/<disk>');
      } else if (kind !== 'Managed' && !azure.diskURI.startsWith('https://')) {
        report(child(aAt, 'diskURI'), azure.diskURI, 'expected a blob disk URL: https://<account>.blob.core.windows.net/<container>/<disk>.vhd');
      }
    }
  }
  const cinder = volume.cinder;
  if (isObject(cinder) && isObject(cinder.secretRef) && !isSet(cinder.secretRef.name)) {
    report(child(child(child(at, 'cinder'), 'secretRef'), 'name'), cinder.secretRef.name, 'expected the name of the Secret with the OpenStack credentials');
  }
}
