/** Pod volumes, as `ValidateVolumes` (k8s.io/kubernetes/pkg/apis/core/validation) checks them. */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { checkClaimTemplate } from './claim-spec';
import { child, named } from './field-path';
import { DNS1123_LABEL_TEXT, isDns1123Label, isObject } from './names';
import { checkVolumeFields } from './volume-sources';

const F = 'volumes';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation ValidateVolumes';

export const VOLUME_NAME = new Rule('kubernetes', 'kubernetes/volume-name', F, `${SOURCE} (IsDNS1123Label)`,
  'a volume\'s name is a DNS label');
export const VOLUME_NAME_UNIQUE = new Rule('kubernetes', 'kubernetes/volume-name-unique', F, `${SOURCE} (Duplicate name)`,
  'no two volumes of a pod share a name');
export const VOLUME_SOURCE = new Rule('kubernetes', 'kubernetes/volume-source', F, `${SOURCE} validateVolumeSource: exactly one volume type; pod/util.go dropImageVolumes (an image volume and its mounts dropped while the ImageVolume gate is off)`,
  'a volume has exactly one type');

export const VOLUME_RULES = [VOLUME_NAME, VOLUME_NAME_UNIQUE, VOLUME_SOURCE];

// The volume types of core/v1 VolumeSource at 1.34.
const VOLUME_TYPES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc',
  'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected',
  'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
];

/** Checks a list of volumes; returns the names declared (for the mounts to refer to). */
export function checkVolumes(volumes: unknown, at: string, out: Finding[]): Set<string> {
  const names = new Set<string>();
  if (!Array.isArray(volumes)) return names;
  for (let i = 0; i < volumes.length; i++) {
    const volume = volumes[i];
    const path = named(at, volume, i);
    if (!isObject(volume)) continue;
    const name = volume.name;
    if (!isDns1123Label(name)) {
      VOLUME_NAME.report(out, child(path, 'name'), name, `expected ${DNS1123_LABEL_TEXT}`);
    } else if (names.has(name)) {
      VOLUME_NAME_UNIQUE.report(out, child(path, 'name'), name, 'expected a volume name not used by another volume of the pod');
    }
    if (typeof name === 'string') names.add(name);
    const types: string[] = [];
    for (const type of VOLUME_TYPES) if (volume[type] !== undefined && volume[type] !== null) types.push(type);
    if (types.length === 1 && types[0] === 'image') {
      VOLUME_SOURCE.report(out, path, volume,
        'expected another volume type: image volumes need the ImageVolume feature gate (beta, off by default in 1.34), without which the API server drops the volume and its mounts');
    } else if (types.length > 1) {
      // None at all is no mistake: SetDefaults_Volume makes a volume without a type an emptyDir.
      VOLUME_SOURCE.report(out, path, volume, `expected exactly one volume type, not ${types.join(' and ')}`);
    }
    checkVolumeFields(volume, path, out);
    const ephemeral = volume.ephemeral;
    if (isObject(ephemeral)) {
      if (isObject(ephemeral.volumeClaimTemplate)) {
        checkClaimTemplate(ephemeral.volumeClaimTemplate, child(child(path, 'ephemeral'), 'volumeClaimTemplate'), out);
      } else {
        VOLUME_SOURCE.report(out, child(child(path, 'ephemeral'), 'volumeClaimTemplate'), ephemeral.volumeClaimTemplate,
          'expected the claim template of the ephemeral volume (validateEphemeralVolumeSource requires it)');
      }
    }
  }
  return names;
}
