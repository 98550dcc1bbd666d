/**
 * The fields of the volume types pods use, as `validateVolumeSource` and the per-type functions
 * (k8s.io/kubernetes/pkg/apis/core/validation) check them: what each type requires, and where the
 * files of secret, configMap, downwardAPI and projected volumes go (`validateKeyToPath`,
 * `validateDownwardAPIVolumeFile`, `validateProjectionSources`). Of the in-tree cloud and network
 * types, the ones the 1.34 kubelet cannot mount are refused whole (kubernetes/volume-plugin); the fields of
 * the others (iSCSI, FC, Cinder, ...) are in-tree-volumes.ts's, reported as kubernetes/volume-fields.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { checkFieldRef, checkResourceFieldRef } from './env-sources';
import { child, indexed } from './field-path';
import { checkInTreeVolume } from './in-tree-volumes';
import { DNS1123_SUBDOMAIN_TEXT, isDns1123Subdomain, isObject } from './names';
import { isNegative, parseQuantity } from './quantity';

const F = 'volumes';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const VOLUME_FIELDS = new Rule('kubernetes', 'kubernetes/volume-fields', F,
  `${SOURCE} validateVolumeSource: secretName, configMap name, claimName, hostPath (path without "..", type), nfs (server, absolute path), csi driver, emptyDir sizeLimit, gitRepo, and the in-tree types the kubelet still mounts`,
  'secret and configMap volumes name their object, a claim volume its claim');
export const VOLUME_ITEMS = new Rule('kubernetes', 'kubernetes/volume-items', F,
  `${SOURCE} validateKeyToPath, validateDownwardAPIVolumeFile and validateProjectionSources (keys, relative paths without "..", one source each, no path twice); `
  + 'pkg/api/pod/util.go dropDisabledClusterTrustBundleProjection and dropDisabledPodCertificateProjection (sources dropped while their gates are off)',
  'an item of a secret or configMap volume has a key and a relative path without ".." that does not start with ".."');

export const VOLUME_PLUGIN = new Rule('kubernetes', 'kubernetes/volume-plugin', F,
  'k8s.io/kubernetes v1.34.4 cmd/kubelet/app/plugins.go ProbeVolumePlugins and k8s.io/csi-translation-lib plugins (volume types the kubelet has no plugin for, in-tree or by CSI migration)',
  'the kubelet has a plugin for each volume type, in tree or through CSI migration');

export const VOLUME_SOURCE_RULES = [VOLUME_FIELDS, VOLUME_ITEMS, VOLUME_PLUGIN];

// In-tree volume types whose kubelet plugin was removed and that CSI migration does not translate:
// the API server stores the pod, and the kubelet never mounts the volume (the pod stays ContainerCreating).
const NO_PLUGIN = ['rbd', 'cephfs', 'glusterfs', 'quobyte', 'flocker', 'scaleIO', 'storageos', 'photonPersistentDisk'];

const HOST_PATH_TYPES = new Set(['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice']);
// validVolumeDownwardAPIFieldPathExpressions: what a downward API file can show.
const VOLUME_FIELD_PATHS = new Set(['metadata.name', 'metadata.namespace', 'metadata.labels', 'metadata.annotations', 'metadata.uid']);
const VOLUME_FIELD_PATHS_TEXT = 'a pod field a volume file can show: metadata.name, metadata.namespace, metadata.labels, metadata.annotations, metadata.uid, '
  + 'or metadata.labels[\'<key>\'] / metadata.annotations[\'<key>\']';
const PROJECTED_SOURCES = ['secret', 'configMap', 'downwardAPI', 'serviceAccountToken', 'clusterTrustBundle', 'podCertificate'];
// pkg/api/pod/util.go dropDisabledClusterTrustBundleProjection and dropDisabledPodCertificateProjection:
// sources whose gate is off by default in 1.34 (ClusterTrustBundleProjection beta, PodCertificateRequest alpha).
const DROPPED_PROJECTIONS = [['clusterTrustBundle', 'ClusterTrustBundleProjection'], ['podCertificate', 'PodCertificateRequest']] as const;
const ITEM_PATH_TEXT = 'expected a relative file path inside the volume, without ".." and not starting with ".."';

/** Checks the fields of one volume (at `at`) of the types it declares. */
export function checkVolumeFields(volume: Record<string, any>, at: string, out: Finding[]): void {
  const required = (value: unknown, fieldAt: string, what: string) => {
    if (typeof value !== 'string' || value === '') VOLUME_FIELDS.report(out, fieldAt, value, `expected ${what}`);
  };
  if (isObject(volume.secret)) {
    const vAt = child(at, 'secret');
    required(volume.secret.secretName, child(vAt, 'secretName'), 'the name of the Secret to mount');
    checkKeyToPaths(volume.secret.items, child(vAt, 'items'), undefined, out);
  }
  if (isObject(volume.configMap)) {
    const vAt = child(at, 'configMap');
    required(volume.configMap.name, child(vAt, 'name'), 'the name of the ConfigMap to mount');
    checkKeyToPaths(volume.configMap.items, child(vAt, 'items'), undefined, out);
  }
  if (isObject(volume.persistentVolumeClaim)) {
    required(volume.persistentVolumeClaim.claimName, child(child(at, 'persistentVolumeClaim'), 'claimName'), 'the name of the PersistentVolumeClaim to mount');
  }
  if (isObject(volume.emptyDir)) {
    const limit = volume.emptyDir.sizeLimit;
    if (limit !== undefined && limit !== null) {
      const q = parseQuantity(limit);
      if (q !== undefined && isNegative(q)) {
        VOLUME_FIELDS.report(out, child(child(at, 'emptyDir'), 'sizeLimit'), limit, 'expected a size of 0 or more, such as 2Gi');
      }
    }
  }
  if (isObject(volume.hostPath)) checkHostPath(volume.hostPath, child(at, 'hostPath'), out);
  if (isObject(volume.nfs)) {
    const vAt = child(at, 'nfs');
    required(volume.nfs.server, child(vAt, 'server'), 'the NFS server\'s host name or IP');
    if (typeof volume.nfs.path !== 'string' || !volume.nfs.path.startsWith('/')) {
      VOLUME_FIELDS.report(out, child(vAt, 'path'), volume.nfs.path, 'expected the absolute path of the export on the server, such as /exports/data');
    }
  }
  if (isObject(volume.csi)) {
    const driver = volume.csi.driver;
    if (typeof driver !== 'string' || driver.length > 63 || !isDns1123Subdomain(driver.toLowerCase())) {
      VOLUME_FIELDS.report(out, child(child(at, 'csi'), 'driver'), driver, `expected a CSI driver name of at most 63 characters: ${DNS1123_SUBDOMAIN_TEXT} (upper case allowed)`);
    }
    // validateCSIVolumeSource: a node publish Secret reference names a Secret.
    const ref = volume.csi.nodePublishSecretRef;
    if (isObject(ref) && (typeof ref.name !== 'string' || !isDns1123Subdomain(ref.name))) {
      VOLUME_FIELDS.report(out, child(child(child(at, 'csi'), 'nodePublishSecretRef'), 'name'), ref.name, `expected the name of the Secret the CSI driver is given: ${DNS1123_SUBDOMAIN_TEXT}`);
    }
  }
  if (isObject(volume.gitRepo)) {
    const vAt = child(at, 'gitRepo');
    required(volume.gitRepo.repository, child(vAt, 'repository'), 'the URL of the repository to clone');
    const dir = volume.gitRepo.directory;
    if (typeof dir === 'string' && !isLocalDescending(dir)) {
      VOLUME_FIELDS.report(out, child(vAt, 'directory'), dir, 'expected a relative directory without ".." (or "." for the volume itself)');
    }
  }
  checkInTreeVolume(volume, at, (fieldAt, value, allowed) => VOLUME_FIELDS.report(out, fieldAt, value, allowed));
  for (const type of NO_PLUGIN) {
    if (volume[type] === undefined || volume[type] === null) continue;
    VOLUME_PLUGIN.report(out, child(at, type), volume[type],
      `expected another volume type, such as csi or persistentVolumeClaim: the ${type} plugin is no longer in the kubelet (1.34), so the volume is never mounted and the pod never starts`);
  }
  if (isObject(volume.downwardAPI)) checkDownwardApiFiles(volume.downwardAPI.items, child(at, 'downwardAPI'), undefined, out);
  if (isObject(volume.projected)) checkProjected(volume.projected, child(at, 'projected'), out);
}

function checkHostPath(hostPath: Record<string, any>, at: string, out: Finding[]): void {
  const path = hostPath.path;
  if (typeof path !== 'string' || path === '') {
    VOLUME_FIELDS.report(out, child(at, 'path'), path, 'expected the path on the node, such as /var/log');
    return;
  }
  if (hasBackstep(path)) VOLUME_FIELDS.report(out, child(at, 'path'), path, 'expected a path on the node without ".." elements');
  const type = hostPath.type;
  if (type !== undefined && type !== null && !HOST_PATH_TYPES.has(type)) {
    VOLUME_FIELDS.report(out, child(at, 'type'), type,
      'expected "", "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket", "CharDevice" or "BlockDevice"');
  }
}

/** validatePathNoBacksteps: no ".." element ("/" and "\" both separate). */
function hasBackstep(path: string): boolean {
  return path.split(/[\\/]/).includes('..');
}

/** validateLocalDescendingPath: relative, no ".." element. */
function isLocalDescending(path: string): boolean {
  return !path.startsWith('/') && !hasBackstep(path);
}

/** ValidateLocalNonReservedPath: a local descending path that does not start with "..". */
function isLocalNonReserved(path: string): boolean {
  return isLocalDescending(path) && !path.startsWith('..');
}

/** `items` of a secret or configMap: a key, and a path; `seen` collects paths across projected sources. */
function checkKeyToPaths(items: unknown, at: string, seen: Map<string, string> | undefined, out: Finding[]): void {
  if (!Array.isArray(items)) return;
  items.forEach((item, i) => {
    if (!isObject(item)) return;
    const itemAt = indexed(at, i);
    if (typeof item.key !== 'string' || item.key === '') {
      VOLUME_ITEMS.report(out, child(itemAt, 'key'), item.key, 'expected the key whose value the file holds');
    }
    checkItemPath(item.path, child(itemAt, 'path'), seen, out);
  });
}

function checkItemPath(path: unknown, at: string, seen: Map<string, string> | undefined, out: Finding[]): void {
  if (typeof path !== 'string' || path === '' || !isLocalNonReserved(path)) {
    VOLUME_ITEMS.report(out, at, path, ITEM_PATH_TEXT);
    return;
  }
  if (seen === undefined) return;
  const first = seen.get(path);
  if (first !== undefined) {
    VOLUME_ITEMS.report(out, at, path, `expected a path no other source of the projected volume writes (${first} has it)`);
  } else {
    seen.set(path, at);
  }
}

/** The files of a downwardAPI volume or projected source (at `at`, whose `items` they are). */
function checkDownwardApiFiles(items: unknown, at: string, seen: Map<string, string> | undefined, out: Finding[]): void {
  if (!Array.isArray(items)) return;
  items.forEach((file, i) => {
    if (!isObject(file)) return;
    const fileAt = indexed(child(at, 'items'), i);
    checkItemPath(file.path, child(fileAt, 'path'), seen, out);
    const field = isObject(file.fieldRef);
    const resource = isObject(file.resourceFieldRef);
    if (field === resource) {
      VOLUME_ITEMS.report(out, fileAt, file, field ? 'expected only one of fieldRef or resourceFieldRef' : 'expected one of fieldRef or resourceFieldRef');
    } else if (field) {
      checkFieldRef(file.fieldRef, child(fileAt, 'fieldRef'), VOLUME_FIELD_PATHS, VOLUME_FIELD_PATHS_TEXT, VOLUME_ITEMS, out);
    } else {
      checkResourceFieldRef(file.resourceFieldRef, child(fileAt, 'resourceFieldRef'), true, VOLUME_ITEMS, out);
    }
  });
}

function checkProjected(projected: Record<string, any>, at: string, out: Finding[]): void {
  const sources = projected.sources;
  if (!Array.isArray(sources)) return;
  const seen = new Map<string, string>();
  sources.forEach((source, i) => {
    if (!isObject(source)) return;
    const sAt = indexed(child(at, 'sources'), i);
    const kinds = PROJECTED_SOURCES.filter(k => source[k] !== undefined && source[k] !== null);
    if (kinds.length !== 1) {
      VOLUME_ITEMS.report(out, sAt, source, kinds.length === 0
        ? 'expected one of secret, configMap, downwardAPI, serviceAccountToken, clusterTrustBundle or podCertificate'
        : `expected one source per entry, not ${kinds.join(' and ')}`);
    }
    for (const [key, gate] of DROPPED_PROJECTIONS) {
      if (source[key] === undefined || source[key] === null) continue;
      VOLUME_ITEMS.report(out, child(sAt, key), source[key],
        `expected another source: ${key} needs the ${gate} feature gate, off by default in 1.34, without which the API server drops it without a word and the file never appears`);
    }
    for (const key of ['secret', 'configMap']) {
      const ref = source[key];
      if (!isObject(ref)) continue;
      if (typeof ref.name !== 'string' || ref.name === '') {
        VOLUME_ITEMS.report(out, child(child(sAt, key), 'name'), ref.name, `expected the name of the ${key === 'secret' ? 'Secret' : 'ConfigMap'} to project`);
      }
      checkKeyToPaths(ref.items, child(child(sAt, key), 'items'), seen, out);
    }
    if (isObject(source.downwardAPI)) checkDownwardApiFiles(source.downwardAPI.items, child(sAt, 'downwardAPI'), seen, out);
    const token = source.serviceAccountToken;
    if (isObject(token)) {
      const tAt = child(sAt, 'serviceAccountToken');
      if (typeof token.expirationSeconds === 'number' && token.expirationSeconds > 2 ** 32) {
        VOLUME_ITEMS.report(out, child(tAt, 'expirationSeconds'), token.expirationSeconds, 'expected at most 4294967296 seconds (2^32)');
      }
      if (typeof token.path !== 'string' || token.path === '' || !isLocalNonReserved(token.path)) {
        VOLUME_ITEMS.report(out, child(tAt, 'path'), token.path, ITEM_PATH_TEXT);
      }
    }
  });
}
