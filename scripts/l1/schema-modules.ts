import { createHash } from 'crypto';
import { compileCelRules } from './cel-rules';
import { CrdKind } from './crd-source';
import { specOf, topLevelFieldsOf } from './modules';
import { canonical } from './schema';
import { schemaChildren } from '../../src/rules/schema/shared-subtrees';

/** The module of the subtrees that several compact schemas share (src/rules/schema loads it first). */
export const SHARED_SUBTREES_FILE = 'shared.ts';

/**
 * The compact schemas the library validates manifests against (src/rules/schema/crds/): one
 * module per kind, the subtrees that occur more than once stored once in `shared.ts`, and a
 * catalogue that names the modules without loading them.
 */
export function schemaModules(kinds: readonly CrdKind[]): Map<string, string> {
  const compact = kinds.map(k => ({ kind: k, schema: compactSchema(k) }));
  const definitions = shareRepeatedSubtrees(compact.map(c => c.schema.schema));
  const files = new Map<string, string>();
  for (const { kind, schema } of compact) {
    files.set(`${schemaModuleName(kind)}.ts`, schemaModule(
      `The compact schema of ${kind.kind} (${kind.group}/${kind.version}), from upstream/crds/${kind.file}.`,
      "import type { KindSchema } from '../validator';",
      'SCHEMA: KindSchema',
      schema));
  }
  files.set(SHARED_SUBTREES_FILE, schemaModule(
    'The subtrees that several compact schemas (or several places of one) have in common, by name.',
    "import type { SchemaNode } from '../schema-node';",
    'DEFINITIONS: { readonly [name: string]: SchemaNode }',
    definitions));
  files.set('index.ts', catalogue(kinds));
  return files;
}

/** The schema module's name for a kind: `<group>_<version>_<kind>`. */
export function schemaModuleName(kind: { group: string; version: string; kind: string }): string {
  return `${kind.group}_${kind.version}_${kind.kind}`;
}

/**
 * A description-free copy of the kind's schema, without status (never written by a user), with
 * apiVersion and kind pinned to the kind's own values, its CEL rules parsed, its keys sorted.
 */
export function compactSchema(kind: CrdKind): { group: string; version: string; kind: string; scope: string; schema: any } {
  const schema = {
    type: 'object',
    required: ['apiVersion', 'kind', 'metadata', ...(kind.schema.required ?? []).filter(r => r !== 'metadata')],
    properties: {
      apiVersion: { type: 'string', enum: [`${kind.group}/${kind.version}`] },
      kind: { type: 'string', enum: [kind.kind] },
      metadata: { type: 'object' },
      // A kind without a spec (WorkloadPriorityClass) has its fields at the top.
      ...(topLevelFieldsOf(kind)?.properties ?? { spec: specOf(kind) }),
    },
    // The rules on the whole object (a TrainJob's name), which read metadata as the API server has it.
    ...(kind.schema['x-kubernetes-validations'] ? { 'x-kubernetes-validations': kind.schema['x-kubernetes-validations'] } : {}),
  };
  compileCelRules(schema, kind.kind);
  return { group: kind.group, version: kind.version, kind: kind.kind, scope: kind.scope, schema: JSON.parse(canonical(schema)) };
}

/** Subtrees shorter than this (as JSON) are left in place: a reference would save too little. */
const MIN_SHARED_LENGTH = 256;

/**
 * Replaces, in place, every subtree that occurs more than once (across all trees and inside the
 * shared subtrees themselves) with `{ "$ref": name }`, largest first, and returns the shared
 * subtrees by name. A name is a hash of the subtree's JSON, so that it does not depend on the order
 * of the kinds or change when an unrelated subtree does.
 */
function shareRepeatedSubtrees(trees: any[]): { [name: string]: unknown } {
  // Every subtree's JSON (the trees' keys are sorted, so equal subtrees give equal strings) and how
  // often it occurs, and for each, the subtrees inside it with their multiplicity.
  const counts = new Map<string, number>();
  const inside = new Map<string, Map<string, number>>();
  const describe = (node: any): Map<string, number> => {
    const below = new Map<string, number>();
    for (const [container, key] of schemaChildren(node)) {
      const json = JSON.stringify(container[key]);
      const childBelow = describe(container[key]);
      if (json.length < MIN_SHARED_LENGTH) continue;
      counts.set(json, (counts.get(json) ?? 0) + 1);
      inside.set(json, childBelow);
      below.set(json, (below.get(json) ?? 0) + 1);
      for (const [d, m] of childBelow) below.set(d, (below.get(d) ?? 0) + m);
    }
    return below;
  };
  for (const tree of trees) describe(tree);

  // Largest first: sharing a subtree leaves one copy of everything inside it, so the subtrees inside
  // lose the occurrences of the other copies before their own turn comes.
  const chosen = new Map<string, string>();
  const candidates = [...counts.keys()].sort((x, y) => y.length - x.length || (x < y ? -1 : 1));
  for (const json of candidates) {
    const n = counts.get(json)!;
    if (n < 2) continue;
    chosen.set(json, `s${createHash('sha256').update(json).digest('hex').slice(0, 12)}`);
    for (const [d, m] of inside.get(json)!) counts.set(d, counts.get(d)! - (n - 1) * m);
  }
  if (new Set(chosen.values()).size !== chosen.size) throw new Error('two shared schema subtrees have the same hash');

  const definitions: { [name: string]: unknown } = {};
  const replace = (node: any) => {
    for (const [container, key] of schemaChildren(node)) {
      const json = JSON.stringify(container[key]);
      const name = chosen.get(json);
      if (name === undefined) {
        replace(container[key]);
        continue;
      }
      if (definitions[name] === undefined) {
        const body = JSON.parse(json);
        replace(body);
        definitions[name] = body;
      }
      container[key] = { $ref: name };
    }
  };
  for (const tree of trees) replace(tree);
  return Object.fromEntries(Object.keys(definitions).sort().map(k => [k, definitions[k]]));
}

const HEADER = '// Generated by scripts/generate-l1.ts (`npx projen import`). Do not edit by hand.';

function schemaModule(what: string, importLine: string, declaration: string, value: unknown): string {
  return [
    HEADER,
    `// ${what}`,
    '/* eslint-disable */',
    importLine,
    '',
    // One string literal rather than an object literal: the compiled file and its source map stay
    // the size of the JSON (an object literal maps every token), and JSON.parse reads it faster.
    `export const ${declaration} = JSON.parse('${JSON.stringify(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}');`,
    '',
  ].join('\n');
}

/** The kinds that have a schema module; importing it does not load the schemas. */
function catalogue(kinds: readonly CrdKind[]): string {
  const entries = kinds.map(k => `  '${k.group}/${k.version} ${k.kind}': '${schemaModuleName(k)}',`).sort();
  return [
    HEADER,
    '',
    '/** The module below this folder that holds the compact schema of each pinned kind, by `apiVersion kind`. */',
    'export const SCHEMA_MODULES: { readonly [apiVersionKind: string]: string } = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}
