/**
 * Strict schema findings for the manifests of the kinds whose CRDs are pinned. The compact schemas
 * are generated modules under ./crds (about 80 KiB, most of it the subtrees the kinds share), loaded
 * on first use of a kind so that loading the library does not parse them.
 */
import { SCHEMA_MODULES } from './crds';
import { inflate } from './shared-subtrees';
import { KindSchema, manifestViolations, toFinding } from './validator';
import type { Violation } from './violation';

export type { Violation } from './violation';
export { toFinding } from './validator';
import { Finding } from '../finding';

const loaded = new Map<string, KindSchema>();
/** The shared subtrees, read with the first schema; completed ones are reused by every kind. */
let shared: { readonly definitions: { readonly [name: string]: unknown }; readonly done: Map<string, unknown> } | undefined;

/** The compact schema of a kind, or undefined when none is pinned. */
export function kindSchema(apiVersion: string, kind: string): KindSchema | undefined {
  const key = `${apiVersion} ${kind}`;
  const file = SCHEMA_MODULES[key];
  if (file === undefined) return undefined;
  let schema = loaded.get(key);
  if (!schema) {
    // Plain requires so that each kind's schema is read only when a manifest of that kind is checked.
    if (!shared) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      shared = { definitions: require('./crds/shared').DEFINITIONS, done: new Map() };
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const compact: KindSchema = require(`./crds/${file}`).SCHEMA;
    schema = { ...compact, schema: inflate(compact.schema, shared.definitions, shared.done) };
    loaded.set(key, schema);
  }
  return schema;
}

/** Every pinned kind as `apiVersion kind`, sorted. */
export function pinnedKinds(): string[] {
  return Object.keys(SCHEMA_MODULES).sort();
}

/**
 * The findings of strict validation of one manifest against its kind's pinned schema (rule
 * `library/schema`), in document order; undefined when no schema is pinned for its apiVersion and kind.
 * Unknown fields are findings: the API server would prune them without a word.
 */
export function schemaFindings(doc: any): Finding[] | undefined {
  return schemaViolations(doc)?.map(toFinding);
}

/**
 * The violations behind `schemaFindings`, as data (where, the value, the problem), for callers that
 * treat one kind of problem apart (the engine hints at EscapeHatch for unknown fields).
 */
export function schemaViolations(doc: any): Violation[] | undefined {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  if (typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string') return undefined;
  const schema = kindSchema(doc.apiVersion, doc.kind);
  if (!schema) return undefined;
  return manifestViolations(doc, schema);
}
