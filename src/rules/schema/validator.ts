/**
 * Strict validation of a manifest against the compact schema of its kind (generated from the pinned
 * CRDs by scripts/generate-l1.ts).
 *
 * Hand-written rather than a JSON-schema library: the schemas use a small, fixed set of keywords plus
 * Kubernetes extensions (int-or-string, preserve-unknown-fields, list-map keys), and a recursive walk
 * names every failing field with the path a user would write (`containers[0].image`).
 *
 * It is stricter than the API server in one way on purpose: unknown fields are errors (the server
 * prunes them silently, which is exactly how a typo or a patched-in field goes unnoticed). The CEL
 * rules (`x-kubernetes-validations`) are evaluated as on a create (./cel.ts): on the value with the
 * schema's defaults filled in, transition rules skipped. Of the string formats, the pinned CRDs use
 * `date-time` only, which is checked as the API server checks it; integer formats (int32, int64) the
 * API server blanks on custom resources, so they are not checked here.
 *
 * The walk yields violations (what is wrong, as data); `toFinding` turns one into the library's
 * Finding, and the test harness renders the same violations in its own terser form.
 */
import { distance } from '../../util/nearest';
import { Finding } from '../finding';
import { CelError, CelRule, evaluate } from './cel';
import { QuickCheck, quickCheck } from './quick-check';

/** The subset of a structural schema that the pinned CRDs use. */
export interface SchemaNode {
  readonly 'type'?: string;
  readonly 'properties'?: { readonly [name: string]: SchemaNode };
  readonly 'additionalProperties'?: SchemaNode | boolean;
  readonly 'items'?: SchemaNode;
  readonly 'required'?: readonly string[];
  readonly 'enum'?: readonly unknown[];
  readonly 'pattern'?: string;
  readonly 'minimum'?: number;
  readonly 'maximum'?: number;
  readonly 'exclusiveMinimum'?: boolean;
  readonly 'exclusiveMaximum'?: boolean;
  readonly 'minItems'?: number;
  readonly 'maxItems'?: number;
  readonly 'minLength'?: number;
  readonly 'maxLength'?: number;
  readonly 'minProperties'?: number;
  readonly 'maxProperties'?: number;
  readonly 'format'?: string;
  readonly 'anyOf'?: readonly SchemaNode[];
  readonly 'nullable'?: boolean;
  readonly 'default'?: unknown;
  readonly 'x-kubernetes-validations'?: readonly CelRule[];
  readonly [key: string]: unknown;
}

/** The compact schema of one kind. */
export interface KindSchema {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly scope: string;
  readonly schema: SchemaNode;
}

/** What is wrong with one value. */
export type Problem =
  | { readonly kind: 'type'; readonly expected: string }
  | { readonly kind: 'anyOf' }
  | { readonly kind: 'enum'; readonly allowed: readonly unknown[] }
  | { readonly kind: 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties'; readonly limit: number }
  | { readonly kind: 'format'; readonly format: string }
  | { readonly kind: 'minimum' | 'maximum'; readonly limit: number; readonly exclusive: boolean }
  | { readonly kind: 'pattern'; readonly pattern: string }
  | { readonly kind: 'duplicate'; readonly key: string; readonly first: number }
  | { readonly kind: 'required' }
  | { readonly kind: 'rule'; readonly rule: string; readonly message?: string; readonly error?: string }
  | { readonly kind: 'unknown'; readonly name: string; readonly known: readonly string[] };

/** One violation: where (a document path, '' for the root), the value found there, and the problem. */
export interface Violation {
  readonly at: string;
  readonly value: unknown;
  readonly problem: Problem;
}

/** The rule id of every finding of this validator. */
export const SCHEMA_RULE = 'crd/schema';

/**
 * The violations of one manifest against its kind's schema, in document order. Top-level metadata
 * is ObjectMeta, which the CRD does not describe: only what every manifest must have and what the
 * API server rejects outright is checked there. `quick: false` skips the quick check (quick-check.ts)
 * and always walks the whole document, for the test that holds the two together.
 */
export function manifestViolations(doc: { readonly [key: string]: unknown }, kind: KindSchema, quick = true): Violation[] {
  const out: Violation[] = [];
  const { metadata, ...rest } = doc;
  metadataViolations(metadata, out);
  const { schema, required, rootRules, conforms } = rootSchema(kind);
  // Nearly every document conforms: the quick check says so without building a path per field,
  // and only a document it refuses is walked again to say what is wrong.
  if (!quick || !conforms(rest)) visit(schema, rest, '', out, required);
  // Rules on the whole object read metadata too (a TrainJob's name), which the walk leaves out.
  if (rootRules && isObject(metadata)) checkRules(rootRules, doc, '', out);
  return out;
}

interface RootSchema {
  /** The kind's schema without metadata and without the rules on the whole object. */
  readonly schema: SchemaNode;
  readonly required: readonly string[];
  /** The kind's schema with its rules on the whole object only, or undefined when it has none. */
  readonly rootRules?: SchemaNode;
  /** The quick check of `schema` with `required`. */
  readonly conforms: QuickCheck;
}

/**
 * The parts of a kind's schema the walk of a manifest starts from, made once per kind: the kind
 * schemas are constants (the generated modules), and building these for every manifest copied
 * the root's property table and deleted a key from it, for every document of a synth.
 */
const rootSchemas = new WeakMap<KindSchema, RootSchema>();

function rootSchema(kind: KindSchema): RootSchema {
  let root = rootSchemas.get(kind);
  if (!root) {
    const properties = { ...kind.schema.properties };
    delete properties.metadata;
    const { 'x-kubernetes-validations': rules, ...schema } = { ...kind.schema, properties };
    const required = (schema.required ?? []).filter(r => r !== 'metadata');
    root = {
      schema,
      required,
      rootRules: rules ? { ...kind.schema, 'x-kubernetes-validations': rules } : undefined,
      conforms: quickCheck(schema, false, required),
    };
    rootSchemas.set(kind, root);
  }
  return root;
}


/** The violations of `value` against one schema node; `at` is the path of `value` ('' for the root). */
export function violations(schema: SchemaNode, value: unknown, at = ''): Violation[] {
  const out: Violation[] = [];
  visit(schema, value, at, out);
  return out;
}

/** A violation as the library's finding: `<field> is <value>; expected <what is allowed>`. */
export function toFinding(v: Violation): Finding {
  return { field: v.at === '' ? '(root)' : v.at, value: v.value, allowed: allowedText(v.problem), rule: SCHEMA_RULE };
}

function allowedText(p: Problem): string {
  switch (p.kind) {
    case 'type': return `expected ${p.expected === 'integer or string' ? 'an integer or a string' : `a value of type ${p.expected}`}`;
    case 'anyOf': return 'expected a value of one of the forms the CRD allows';
    case 'enum': return `expected one of ${p.allowed.map(e => JSON.stringify(e)).join(', ')}`;
    case 'minLength': return `expected at least ${count(p.limit, 'character')}`;
    case 'maxLength': return `expected at most ${count(p.limit, 'character')}`;
    case 'minItems': return `expected at least ${count(p.limit, 'item')}`;
    case 'maxItems': return `expected at most ${count(p.limit, 'item')}`;
    case 'minProperties': return `expected at least ${count(p.limit, 'field')} set`;
    case 'maxProperties': return `expected at most ${count(p.limit, 'field')} set`;
    case 'format': return `expected a ${p.format} string (RFC 3339, such as 2024-01-31T12:00:00Z)`;
    case 'minimum': return p.exclusive ? `expected more than ${p.limit}` : `expected at least ${p.limit}`;
    case 'maximum': return p.exclusive ? `expected less than ${p.limit}` : `expected at most ${p.limit}`;
    case 'pattern': return `expected a string matching ${p.pattern}`;
    case 'duplicate': return `expected entries with distinct ${p.key} (the same as the entry at index ${p.first})`;
    case 'required': return 'expected a value (the CRD requires this field)';
    case 'rule': {
      const what = p.message ?? `failed rule: ${p.rule}`;
      const error = p.error === undefined ? '' : `; the rule could not be evaluated (${p.error}), which the API server refuses too`;
      return `expected a value the CRD's validation rule accepts: ${what} (x-kubernetes-validations: ${p.rule})${error}`;
    }
    case 'unknown': {
      const near = nearest(p.known, p.name);
      return `expected only fields the pinned CRD declares${near ? ` (did you mean "${near}"?)` : ''}`;
    }
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The known name closest to `name`, if it is close enough to be a typo (case, or a few letters). */
function nearest(known: readonly string[], name: string): string | undefined {
  if (!name) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = k.toLowerCase() === name.toLowerCase() ? 0 : distance(k, name);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(name.length / 4)) ? best : undefined;
}

function metadataViolations(metadata: unknown, out: Violation[]) {
  if (metadata === undefined || metadata === null) {
    out.push({ at: 'metadata', value: undefined, problem: { kind: 'required' } });
    return;
  }
  if (!isObject(metadata)) {
    out.push({ at: 'metadata', value: metadata, problem: { kind: 'type', expected: 'object' } });
    return;
  }
  if (typeof metadata.name !== 'string') {
    out.push({ at: 'metadata.name', value: metadata.name, problem: metadata.name === undefined ? { kind: 'required' } : { kind: 'type', expected: 'string' } });
  }
  for (const field of ['labels', 'annotations']) {
    const map = metadata[field];
    if (map === undefined || map === null) continue;
    if (!isObject(map)) {
      out.push({ at: `metadata.${field}`, value: map, problem: { kind: 'type', expected: 'object' } });
      continue;
    }
    for (const [k, v] of Object.entries(map)) {
      if (typeof v !== 'string') out.push({ at: join(`metadata.${field}`, k), value: v, problem: { kind: 'type', expected: 'string' } });
    }
  }
}

function visit(schema: SchemaNode, value: unknown, at: string, out: Violation[], required?: readonly string[]): void {
  if (value === undefined) return;
  if (value === null) {
    if (!schema.nullable) out.push({ at, value, problem: { kind: 'type', expected: expectedType(schema) } });
    return;
  }

  if (schema['x-kubernetes-int-or-string'] === true) {
    if (!(typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))) {
      out.push({ at, value, problem: { kind: 'type', expected: 'integer or string' } });
      return;
    }
  } else if (schema.anyOf) {
    if (!schema.anyOf.some(branch => violations(branch, value, at).length === 0)) {
      out.push({ at, value, problem: { kind: 'anyOf' } });
      return;
    }
  }

  if (schema.type && !hasType(schema.type, value)) {
    out.push({ at, value, problem: { kind: 'type', expected: schema.type } });
    return;
  }

  if (schema.enum && !enumHas(schema.enum, value)) {
    out.push({ at, value, problem: { kind: 'enum', allowed: schema.enum } });
  }

  if (typeof value === 'string') checkString(schema, value, at, out);
  else if (typeof value === 'number') checkNumber(schema, value, at, out);
  else if (Array.isArray(value)) checkArray(schema, value, at, out);
  else if (isObject(value)) checkObject(schema, value, at, out, required);
  if (schema['x-kubernetes-validations']) checkRules(schema, value, at, out);
}

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
  return { ...value, [name]: defaultsAlong(child, current, rest) };
}

/** A copy of `value` with every default its schema declares for a missing field filled in. */
function withDefaults(schema: SchemaNode, value: unknown): unknown {
  if (Array.isArray(value)) return schema.items ? value.map(v => withDefaults(schema.items!, v)) : value;
  if (!isObject(value)) return value;
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

function enumHas(allowed: readonly unknown[], value: unknown): boolean {
  const text = JSON.stringify(value);
  return allowed.some(e => JSON.stringify(e) === text);
}

function checkString(schema: SchemaNode, value: string, at: string, out: Violation[]) {
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    const length = runeLength(value);
    if (schema.minLength !== undefined && length < schema.minLength) out.push({ at, value, problem: { kind: 'minLength', limit: schema.minLength } });
    if (schema.maxLength !== undefined && length > schema.maxLength) out.push({ at, value, problem: { kind: 'maxLength', limit: schema.maxLength } });
  }
  if (schema.pattern !== undefined && !patternRegex(schema.pattern).test(value)) out.push({ at, value, problem: { kind: 'pattern', pattern: schema.pattern } });
  if (schema.format === 'date-time' && !isDateTime(value)) out.push({ at, value, problem: { kind: 'format', format: 'date-time' } });
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

function checkNumber(schema: SchemaNode, value: number, at: string, out: Violation[]) {
  if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) {
    out.push({ at, value, problem: { kind: 'minimum', limit: schema.minimum, exclusive: schema.exclusiveMinimum === true } });
  }
  if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) {
    out.push({ at, value, problem: { kind: 'maximum', limit: schema.maximum, exclusive: schema.exclusiveMaximum === true } });
  }
}

function checkArray(schema: SchemaNode, value: unknown[], at: string, out: Violation[]) {
  if (schema.minItems !== undefined && value.length < schema.minItems) out.push({ at, value, problem: { kind: 'minItems', limit: schema.minItems } });
  if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push({ at, value, problem: { kind: 'maxItems', limit: schema.maxItems } });
  if (schema.items) value.forEach((item, i) => visit(schema.items!, item, `${at}[${i}]`, out));
  checkListUniqueness(schema, value, at, out);
}

/**
 * List-map and set lists reject duplicate entries on the server (duplicate container names, volume
 * names, mount paths): apiserver's structural-schema list validation (`x-kubernetes-list-type`).
 */
function checkListUniqueness(schema: SchemaNode, value: unknown[], at: string, out: Violation[]) {
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== 'map' && listType !== 'set') return;
  const keys = listType === 'map' ? (schema['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [] : undefined;
  const seen = new Map<string, number>();
  value.forEach((item, i) => {
    let id: string;
    if (keys) {
      if (!isObject(item)) return;
      // A key the user left out takes its schema default (a port's protocol is TCP).
      id = JSON.stringify(keys.map(k => item[k] ?? schema.items?.properties?.[k]?.default ?? null));
    } else {
      id = JSON.stringify(item);
    }
    const first = seen.get(id);
    if (first !== undefined) {
      const key = keys ? `${keys.join(', ')} ${JSON.parse(id).map((v: unknown) => JSON.stringify(v)).join(', ')}` : JSON.stringify(item);
      out.push({ at: `${at}[${i}]`, value: item, problem: { kind: 'duplicate', key, first } });
    } else {
      seen.set(id, i);
    }
  });
}

function checkObject(schema: SchemaNode, value: Record<string, unknown>, at: string, out: Violation[], required?: readonly string[]) {
  if (schema.minProperties !== undefined || schema.maxProperties !== undefined) {
    const set = Object.values(value).filter(v => v !== undefined && v !== null).length;
    if (schema.minProperties !== undefined && set < schema.minProperties) out.push({ at, value, problem: { kind: 'minProperties', limit: schema.minProperties } });
    if (schema.maxProperties !== undefined && set > schema.maxProperties) out.push({ at, value, problem: { kind: 'maxProperties', limit: schema.maxProperties } });
  }
  for (const name of required ?? schema.required ?? []) {
    // The server drops nulls before it checks required fields, so a null counts as missing.
    if (value[name] === undefined || (value[name] === null && !schema.properties?.[name]?.nullable)) {
      out.push({ at: join(at, name), value: undefined, problem: { kind: 'required' } });
    }
  }
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const additional = schema.additionalProperties;
  // An embedded ObjectMeta without properties is free-form here, as it is on the server.
  // (The path is looked at last: splitting it for every object is most of a lint run's time.)
  const looseMetadata = !schema.properties && additional === undefined && lastSegment(at) === 'metadata';
  for (const [name, sub] of Object.entries(value)) {
    const child = join(at, name);
    const declared = schema.properties?.[name];
    if (sub === null && !(declared ?? (typeof additional === 'object' ? additional : undefined))?.nullable) continue;
    if (declared) visit(declared, sub, child, out);
    else if (typeof additional === 'object') visit(additional, sub, child, out);
    else if (additional === true || preserve || looseMetadata) continue;
    else out.push({ at: child, value: sub, problem: { kind: 'unknown', name, known: Object.keys(schema.properties ?? {}) } });
  }
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

function expectedType(schema: SchemaNode): string {
  if (schema['x-kubernetes-int-or-string'] === true) return 'integer or string';
  return schema.type ?? 'a value';
}

function isObject(value: unknown): value is Record<string, any> {
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

function lastSegment(at: string): string {
  return at.replace(/\[\d+\]$/, '').split('.').pop() ?? '';
}
