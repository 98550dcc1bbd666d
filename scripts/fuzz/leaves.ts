/**
 * The leaves of a kind's schema and the values the leaf fuzzer writes into them
 * (scripts/leaf-fuzz.ts). Pure functions of the schema and the seed document, so that a seed and a
 * budget always give the same documents.
 */
import { keyLandingOf, Landing, landingMutations, landingOf } from './landings';
import type { SchemaNode } from '../../src/rules/schema/schema-node';
import type { KindSchema } from '../../src/rules/schema/validator';

/** One step from a node to a child: a property, the first list item, a map value, or a map key. */
type Step = { readonly prop: string } | { readonly item: true } | { readonly value: true } | { readonly key: true };

/**
 * A leaf path of one kind: `spec.x[].y.*` (list items `[]`, map values `*`, map keys `{key}`) and
 * its schema node.
 */
export interface FuzzLeaf {
  readonly kindKey: string;
  readonly path: string;
  readonly steps: readonly Step[];
  /** The schema nodes along the steps, the leaf's last (a map key's: a string). */
  readonly nodes: readonly SchemaNode[];
  /** The type of the derived object's field the leaf lands in (fuzz/landings.ts), if it lands in one. */
  readonly landing?: Landing;
}

/** A value to write into a leaf and the name of what it tries. */
export interface Mutation {
  readonly name: string;
  readonly value: unknown;
  /** A boundary value the field's own rules allow (the longest, the largest). */
  readonly mustAccept?: boolean;
}

/** One library verdict: the rule ids of the findings (sorted, unique), or the error that stopped it. */
export interface LibraryVerdict {
  readonly refused: boolean;
  readonly rules: string[];
  readonly messages: string[];
  readonly error?: string;
}

/** What the generator writes per document. */
export interface FuzzCase {
  readonly file: string;
  readonly kind: string;
  readonly path: string;
  readonly concrete: string;
  readonly mutation: string;
  readonly value: unknown;
  readonly mustAccept: boolean;
  readonly lint: LibraryVerdict;
  readonly constructs: LibraryVerdict;
}

/** Metadata fields every document has and `lint` reads (the compact schemas leave metadata open). */
const METADATA: Array<[string, SchemaNode]> = [
  ['name', { type: 'string' }],
  ['namespace', { type: 'string' }],
  ['labels', { type: 'object', additionalProperties: { type: 'string' } }],
  ['annotations', { type: 'object', additionalProperties: { type: 'string' } }],
];

/**
 * Every leaf path of a kind: nodes without properties, list items or map values, under `spec` and
 * the metadata fields above. `apiVersion` and `kind` are the document's identity, not a field.
 */
export function leafPaths(schema: KindSchema, seed: any): FuzzLeaf[] {
  const kindKey = `${schema.group}/${schema.version} ${schema.kind}`;
  const out: FuzzLeaf[] = [];
  const metadata: SchemaNode = { type: 'object', properties: Object.fromEntries(METADATA) };
  walk(metadata, 'metadata', [{ prop: 'metadata' }], [metadata], kindKey, out);
  const spec = schema.schema.properties?.spec;
  if (spec) walk(spec, 'spec', [{ prop: 'spec' }], [spec], kindKey, out);
  void seed;
  return out;
}

function walk(node: SchemaNode, at: string, steps: Step[], nodes: SchemaNode[], kindKey: string, out: FuzzLeaf[]): void {
  const props = node.properties ? Object.entries(node.properties) : [];
  const values = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
  const kind = kindKey.split(' ')[1];
  if (props.length === 0 && !node.items && !values) {
    const landing = landingOf(kind, at);
    out.push({ kindKey, path: at, steps, nodes, ...(landing ? { landing } : {}) });
    return;
  }
  for (const [name, sub] of props) walk(sub, `${at}.${name}`, [...steps, { prop: name }], [...nodes, sub], kindKey, out);
  if (node.items) walk(node.items, `${at}[]`, [...steps, { item: true }], [...nodes, node.items], kindKey, out);
  if (values) walk(values, `${at}.*`, [...steps, { value: true }], [...nodes, values], kindKey, out);
  // A map whose keys land in a derived object (label keys, resource names): its key is a leaf too.
  const keyLanding = values ? keyLandingOf(kind, at) : undefined;
  if (keyLanding) out.push({ kindKey, path: `${at}.{key}`, steps: [...steps, { key: true }], nodes: [...nodes, { type: 'string' }], landing: keyLanding });
}

/**
 * The order paths are fuzzed in: a stride through all of them (so that one run's window spans
 * every kind), entered at the seed's window. The seed names a slot (a YYYYMMDD date is its day
 * since 1970-01-01, any other integer itself), and slot k starts `width` paths after slot k - 1 in
 * the stride, so successive days (or seeds) fuzz successive windows and the windows tile every
 * path before any repeats. Two runs with one seed fuzz the same paths.
 *
 * @param n how many paths there are
 * @param seed the run's seed
 * @param width the paths one run fuzzes (about its budget over the mutations per path)
 */
export function rotation(n: number, seed: number, width = 1): number[] {
  if (n === 0) return [];
  let stride = 7919; // a prime: coprime with n unless n is a multiple of it
  while (gcd(stride, n) !== 1) stride += 2;
  const start = mod(mod(seedSlot(seed), n) * mod(width, n), n);
  return Array.from({ length: n }, (_, i) => (((start + i) % n) * stride) % n);
}

/** The window a seed names: a YYYYMMDD date's day number since 1970-01-01, else the seed itself. */
export function seedSlot(seed: number): number {
  const text = String(seed);
  if (/^\d{8}$/.test(text)) {
    const [y, m, d] = [Number(text.slice(0, 4)), Number(text.slice(4, 6)), Number(text.slice(6, 8))];
    const day = Date.UTC(y, m - 1, d);
    // Only a real calendar date counts as one (Date.UTC rolls 20261340 over into 2027).
    if (new Date(day).getUTCMonth() === m - 1 && new Date(day).getUTCDate() === d) return day / 86_400_000;
  }
  return seed;
}

/** The seed given by `LEAF_FUZZ_SEED`, else in CI (`CI` set) the UTC date as YYYYMMDD, else the fixed default. */
export function fuzzSeed(env: NodeJS.ProcessEnv, now: Date): { seed: number; from: string } {
  const given = env.LEAF_FUZZ_SEED;
  if (given !== undefined && given !== '') {
    if (!/^\d{1,15}$/.test(given.trim())) throw new Error(`leaf-fuzz: LEAF_FUZZ_SEED is "${given}"; expected a whole number such as 20261202`);
    return { seed: Number(given.trim()), from: 'LEAF_FUZZ_SEED' };
  }
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false') {
    const date = now.toISOString().slice(0, 10).replace(/-/g, '');
    return { seed: Number(date), from: 'the UTC date (CI)' };
  }
  return { seed: DEFAULT_FUZZ_SEED, from: 'the default' };
}

/** The seed of a run outside CI with no LEAF_FUZZ_SEED: the same window every time. */
export const DEFAULT_FUZZ_SEED = 20261202;

/** The one command that runs a seed's window again. */
export function replayCommand(seed: number, budget: number): string {
  return `LEAF_FUZZ_SEED=${seed}${budget === DEFAULT_FUZZ_BUDGET ? '' : ` FUZZ_BUDGET=${budget}`} npx projen test:conformance`;
}

/** Documents one run writes unless FUZZ_BUDGET says otherwise. */
export const DEFAULT_FUZZ_BUDGET = 3000;

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** A value each node accepts: its default, its first enum value, else the least its type allows. */
export function baseValue(node: SchemaNode): unknown {
  if (node.default !== undefined) return node.default;
  if (node.enum && node.enum.length > 0) return node.enum[0];
  if (node['x-kubernetes-int-or-string'] === true) return isQuantity(node) ? '1' : 1;
  switch (node.type) {
    case 'integer':
    case 'number': return Math.max(node.minimum ?? 1, 1);
    case 'boolean': return false;
    case 'array': return (node.minItems ?? 0) > 0 && node.items ? [baseValue(node.items)] : [];
    case 'object': return filled(node);
    default: return 'fuzz';
  }
}

/**
 * Fields the validators require beyond the schema, at a value they accept: a container the fuzzer
 * adds needs an image, a mount an absolute path (Kubernetes), a TrainJob's runtime patch a
 * domain-prefixed manager (the Trainer's webhook). Without them the base document is refused
 * before the leaf's value matters.
 */
const KUBERNETES_BASE: { [field: string]: unknown } = { image: 'fuzz:1', mountPath: '/fuzz', manager: 'fuzz.example.io/fuzz' };

/**
 * The key of a map the fuzzer adds an entry to: a resource name Kubernetes knows where the values
 * are quantities (`storage` in a claim's, `cpu` elsewhere), else `fuzz-key`, a valid label key.
 */
function baseKey(leaf: FuzzLeaf, step: number): string {
  // A map value's node is the step's; a map key's step has a string node, its map the one before.
  const parent = leaf.nodes[step - 1]?.additionalProperties;
  const values = 'key' in leaf.steps[step] ? (typeof parent === 'object' ? parent : undefined) : leaf.nodes[step];
  if (values?.['x-kubernetes-int-or-string'] === true && isQuantity(values)) {
    return /volumeClaimTemplate|volumeClaimPolicies|\.templates\[\]/.test(leaf.path) ? 'storage' : 'cpu';
  }
  return 'fuzz-key';
}

/** An object with each required property at its base value (and an image when it is a container). */
function filled(node: SchemaNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of node.required ?? []) {
    const sub = node.properties?.[name];
    if (sub) out[name] = KUBERNETES_BASE[name] ?? baseValue(sub);
  }
  // A container (a name and an image string; a volume's image is an object, an image volume source).
  if (node.properties?.image?.type === 'string' && node.properties?.name && out.image === undefined) out.image = KUBERNETES_BASE.image;
  return out;
}

/**
 * A leaf's place in one document: the document with every container on the way present, and the
 * concrete path (`spec.x[0].y.Worker`). For a map key, the path ends at the key the fuzzer
 * renames (the map's first, else `fuzz-key`), and `keyOf` holds the map's value node.
 */
export interface Materialized {
  readonly doc: any;
  readonly concrete: Array<string | number>;
  readonly keyOf?: SchemaNode;
}

/**
 * A copy of the seed with every container on the leaf's path present (required siblings at their
 * base value), and the leaf's concrete path (`spec.x[0].y.Worker`).
 */
export function materialize(seed: any, leaf: FuzzLeaf): Materialized | undefined {
  const doc = JSON.parse(JSON.stringify(seed));
  const concrete: Array<string | number> = [];
  let here: any = doc;
  for (let i = 0; i < leaf.steps.length; i++) {
    const step = leaf.steps[i];
    const node = leaf.nodes[i];
    const last = i === leaf.steps.length - 1;
    let key: string | number;
    if ('prop' in step) {
      if (typeof here !== 'object' || here === null || Array.isArray(here)) return undefined;
      key = step.prop;
    } else if ('item' in step) {
      if (!Array.isArray(here)) return undefined;
      key = 0;
    } else {
      if (typeof here !== 'object' || here === null || Array.isArray(here)) return undefined;
      key = Object.keys(here).sort()[0] ?? baseKey(leaf, i);
    }
    concrete.push(key);
    if (last && 'key' in step) {
      const map = leaf.nodes[i - 1];
      return { doc, concrete, keyOf: typeof map.additionalProperties === 'object' ? map.additionalProperties : { type: 'string' } };
    }
    if (last) break;
    if (here[key] === undefined || here[key] === null) {
      here[key] = node.type === 'array' || leaf.steps[i + 1] && 'item' in leaf.steps[i + 1] ? [] : filled(node);
    }
    if (Array.isArray(here[key]) && here[key].length === 0) {
      const items = leaf.nodes[i + 1];
      here[key].push(items.type === 'object' || items.properties ? filled(items) : baseValue(items));
    }
    here = here[key];
  }
  return { doc, concrete };
}

/** A copy of `doc` with `value` at `at`. */
export function setAt(doc: any, at: ReadonlyArray<string | number>, value: unknown): any {
  const copy = JSON.parse(JSON.stringify(doc));
  let here = copy;
  for (const key of at.slice(0, -1)) here = here[key];
  here[at[at.length - 1]] = value;
  return copy;
}

/**
 * The document with a mutation's value at the leaf: the value itself, or for a map key, the map's
 * entry under the value as its key (the entry's value kept, else the map's base value).
 */
export function applyMutation(base: Materialized, value: unknown): any {
  if (!base.keyOf) return setAt(base.doc, base.concrete, value);
  const copy = JSON.parse(JSON.stringify(base.doc));
  let map = copy;
  for (const key of base.concrete.slice(0, -1)) map = map[key];
  const old = base.concrete[base.concrete.length - 1];
  const entry = map[old] ?? baseValue(base.keyOf);
  delete map[old];
  map[String(value)] = entry;
  return copy;
}

/** `spec.x[0].y` from the concrete keys; a map key's leaf ends in `{<key>}` (`metadata.labels.{app}`). */
export function concretePath(at: ReadonlyArray<string | number>, base?: Materialized): string {
  const keys = base?.keyOf ? [...at.slice(0, -1), `{${at[at.length - 1]}}`] : at;
  return keys.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p ? `${p}.${k}` : k), '');
}

function isQuantity(node: SchemaNode): boolean {
  return typeof node.pattern === 'string' && node.pattern.includes('[KMGTPE]i');
}

/** Last property name on the path (`containerPort`), for what Kubernetes checks beyond the schema. */
function fieldName(leaf: FuzzLeaf): string {
  const props = leaf.steps.filter((s): s is { prop: string } => 'prop' in s);
  return props[props.length - 1]?.prop ?? '';
}

function matches(pattern: string | undefined, value: string): boolean {
  if (pattern === undefined) return true;
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}

/** Kubernetes' port fields: 1-65535. */
const PORTS = new Set(['containerPort', 'hostPort', 'port']);
/** Names Kubernetes checks as DNS-1123 labels or subdomains, by field name. */
const NAME_FIELD = /(^name$|Name$)/;

/**
 * The values tried on one leaf, by its type and bounds: invalid ones (too long, out of range,
 * wrong pattern, empty, unknown enum value, wrong type) and one boundary value that fits.
 */
export function mutationsFor(leaf: FuzzLeaf): Mutation[] {
  const node = leaf.nodes[leaf.nodes.length - 1];
  const name = fieldName(leaf);
  const out: Mutation[] = [];
  const add = (m: Mutation) => {
    if (!out.some(o => o.name === m.name)) out.push(m);
  };
  // A map key has only the rules of where it lands (a YAML key is always a string).
  if (leaf.steps.length > 0 && 'key' in leaf.steps[leaf.steps.length - 1]) return leaf.landing ? landingMutations(leaf.landing) : [];
  // Then the rules of the field it lands in; a value the type's mutations already try is not tried again.
  const landed = () => {
    for (const m of leaf.landing ? landingMutations(leaf.landing) : []) {
      if (!out.some(o => JSON.stringify(o.value) === JSON.stringify(m.value))) add(m);
    }
  };
  if (node['x-kubernetes-int-or-string'] === true) {
    if (isQuantity(node)) {
      add({ name: 'wrong-pattern', value: '1Gx' });
      add({ name: 'negative', value: '-1' });
      add({ name: 'boundary', value: '1', mustAccept: true });
    } else {
      add({ name: 'wrong-pattern', value: 'x%' });
      add({ name: 'negative', value: -1 });
      add({ name: 'boundary', value: 1, mustAccept: true });
    }
    add({ name: 'wrong-type', value: true });
    landed();
    return out;
  }
  switch (node.type) {
    case 'string': {
      if (node.enum && node.enum.length > 0) {
        add({ name: 'unknown-enum', value: 'NotAnEnumValue' });
        add({ name: 'boundary', value: node.enum[node.enum.length - 1], mustAccept: true });
      }
      add({ name: 'empty', value: '' });
      if (node.maxLength !== undefined) {
        add({ name: 'too-long', value: 'a'.repeat(node.maxLength + 1) });
        const longest = 'a'.repeat(node.maxLength);
        if (matches(node.pattern, longest)) add({ name: 'boundary', value: longest, mustAccept: true });
      } else if (leaf.path.startsWith('metadata.labels')) {
        add({ name: 'too-long', value: 'a'.repeat(64) });
        add({ name: 'boundary', value: 'a'.repeat(63), mustAccept: true });
      } else if (NAME_FIELD.test(name)) {
        add({ name: 'too-long', value: 'a'.repeat(254) });
        add({ name: 'boundary', value: 'a'.repeat(63), mustAccept: true });
      }
      if (node.pattern !== undefined && !matches(node.pattern, '-Not Valid-')) add({ name: 'wrong-pattern', value: '-Not Valid-' });
      else if (NAME_FIELD.test(name) || leaf.path.startsWith('metadata.labels')) add({ name: 'wrong-pattern', value: 'Not_Valid-' });
      if (name === 'image') add({ name: 'wrong-pattern', value: ' image:1 ' });
      if (name === 'mountPath') add({ name: 'wrong-pattern', value: 'relative/path' });
      add({ name: 'wrong-type', value: 12345 });
      // No bound to test: a plain value the schema allows stands in for the boundary.
      if (!out.some(m => m.mustAccept) && !node.enum && matches(node.pattern, 'fuzz')) add({ name: 'schema-valid', value: 'fuzz', mustAccept: true });
      landed();
      return out;
    }
    case 'integer':
    case 'number': {
      if (PORTS.has(name)) {
        add({ name: 'out-of-range', value: 65536 });
        add({ name: 'zero', value: 0 });
        add({ name: 'boundary', value: 65535, mustAccept: true });
      }
      if (node.minimum !== undefined) add({ name: 'out-of-range', value: node.minimum - 1 });
      else add({ name: 'negative', value: -1 });
      if (node.maximum !== undefined) {
        add({ name: 'too-large', value: node.maximum + 1 });
        add({ name: 'boundary', value: node.maximum, mustAccept: true });
      } else if (node.format === 'int32') {
        add({ name: 'too-large', value: 2147483648 });
      }
      if (node.type === 'integer') add({ name: 'fraction', value: 1.5 });
      add({ name: 'wrong-type', value: 'one' });
      if (node.minimum !== undefined) add({ name: 'boundary', value: node.minimum, mustAccept: true });
      else add({ name: 'boundary', value: 1, mustAccept: true });
      landed();
      return out;
    }
    case 'boolean':
      add({ name: 'wrong-type', value: 'yes' });
      add({ name: 'boundary', value: true, mustAccept: true });
      return out;
    case 'array':
      add({ name: 'wrong-type', value: 'x' });
      add({ name: 'boundary', value: [], mustAccept: true });
      return out;
    default:
      // A free-form object (preserve-unknown-fields): only its type is checked.
      add({ name: 'wrong-type', value: 'x' });
      add({ name: 'boundary', value: {}, mustAccept: true });
      return out;
  }
}
