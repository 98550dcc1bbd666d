import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { unique } from './defaults';
import { fail } from './errors';
import { Resources, sizeQuantity } from './replica';

/*
 * Checks and small helpers shared by the constructs: Kubernetes names, mount paths, lengths,
 * durations in whole seconds, and limits against requests. Internal to the library.
 */

const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PORT_ID = /^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$/;
const MOUNT_PATH = /^\/[^/].*$/;

/** @internal */
export const DNS_LABEL_TEXT = 'a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit';
/** @internal */
export const DNS_SUBDOMAIN_TEXT = 'a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" and ".", each part starting and ending with a letter or digit';
/** @internal */
export const PORT_ID_TEXT = 'a port id: at most 32 lower-case letters, digits, "-" and "_", starting and ending with a letter or digit';

/** A DNS-1035 label (starts with a letter): what Service names, and so job names, must be. @internal */
export function isDns1035Label(value: string): boolean {
  return value.length <= 63 && DNS_1035_LABEL.test(value);
}

/** A DNS-1123 label. @internal */
export function isLabel(value: string): boolean {
  return value.length <= 63 && DNS_LABEL.test(value);
}

/** @internal */
export function isSubdomain(value: string): boolean {
  return value.length <= 253 && DNS_SUBDOMAIN.test(value);
}

/** @internal */
export function isPortId(value: string): boolean {
  return value.length <= 32 && PORT_ID.test(value);
}

/** @internal */
export function checkMountPath(scope: Construct, field: string, path: string): void {
  if (typeof path !== 'string' || path.length < 2 || path.length > 4096 || !MOUNT_PATH.test(path) || path.includes(':')) {
    fail(scope, field, path, 'expected an absolute path such as "/data" (2 to 4096 characters, without ":")');
  }
}

/** @internal */
export function checkLength(scope: Construct, field: string, value: string, min: number, max: number): void {
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    fail(scope, field, value, `expected ${min} to ${max} characters`);
  }
}

/** A mount path without trailing slashes, so `/data/` and `/data` compare equal. @internal */
export function normalPath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** `"a", "b"`, or `none` for an empty list. @internal */
export function listOf(values: string[]): string {
  return values.length ? values.map(v => JSON.stringify(v)).join(', ') : 'none is defined';
}

/** @internal */
export const WHOLE_SECONDS = 'expected a whole number of seconds, which the manifest counts in';

/** A duration in seconds, fractional when it is not whole (cdk8s's toSeconds would throw). */
/** @internal */
export function secondsOf(duration: Duration): number {
  return duration.toMilliseconds({ integral: false }) / 1000;
}

/** @internal */
export function nonEmpty(map: { [key: string]: string } | undefined): { [key: string]: string } | undefined {
  return map && Object.keys(map).length ? map : undefined;
}

/** Keeps the first of equal items, compared with sorted keys (a user may write fields in any order). */
/** @internal */
export function uniqueByContent<T>(items: T[]): T[] {
  const canonical = (v: unknown): string => JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map(k => [k, x[k]])) : x);
  const seen = new Set<string>();
  return unique(items).filter(i => {
    const key = canonical(i);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Limits at least the requests, as Kubernetes requires. */
/** @internal */
export function checkLimits(scope: Construct, field: string, requests: Resources | undefined, limits: Resources | undefined): void {
  if (!requests || !limits) return;
  const cpu = (c: kplus.Cpu) => (c.amount.endsWith('m') ? Number(c.amount.slice(0, -1)) / 1000 : Number(c.amount));
  if (requests.cpu && limits.cpu && cpu(limits.cpu) < cpu(requests.cpu)) {
    fail(scope, `${field}.limits.cpu`, limits.cpu.amount, `expected at least the request (${requests.cpu.amount})`);
  }
  for (const part of ['memory', 'ephemeralStorage'] as const) {
    const r = requests[part];
    const l = limits[part];
    if (r && l && l.toMebibytes() < r.toMebibytes()) {
      fail(scope, `${field}.limits.${part}`, sizeQuantity(l), `expected at least the request (${sizeQuantity(r)})`);
    }
  }
}
