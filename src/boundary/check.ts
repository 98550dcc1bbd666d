/**
 * Runtime checks at the jsii boundary. TypeScript callers have a compiler; JavaScript callers,
 * template libraries that build props from YAML or JSON, and jsii's other languages passing loose
 * values do not. Without these checks a string where an enum-like class is expected is silently
 * dropped (`restartPolicy: 'OnFailre'` removes the restart policy), and a string where a cdk8s type
 * is expected ends in a TypeError far from the construct.
 *
 * What each entry point accepts comes from the jsii assembly (schema.generated.ts, written by
 * scripts/boundary-schema.ts), so the checks follow the API without a hand-written list. Only
 * types are checked here; ranges and cross-field rules stay with the constructs.
 */
import * as cdk8s from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as constructs from 'constructs';
import { keepCheckedProps } from './checked-props';
import { fromCaller, LIBRARY_CONSTRUCTS, OWN_CLASSES } from './registry';
import * as api from './schema.generated';
import { show as showValue } from '../rules/finding';
import { hasDefaultResolversOnly } from '../synth/cdk8s-adapter';
import { lazy } from '../util/lazy';
import { nearest } from '../util/nearest';
import { userError } from '../util/user-error';

/** Where a value came from, for the message: a construct, or a static method such as `Accelerator.nvidia`. */
export type Where = constructs.IConstruct | string;

/** The modules of the external types the API names, by assembly name. */
const MODULES: { [assembly: string]: any } = { 'cdk8s': cdk8s, 'cdk8s-plus-28': kplus, 'constructs': constructs };

/**
 * The table the checks read: the library's API (schema.generated.ts), and, once a program
 * constructs an L1 itself, the L1 classes' too (schema-l1.generated.ts, loaded then: a program
 * that uses only the constructs never reads it). The L1s' own types are named `<submodule>.<type>`.
 */
let STRUCTS = api.STRUCTS;
let CLASSES = api.CLASSES;
let ENUMS = api.ENUMS;
const INTERFACES = api.INTERFACES;
const INTERFACE_EXAMPLES = api.INTERFACE_EXAMPLES;
/** The L1 submodules, by name, once loaded (their types are the library's own, in a submodule). */
let L1_MODULES: { readonly [submodule: string]: any } | undefined;

/* eslint-disable @typescript-eslint/no-require-imports */
const l1Table = lazy(() => ({
  schema: require('./schema-l1.generated') as typeof import('./schema-l1.generated'),
  modules: {
    kubeflow: require('../../imports/kubeflow') as typeof import('../../imports/kubeflow'),
    notebooks: require('../../imports/notebooks') as typeof import('../../imports/notebooks'),
    trainer: require('../../imports/trainer') as typeof import('../../imports/trainer'),
    kueue: require('../../imports/kueue') as typeof import('../../imports/kueue'),
    core: require('../../imports/core') as typeof import('../../imports/core'),
  },
}));
/* eslint-enable @typescript-eslint/no-require-imports */

function withL1Table(): void {
  if (L1_MODULES !== undefined) return;
  const { schema: l1, modules } = l1Table();
  STRUCTS = { ...l1.STRUCTS, ...api.STRUCTS };
  CLASSES = { ...l1.CLASSES, ...api.CLASSES };
  ENUMS = { ...l1.ENUMS, ...api.ENUMS };
  for (const open of l1.OPEN_STRUCTS) OPEN.add(open);
  L1_MODULES = modules;
  // A type string read before named a type of the L1 table as "any".
  typeCache.clear();
  paramCache.clear();
}

/** Whether a fqn of the table is one of the L1 submodules' types (`kueue.ClusterQueueSpec`). */
function isL1Type(fqn: string): boolean {
  return L1_MODULES !== undefined && fqn.slice(0, fqn.indexOf('.')) in L1_MODULES;
}

/** Whether a fqn of the table is a type of another assembly (cdk8s, cdk8s-plus, constructs). */
function isExternal(fqn: string): boolean {
  return fqn.includes('.') && !isL1Type(fqn);
}
/** The peer-dependency version a cross-copy message names. */
const PEER = 'cdk8s-plus-28';
/** jsii puts `{ fqn, version }` under this symbol on every class it compiles. */
const RTTI = Symbol.for('jsii.rtti');

/** A parsed type string of the table. */
type Type =
  | { readonly kind: 'any' | 'json' | 'string' | 'number' | 'boolean' }
  | { readonly kind: 'list' | 'map'; readonly element: Type }
  | { readonly kind: 'struct' | 'class' | 'interface' | 'enum'; readonly fqn: string };

interface Param { readonly name: string; readonly optional: boolean; readonly variadic: boolean; readonly type: Type }

const typeCache = new Map<string, { type: Type; optional: boolean }>();

/** Parses a type string of the table once. */
function parse(spec: string): { type: Type; optional: boolean } {
  let cached = typeCache.get(spec);
  if (cached) return cached;
  const optional = spec.startsWith('?');
  cached = { type: parseType(optional ? spec.slice(1) : spec), optional };
  typeCache.set(spec, cached);
  return cached;
}

function parseType(s: string): Type {
  if (s.endsWith('[]')) return { kind: 'list', element: parseType(s.slice(0, -2)) };
  if (s.endsWith('{}')) return { kind: 'map', element: parseType(s.slice(0, -2)) };
  if (s === 'any' || s === 'json' || s === 'string' || s === 'number' || s === 'boolean') return { kind: s };
  if (s in STRUCTS) return { kind: 'struct', fqn: s };
  if (s in CLASSES) return { kind: 'class', fqn: s };
  if (s in INTERFACES) return { kind: 'interface', fqn: s };
  if (s in ENUMS) return { kind: 'enum', fqn: s };
  return { kind: 'any' }; // a type of an assembly the generator does not read
}

const paramCache = new Map<string[], Param[]>();

function params(specs: string[]): Param[] {
  let cached = paramCache.get(specs);
  if (!cached) {
    cached = specs.map(spec => {
      const [name, rest] = [spec.slice(0, spec.indexOf(':')), spec.slice(spec.indexOf(':') + 1)];
      const variadic = name.startsWith('...');
      const { type, optional } = parse(rest);
      return { name: variadic ? name.slice(3) : name, optional, variadic, type };
    });
    paramCache.set(specs, cached);
  }
  return cached;
}

/** How a value appears in a message; a boxed primitive would otherwise look like the primitive. */
function show(value: unknown): string {
  if (value instanceof String || value instanceof Number || value instanceof Boolean) {
    return `new ${value.constructor.name}(${showValue(value.valueOf())})`;
  }
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`;
  // A class instance: its JSON would pass for a plain object (a Map is "{}").
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value);
    if (proto === null) return `an object without a prototype ${showValue(value)}`;
    if (proto !== null && proto !== Object.prototype) return `${article(proto.constructor?.name ?? 'Object')} ${proto.constructor?.name ?? 'object'}`;
  }
  return showValue(value);
}

/** What each refusal of `raise` is about (`<path>: <field>`), so a caller can tell without reading its text. */
const refusals = new WeakMap<Error, string>();

/** A wrong value: thrown as an Error whose message starts with the construct path. */
function raise(where: Where, field: string, shown: string, allowed: string): never {
  const about = `${typeof where === 'string' ? where : where.node.path}: ${field}`;
  const error = userError(`${about} is ${shown}; ${allowed}`);
  refusals.set(error, about);
  throw error;
}

/**
 * Checks the arguments of a constructor against the table and keeps the props on the construct
 * (checked-props.ts). `KubeflowResource`'s constructor calls it for every top-level construct, right
 * after `super(scope, id)`; `target` is `new.target`, so the base checks the props of the concrete
 * class (a user's subclass is checked as the library class it extends).
 */
export function checkConstructor(construct: constructs.IConstruct, target: Function, args: unknown[]): void {
  LIBRARY_CONSTRUCTS.add(construct);
  // scope and id were used by super() already; constructs checks those itself.
  checkInit(construct, target, args);
  const props = args[2];
  if (typeof props === 'object' && props !== null) keepCheckedProps(construct, props);
}

/**
 * Checks the props a program gave an L1 class (`type`, `<submodule>.<class>`) against the L1
 * table: a value of the wrong JavaScript type would otherwise reach the YAML as it is (a number for
 * a string), or vanish from it (a string for a quantity). A refused call's stack starts at the
 * `new` that made the object.
 */
export function checkL1Constructor(apiObject: constructs.IConstruct, type: string, props: unknown): void {
  // An app's own resolvers may turn any value into any other when cdk8s renders it: only what
  // they give could be judged, and the rules do judge the document at synth.
  if (!hasDefaultResolversOnly(cdk8s.App.of(apiObject))) return;
  withL1Table();
  const init = CLASSES[type]?.init;
  if (init === undefined) return;
  asCdk8sRenders = true;
  try {
    checkArgs(apiObject, params(init), [undefined, undefined, props], 2, true);
  } catch (error) {
    throw fromCaller(error, apiObject.constructor);
  } finally {
    asCdk8sRenders = false;
  }
}

/**
 * While an L1's props are checked: cdk8s renders them, so what cdk8s resolves at synth is taken as
 * it takes it (a `Lazy`, or any object with a `resolve()` method, whose value only synth knows),
 * and a struct field set to null is left out, as cdk8s leaves it out. A null item of a list or
 * value of a map is still refused: cdk8s would write the null.
 */
let asCdk8sRenders = false;

function isToken(value: unknown): boolean {
  return value instanceof cdk8s.Lazy || (typeof value === 'object' && value !== null && typeof (value as { resolve?: unknown }).resolve === 'function');
}

/**
 * Checks constructor arguments after scope and id against the initializer of the nearest library
 * class from `target` (`new.target`) up. A refused call's stack starts at the `new` that made the
 * construct: the constructors' and the checks' frames are left out.
 */
function checkInit(where: Where, target: Function, args: unknown[]): void {
  for (let cls: any = target; cls && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) {
    const init = OWN_CLASSES.get(cls.name) === cls ? CLASSES[cls.name]?.init : undefined;
    if (!init) continue;
    try {
      checkArgs(where, params(init), args, 2, true);
    } catch (error) {
      throw fromCaller(error, target);
    }
    return;
  }
}

/** Checks the arguments of a method or static factory; `from` is the first argument to check. */
export function checkArgs(where: Where, ps: Param[], args: ArrayLike<unknown>, from = 0, isConstructor = false): void {
  for (let i = from; i < ps.length; i++) {
    const p = ps[i];
    if (p.variadic) {
      for (let j = i; j < args.length; j++) checkValue(where, p.type, args[j], `${p.name}[${j - i}]`);
      return;
    }
    const value = args[i];
    if (value === undefined || value === null) {
      // `any` takes undefined and null too, as in TypeScript and jsii (a ConfigReader's value that
      // the file does not hold; Parse.cpu and Parse.count refuse it themselves, with the key).
      if (!p.optional && p.type.kind !== 'any') raise(where, p.name, show(value), `expected ${describeType(p.type)}`);
      continue;
    }
    // A construct's props are reported by their field names alone (`workers`, not `props.workers`).
    const field = isConstructor && p.type.kind === 'struct' && p.name === 'props' ? '' : p.name;
    checkValue(where, p.type, value, field);
  }
}

/**
 * Checks a value given for a struct of the table, reported under `field` (a prop path such as
 * `worker`, or '' for a construct's props): what a constructor or method does for each struct
 * argument and each struct inside one.
 */
export function checkStructValue(where: Where, fqn: string, value: unknown, field: string): void {
  checkStruct(where, fqn, value, field);
}

/** The parameters of a method of the table, or undefined. */
export function methodParams(classFqn: string, method: string, isStatic: boolean): Param[] | undefined {
  const entry = CLASSES[classFqn];
  const specs = isStatic ? entry?.statics?.[method] : entry?.methods?.[method];
  return specs && params(specs);
}

function join(field: string, key: string): string {
  if (isIdentifier(key)) return field ? `${field}.${key}` : key;
  return `${field || 'props'}[${JSON.stringify(key)}]`;
}

/** Prop names repeat in every construct, so the test of each is remembered (bounded: map keys are free text). */
const identifiers = new Map<string, boolean>();
function isIdentifier(key: string): boolean {
  let answer = identifiers.get(key);
  if (answer === undefined) {
    answer = /^[A-Za-z_$][\w$-]*$/.test(key);
    if (identifiers.size < 10_000) identifiers.set(key, answer);
  }
  return answer;
}

function checkValue(where: Where, type: Type, value: unknown, field: string): void {
  if (asCdk8sRenders && isToken(value)) return;
  switch (type.kind) {
    case 'any':
      return;
    case 'json':
      return checkJson(where, value, field);
    case 'string':
      if (typeof value !== 'string') raise(where, field, show(value), 'expected a string');
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) raise(where, field, show(value), 'expected a finite number');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') raise(where, field, show(value), 'expected true or false');
      return;
    case 'list':
      return checkList(where, type.element, value, field);
    case 'map':
      return checkMap(where, type.element, value, field);
    case 'struct':
      return checkStruct(where, type.fqn, value, field);
    case 'class':
      return checkInstance(where, type.fqn, value, field);
    case 'interface':
      return checkInterface(where, type.fqn, value, field);
    case 'enum':
      return checkEnum(where, type.fqn, value, field);
  }
}

const NULL_PROTOTYPE = 'expected an object literal; cdk8s cannot write an object without a prototype (Object.create(null))';

/** JSON data, as the Kubernetes structs of cdk8s-plus take it: what their serializer can write. */
function checkJson(where: Where, value: unknown, field: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) raise(where, field, show(value), 'expected a finite number');
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkJson(where, value[i], `${field}[${i}]`);
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === null) raise(where, field, show(value), NULL_PROTOTYPE);
  // Instances of cdk8s's own classes (k8s.Quantity, k8s.IntOrString) render themselves.
  if (typeof value === 'object' && (isPlainObject(value) && !isBuiltIn(value))) {
    for (const key of Object.keys(value)) {
      const item = (value as any)[key];
      if (item !== undefined) checkJson(where, item, join(field, key));
    }
    return;
  }
  raise(where, field, show(value), 'expected JSON data: a string, a number, true or false, a list or an object');
}

function checkList(where: Where, element: Type, value: unknown, field: string): void {
  if (!Array.isArray(value)) {
    if (typeof value === 'string' && element.kind === 'string') {
      const words = value.split(/\s+/).filter(w => w);
      const example = words.length > 1 ? words : ['python', 'train.py'];
      raise(where, field, show(value), `expected a list of strings such as [${example.map(w => JSON.stringify(w)).join(', ')}]`);
    }
    raise(where, field, show(value), `expected a list of ${plural(element)}`);
  }
  // An index loop, so the holes of a sparse array are seen (forEach skips them).
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (item === undefined || item === null) raise(where, `${field}[${i}]`, show(item), `expected ${describeType(element)}`);
    checkValue(where, element, item, `${field}[${i}]`);
  }
}

function checkMap(where: Where, element: Type, value: unknown, field: string): void {
  if (!isPlainObject(value)) raise(where, field, show(value), `expected an object whose values are ${plural(element)}`);
  for (const key of Object.keys(value)) {
    const item = (value as any)[key];
    if (item === undefined || item === null) raise(where, join(field, key), show(item), `expected ${describeType(element)}`);
    checkValue(where, element, item, join(field, key));
  }
}

const OPEN = new Set(api.OPEN_STRUCTS);

interface Field { readonly key: string; readonly type: Type; readonly optional: boolean }

/**
 * A struct's fields with their parsed types, their positions by name and the positions of the
 * required ones, worked out once per struct. Props name a few of a struct's many fields, so a check
 * visits the fields given and the required ones rather than every field declared.
 */
interface StructFields {
  readonly fields: readonly Field[];
  readonly position: ReadonlyMap<string, number>;
  readonly required: readonly number[];
}

const fieldCache = new Map<string, StructFields>();

function structFields(fqn: string): StructFields {
  let info = fieldCache.get(fqn);
  if (!info) {
    const fields = Object.entries(STRUCTS[fqn]).map(([key, spec]) => ({ key, ...parse(spec) }));
    info = {
      fields,
      position: new Map(fields.map((f, i) => [f.key, i])),
      required: fields.flatMap((f, i) => (f.optional ? [] : [i])),
    };
    fieldCache.set(fqn, info);
  }
  return info;
}

function fieldsOf(fqn: string): readonly Field[] {
  return structFields(fqn).fields;
}

/**
 * Struct values that passed a check. A construct hands parts of its checked props to its own public
 * methods (a workspace's `data` entries to `addDataVolume`), typed as a smaller struct than they
 * were checked as; checking them again would cost time and see their other fields as unknown.
 */
const checkedStructs = new WeakMap<object, string>();

const coverCache = new Map<string, boolean>();

/** Whether a value that passed as struct `checked` is known to pass as `wanted`: `checked` has every field of `wanted`, with its type. */
function covers(checked: string, wanted: string): boolean {
  if (checked === wanted) return true;
  const key = `${checked}>${wanted}`;
  let result = coverCache.get(key);
  if (result === undefined) {
    const a = STRUCTS[checked];
    const b = STRUCTS[wanted];
    result = Object.keys(b).every(k => a[k] !== undefined && a[k].replace(/^\?/, '') === b[k].replace(/^\?/, ''));
    coverCache.set(key, result);
  }
  return result;
}

function checkStruct(where: Where, fqn: string, value: unknown, field: string): void {
  const fields = STRUCTS[fqn];
  if (!isPlainObject(value)) {
    raise(where, field || 'props', show(value), `expected ${describeType({ kind: 'struct', fqn })}`);
  }
  const checked = checkedStructs.get(value);
  if (checked !== undefined && covers(checked, fqn)) return;
  // A struct of cdk8s or cdk8s-plus goes to cdk8s's serializer, which needs a prototype.
  if (isExternal(fqn) && Object.getPrototypeOf(value) === null) raise(where, field || 'props', show(value), NULL_PROTOTYPE);
  const record = value as { [key: string]: unknown };
  const { fields: declared, position, required } = structFields(fqn);
  const keys = Object.keys(record);
  if (OPEN.has(fqn)) {
    // Fields the struct does not name are written as they are, so they must be JSON data.
    for (const key of keys) {
      if (!position.has(key) && record[key] !== undefined) checkJson(where, record[key], join(field, key));
    }
  } else {
    for (const key of keys) {
      if (!position.has(key) && record[key] !== undefined) {
        const known = Object.keys(fields);
        const guess = ALIASES[key.toLowerCase()] in fields ? ALIASES[key.toLowerCase()] : nearest(key, known);
        raise(where, join(field, key), show(record[key]), guess
          ? `expected no such field in ${typeName(fqn)}: did you mean "${guess}"?`
          : `expected no such field in ${typeName(fqn)}, whose fields are ${known.join(', ')}`);
      }
    }
  }
  // The fields given and the required ones, in the order the struct declares them (the first
  // refusal is the one reported).
  const given: number[] = required.slice();
  for (const key of keys) {
    const i = position.get(key);
    if (i !== undefined && declared[i].optional) given.push(i);
  }
  if (given.length > 1) given.sort((a, b) => a - b);
  for (const i of given) {
    const { key, type, optional } = declared[i];
    const item = record[key];
    const at = join(field, key);
    if (item === undefined) {
      if (!optional) raise(where, at, show(item), `expected ${describeType(type)}`);
      continue;
    }
    // jsii's other languages leave an unset field out; a null from JavaScript would reach code that
    // tests for undefined.
    if (item === null) {
      if (asCdk8sRenders && optional) continue;
      raise(where, at, show(item), `expected ${describeType(type)}${optional ? ', or the field left out' : ''}`);
    }
    try {
      checkValue(where, type, item, at);
    } catch (error) {
      throw withSiblingGuess(error, where, fqn, record, key, at);
    }
  }
  checkedStructs.set(value, fqn);
}

/**
 * A field given a value of the wrong type is often a misspelling of a sibling that takes it
 * (`worker: 3` for `workers`, `master: 1` for `masters`): when the refusal is about the field
 * itself (not a field inside it) and a sibling with a close name, left unset, takes the value, the
 * message suggests it, as it does for a field the struct does not have.
 */
function withSiblingGuess(error: unknown, where: Where, fqn: string, record: { [key: string]: unknown }, key: string, path: string): unknown {
  if (!(error instanceof Error) || refusals.get(error) !== `${typeof where === 'string' ? where : where.node.path}: ${path}`) return error;
  const siblings = fieldsOf(fqn).filter(f => f.key !== key && record[f.key] === undefined && fits(where, f.type, record[key]));
  const guess = nearest(key, siblings.map(f => f.key));
  if (guess !== undefined) error.message = `${error.message}: did you mean "${guess}"?`;
  return error;
}

/** Whether a value passes as `type` (used for suggestions only). */
function fits(where: Where, type: Type, value: unknown): boolean {
  try {
    checkValue(where, type, value, '');
    return true;
  } catch {
    return false;
  }
}

function checkInstance(where: Where, fqn: string, value: unknown, field: string): void {
  const cls = classOf(fqn);
  if (cls !== undefined && value instanceof cls) return;
  // A class from cdk8s, cdk8s-plus or constructs that this copy cannot find is not judged. One of
  // the library's own that is not registered has not been loaded, so nothing is an instance of it.
  if (cls === undefined && isExternal(fqn)) return;
  const name = typeName(fqn);
  const rtti = typeof value === 'object' && value !== null ? (value as any).constructor?.[RTTI] : undefined;
  const sameName = typeof value === 'object' && value !== null && (value as any).constructor?.name === name;
  if (rtti?.fqn?.endsWith(`.${name}`) || sameName) {
    // instanceof fails across copies of a library: say which copy was given and which is needed.
    const from = rtti ? `${String(rtti.fqn).split('.')[0]} ${rtti.version ?? ''}`.trim() : 'another copy';
    const needed = assemblyOf(fqn);
    const peer = needed === PEER || needed === 'cdk8s' || needed === 'constructs' ? ' (this library\'s peer dependency)' : '';
    raise(where, field, `${article(name)} ${name} of ${from}`,
      `expected ${article(name)} ${name} from ${needed}${peer}; got one from another copy or version of ${needed.replace(/-\d+$/, '')}`);
  }
  let allowed = `expected ${describeType({ kind: 'class', fqn })}`;
  if (typeof value === 'string') {
    const guess = guessMember(fqn, cls, value);
    if (guess) allowed += ` (did you mean ${name}.${guess}?)`;
  }
  raise(where, field, show(value), allowed);
}

function checkInterface(where: Where, fqn: string, value: unknown, field: string): void {
  const members = INTERFACES[fqn];
  const isObject = (typeof value === 'object' && value !== null) || typeof value === 'function';
  if (isObject && members.every(m => m in (value as object))) return;
  raise(where, field, show(value), `expected ${describeType({ kind: 'interface', fqn })}`);
}

function checkEnum(where: Where, fqn: string, value: unknown, field: string): void {
  const values = enumValues(fqn);
  if (values === undefined || values.includes(value)) return;
  raise(where, field, show(value), `expected ${describeType({ kind: 'enum', fqn })}`);
}

/** Fields users reach for under another name (a GPU count is an accelerator in this API). */
const ALIASES: { [given: string]: string } = {
  'gpu': 'accelerator',
  'gpus': 'accelerator',
  'nvidia.com/gpu': 'accelerator',
  // The v1 CRD's names of the elastic settings, which the props spell as torchrun does.
  'minreplicas': 'minWorkers',
  'maxreplicas': 'maxWorkers',
  'rdzvbackend': 'rendezvousBackend',
  'rdzvhost': 'rendezvousHost',
  'rdzvport': 'rendezvousPort',
  'rdzvid': 'rendezvousId',
  'rdzvconf': 'rendezvousConf',
};

/** A plain object as a struct or map is given: not null, not a list, not a boxed primitive. */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype) return true;
  // Class instances may carry a struct's fields (jsii allows it), but not the built-in boxes and collections.
  return !isBuiltIn(value);
}

function isBuiltIn(value: object): boolean {
  return value instanceof String || value instanceof Number || value instanceof Boolean || value instanceof Map
    || value instanceof Set || value instanceof Date || ArrayBuffer.isView(value) || value instanceof RegExp || value instanceof ArrayBuffer;
}

const classCache = new Map<string, Function | undefined>();

/** The runtime class of a fqn of the table: the library's own, or from cdk8s, cdk8s-plus or constructs. */
function classOf(fqn: string): Function | undefined {
  if (!fqn.includes('.')) {
    return OWN_CLASSES.get(fqn);
  }
  if (classCache.has(fqn)) return classCache.get(fqn);
  const cls = resolve(fqn);
  const result = typeof cls === 'function' ? cls : undefined;
  classCache.set(fqn, result);
  return result;
}

function resolve(fqn: string): any {
  const assembly = assemblyOf(fqn);
  if (isL1Type(fqn)) return L1_MODULES![fqn.slice(0, fqn.indexOf('.'))]?.[typeName(fqn)];
  let target = MODULES[assembly];
  for (const part of fqn.slice(assembly.length + 1).split('.')) target = target?.[part];
  return target;
}

function assemblyOf(fqn: string): string {
  return isExternal(fqn) ? fqn.slice(0, fqn.indexOf('.')) : 'cdk8s-kubeflow';
}

function typeName(fqn: string): string {
  return fqn.slice(fqn.lastIndexOf('.') + 1);
}

const enumCache = new Map<string, unknown[] | undefined>();

function enumValues(fqn: string): unknown[] | undefined {
  if (!enumCache.has(fqn)) {
    const e = resolve(fqn);
    enumCache.set(fqn, e ? ENUMS[fqn].map(m => e[m]) : undefined);
  }
  return enumCache.get(fqn);
}

/** The static member of an enum-like class whose value is closest to a string given in its place. */
function guessMember(fqn: string, cls: Function | undefined, given: string): string | undefined {
  const members = (CLASSES[fqn].make ?? []).filter(m => !m.includes('('));
  const byValue = new Map<string, string>();
  for (const m of members) {
    const instance = (cls as any)?.[m];
    for (const v of Object.values(instance ?? {})) if (typeof v === 'string') byValue.set(v, m);
    byValue.set(m, m);
  }
  const guess = nearest(given, [...byValue.keys()]);
  return guess === undefined ? undefined : byValue.get(guess);
}

/** What a type allows, for `expected ...`. */
export function describeType(type: Type): string {
  switch (type.kind) {
    case 'any': return 'any value';
    case 'json': return 'JSON data';
    case 'string': return 'a string';
    case 'number': return 'a finite number';
    case 'boolean': return 'true or false';
    case 'list': return `a list of ${plural(type.element)}`;
    case 'map': return `an object whose values are ${plural(type.element)}`;
    case 'struct': return `${article(typeName(type.fqn))} ${typeName(type.fqn)} (an object of its fields)`;
    case 'interface': {
      const head = `${article(typeName(type.fqn))} ${typeName(type.fqn)}${fromWhere(type.fqn)}`;
      const examples = INTERFACE_EXAMPLES[type.fqn];
      return examples ? `${head}: ${orList(examples)}` : head;
    }
    case 'enum': {
      const name = typeName(type.fqn);
      // An L1's enum is a TypeScript enum of strings: what a program writes is the string.
      if (isL1Type(type.fqn)) return `${article(name)} ${name}: ${orList((enumValues(type.fqn) ?? []).map(v => JSON.stringify(v)))}`;
      return `${article(name)} ${name}${fromWhere(type.fqn)}: ${orList(ENUMS[type.fqn].map(m => `${name}.${m}`))}`;
    }
    case 'class': {
      const name = typeName(type.fqn);
      // `parse(value, key)` reads a configuration file's string; the message lists the ways to make one in code.
      const make = (CLASSES[type.fqn]?.make ?? []).filter(m => !m.startsWith('parse('));
      const head = `${article(name)} ${name}${fromWhere(type.fqn)}`;
      if (!make.length) return head;
      if (make.length > 5) {
        const example = make.find(m => /^(fromValue|of)\(/.test(m)) ?? make[0];
        return `${head}, made by one of its static methods such as ${name}.${example}`;
      }
      return `${head}: ${orList(make.map(m => `${name}.${m}`))}`;
    }
  }
}

function fromWhere(fqn: string): string {
  return isExternal(fqn) ? ` from ${assemblyOf(fqn)}` : '';
}

function plural(element: Type): string {
  switch (element.kind) {
    case 'string': return 'strings';
    case 'number': return 'finite numbers';
    case 'boolean': return 'booleans';
    default: return `values each ${describeType(element)}`;
  }
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}

function orList(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
