/**
 * A strict validator for synthesized manifests against the compact CRD schemas in test/schemas.
 *
 * Hand-written rather than ajv: the schemas use a small, fixed set of keywords plus Kubernetes
 * extensions (int-or-string, preserve-unknown-fields, list-map keys), and a recursive walk names
 * every failing field with the same path a user would write (`containers[0].image`), which is what
 * makes a failing test readable.
 *
 * It is stricter than the API server in one way on purpose: unknown fields are errors (the server
 * prunes them silently, which is exactly how a typo goes unnoticed). CEL rules
 * (`x-kubernetes-validations`) and string formats are not evaluated.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The subset of a structural schema that the pinned CRDs use. */
export interface SchemaNode {
  readonly type?: string;
  readonly properties?: { readonly [name: string]: SchemaNode };
  readonly additionalProperties?: SchemaNode | boolean;
  readonly items?: SchemaNode;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly anyOf?: readonly SchemaNode[];
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly [key: string]: unknown;
}

/** One file of test/schemas. */
export interface KindSchema {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly scope: string;
  readonly schema: SchemaNode;
}

export const SCHEMA_DIR = path.join(__dirname, '..', 'schemas');

let cache: Map<string, KindSchema> | undefined;

/** Every compact schema, keyed by `apiVersion kind`; read once per test file. */
export function kindSchemas(): ReadonlyMap<string, KindSchema> {
  if (!cache) {
    cache = new Map();
    for (const file of fs.readdirSync(SCHEMA_DIR).filter(f => f.endsWith('.json')).sort()) {
      const s: KindSchema = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8'));
      cache.set(key(`${s.group}/${s.version}`, s.kind), s);
    }
  }
  return cache;
}

/** The compact schema of a kind, or undefined when none is pinned. */
export function schemaFor(apiVersion: string, kind: string): KindSchema | undefined {
  return kindSchemas().get(key(apiVersion, kind));
}

/** API groups that have at least one pinned schema: manifests of these groups must match one. */
export function schemaGroups(): ReadonlySet<string> {
  return new Set([...kindSchemas().values()].map(s => s.group));
}

function key(apiVersion: string, kind: string) {
  return `${apiVersion} ${kind}`;
}

/**
 * Validates one manifest against the pinned schema of its apiVersion and kind. Returns the errors,
 * each `<path>: <problem>`, in document order; an empty list means valid.
 */
export function validateManifest(doc: any): string[] {
  if (!isObject(doc)) return [`: expected a manifest object, got ${describe(doc)}`];
  const { apiVersion, kind } = doc;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return [': apiVersion and kind must be strings'];
  }
  const found = schemaFor(apiVersion, kind);
  if (!found) return [`: no pinned schema for apiVersion ${apiVersion} kind ${kind}`];

  const errors: string[] = [];
  // Top-level metadata is ObjectMeta, which the CRD does not describe; check only what every
  // manifest must have and what the API server rejects outright.
  const { metadata, ...rest } = doc;
  validateMetadata(metadata, errors);
  const schema: SchemaNode = { ...found.schema, properties: { ...found.schema.properties } };
  delete (schema.properties as any).metadata;
  validateNode(schema, { ...rest }, '', errors, { required: (schema.required ?? []).filter(r => r !== 'metadata') });
  return errors;
}

function validateMetadata(metadata: unknown, errors: string[]) {
  if (metadata === undefined || metadata === null) {
    errors.push('metadata: required field missing');
    return;
  }
  if (!isObject(metadata)) {
    errors.push(`metadata: expected object, got ${describe(metadata)}`);
    return;
  }
  if (typeof metadata.name !== 'string') {
    errors.push(metadata.name === undefined ? 'metadata.name: required field missing' : `metadata.name: expected string, got ${describe(metadata.name)}`);
  }
  for (const field of ['labels', 'annotations']) {
    const map = metadata[field];
    if (map === undefined || map === null) continue;
    if (!isObject(map)) {
      errors.push(`metadata.${field}: expected object, got ${describe(map)}`);
      continue;
    }
    for (const [k, v] of Object.entries(map)) {
      if (typeof v !== 'string') errors.push(`${join(`metadata.${field}`, k)}: expected string, got ${describe(v)}`);
    }
  }
}

/**
 * Validates `value` against one schema node; `at` is the path of `value` ('' for the root).
 * Exported for tests that need a schema of their own (for example preserve-unknown-fields, which no
 * pinned CRD uses).
 */
export function validateAgainst(schema: SchemaNode, value: unknown, at = ''): string[] {
  const errors: string[] = [];
  validateNode(schema, value, at, errors);
  return errors;
}

interface Overrides {
  readonly required?: readonly string[];
}

function validateNode(schema: SchemaNode, value: unknown, at: string, errors: string[], overrides: Overrides = {}): void {
  if (value === undefined) return;
  if (value === null) {
    if (!schema.nullable) errors.push(`${label(at)}: expected ${expectedType(schema)}, got null`);
    return;
  }

  if (schema['x-kubernetes-int-or-string'] === true) {
    if (!(typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))) {
      errors.push(`${label(at)}: expected integer or string, got ${describe(value)}`);
      return;
    }
  } else if (schema.anyOf) {
    if (!schema.anyOf.some(branch => validateAgainst(branch, value, at).length === 0)) {
      errors.push(`${label(at)}: ${describe(value)} matches none of the allowed forms`);
      return;
    }
  }

  if (schema.type && !hasType(schema.type, value)) {
    errors.push(`${label(at)}: expected ${schema.type}, got ${describe(value)}`);
    return;
  }

  if (schema.enum && !schema.enum.some(e => deepEqual(e, value))) {
    errors.push(`${label(at)}: ${JSON.stringify(value)} is not one of ${schema.enum.map(e => JSON.stringify(e)).join(', ')}`);
  }

  if (typeof value === 'string') checkString(schema, value, at, errors);
  else if (typeof value === 'number') checkNumber(schema, value, at, errors);
  else if (Array.isArray(value)) checkArray(schema, value, at, errors);
  else if (isObject(value)) checkObject(schema, value, at, errors, overrides);
}

function checkString(schema: SchemaNode, value: string, at: string, errors: string[]) {
  // Kubernetes counts characters (runes), not UTF-16 code units.
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push(`${label(at)}: ${JSON.stringify(value)} is shorter than ${schema.minLength} characters`);
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    errors.push(`${label(at)}: ${JSON.stringify(value)} is longer than ${schema.maxLength} characters`);
  }
  if (schema.pattern !== undefined && !regex(schema.pattern).test(value)) {
    errors.push(`${label(at)}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
  }
}

function checkNumber(schema: SchemaNode, value: number, at: string, errors: string[]) {
  if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) {
    errors.push(`${label(at)}: ${value} is less than the minimum ${schema.minimum}`);
  }
  if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) {
    errors.push(`${label(at)}: ${value} is greater than the maximum ${schema.maximum}`);
  }
}

function checkArray(schema: SchemaNode, value: unknown[], at: string, errors: string[]) {
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push(`${label(at)}: ${value.length} items, at least ${schema.minItems} required`);
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    errors.push(`${label(at)}: ${value.length} items, at most ${schema.maxItems} allowed`);
  }
  if (schema.items) value.forEach((item, i) => validateNode(schema.items!, item, `${at}[${i}]`, errors));
  checkListUniqueness(schema, value, at, errors);
}

/**
 * List-map and set lists reject duplicate entries on the server (duplicate container names,
 * volume names, mount paths), so a construct that adds the same volume twice must fail here too.
 */
function checkListUniqueness(schema: SchemaNode, value: unknown[], at: string, errors: string[]) {
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
      const what = keys ? `${keys.join(', ')} ${JSON.parse(id).map((v: unknown) => JSON.stringify(v)).join(', ')}` : JSON.stringify(item);
      errors.push(`${label(`${at}[${i}]`)}: duplicate entry (${what}), first at index ${first}`);
    } else {
      seen.set(id, i);
    }
  });
}

function checkObject(schema: SchemaNode, value: Record<string, unknown>, at: string, errors: string[], overrides: Overrides) {
  for (const name of overrides.required ?? schema.required ?? []) {
    // The server drops nulls before it checks required fields, so a null counts as missing.
    if (value[name] === undefined || (value[name] === null && !schema.properties?.[name]?.nullable)) {
      errors.push(`${join(at, name)}: required field missing`);
    }
  }
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const additional = schema.additionalProperties;
  // An embedded ObjectMeta without properties is free-form here, as it is on the server.
  const looseMetadata = lastSegment(at) === 'metadata' && !schema.properties && additional === undefined;
  for (const [name, sub] of Object.entries(value)) {
    const child = join(at, name);
    const declared = schema.properties?.[name];
    if (sub === null && !(declared ?? (typeof additional === 'object' ? additional : undefined))?.nullable) continue;
    if (declared) validateNode(declared, sub, child, errors);
    else if (typeof additional === 'object') validateNode(additional, sub, child, errors);
    else if (additional === true || preserve || looseMetadata) continue;
    else errors.push(`${child}: unknown field`);
  }
}

function hasType(type: string, value: unknown): boolean {
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

/** How a value reads in a message: its JSON type, and scalars with their value. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number') return `${Number.isInteger(value) ? 'integer' : 'number'} ${value}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const regexCache = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
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
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) return at ? `${at}.${name}` : name;
  return `${at}[${JSON.stringify(name)}]`;
}

function lastSegment(at: string): string {
  return at.replace(/\[\d+\]$/, '').split('.').pop() ?? '';
}

function label(at: string): string {
  return at === '' ? '(root)' : at;
}

/** Where a manifest came from, for messages: `Kind/name`. */
export function manifestLabel(doc: any): string {
  return `${doc?.kind ?? '(no kind)'}/${doc?.metadata?.name ?? '(no name)'}`;
}

export interface ExpectValidOptions {
  /**
   * Manifests of API groups that have no pinned schema (core `v1` objects a construct adds beside
   * its job, for instance) are skipped when true and are errors when false. Manifests of a pinned
   * group (kubeflow.org) must always match a pinned kind.
   * @default true
   */
  readonly skipOtherGroups?: boolean;
}

/**
 * Jest helper: throws one error listing every problem of every manifest, each line naming the
 * manifest (`Kind/name`) and the field path. Returns how many manifests were validated.
 */
export function expectValidManifests(docs: readonly any[], options: ExpectValidOptions = {}): number {
  const groups = schemaGroups();
  const problems: string[] = [];
  let validated = 0;
  docs.forEach((doc, i) => {
    const apiVersion: unknown = doc?.apiVersion;
    const group = typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    if ((options.skipOtherGroups ?? true) && !groups.has(group)) return;
    validated++;
    for (const e of validateManifest(doc)) problems.push(`${manifestLabel(doc)} (document ${i}): ${e}`);
  });
  if (problems.length > 0) {
    throw new Error(`${problems.length} schema error(s):\n${problems.map(p => `  ${p}`).join('\n')}`);
  }
  return validated;
}
