/**
 * What the full walk (validator.ts) and the quick check (quick-check.ts) both need: the tests of one
 * value against one keyword, the CEL rules of a node, and how a field's path is written.
 */
import { CelError, evaluate } from './cel';
import type { SchemaNode } from './schema-node';
import type { Problem, Violation } from './violation';

/**
 * The node's CEL rules, on the value as the API server has it when it validates: with the schema's
 * defaults filled in. Transition rules (`oldSelf`) apply to updates only and are skipped.
 */
export function checkRules(schema: SchemaNode, value: unknown, at: string, out: Violation[]) {
  let whole: unknown;
  for (const r of schema['x-kubernetes-validations'] ?? []) {
    if (r.expr === undefined) continue;
    // A rule that reads one field needs the defaults on the way to it only (a TrainJob's name rule
    // would otherwise copy the whole job).
    const self = r.field === undefined ? (whole ??= withDefaults(schema, value)) : defaultsAlong(schema, value, r.field.split('.'));
    const result = evaluate(r.expr, self);
    if (result === true) continue;
    const error = result instanceof CelError ? { error: result.message } : result === false ? {} : { error: 'the rule gave a value that is not a boolean' };
    const problem: Problem = { kind: 'rule', rule: r.rule, ...(r.message === undefined ? {} : { message: r.message }), ...error };
    if (r.field === undefined) out.push({ at, value, problem });
    else out.push({ at: r.field.split('.').reduce(join, at), value: fieldValue(self, r.field), problem });
  }
}

function fieldValue(value: unknown, dotted: string): unknown {
  let v = value;
  for (const name of dotted.split('.')) v = isObject(v) ? v[name] : undefined;
  return v;
}

/** `value` with the defaults filled in along one path of fields, and below its end; the rest as it is. */
function defaultsAlong(schema: SchemaNode, value: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return withDefaults(schema, value);
  if (!isObject(value)) return value;
  const [name, ...rest] = path;
  const child = schema.properties?.[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
  const current = value[name] === undefined ? child?.default : value[name];
  if (current === undefined || child === undefined) return value;
  const defaulted = defaultsAlong(child, current, rest);
  // Nothing to fill in (a field that is there, with no defaults below): the value as it is, uncopied.
  return defaulted === value[name] ? value : { ...value, [name]: defaulted };
}

/** A copy of `value` with every default its schema declares for a missing field filled in. */
function withDefaults(schema: SchemaNode, value: unknown): unknown {
  if (Array.isArray(value)) return schema.items ? value.map(v => withDefaults(schema.items!, v)) : value;
  if (!isObject(value)) return value;
  if (schema.properties === undefined && typeof schema.additionalProperties !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(value)) {
    const child = schema.properties?.[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    out[name] = child ? withDefaults(child, sub) : sub;
  }
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (out[name] === undefined && child.default !== undefined) out[name] = withDefaults(child, child.default);
  }
  return out;
}


/** Kubernetes counts characters (runes), not UTF-16 code units (the same unless there are surrogate pairs). */
export function runeLength(value: string): number {
  return /[\uD800-\uDFFF]/.test(value) ? [...value].length : value.length;
}


const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;

/**
 * The API server's date-time format (kube-openapi strfmt IsDateTime): a calendar date, `t` (any
 * case), a time of day with optional fraction, and `z` or an offset.
 */
export function isDateTime(value: string): boolean {
  const parts = value.toLowerCase().split('t');
  if (value.length < 4 || parts.length < 2) return false;
  const date = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(parts[0]);
  if (!date) return false;
  const [year, month, day] = date.slice(1).map(Number);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return false;
  const time = TIME_OF_DAY.exec(parts[1]);
  return time !== null && time[1] <= '23' && time[2] <= '59' && time[3] <= '59';
}


export function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'boolean': return typeof value === 'boolean';
    case 'array': return Array.isArray(value);
    case 'object': return isObject(value);
    default: throw new Error(`schema type ${JSON.stringify(type)} is not supported by the validator`);
  }
}


export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}


const regexCache = new Map<string, RegExp>();
/** A schema pattern as a regular expression (Unicode mode), made once per pattern. */
export function patternRegex(pattern: string): RegExp {
  let r = regexCache.get(pattern);
  if (!r) {
    r = new RegExp(pattern, 'u');
    regexCache.set(pattern, r);
  }
  return r;
}


/**
 * Appends a field or map key to a path. Keys that are not plain identifiers (label keys such as
 * `sidecar.istio.io/inject`) are quoted in brackets so the path stays unambiguous.
 */
export function join(at: string, name: string): string {
  if (isPlainName(name)) return at ? `${at}.${name}` : name;
  return `${at}[${JSON.stringify(name)}]`;
}

/** Field names repeat in every document, so the test of each is remembered. */
const plainNames = new Map<string, boolean>();
function isPlainName(name: string): boolean {
  let plain = plainNames.get(name);
  if (plain === undefined) {
    plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name);
    if (plainNames.size < 10_000) plainNames.set(name, plain);
  }
  return plain;
}

