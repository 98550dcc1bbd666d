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
import { checkRules, hasType, isDateTime, isObject, join, patternRegex, runeLength } from './checks';
import { QuickCheck, quickCheck } from './quick-check';
import type { SchemaNode } from './schema-node';
import type { Problem, Violation } from './violation';

/** The compact schema of one kind. */
export interface KindSchema {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly scope: string;
  readonly schema: SchemaNode;
}

/** The rule id of every finding of this validator. */
export const SCHEMA_RULE = 'library/schema';

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

function expectedType(schema: SchemaNode): string {
  if (schema['x-kubernetes-int-or-string'] === true) return 'integer or string';
  return schema.type ?? 'a value';
}

function lastSegment(at: string): string {
  return at.replace(/\[\d+\]$/, '').split('.').pop() ?? '';
}
