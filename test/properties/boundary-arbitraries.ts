/**
 * Property tests of the jsii boundary: every prop of a construct (and every argument of a method)
 * is fed arbitrary JavaScript values (fast-check's `anything()`) and values of a near-miss wrong
 * type (a string for an enum-like class, a number as text, a plain object for a class, a misspelt
 * key). Whatever happens must be one of two things:
 *
 * - the library's own error (an `Error` whose message starts with the construct path and reads
 *   `<field> is <value>; ...`), never a TypeError or an error from inside cdk8s;
 * - a manifest, and then only for a value of the right type: a wrong-typed value that renders is
 *   a value the manifest dropped or mangled.
 *
 * What "the right type" means is read from the generated boundary schema, but decided here by an
 * independent predicate (`conforms`), so the checker is tested against it and not against itself.
 */
import { App, Chart, Testing } from 'cdk8s';
import * as cdk8s from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as constructs from 'constructs';
import * as fc from 'fast-check';
import * as lib from '../../src';
import { CLASSES, ENUMS, INTERFACES, OPEN_STRUCTS, STRUCTS } from '../../src/boundary/schema.generated';
import { show } from '../../src/rules/finding';
import { REPORT } from '../harness/messages';

/**
 * Cases per property: `PROPERTY_RUNS` from the environment (CI sets 1000), else 100, so a local
 * run stays quick.
 */
export const PROPERTY_RUNS = ((): number => {
  const n = Number(process.env.PROPERTY_RUNS ?? 100);
  if (!Number.isInteger(n) || n < 1) throw new Error(`PROPERTY_RUNS is ${process.env.PROPERTY_RUNS}; expected a whole number of 1 or more`);
  return n;
})();

/** Anything JavaScript can hold, nested: boxed primitives, maps, sets, dates, sparse arrays, big integers. */
export const anything = fc.anything({
  maxDepth: 2,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withBigInt: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withNullPrototype: true,
});

const MODULES: { [assembly: string]: any } = { 'cdk8s': cdk8s, 'cdk8s-plus-28': kplus, 'constructs': constructs };

/** The runtime value of a fqn of the schema (a class or an enum object). */
function resolve(fqn: string): any {
  if (!fqn.includes('.')) return (lib as any)[fqn];
  const assembly = fqn.slice(0, fqn.indexOf('.'));
  let target = MODULES[assembly];
  for (const part of fqn.slice(assembly.length + 1).split('.')) target = target?.[part];
  return target;
}

const optional = (spec: string) => spec.startsWith('?');
const bare = (spec: string) => optional(spec) ? spec.slice(1) : spec;

/**
 * Whether a value is of the type a schema type string describes. Undefined is "not set"; so is
 * null for an argument (`nullIsUnset`), as jsii passes an omitted one, but not for a struct field,
 * which jsii's languages leave out instead.
 */
export function conforms(spec: string, value: unknown, nullIsUnset = false): boolean {
  if (value === undefined) return optional(spec);
  if (value === null) return nullIsUnset && optional(spec);
  const t = bare(spec);
  if (t.endsWith('[]')) {
    if (!Array.isArray(value)) return false;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined || value[i] === null || !conforms(t.slice(0, -2), value[i])) return false;
    }
    return true;
  }
  if (t.endsWith('{}')) {
    return isRecord(value) && Object.values(value).every(v => v !== undefined && v !== null && conforms(t.slice(0, -2), v));
  }
  switch (t) {
    case 'any': return true;
    case 'json': return isJsonData(value);
    case 'string': return typeof value === 'string';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'boolean': return typeof value === 'boolean';
  }
  if (STRUCTS[t]) {
    if (!isRecord(value)) return false;
    // cdk8s's serializer needs a prototype on what it writes.
    if (t.includes('.') && Object.getPrototypeOf(value) === null) return false;
    const fields = STRUCTS[t];
    const record = value as { [k: string]: unknown };
    const extra = Object.keys(record).filter(k => !(k in fields) && record[k] !== undefined);
    if (extra.length && (!OPEN_STRUCTS.includes(t) || !extra.every(k => isJsonData(record[k])))) return false;
    return Object.entries(fields).every(([k, s]) => conforms(s, record[k]));
  }
  if (CLASSES[t]) return value instanceof resolve(t);
  if (INTERFACES[t]) return (typeof value === 'object' || typeof value === 'function') && INTERFACES[t].every(m => m in (value as object));
  if (ENUMS[t]) return Object.values(resolve(t)).includes(value);
  return true;
}

/** Data JSON can write: strings, finite numbers, booleans, null, lists and plain objects of them (undefined members are left out). */
function isJsonData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return Array.from(value).every(isJsonData);
  if (isRecord(value)) return Object.getPrototypeOf(value) !== null && Object.values(value).every(v => v === undefined || isJsonData(v));
  return false;
}

/** An object as structs and maps are given: no list, box, collection or date. */
function isRecord(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return [String, Number, Boolean, Map, Set, Date, RegExp].every(c => !(value instanceof c)) && !ArrayBuffer.isView(value);
}

/** Samples of the types that have no static member to take one from. */
const SAMPLES: { [fqn: string]: () => unknown } = {
  'cdk8s.Duration': () => cdk8s.Duration.minutes(30),
  'cdk8s.Size': () => cdk8s.Size.gibibytes(1),
  'WorkspaceClaim': () => lib.WorkspaceClaim.fromClaimName('datasets'),
  // An imported Secret lives in a chart of its own; only its name is used.
  'cdk8s-plus-28.ISecret': () => kplus.Secret.fromSecretName(new Chart(Testing.app(), 'samples'), 'secret', 'credentials'),
};

/** A value of the right type, for required fields of a struct the test fills in. */
export function sample(spec: string): unknown {
  const t = bare(spec);
  if (SAMPLES[t]) return SAMPLES[t]();
  if (t.endsWith('[]')) return [];
  if (t.endsWith('{}')) return {};
  switch (t) {
    case 'string': return 'x';
    case 'number': return 1;
    case 'boolean': return false;
    case 'any': return {};
    case 'json': return 'x';
  }
  if (STRUCTS[t]) return minimal(t);
  if (CLASSES[t]) {
    const member = (CLASSES[t].make ?? []).find(m => !m.includes('('));
    if (member) return resolve(t)[member];
  }
  throw new Error(`no sample of ${t}`);
}

/** A struct with its required fields only. */
export function minimal(structFqn: string): object {
  const out: { [k: string]: unknown } = {};
  for (const [k, s] of Object.entries(STRUCTS[structFqn])) if (!optional(s)) out[k] = sample(s);
  return out;
}

/** Near misses for a type: what a JavaScript caller or a YAML file would plausibly give instead. */
export function wrongValues(spec: string): fc.Arbitrary<unknown> {
  const t = bare(spec);
  if (t.endsWith('[]')) {
    const element = t.slice(0, -2);
    return fc.oneof(
      fc.constant('python train.py'),
      wrongValues(element).map(v => [v]),
      fc.tuple(fc.constant(validElement(element)), wrongValues(element)).map(([a, b]) => [a, b]),
      fc.constant([undefined]),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
    );
  }
  if (t.endsWith('{}')) {
    const element = t.slice(0, -2);
    return fc.oneof(
      fc.constant({ DATA: undefined }),
      wrongValues(element).map(v => ({ KEY: v })),
      fc.constant(['a', 'b']),
      fc.string(),
    );
  }
  switch (t) {
    case 'string': return fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string(), { minLength: 1, maxLength: 2 }), fc.constant(new String('x')));
    case 'number': return fc.oneof(fc.integer().map(String), fc.constantFrom(NaN, Infinity, -Infinity), fc.boolean(), fc.constant(new Number(2)), fc.bigInt());
    case 'boolean': return fc.oneof(fc.constantFrom('true', 'false', 0, 1), fc.constant(new Boolean(true)));
    case 'any': return fc.constant(undefined);
    case 'json': return fc.oneof(fc.constant(new Map()), fc.bigInt(), fc.constant(NaN), fc.constant([() => 1]));
  }
  if (STRUCTS[t]) {
    const keys = Object.keys(STRUCTS[t]);
    const misspelt = keys.length ? fc.tuple(fc.constantFrom(...keys), fc.constantFrom('lower', 'drop', 'plural')).map(([k, how]) => {
      const key = how === 'lower' && k.toLowerCase() !== k ? k.toLowerCase() : how === 'drop' && k.length > 2 ? k.slice(0, -1) : `${k}s`;
      return { ...minimal(t), [key]: 'x' };
    }) : fc.constant({ unknown: 1 });
    return fc.oneof(misspelt, fc.string(), fc.integer(), fc.constant([minimal(t)]), fc.constant('{}'));
  }
  if (CLASSES[t]) return classNearMisses(t);
  if (ENUMS[t]) {
    const values = Object.values(resolve(t)).map(String);
    const otherCase = (v: string) => v.toLowerCase() === v ? v.toUpperCase() : v.toLowerCase();
    return fc.oneof(fc.constantFrom(...values).map(otherCase), fc.integer(), fc.constantFrom(...ENUMS[t]));
  }
  if (INTERFACES[t]) {
    // Objects with some of the members but not all (a construct's `name` without its `node`).
    const partial = INTERFACES[t].length > 1 ? [fc.constant({ [INTERFACES[t][0]]: 'x' })] : [];
    return fc.oneof(fc.string(), fc.constant({ name: 'x' }), ...partial);
  }
  return fc.constant(undefined);
}

function validElement(element: string): unknown {
  try {
    return sample(element);
  } catch {
    return undefined;
  }
}

/** For an enum-like or external class: its values as strings, plain-object copies, a copy from another cdk8s-plus. */
function classNearMisses(fqn: string): fc.Arbitrary<unknown> {
  const cls = resolve(fqn);
  const members = (CLASSES[fqn].make ?? []).filter(m => !m.includes('(')).map(m => cls[m]).filter(v => v !== undefined);
  const strings = members.flatMap(m => Object.values(m).filter(v => typeof v === 'string') as string[]);
  const name = fqn.slice(fqn.lastIndexOf('.') + 1);
  // A class of the same name from another copy, as jsii marks it (see check.ts).
  const other = { [name]: class {} }[name] as any;
  other[Symbol.for('jsii.rtti')] = { fqn: `cdk8s-plus-33.${name}`, version: '2.5.57' };
  return fc.oneof(
    strings.length ? fc.constantFrom(...strings, ...strings.map(s => s.toLowerCase())) : fc.constantFrom('8', '10Gi', '2', '500m'),
    members.length ? fc.constantFrom(...members).map(m => ({ ...m })) : fc.constant({ amount: 2 }),
    fc.integer({ min: 0, max: 16 }),
    fc.constant(new other()),
  );
}

/** A field a property test sets: its path from the props and its type. */
export interface FieldPath {
  readonly path: readonly string[];
  readonly type: string;
}

/** Every field of a props struct, nested into the library's own structs down to `depth` levels. */
export function fieldPaths(structFqn: string, depth = 3, prefix: readonly string[] = []): FieldPath[] {
  const out: FieldPath[] = [];
  for (const [key, spec] of Object.entries(STRUCTS[structFqn])) {
    const t = bare(spec);
    if (t === 'any') continue;
    const path = [...prefix, key];
    out.push({ path, type: spec });
    if (depth > 1 && STRUCTS[t] && !t.includes('.')) out.push(...fieldPaths(t, depth - 1, path));
  }
  return out;
}

/** `base` with `value` at `path`; missing parents are the minimal struct of their type. */
export function withValueAt(structFqn: string, base: any, path: readonly string[], value: unknown): any {
  const [head, ...rest] = path;
  if (!rest.length) return { ...base, [head]: value };
  const childType = bare(STRUCTS[structFqn][head]);
  const parent = base?.[head] ?? minimal(childType);
  return { ...base, [head]: withValueAt(childType, parent, rest, value) };
}

/** The field a library error names, or undefined when the error is not the library's. */
export function libraryErrorField(e: unknown, at: string | readonly string[]): string | undefined {
  if (typeof at !== 'string') {
    for (const path of at) {
      const field = libraryErrorField(e, path);
      if (field !== undefined) return field;
    }
    return undefined;
  }
  const path = at;
  if (!(e instanceof Error) || e.constructor !== Error) return undefined;
  // A field is a path of names and JSON-quoted keys: `env.DATA`, `podLabels["app name"]`, `args[1]`.
  const field = '((?:[^\\s"]|"(?:[^"\\\\]|\\\\.)*")+)';
  // A rule over the rendered document names the document field and, in brackets, the prop that set
  // it (`spec...default (defaultImageConfig) is ...`): the prop is the field the caller passed.
  const prop = '(?: \\(([A-Za-z][\\w.]*)\\))?';
  const thrown = new RegExp(`^${escape(path)}(?:/[^:\\s]+)?: ${field}${prop} is [\\s\\S]+; `).exec(e.message);
  // Synth-time reports may come from the construct or from an enclosing one: a value a method of a
  // replica group accepted can be refused by the rules over the job's rendered document.
  const ancestors = path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/')).filter(p => p.includes('/')).map(escape).join('|');
  const reported = new RegExp(`^Validation failed with the following errors:\\n {2}\\[(?:${ancestors})(?:/[^\\]]*)?\\] ${field}${prop} is [\\s\\S]+; `).exec(e.message);
  const match = thrown ?? reported;
  return match?.[2] ?? match?.[1];
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Builds in a fresh chart "test", validates every construct as `app.synth()` does, and renders. */
export function render(build: (chart: Chart) => void): any[] {
  const chart = new Chart(new App({ outdir: Testing.app().outdir }), 'test');
  build(chart);
  for (const c of chart.node.findAll()) {
    const errors = c.node.validate();
    if (errors.length) throw new Error(`${REPORT}  ${errors.map(e => `[${c.node.path}] ${e}`).join('\n  ')}`);
  }
  return Testing.synth(chart);
}

/** What one case did, for the property's verdict. */
function verdict(
  label: string, at: string | readonly string[], field: string, spec: string, value: unknown, run: () => void, isArgument = false,
): void {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  const right = conforms(spec, value, isArgument);
  if (error === undefined) {
    if (!right) throw new Error(`${label}: ${field} = ${show(value)} is not a ${bare(spec)}, yet a manifest was written (the value was dropped or mangled)`);
    return;
  }
  const named = libraryErrorField(error, at);
  if (named === undefined) {
    const e = error as any;
    throw new Error(`${label}: ${field} = ${show(value)} ended in an error that is not the library's: ${e?.constructor?.name}: ${e?.message ?? String(e)}`);
  }
  if (!right && named !== field && !named.startsWith(`${field}.`) && !named.startsWith(`${field}[`)) {
    throw new Error(`${label}: ${field} = ${show(value)} is of the wrong type, but the error names ${named}: ${(error as Error).message}`);
  }
}

/** A value for a field: anything at all, or a near miss of its type (twice as often). */
function valueFor(spec: string): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 1, arbitrary: anything }, { weight: 2, arbitrary: wrongValues(spec) });
}

/**
 * The property for a construct's props: one field at a time set to an arbitrary value over a
 * valid `base`. Returns the number of fields it covers.
 */
export function propsProperty(label: string, propsFqn: string, base: object, build: (chart: Chart, props: any) => void, at = 'test/job'): number {
  const paths = fieldPaths(propsFqn);
  const arbitrary = fc.constantFrom(...paths).chain(p => fc.tuple(fc.constant(p), valueFor(p.type)));
  fc.assert(fc.property(arbitrary, ([p, value]) => {
    const props = withValueAt(propsFqn, base, p.path, value);
    verdict(label, at, p.path.join('.'), p.type, value, () => render(chart => build(chart, props)));
  }), { numRuns: PROPERTY_RUNS });
  return paths.length;
}

/** One method's arguments: right ones by default, built in the chart of the case. */
export interface MethodCase {
  readonly method: string;
  readonly args: (chart: Chart) => unknown[];
}

/**
 * The property for public methods: one argument at a time set to an arbitrary value, the others
 * right. `target` makes the object whose methods are called (a construct at path `at`). Returns the
 * number of arguments it covers.
 */
export function methodsProperty(label: string, classFqn: string, cases: readonly MethodCase[], target: (chart: Chart) => any, at: string): number {
  const params = CLASSES[classFqn].methods ?? {};
  const slots = cases.flatMap(c => params[c.method].map((spec, index) => ({ c, index, name: spec.slice(0, spec.indexOf(':')), type: spec.slice(spec.indexOf(':') + 1) })));
  const arbitrary = fc.constantFrom(...slots).chain(s => fc.tuple(fc.constant(s), valueFor(s.type)));
  fc.assert(fc.property(arbitrary, ([s, value]) => {
    verdict(`${label}.${s.c.method}`, at, s.name, s.type, value, () => render(chart => {
      const args = s.c.args(chart);
      args[s.index] = value;
      target(chart)[s.c.method](...args);
    }), true);
  }), { numRuns: PROPERTY_RUNS });
  return slots.length;
}

/** A static factory: right arguments by default, and how its result is used in a construct. */
export interface StaticCase {
  readonly cls: string;
  readonly method: string;
  readonly args: (chart: Chart) => unknown[];
  /** Puts the result into a construct, so a value the factory accepts reaches a manifest. */
  readonly use: (chart: Chart, result: any) => void;
}

/**
 * The property for static factories: one argument at a time set to an arbitrary value, the
 * result used in a construct. An error may come from the factory (`Accelerator.nvidia: ...`, or the
 * scope's path for a factory that takes one) or from the construct that uses the result (`at`).
 * Returns the number of arguments it covers.
 */
export function staticsProperty(cases: readonly StaticCase[], at: readonly string[]): number {
  const slots = cases.flatMap(c => CLASSES[c.cls].statics![c.method].map((spec, index) => ({
    c, index, name: spec.slice(0, spec.indexOf(':')), type: spec.slice(spec.indexOf(':') + 1),
  })));
  const arbitrary = fc.constantFrom(...slots).chain(s => fc.tuple(fc.constant(s), valueFor(s.type)));
  fc.assert(fc.property(arbitrary, ([s, value]) => {
    const label = `${s.c.cls}.${s.c.method}`;
    verdict(label, [label, ...at], s.name, s.type, value, () => render(chart => {
      const args = s.c.args(chart);
      args[s.index] = value;
      s.c.use(chart, (resolve(s.c.cls) as any)[s.c.method](...args));
    }), true);
  }), { numRuns: PROPERTY_RUNS });
  return slots.length;
}
