/**
 * The typed-L1 mapper of `convert`: turns a manifest of a pinned kind into the props of its class in
 * imports/ (field names as json2jsii writes them, quantities and int-or-strings as cdk8s-plus's
 * `k8s` types), then proves the props say the manifest: it renders them with the class's own
 * serializer and compares. A field the typed props cannot say (not in the pinned CRD, or typed
 * otherwise) is taken out of the props and set with a JSON patch on the raw manifest instead, so
 * the mapping is exact whatever the input holds.
 */
import { Expr, array, call, evaluate, json, object, ref } from './convert-code';
import { kindSchema } from '../../rules/schema';
import type { SchemaNode } from '../../rules/schema/schema-node';

/** A field set by a JSON patch, and why the typed props cannot say it. */
export interface PatchedField {
  readonly op: 'add' | 'remove';
  /** The path as JSON Pointer segments. */
  readonly path: readonly string[];
  readonly value?: unknown;
  readonly reason: string;
}

/** The typed class of one pinned kind: the namespace it is exported under and its class name. */
export interface TypedClass {
  /** `kubeflow`, `trainer` or `notebooks`: the namespaces the package exports the L1 under. */
  readonly namespace: string;
  readonly className: string;
  /** The class, for its `manifest(props)`. */
  readonly load: () => { manifest(props: unknown): any };
  /** The module that exports the class, and the enums its props use. */
  readonly module: () => { readonly [name: string]: unknown };
}

/** The typed props of a manifest, with the patches for what they cannot say. */
export interface TypedMapping {
  readonly props: Expr;
  readonly patches: readonly PatchedField[];
}

/* eslint-disable @typescript-eslint/no-require-imports */
const lazyK8s = (): any => require('cdk8s-plus-28').k8s;
const jsonPatchApply = (doc: any, ops: any[]): any => require('cdk8s').JsonPatch.apply(doc, ...ops);
const jsonPatch = (): any => require('cdk8s').JsonPatch;
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The property name json2jsii gives a schema property: `$` dropped, the first `/` made `_`, then
 * camel case with a run of capitals treated as one word (`hostIPC` is `hostIpc`, `podIPs` stays)
 * and a letter after digits capitalised. test/cli/convert-typed.test.ts checks it against the
 * camelcase package the generator uses, on every property of the pinned schemas.
 */
export function propertyName(name: string): string {
  const input = name.replace(/^\$/, '').replace('/', '_').trim();
  if (input.length === 1) return input.toLowerCase();
  if (input.length === 0) return '';
  let s = input !== input.toLowerCase() ? splitCamelWords(input) : input;
  s = s.replace(/^[_.\- ]+/, '').toLowerCase();
  return s
    .replace(/[_.\- ]+([\p{Alpha}\p{N}_]|$)/gu, (_m, c: string) => c.toUpperCase())
    .replace(/\d+([\p{Alpha}\p{N}_]|$)/gu, m => m.toUpperCase());
}

/** Puts a `-` where a lower-case letter meets a capital, and before the last capital of a run that a lower-case letter follows. */
function splitCamelWords(s: string): string {
  const isUpper = (c: string) => c.toUpperCase() === c && c.toLowerCase() !== c;
  const isLower = (c: string) => c.toLowerCase() === c && c.toUpperCase() !== c;
  let out = s;
  let lastLower = false;
  let lastUpper = false;
  let beforeLastUpper = false;
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    if (lastLower && /\p{Lu}/u.test(c)) {
      out = `${out.slice(0, i)}-${out.slice(i)}`;
      lastLower = false;
      beforeLastUpper = lastUpper;
      lastUpper = true;
      i++;
    } else if (lastUpper && beforeLastUpper && /\p{Ll}/u.test(c)) {
      out = `${out.slice(0, i - 1)}-${out.slice(i - 1)}`;
      beforeLastUpper = lastUpper;
      lastUpper = false;
      lastLower = true;
    } else {
      lastLower = isLower(c);
      beforeLastUpper = lastUpper;
      lastUpper = isUpper(c);
    }
  }
  return out;
}

const isIntOrString = (s: SchemaNode) => s['x-kubernetes-int-or-string'] === true;
const isQuantity = (s: SchemaNode) => isIntOrString(s) && typeof s.pattern === 'string' && s.pattern.includes('[KMGTPE]i');

/**
 * The props expression of a value at a place of the schema. `raw` lists the JSON paths (joined
 * with `/`) whose int-or-string is typed as a plain value by the class rather than as a `k8s` type.
 */
function propsOf(value: unknown, schema: SchemaNode | undefined, at: string,
  raw: ReadonlySet<string>, dropped: ReadonlySet<string>, enums: Enums): Expr {
  const recurse = (v: unknown, s: SchemaNode | undefined, where: string) => propsOf(v, s, where, raw, dropped, enums);
  if (schema !== undefined && isIntOrString(schema) && !raw.has(at) && (typeof value === 'string' || typeof value === 'number')) {
    const type = isQuantity(schema) ? 'Quantity' : 'IntOrString';
    const factory = typeof value === 'number' ? 'fromNumber' : 'fromString';
    return call(`k8s.${type}.${factory}`, [json(value)], v => lazyK8s()[type][factory](v));
  }
  if (schema?.enum !== undefined && typeof value === 'string' && !raw.has(at)) {
    const member = enums.member(schema.enum, value, enums.className, at);
    if (member !== undefined) return ref(member, value);
  }
  if (Array.isArray(value)) return array(value.map((v, i) => recurse(v, schema?.items, `${at}/${i}`)));
  if (typeof value !== 'object' || value === null || schema === undefined) return json(value);
  const entries = Object.entries(value).filter(([k]) => !dropped.has(`${at}/${escape(k)}`));
  if (schema.properties !== undefined) {
    return object(entries.map(([k, v]) => [propertyName(k), recurse(v, schema.properties![k], `${at}/${escape(k)}`)]));
  }
  if (typeof schema.additionalProperties === 'object') {
    const items = schema.additionalProperties;
    return object(entries.map(([k, v]) => [k, recurse(v, items, `${at}/${escape(k)}`)]));
  }
  // An object the schema leaves open (a pod template's metadata): the value as written.
  return json(Object.fromEntries(entries));
}

/**
 * The enums of a typed class's module: the class types a field with a closed set of values as a
 * TypeScript enum, named after the field's place (the class, then each field name capitalised:
 * `ClusterQueueSpecStopPolicy`). The enum with exactly the schema's values (but the empty string)
 * is that field's; when several have those values (a ClusterQueue's and a LocalQueue's
 * `spec.stopPolicy` are two enums of one module), the one named after the field's place. Without
 * that choice the value was written as a string, which the enum-typed prop refuses at compile time.
 */
class Enums {
  private readonly all: ReadonlyArray<{ readonly name: string; readonly members: ReadonlyMap<string, string> }>;

  public constructor(private readonly namespace: string, readonly className: string, module: { readonly [name: string]: unknown }) {
    this.all = Object.entries(module)
      .filter(([, v]) => typeof v === 'object' && v !== null && Object.values(v).length > 0 && Object.values(v).every(x => typeof x === 'string'))
      .map(([name, v]) => ({ name, members: new Map(Object.entries(v as object).map(([m, x]) => [x as string, m])) }));
  }

  /**
   * `namespace.Enum.MEMBER` for a value of a field whose schema lists `values`, the field at JSON
   * Pointer `at` of a `className` object; undefined when no single enum fits.
   */
  public member(values: readonly unknown[], value: string, className: string, at: string): string | undefined {
    // An empty string among the values has no member (json2jsii leaves it out).
    const wanted = [...new Set(values.map(String))].filter(v => v !== '').sort().join('\n');
    const all = this.all.filter(e => [...e.members.keys()].sort().join('\n') === wanted);
    const place = className + at.split('/').filter(p => p !== '' && !/^\d+$/.test(p))
      .map(p => propertyName(p.replace(/~1/g, '/').replace(/~0/g, '~'))).map(p => p.charAt(0).toUpperCase() + p.slice(1)).join('');
    const fits = all.length > 1 ? all.filter(e => e.name === place) : all;
    const member = fits.length === 1 ? fits[0].members.get(value) : undefined;
    return member === undefined ? undefined : `${this.namespace}.${fits[0].name}.${member}`;
  }
}

/** A JSON Pointer segment. */
export function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The manifest as cdk8s writes it: nulls and undefined members left out. */
export function normalised(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalised);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = normalised(v);
  return out;
}

/** The paths (JSON Pointer segments) where two JSON values differ, outermost first. */
export function differences(expected: unknown, actual: unknown, at: string[] = []): string[][] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    return keys.flatMap(k => differences(expected[k], actual[k], [...at, k]));
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    return expected.flatMap((v, i) => differences(v, actual[i], [...at, String(i)]));
  }
  return JSON.stringify(expected) === JSON.stringify(actual) ? [] : [at];
}

function valueAt(doc: unknown, path: readonly string[]): unknown {
  let v: any = doc;
  for (const p of path) v = v === undefined || v === null ? undefined : v[p];
  return v;
}

function schemaAt(root: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  let s: SchemaNode | undefined = root;
  for (const p of path) {
    if (s === undefined) return undefined;
    s = s.properties?.[p] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined) ?? (/^\d+$/.test(p) ? s.items : undefined);
  }
  return s;
}

/** The JSON patch operations of the patched fields, for `JsonPatch.apply`. */
export function patchOps(patches: readonly PatchedField[]): any[] {
  const JsonPatch = jsonPatch();
  return patches.map(p => {
    const pointer = `/${p.path.map(escape).join('/')}`;
    return p.op === 'add' ? JsonPatch.add(pointer, p.value) : JsonPatch.remove(pointer);
  });
}

/**
 * The typed props of `doc` for `typed`, and the patches they need; the props render `doc` exactly
 * (after cdk8s's normalisation, which drops null members) with the patches applied.
 */
export function mapTyped(doc: any, typed: TypedClass): TypedMapping {
  const schema = kindSchema(doc.apiVersion, doc.kind)?.schema;
  if (schema === undefined) throw new Error(`no pinned schema for ${doc.apiVersion} ${doc.kind}`);
  const { apiVersion: _v, kind: _k, ...body } = normalised(doc) as any;
  const expected = { apiVersion: doc.apiVersion, kind: doc.kind, ...body };
  const raw = new Set<string>();
  const dropped = new Set<string>();
  const patches: PatchedField[] = [];
  const enums = new Enums(typed.namespace, typed.className, typed.module());
  // Each round fixes at least one difference (a path is made raw once, dropped once), so this ends.
  // Any difference can be fixed (a patch sets the value as written), so a round that fixes none is
  // a fault of this mapper, reported as such rather than printed as code that would not round-trip.
  for (;;) {
    const props = object(Object.entries(body)
      .filter(([k]) => !dropped.has(`/${escape(k)}`))
      .map(([k, v]) => [k, k === 'metadata' ? json(v) : propsOf(v, schema.properties?.[k], `/${escape(k)}`, raw, dropped, enums)]));
    const rendered = normalised(jsonPatchApply(typed.load().manifest(evaluate(props)), patchOps(patches)));
    const diffs = differences(expected, rendered);
    if (diffs.length === 0) return { props, patches };
    const fixed = diffs.map(fix);
    if (!fixed.includes(true)) throw new Error(`convert: the typed props of ${doc.kind} ${doc.metadata?.name} cannot say /${diffs[0].join('/')}`);
  }

  /** Makes the props say one difference; false when it cannot. */
  function fix(diff: string[]): boolean {
    // An int-or-string or enum the class types as a plain value: try the value as written first.
    for (let n = diff.length; n > 0; n--) {
      const at = `/${diff.slice(0, n).map(escape).join('/')}`;
      const s = schemaAt(schema!, diff.slice(0, n));
      if (s !== undefined && (isIntOrString(s) || s.enum !== undefined) && !raw.has(at)) {
        raw.add(at);
        return true;
      }
    }
    // Patch the field; an array item is patched with its whole list (taking one item out of the props would shift the others).
    let path = diff;
    const firstIndex = path.findIndex((p, i) => /^\d+$/.test(p) && Array.isArray(valueAt(expected, path.slice(0, i))));
    if (firstIndex >= 0 && firstIndex === path.length - 1) path = path.slice(0, firstIndex);
    const at = `/${path.map(escape).join('/')}`;
    if (dropped.has(at) || patches.some(p => `/${p.path.map(escape).join('/')}` === at)) {
      // Already patched: the difference is below a patched field, which the patch sets whole.
      return false;
    }
    const want = valueAt(expected, path);
    const known = schemaAt(schema!, path) !== undefined;
    const reason = known ? `The typed class renders ${path.join('.')} otherwise` : `The pinned CRD has no ${path.join('.')}`;
    if (want === undefined) {
      patches.push({ op: 'remove', path, reason });
    } else {
      dropped.add(at);
      patches.push({ op: 'add', path, value: want, reason });
    }
    return true;
  }
}
