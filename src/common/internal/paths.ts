import { IConstruct } from 'constructs';
import { Finding, finding } from '../../rules/finding';
import { raise } from '../../rules/report';

/*
 * Mount paths: absolute, and compared without trailing slashes (`/data/` and `/data` are one path
 * to the kubelet).
 */

const MOUNT_PATH = /^\/[^/].*$/;

/** What is wrong with a mount path, if anything. */
export function mountPathFinding(field: string, path: string): Finding | undefined {
  if (typeof path !== 'string' || path.length < 2 || path.length > 4096 || !MOUNT_PATH.test(path) || path.includes(':')) {
    return finding(field, path, 'expected an absolute path such as "/data" (2 to 4096 characters, without ":")');
  }
  return undefined;
}

/** A mount path without trailing slashes, so `/data/` and `/data` compare equal. */
export function normalPath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** Throws for a path that is not an absolute mount path. */
export function checkMountPath(scope: IConstruct, field: string, path: string): void {
  const f = mountPathFinding(field, path);
  if (f) raise(scope, f);
}
