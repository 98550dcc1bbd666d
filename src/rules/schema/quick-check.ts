/**
 * A yes/no answer to "does this value conform to its schema?", for the common case where it does.
 *
 * The full walk (validator.ts) names every failing field with its path, so it builds a path string
 * for every field it passes and a pair for every entry it reads, on every document of a synth,
 * though nearly every document has nothing to report. This check answers first, with no paths: each
 * schema node is turned once into a function that knows its node's constants (its type, bounds,
 * enum, required fields, children); only a value it refuses is walked again by the full validator,
 * which then says what is wrong.
 *
 * It must never accept what the full walk refuses (a refusal here that the full walk does not
 * confirm only costs the second walk): test/rules/schema/quick-check.test.ts holds the two together on
 * the upstream corpus and on every mutation the leaf fuzzer makes.
 */
import { checkRules, hasType, isDateTime, patternRegex, runeLength } from './checks';
import type { SchemaNode } from './schema-node';

/** Whether a value conforms to a schema node. */
export type QuickCheck = (value: unknown) => boolean;

/**
 * The check of a node, made on first use and kept. A node without fields of its own is free-form
 * when it is reached through a field named `metadata` (an embedded ObjectMeta, as the API server
 * treats it), so a node's check depends on that too: `underMetadata` is true only where the full
 * walk's path certainly ends in `metadata` (being stricter than the full walk is safe, not looser).
 */
export function quickCheck(node: SchemaNode, underMetadata = false, required?: readonly string[]): QuickCheck {
  if (required !== undefined) return build(node, underMetadata, required);
  const cache = underMetadata ? UNDER_METADATA : ELSEWHERE;
  let check = cache.get(node);
  if (!check) {
    check = build(node, underMetadata, node.required);
    cache.set(node, check);
  }
  return check;
}

const UNDER_METADATA = new WeakMap<SchemaNode, QuickCheck>();
const ELSEWHERE = new WeakMap<SchemaNode, QuickCheck>();

function build(node: SchemaNode, underMetadata: boolean, required: readonly string[] | undefined): QuickCheck {
  const nullable = node.nullable === true;
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const anyOf = !intOrString && node.anyOf ? node.anyOf.map(branch => quickCheck(branch, underMetadata)) : undefined;
  const type = node.type;
  if (type !== undefined) hasType(type, null); // an unsupported type fails here, when the check is made
  const allowed = node.enum === undefined ? undefined : enumCheck(node.enum);
  // Transition rules (no `expr`: they judge updates only) are skipped by the full walk too.
  const rules = node['x-kubernetes-validations']?.some(r => r.expr !== undefined) === true;
  const string = stringCheck(node);
  const number = numberCheck(node);
  const array = arrayCheck(node, underMetadata);
  const object = objectCheck(node, underMetadata, required);
  return value => {
    if (value === undefined) return true;
    if (value === null) return nullable;
    if (intOrString) {
      if (!(typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))) return false;
    } else if (anyOf !== undefined && !anyOf.some(branch => branch(value))) {
      return false;
    }
    if (type !== undefined && !hasType(type, value)) return false;
    if (allowed !== undefined && !allowed(value)) return false;
    if (typeof value === 'string') {
      if (string !== undefined && !string(value)) return false;
    } else if (typeof value === 'number') {
      if (number !== undefined && !number(value)) return false;
    } else if (Array.isArray(value)) {
      if (!array(value)) return false;
    } else if (typeof value === 'object' && !object(value as Record<string, unknown>)) {
      return false;
    }
    return !rules || ruleProblems(node, value) === 0;
  };
}

/** The number of the node's CEL rules the value fails (the full walk's evaluation, into a scratch list). */
function ruleProblems(node: SchemaNode, value: unknown): number {
  const out: unknown[] = [];
  checkRules(node, value, '', out as never[]);
  return out.length;
}

/** Enum membership as the full walk decides it: equal JSON texts. */
function enumCheck(values: readonly unknown[]): (value: unknown) => boolean {
  const strings = new Set(values.filter(v => typeof v === 'string'));
  const texts = new Set(values.map(v => JSON.stringify(v)));
  return value => (typeof value === 'string' ? strings.has(value) : texts.has(JSON.stringify(value)));
}

function stringCheck(node: SchemaNode): ((value: string) => boolean) | undefined {
  const { minLength, maxLength, pattern, format } = node;
  if (minLength === undefined && maxLength === undefined && pattern === undefined && format !== 'date-time') return undefined;
  const regex = pattern === undefined ? undefined : patternRegex(pattern);
  return value => {
    if (minLength !== undefined || maxLength !== undefined) {
      const length = runeLength(value);
      if ((minLength !== undefined && length < minLength) || (maxLength !== undefined && length > maxLength)) return false;
    }
    if (regex !== undefined && !regex.test(value)) return false;
    return format !== 'date-time' || isDateTime(value);
  };
}

function numberCheck(node: SchemaNode): ((value: number) => boolean) | undefined {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = node;
  if (minimum === undefined && maximum === undefined) return undefined;
  return value => !(
    (minimum !== undefined && (exclusiveMinimum ? value <= minimum : value < minimum))
    || (maximum !== undefined && (exclusiveMaximum ? value >= maximum : value > maximum)));
}

function arrayCheck(node: SchemaNode, underMetadata: boolean): (value: unknown[]) => boolean {
  const { minItems, maxItems } = node;
  // An item's path ends in `[i]`, which the full walk strips before it looks for `metadata`, so
  // the items of a list field named `metadata` are under it too (the items of an item are not).
  const item = node.items === undefined ? undefined : quickCheck(node.items, underMetadata);
  const unique = uniqueness(node);
  return value => {
    if ((minItems !== undefined && value.length < minItems) || (maxItems !== undefined && value.length > maxItems)) return false;
    if (item !== undefined) {
      for (let i = 0; i < value.length; i++) if (!item(value[i])) return false;
    }
    return unique === undefined || unique(value);
  };
}

/**
 * The list-map and set rule (entries distinct by their keys, or whole) with the full walk's notion
 * of equal: equal JSON texts of the keys, a missing key taking its schema default.
 */
function uniqueness(node: SchemaNode): ((value: unknown[]) => boolean) | undefined {
  const listType = node['x-kubernetes-list-type'];
  if (listType !== 'map' && listType !== 'set') return undefined;
  if (listType === 'set') return value => distinct(value, item => item);
  const keys = (node['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [];
  const defaults = keys.map(k => node.items?.properties?.[k]?.default ?? null);
  // The full walk leaves entries that are not objects out of the comparison.
  const isMap = (item: unknown): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item);
  if (keys.length === 1) {
    const [key] = keys;
    return value => distinct(value, item => (isMap(item) ? item[key] ?? defaults[0] : OUT));
  }
  return value => distinct(value, item => (isMap(item) ? JSON.stringify(keys.map((k, i) => item[k] ?? defaults[i])) : OUT));
}

/** What `distinct` leaves out. */
const OUT = Symbol('not compared');

/**
 * Whether no two entries have ids with the same JSON text (string ids are compared as they are:
 * their texts are equal exactly when they are). Lists are short, so nothing is allocated for fewer
 * than three entries.
 */
function distinct(list: readonly unknown[], idOf: (item: unknown) => unknown): boolean {
  if (list.length < 2) return true;
  if (list.length === 2) {
    const [a, b] = [idOf(list[0]), idOf(list[1])];
    if (a === OUT || b === OUT) return true;
    return typeof a === 'string' || typeof b === 'string' ? a !== b : JSON.stringify(a) !== JSON.stringify(b);
  }
  const strings = new Set<string>();
  const texts = new Set<string>();
  for (const item of list) {
    const v = idOf(item);
    if (v === OUT) continue;
    const seen = typeof v === 'string' ? strings : texts;
    const id = typeof v === 'string' ? v : JSON.stringify(v);
    if (seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

function objectCheck(node: SchemaNode, underMetadata: boolean, required: readonly string[] | undefined): (value: Record<string, unknown>) => boolean {
  const { minProperties, maxProperties, properties } = node;
  const additional = node.additionalProperties;
  const anyField = additional === true || node['x-kubernetes-preserve-unknown-fields'] === true
    || (properties === undefined && additional === undefined && underMetadata);
  const mustHave = (required ?? []).map(name => ({ name, nullable: own(properties, name)?.nullable === true }));
  const children = new Map<string, QuickCheck>();
  const childCheck = (name: string): QuickCheck | undefined => {
    let check = children.get(name);
    if (check === undefined) {
      const declared = own(properties, name) ?? (typeof additional === 'object' ? additional : undefined);
      if (declared === undefined) return undefined;
      check = quickCheck(declared, name === 'metadata');
      children.set(name, check);
    }
    return check;
  };
  return value => {
    if (minProperties !== undefined || maxProperties !== undefined) {
      let set = 0;
      for (const name of Object.keys(value)) if (value[name] !== undefined && value[name] !== null) set++;
      if ((minProperties !== undefined && set < minProperties) || (maxProperties !== undefined && set > maxProperties)) return false;
    }
    for (const { name, nullable } of mustHave) {
      const v = value[name];
      if (v === undefined || (v === null && !nullable)) return false;
    }
    // for-in rather than Object.keys: no array per object. It also visits inherited enumerable
    // fields, which are then unknown here: a refusal the full walk (own fields only) sorts out.
    // eslint-disable-next-line guard-for-in
    for (const name in value) {
      const sub = value[name];
      // A null is dropped by the server, or allowed where the field is nullable: never a problem.
      if (sub === null) continue;
      const check = childCheck(name);
      if (check !== undefined) {
        if (!check(sub)) return false;
      } else if (!anyField) {
        return false;
      }
    }
    return true;
  };
}

/** A node's own declared field (never one inherited from Object.prototype, such as `constructor`). */
function own(properties: SchemaNode['properties'], name: string): SchemaNode | undefined {
  return properties !== undefined && Object.prototype.hasOwnProperty.call(properties, name) ? properties[name] : undefined;
}
