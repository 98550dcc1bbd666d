/**
 * A container's raw block devices (`volumeDevices`), as `ValidateVolumeDevices` and
 * `validateHostUsers` (k8s.io/kubernetes/pkg/apis/core/validation) check them when a pod is
 * created: each names a claim-backed volume of the pod once, at a device path of its own that no
 * mount of the container uses; a pod in its own user namespace takes none.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { isObject } from './names';

export const VOLUME_DEVICES = new Rule('kubernetes', 'kubernetes/volume-devices', 'volumes',
  'k8s.io/kubernetes/pkg/apis/core/validation ValidateVolumeDevices (a claim-backed volume, unique names and paths, no ".." and no mount overlap) and validateHostUsers (none with hostUsers false)',
  'a pod with hostUsers false has no container with volumeDevices');

export const VOLUME_DEVICE_RULES = [VOLUME_DEVICES];

/** Names of the volumes of a pod spec that a claim backs (persistentVolumeClaim or ephemeral). */
export function claimVolumeNames(volumes: unknown): Set<string> {
  const names = new Set<string>();
  if (!Array.isArray(volumes)) return names;
  for (const v of volumes) {
    if (isObject(v) && typeof v.name === 'string' && (isObject(v.persistentVolumeClaim) || isObject(v.ephemeral))) names.add(v.name);
  }
  return names;
}

/**
 * Checks one container's `volumeDevices` at `at`: `volumes` are all the pod's volume names,
 * `claimVolumes` those a claim backs, `hostUsers` the pod's hostUsers (false: its own user namespace).
 */
export function checkVolumeDevices(container: Record<string, any>, at: string, volumes: ReadonlySet<string>, claimVolumes: ReadonlySet<string>,
  hostUsers: boolean, out: Finding[]): void {
  const devices = container.volumeDevices;
  if (!Array.isArray(devices) || devices.length === 0) return;
  if (!hostUsers) {
    VOLUME_DEVICES.report(out, at, devices, 'expected no volume devices in a pod with hostUsers false (block devices cannot be mapped into its user namespace)');
  }
  const mounts = new Map<string, unknown>();
  if (Array.isArray(container.volumeMounts)) for (const m of container.volumeMounts) if (isObject(m) && typeof m.name === 'string') mounts.set(m.name, m.mountPath);
  const mountPaths = new Set(mounts.values());
  const names = new Set<unknown>();
  const paths = new Set<unknown>();
  devices.forEach((d: unknown, i: number) => {
    if (!isObject(d)) return;
    const nameAt = child(indexed(at, i), 'name');
    const pathAt = child(indexed(at, i), 'devicePath');
    const name = d.name;
    if (typeof name !== 'string' || name === '') {
      VOLUME_DEVICES.report(out, nameAt, name, 'expected the name of a persistentVolumeClaim or ephemeral volume of the pod');
    } else if (names.has(name)) {
      VOLUME_DEVICES.report(out, nameAt, name, 'expected a volume no other device of the container names');
    } else if (!volumes.has(name)) {
      VOLUME_DEVICES.report(out, nameAt, name, 'expected the name of a volume of the pod');
    } else if (!claimVolumes.has(name)) {
      VOLUME_DEVICES.report(out, nameAt, name, 'expected a persistentVolumeClaim or ephemeral volume (only a claim gives a block device)');
    } else if (mounts.has(name)) {
      VOLUME_DEVICES.report(out, nameAt, name, 'expected a volume the container does not also mount (volumeMounts names it)');
    }
    if (typeof name === 'string' && name !== '') names.add(name);
    const path = d.devicePath;
    if (typeof path !== 'string' || path === '') {
      VOLUME_DEVICES.report(out, pathAt, path, 'expected the path of the device in the container, such as /dev/xvda');
    } else if (paths.has(path)) {
      VOLUME_DEVICES.report(out, pathAt, path, 'expected a device path no other device of the container uses');
    } else if (path.split('/').includes('..')) {
      VOLUME_DEVICES.report(out, pathAt, path, 'expected a path without ".."');
    } else if (mountPaths.has(path)) {
      VOLUME_DEVICES.report(out, pathAt, path, 'expected a path no volume mount of the container uses');
    }
    if (typeof path === 'string' && !path.split('/').includes('..')) paths.add(path);
  });
}
