/**
 * Integer fields: where they are, their Go type (`int32` or `int64`, the `format` of the CRD
 * schemas) and the bounds the API server puts on them. A value outside int32 cannot be decoded by
 * the operator or the API server (the job or its pods are never created); a value outside the
 * bounds is refused by `ValidatePodSpec` (k8s.io/kubernetes/pkg/apis/core/validation).
 *
 * Paths are relative to a root: `a.b` properties, `a[]` every list item, `a.*` every map value.
 * The tables compose (a container's fields under `containers[]` ...) and each kind's full table is
 * compiled once into a tree, so one walk of a document visits every integer field.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { isObject } from './names';

const F = 'numbers';

export const INT32 = new Rule('kubernetes', 'kubernetes/int32', F, 'Go int32 fields of the API types (format: int32 in the CRD schemas); encoding/json refuses a value that overflows',
  'a number in an int32 field fits in int32 and is whole');
export const INT64 = new Rule('kubernetes', 'kubernetes/int64', F, 'Go int64 fields of the API types (format: int64 in the CRD schemas)',
  'a number in an int64 field fits in int64 and is whole');
export const INT_RANGE = new Rule('kubernetes', 'kubernetes/int-range', F, 'k8s.io/kubernetes/pkg/apis/core/validation ValidatePodSpec bounds (ValidateNonnegativeField, IsValidPortNum, weights, modes, activeDeadlineSeconds)',
  'activeDeadlineSeconds is from 1 to 2^31-1');

export const INTEGER_RULES = [INT32, INT64, INT_RANGE];

/** One integer field. */
export interface IntegerField {
  readonly path: string;
  readonly format: 'int32' | 'int64';
  readonly min?: number;
  readonly max?: number;
}

function i32(path: string, min?: number, max?: number): IntegerField {
  return { path, format: 'int32', min, max };
}
function i64(path: string, min?: number, max?: number): IntegerField {
  return { path, format: 'int64', min, max };
}

/** The same fields under a prefix. */
export function under(prefix: string, fields: readonly IntegerField[]): IntegerField[] {
  return fields.map(f => ({ ...f, path: `${prefix}.${f.path}` }));
}

const MODE = 0o777;

// validateProbe: the counts and durations are non-negative; the grpc port a port number; the
// probe-level grace period positive.
export const PROBE_INTEGERS: readonly IntegerField[] = [
  i32('failureThreshold', 0), i32('initialDelaySeconds', 0), i32('periodSeconds', 0), i32('successThreshold', 0),
  i32('timeoutSeconds', 0), i32('grpc.port', 1, 65535), i64('terminationGracePeriodSeconds', 1),
];

// ValidateSecurityContext and ValidatePodSecurityContext: ids are non-negative.
export const CONTAINER_SECURITY_INTEGERS: readonly IntegerField[] = [i64('runAsUser', 0), i64('runAsGroup', 0)];
export const POD_SECURITY_INTEGERS: readonly IntegerField[] = [
  i64('runAsUser', 0), i64('runAsGroup', 0), i64('fsGroup', 0), i64('supplementalGroups[]', 0),
];

// containerPort and hostPort ranges are the port rules' (kubernetes/port-number); only the type here.
export const CONTAINER_INTEGERS: readonly IntegerField[] = [
  ...under('livenessProbe', PROBE_INTEGERS), ...under('readinessProbe', PROBE_INTEGERS), ...under('startupProbe', PROBE_INTEGERS),
  i32('ports[].containerPort'), i32('ports[].hostPort'),
  i64('lifecycle.postStart.sleep.seconds', 0), i64('lifecycle.preStop.sleep.seconds', 0),
  i32('restartPolicyRules[].exitCodes.values[]'),
  ...under('securityContext', CONTAINER_SECURITY_INTEGERS),
];

// validateVolumeSource: file modes within 0777, LUNs and partitions within 0..255, token
// lifetimes at least ten minutes.
export const VOLUME_INTEGERS: readonly IntegerField[] = [
  i32('awsElasticBlockStore.partition', 0, 255), i32('gcePersistentDisk.partition', 0, 255), i32('fc.lun', 0, 255), i32('iscsi.lun', 0, 255),
  i32('configMap.defaultMode', 0, MODE), i32('configMap.items[].mode', 0, MODE),
  i32('secret.defaultMode', 0, MODE), i32('secret.items[].mode', 0, MODE),
  i32('downwardAPI.defaultMode', 0, MODE), i32('downwardAPI.items[].mode', 0, MODE),
  i32('projected.defaultMode', 0, MODE), i32('projected.sources[].configMap.items[].mode', 0, MODE),
  i32('projected.sources[].secret.items[].mode', 0, MODE), i32('projected.sources[].downwardAPI.items[].mode', 0, MODE),
  i32('projected.sources[].podCertificate.maxExpirationSeconds'),
  i64('projected.sources[].serviceAccountToken.expirationSeconds', 600),
];

export const AFFINITY_INTEGERS: readonly IntegerField[] = [
  i32('nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[].weight', 1, 100),
  i32('podAffinity.preferredDuringSchedulingIgnoredDuringExecution[].weight', 1, 100),
  i32('podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[].weight', 1, 100),
];

/** Every integer of a pod spec, relative to the spec. */
export const POD_SPEC_INTEGERS: readonly IntegerField[] = [
  ...under('containers[]', CONTAINER_INTEGERS), ...under('initContainers[]', CONTAINER_INTEGERS),
  ...under('ephemeralContainers[]', CONTAINER_INTEGERS),
  ...under('volumes[]', VOLUME_INTEGERS),
  ...under('securityContext', POD_SECURITY_INTEGERS),
  ...under('affinity', AFFINITY_INTEGERS),
  // ValidatePodSpec: activeDeadlineSeconds is an int64 but must be 1..MaxInt32.
  i64('activeDeadlineSeconds', 1, 2147483647),
  i32('priority'), i64('terminationGracePeriodSeconds'), i64('tolerations[].tolerationSeconds'),
  i32('topologySpreadConstraints[].maxSkew', 1), i32('topologySpreadConstraints[].minDomains', 1),
];

/** The Kubeflow v1 run policy (kubeflow.org/v1 RunPolicy), relative to the job's spec. */
export const RUN_POLICY_INTEGERS: readonly IntegerField[] = [
  i64('runPolicy.activeDeadlineSeconds'), i32('runPolicy.backoffLimit'), i32('runPolicy.ttlSecondsAfterFinished'),
  i32('runPolicy.schedulingPolicy.minAvailable'), i32('runPolicy.schedulingPolicy.scheduleTimeoutSeconds'),
];

/** The PyTorch and Paddle elastic policies (kubeflow.org/v1 ElasticPolicy), relative to the job's spec. */
export const ELASTIC_POLICY_INTEGERS: readonly IntegerField[] = [
  i32('elasticPolicy.minReplicas'), i32('elasticPolicy.maxReplicas'), i32('elasticPolicy.maxRestarts'),
  ...['containerResource', 'external', 'object', 'pods', 'resource'].map(m => i32(`elasticPolicy.metrics[].${m}.target.averageUtilization`)),
];

// ---- the walk -------------------------------------------------------------------------------

/** The lists whose items are named by their `name` in field paths. */
const NAMED_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers', 'volumes', 'extraVolumes']);

interface Node {
  readonly key: string;
  readonly list: boolean;
  readonly map: boolean;
  readonly children: Node[];
  field?: IntegerField;
}

/** Compiles a table into a tree of path segments, so shared prefixes are walked once. */
export function compileIntegers(fields: readonly IntegerField[]): Node {
  const root: Node = { key: '', list: false, map: false, children: [] };
  for (const field of fields) {
    let node = root;
    for (const raw of field.path.split('.')) {
      const list = raw.endsWith('[]');
      const map = raw === '*';
      const key = list ? raw.slice(0, -2) : raw;
      let next = node.children.find(c => c.key === key && c.list === list && c.map === map);
      if (next === undefined) {
        next = { key, list, map, children: [] };
        node.children.push(next);
      }
      node = next;
    }
    node.field = field;
  }
  return root;
}

/**
 * Checks every integer of the compiled table under `value` (whose path is `at`). The path of each
 * visited field is kept as a stack of keys and only turned into text for a finding.
 */
export function checkIntegers(tree: Node, value: unknown, at: string, out: Finding[]): void {
  walk(tree, value, { at, keys: [], out });
}

interface Walk {
  readonly at: string;
  /** Property and map keys as strings, list items as their index (a number) or their name. */
  readonly keys: (string | number | { readonly name: string })[];
  readonly out: Finding[];
}

function walk(tree: Node, value: unknown, w: Walk): void {
  if (!isObject(value)) return;
  for (const c of tree.children) {
    if (c.map) {
      for (const key in value) {
        w.keys.push(key);
        visit(c, value[key], w);
        w.keys.pop();
      }
      continue;
    }
    const v = value[c.key];
    if (v === undefined || v === null) continue;
    w.keys.push(c.key);
    if (!c.list) {
      visit(c, v, w);
    } else if (Array.isArray(v)) {
      const byName = NAMED_LISTS.has(c.key);
      for (let i = 0; i < v.length; i++) {
        const name = byName ? v[i]?.name : undefined;
        w.keys.push(typeof name === 'string' && name !== '' ? { name } : i);
        visit(c, v[i], w);
        w.keys.pop();
      }
    }
    w.keys.pop();
  }
}

function visit(node: Node, value: unknown, w: Walk): void {
  if (node.field !== undefined && typeof value === 'number') checkInteger(node.field, value, w);
  if (node.children.length > 0) walk(node, value, w);
}

/** The text of the current path. */
function pathOf(w: Walk): string {
  let at = w.at;
  for (const key of w.keys) {
    at = typeof key === 'string' ? child(at, key) : typeof key === 'number' ? indexed(at, key) : `${at}[${key.name}]`;
  }
  return at;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
// 2^63: a double cannot hold int64's exact maximum; anything at or above 2^63 overflows.
const INT64_LIMIT = 2 ** 63;

/** Checks one number (other types are the schema check's). */
function checkInteger(field: IntegerField, value: number, w: Walk): void {
  const int32 = field.format === 'int32';
  const from = field.min ?? (int32 ? '-2147483648' : '-9223372036854775808');
  const to = field.max ?? (int32 ? '2147483647' : '9223372036854775807');
  const fits = int32 ? value >= INT32_MIN && value <= INT32_MAX : value >= -INT64_LIMIT && value < INT64_LIMIT;
  if (!Number.isInteger(value) || !fits) {
    (int32 ? INT32 : INT64).report(w.out, pathOf(w), value, `expected a whole number from ${from} to ${to} (${field.format})`);
  } else if ((field.min !== undefined && value < field.min) || (field.max !== undefined && value > field.max)) {
    INT_RANGE.report(w.out, pathOf(w), value, `expected a whole number from ${from} to ${to}`);
  }
}
