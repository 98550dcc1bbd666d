/**
 * Turns a manifest's JSON into the typed props of its generated L1 class, walking the JSON beside
 * the compact schema. Used to prove that every field of an upstream example survives the typed
 * path (props -> toJson_* -> synth): a field the L1 silently drops shows up as a difference.
 */
import camelcase from 'camelcase';
import { k8s } from 'cdk8s-plus-28';
import { join, KindSchema, SchemaNode } from './schema-validator';
import * as kubeflow from '../../imports/kubeflow';
import * as kueue from '../../imports/kueue';
import * as notebooks from '../../imports/notebooks';
import * as trainer from '../../imports/trainer';

/** A generated L1 class and where it lives. */
export interface L1Kind {
  readonly module: 'kubeflow' | 'notebooks' | 'trainer' | 'kueue';
  readonly className: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly construct: new (scope: any, id: string, props: any) => any;
}

let kinds: L1Kind[] | undefined;

/** Every generated L1 class, found by its static GVK. */
export function l1Kinds(): readonly L1Kind[] {
  if (!kinds) {
    kinds = [];
    for (const [module, exports] of [['kubeflow', kubeflow], ['notebooks', notebooks], ['trainer', trainer], ['kueue', kueue]] as const) {
      for (const [className, value] of Object.entries(exports)) {
        const gvk = (value as any)?.GVK;
        if (typeof value === 'function' && gvk?.apiVersion && gvk?.kind) {
          kinds.push({ module, className, apiVersion: gvk.apiVersion, kind: gvk.kind, construct: value as any });
        }
      }
    }
  }
  return kinds;
}

export function l1KindFor(apiVersion: string, kind: string): L1Kind | undefined {
  return l1Kinds().find(k => k.apiVersion === apiVersion && k.kind === kind);
}

/**
 * The TypeScript property name json2jsii gives a schema property (`hostIPC` -> `hostIpc`): a
 * leading `$` is dropped and the first `/` becomes `_` before camel-casing.
 */
export function propertyName(name: string): string {
  return camelcase(name.replace(/^\$/, '').replace(/\//, '_'));
}

/** int-or-string with the resource-quantity pattern is a `k8s.Quantity`, any other an `IntOrString`. */
export function isQuantity(node: SchemaNode): boolean {
  return node['x-kubernetes-int-or-string'] === true && typeof node.pattern === 'string' && node.pattern.includes('[KMGTPE]i');
}

export interface PropsFromJson {
  /** The typed props (`metadata` and `spec`) for the L1 constructor. */
  readonly props: any;
  /**
   * Paths of fields the schema does not declare. They are still passed on under their JSON name,
   * so a caller can see whether the L1 keeps or drops them.
   */
  readonly unknownFields: string[];
}

/**
 * Converts a whole manifest: metadata as is (cdk8s uses the JSON names), spec typed (or, for a kind
 * without a spec such as Kueue's WorkloadPriorityClass, its top-level fields).
 */
export function propsFromJson(doc: any, schema: KindSchema): PropsFromJson {
  const unknownFields: string[] = [];
  const props: any = {};
  for (const [key, value] of Object.entries(doc ?? {})) {
    if (value === null || value === undefined || key === 'apiVersion' || key === 'kind') continue;
    if (key === 'metadata') {
      props.metadata = value;
    } else if (schema.schema.properties?.[key]) {
      props[propertyName(key)] = typed(schema.schema.properties[key], value, key, unknownFields);
    } else {
      unknownFields.push(key);
      props[key] = value;
    }
  }
  return { props, unknownFields };
}

function typed(node: SchemaNode, value: unknown, at: string, unknown: string[]): unknown {
  if (value === null || value === undefined) return undefined;
  if (node['x-kubernetes-int-or-string'] === true) {
    const Type = isQuantity(node) ? k8s.Quantity : k8s.IntOrString;
    if (typeof value === 'number') return Type.fromNumber(value);
    if (typeof value === 'string') return Type.fromString(value);
    throw new Error(`${at}: expected integer or string, got ${JSON.stringify(value)}`);
  }
  if (Array.isArray(value)) {
    return node.items ? value.map((item, i) => typed(node.items!, item, `${at}[${i}]`, unknown)) : value;
  }
  if (typeof value !== 'object') return value;

  const declared = node.properties;
  const additional = node.additionalProperties;
  if (!declared && typeof additional !== 'object') return dropNulls(value); // free-form: same names in TS
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(value as Record<string, unknown>)) {
    if (sub === null || sub === undefined) continue;
    const child = join(at, key);
    if (declared?.[key]) {
      out[propertyName(key)] = typed(declared[key], sub, child, unknown);
    } else if (typeof additional === 'object') {
      out[key] = typed(additional, sub, child, unknown); // map keys stay as written
    } else {
      unknown.push(child);
      out[key] = sub;
    }
  }
  return out;
}

/** A deep copy without null values (the API server drops them; cdk8s never writes them). */
export function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(v => dropNulls(v)) as any;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, dropNulls(v)])) as any;
  }
  return value;
}

/** A deep copy without the fields at the given paths (paths as `join` writes them). */
export function withoutPaths<T>(value: T, paths: readonly string[]): T {
  const drop = new Set(paths);
  const visit = (v: any, at: string): any => {
    if (Array.isArray(v)) return v.map((x, i) => visit(x, `${at}[${i}]`));
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v)
        .filter(([k]) => !drop.has(join(at, k)))
        .map(([k, x]) => [k, visit(x, join(at, k))]));
    }
    return v;
  };
  return visit(value, '');
}

/**
 * Every path where two JSON values differ, for a readable failure (`a.b[0].c: expected X, got Y`,
 * `a.b: missing`, `a.c: unexpected`).
 */
export function jsonDifferences(expected: unknown, actual: unknown, at = ''): string[] {
  const where = at || '(root)';
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      if (i >= actual.length) out.push(`${at}[${i}]: missing`);
      else if (i >= expected.length) out.push(`${at}[${i}]: unexpected`);
      else out.push(...jsonDifferences(expected[i], actual[i], `${at}[${i}]`));
    }
    return out;
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const child = join(at, key);
      if (!(key in actual)) out.push(`${child}: missing`);
      else if (!(key in expected)) out.push(`${child}: unexpected`);
      else out.push(...jsonDifferences(expected[key], actual[key], child));
    }
    return out;
  }
  return JSON.stringify(expected) === JSON.stringify(actual) ? [] : [`${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
