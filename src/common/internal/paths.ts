import { IConstruct } from 'constructs';
import { Finding, finding } from '../../rules/finding';
import { mountPointOf } from '../../rules/kubernetes/mount-point';
import { raise } from '../../synth/report';

/*
 * Mount paths. Two kinds, because no one check is certainly right for both:
 *
 * - A container's volumeMounts[].mountPath: Kubernetes requires it (ValidateVolumeMounts) and
 *   nothing more about its form; the kubelet makes a relative one absolute, Clean("/" + path),
 *   before the container runtime sees it (pkg/kubelet/kubelet_pods.go makeMounts), so "data" runs
 *   as "/data". The constructs keep it as given, and refuse only what never mounts.
 * - A path a Notebooks CRD declares with the pattern ^/[^/].*$ (a WorkspaceKind's home mount, a
 *   Workspace's data and secret mounts): the API server refuses a relative one (library/schema), so
 *   the constructs refuse it at once, naming the prop.
 *
 * Either is compared as the kubelet mounts it: "data", "/data" and "/data/" are one mount point.
 */

/** The paths the Notebooks CRDs require absolute (pattern ^/[^/].*$, 2 to 4096 characters). */
const CRD_MOUNT_PATH = /^\/[^/].*$/;

/** What is wrong with a mount path a Notebooks CRD requires absolute, if anything. */
export function mountPathFinding(field: string, path: string): Finding | undefined {
  if (typeof path !== 'string' || path.length < 2 || path.length > 4096 || !CRD_MOUNT_PATH.test(path) || path.includes(':')) {
    return finding(field, path, 'expected an absolute path such as "/data" (2 to 4096 characters, without ":"), as the Notebooks CRD requires');
  }
  return undefined;
}

/**
 * What is wrong with a container's mount path, if anything: only a missing one, which Kubernetes
 * refuses, and the root, which would hide the container's own files. A relative path is kept: the
 * kubelet mounts it under "/".
 */
export function containerMountPathFinding(field: string, path: string): Finding | undefined {
  if (typeof path !== 'string' || path === '') return finding(field, path, 'expected a mount path such as "/data" (Kubernetes requires one)');
  if (mountPointOf(path) === '/') return finding(field, path, 'expected a path below "/": a volume mounted at the root would hide the container\'s own files');
  return undefined;
}

/** Where the kubelet mounts `path` (kubernetes/mount-path-unique's reading), so "data", "/data" and "/data/" compare equal. */
export function normalPath(path: string): string {
  return mountPointOf(path);
}

/** Throws for a path that is not the absolute mount path a Notebooks CRD requires. */
export function checkMountPath(scope: IConstruct, field: string, path: string): void {
  const f = mountPathFinding(field, path);
  if (f) raise(scope, f);
}

/** Throws for a container mount path that never mounts. */
export function checkContainerMountPath(scope: IConstruct, field: string, path: string): void {
  const f = containerMountPathFinding(field, path);
  if (f) raise(scope, f);
}
