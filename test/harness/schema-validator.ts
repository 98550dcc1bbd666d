/**
 * The test harness's view of the library's strict schema validator (src/rules/schema): the
 * compact schemas of the pinned kinds, and their violations rendered tersely as
 * `<path>: <problem>`, which is what the tests assert. The library itself reports the same
 * violations as findings (`schemaFindings`).
 *
 * It is stricter than the API server in one way on purpose: unknown fields are errors (the server
 * prunes them silently, which is exactly how a typo goes unnoticed). CEL rules
 * (`x-kubernetes-validations`) are evaluated as on a create; integer formats are not (the API server
 * blanks them on custom resources).
 */
import { dumpManifests } from './manifest-dump';
import { kindSchema, pinnedKinds } from '../../src/rules/schema';
import type { SchemaNode } from '../../src/rules/schema/schema-node';
import { KindSchema, manifestViolations, violations } from '../../src/rules/schema/validator';
import type { Violation } from '../../src/rules/schema/violation';

export { join } from '../../src/rules/schema/checks';
export type { SchemaNode } from '../../src/rules/schema/schema-node';
export type { KindSchema } from '../../src/rules/schema/validator';

let cache: Map<string, KindSchema> | undefined;

/** Every compact schema, keyed by `apiVersion kind`. */
export function kindSchemas(): ReadonlyMap<string, KindSchema> {
  if (!cache) {
    cache = new Map();
    for (const key of pinnedKinds()) {
      const [apiVersion, kind] = key.split(' ');
      cache.set(key, kindSchema(apiVersion, kind)!);
    }
  }
  return cache;
}

/** The compact schema of a kind, or undefined when none is pinned. */
export function schemaFor(apiVersion: string, kind: string): KindSchema | undefined {
  return kindSchema(apiVersion, kind);
}

/** API groups that have at least one pinned schema: manifests of these groups must match one. */
export function schemaGroups(): ReadonlySet<string> {
  return new Set([...kindSchemas().values()].map(s => s.group));
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
  return manifestViolations(doc, found).map(terse);
}

/**
 * Validates `value` against one schema node; `at` is the path of `value` ('' for the root).
 * For tests that need a schema of their own (for example preserve-unknown-fields, which no pinned
 * CRD uses).
 */
export function validateAgainst(schema: SchemaNode, value: unknown, at = ''): string[] {
  return violations(schema, value, at).map(terse);
}

/** A violation as the tests read it: `<path>: <problem>`. */
function terse(v: Violation): string {
  const label = v.at === '' ? '(root)' : v.at;
  const p = v.problem;
  switch (p.kind) {
    case 'type': return `${label}: expected ${p.expected}, got ${describe(v.value)}`;
    case 'anyOf': return `${label}: ${describe(v.value)} matches none of the allowed forms`;
    case 'enum': return `${label}: ${JSON.stringify(v.value)} is not one of ${p.allowed.map(e => JSON.stringify(e)).join(', ')}`;
    case 'minLength': return `${label}: ${JSON.stringify(v.value)} is shorter than ${p.limit} characters`;
    case 'maxLength': return `${label}: ${JSON.stringify(v.value)} is longer than ${p.limit} characters`;
    case 'pattern': return `${label}: ${JSON.stringify(v.value)} does not match ${p.pattern}`;
    case 'minimum': return `${label}: ${v.value} is less than the minimum ${p.limit}`;
    case 'maximum': return `${label}: ${v.value} is greater than the maximum ${p.limit}`;
    case 'minItems': return `${label}: ${(v.value as unknown[]).length} items, at least ${p.limit} required`;
    case 'maxItems': return `${label}: ${(v.value as unknown[]).length} items, at most ${p.limit} allowed`;
    case 'minProperties': return `${label}: ${Object.keys(v.value as object).length} fields set, at least ${p.limit} required`;
    case 'maxProperties': return `${label}: ${Object.keys(v.value as object).length} fields set, at most ${p.limit} allowed`;
    case 'format': return `${label}: ${JSON.stringify(v.value)} is not a ${p.format}`;
    case 'duplicate': return `${label}: duplicate entry (${p.key}), first at index ${p.first}`;
    case 'required': return `${label}: required field missing`;
    case 'unknown': return `${label}: unknown field`;
    case 'rule': return `${label}: failed rule ${p.rule}${p.message ? ` (${p.message})` : ''}${p.error ? `: ${p.error}` : ''}`;
  }
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
  // Schema-valid sets go to the Go conformance run too (only when MANIFESTS_DUMP_DIR is set).
  dumpManifests(docs);
  return validated;
}
