/**
 * Writes src/boundary/schema.generated.ts: what every public entry point of the library's
 * own API (not the generated L1s in the kubeflow, notebooks, trainer, kueue and core
 * submodules) accepts, read from the jsii assembly; and src/boundary/schema-l1.generated.ts, the
 * same for the L1 classes' constructors and the props they take (loaded only when a program
 * constructs an L1 itself, src/boundary/l1-guard.ts). The runtime checks at the jsii boundary (src/boundary/check.ts) use it,
 * so JavaScript callers and template libraries that build props from configuration get the
 * library's own message instead of a TypeError or a silently dropped value.
 *
 * The compile task runs it right after jsii (which writes `.jsii`), so one build pass gives both
 * copies of the table: the source that tests and type checks read, and the JavaScript in lib/ that
 * the package ships, which it writes as tsc would have compiled the new source (jsii compiled the
 * old one a moment before). Nothing is compiled twice. test/boundary/schema-drift.test.ts
 * regenerates the table in memory and compares it with both copies.
 *
 * Type strings are compact: `string`, `number`, `boolean`, `any`, `json` (JSON data), a type's fqn (the library's own
 * without the `cdk8s-kubeflow.` prefix), `T[]` for a list, `T{}` for a map with string keys, and a
 * leading `?` for an optional value.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const OWN = 'cdk8s-kubeflow';
/**
 * Submodules of generated L1 classes: their table is a file of its own, so that a program that
 * uses only the library's constructs never loads it (their typed serializers write what they are
 * given, so a wrong type would reach the YAML or vanish there without it).
 */
export const L1_SUBMODULES = ['kubeflow', 'notebooks', 'trainer', 'kueue', 'core'];
/** Dependencies whose assemblies describe the external types our API names. */
const DEPENDENCIES = ['cdk8s', 'cdk8s-plus-28', 'constructs'];
/**
 * Structs whose TypeScript declaration has an index signature that jsii cannot express, so any key
 * is allowed (cdk8s's metadata takes fields it does not name).
 */
const OPEN_STRUCTS = new Set(['cdk8s.ApiObjectMetadata']);

type TypeRef = any;
type Assembly = { types: { [fqn: string]: any } };

/** A struct's properties, by name: type string (see the header). */
export type StructTable = { [fqn: string]: { [prop: string]: string } };

export interface GeneratedSchema {
  readonly structs: StructTable;
  readonly classes: { [fqn: string]: ClassEntry };
  readonly interfaces: { [fqn: string]: string[] };
  readonly interfaceExamples: { [fqn: string]: string[] };
  readonly enums: { [fqn: string]: string[] };
  readonly open: string[];
}

interface ClassEntry {
  /** Static members that make an instance, for messages: `NONE`, `of(value)`. */
  make?: string[];
  /** Constructor parameters as `name:type`. */
  init?: string[];
  /** Instance methods' parameters. */
  methods?: { [name: string]: string[] };
  /** Static methods' parameters. */
  statics?: { [name: string]: string[] };
}

function loadAssemblies(root: string): Assembly[] {
  const own = JSON.parse(fs.readFileSync(path.join(root, '.jsii'), 'utf8'));
  const deps = DEPENDENCIES.map(d => JSON.parse(fs.readFileSync(path.join(root, 'node_modules', d, '.jsii'), 'utf8')));
  return [own, ...deps];
}

/**
 * The schema of the assemblies under `root` (the repository root, where `.jsii` is): of the
 * library's own API (`part` 'api'), or of the L1 classes' constructors ('l1').
 */
export function buildSchema(root: string, part: 'api' | 'l1' = 'api'): GeneratedSchema {
  const assemblies = loadAssemblies(root);
  const types: { [fqn: string]: any } = {};
  for (const a of assemblies) Object.assign(types, a.types);

  const structs: StructTable = {};
  const classes: { [fqn: string]: ClassEntry } = {};
  const interfaces: { [fqn: string]: string[] } = {};
  const enums: { [fqn: string]: string[] } = {};
  const interfaceExamples: { [fqn: string]: string[] } = {};
  const pending: string[] = [];
  const seen = new Set<string>();
  const want = (fqn: string) => {
    if (!seen.has(fqn)) {
      seen.add(fqn);
      pending.push(fqn);
    }
  };

  const short = (fqn: string) => fqn.startsWith(`${OWN}.`) ? fqn.slice(OWN.length + 1) : fqn;
  const typeString = (ref: TypeRef): string => {
    if (ref.primitive) return ref.primitive === 'json' ? 'any' : ref.primitive === 'date' ? 'any' : ref.primitive;
    if (ref.fqn) {
      want(ref.fqn);
      return short(ref.fqn);
    }
    if (ref.collection) {
      const element = typeString(ref.collection.elementtype);
      return ref.collection.kind === 'array' ? `${element}[]` : `${element}{}`;
    }
    // Unions appear only in dependencies' types; the dependency checks those itself.
    return 'any';
  };
  const params = (ps: any[] | undefined): string[] =>
    (ps ?? []).map(p => `${p.variadic ? '...' : ''}${p.name}:${p.optional ? '?' : ''}${typeString(p.type)}`);

  /** Every property of a struct or interface, inherited ones included. */
  const allProperties = (fqn: string): any[] => {
    const t = types[fqn];
    if (!t) return [];
    const inherited = (t.interfaces ?? []).flatMap((i: string) => allProperties(i));
    return [...inherited, ...(t.properties ?? [])];
  };
  const allMethods = (fqn: string): any[] => {
    const t = types[fqn];
    if (!t) return [];
    return [...(t.interfaces ?? []).flatMap((i: string) => allMethods(i)), ...(t.methods ?? [])];
  };

  const isL1 = (fqn: string) => fqn.split('.').length > 2 && L1_SUBMODULES.includes(fqn.split('.')[1]);
  // The API's roots are its every type; the L1s' are their classes, whose constructors lead to the rest.
  const isRoot = (fqn: string) => fqn.startsWith(`${OWN}.`) && (part === 'api' ? !isL1(fqn) : isL1(fqn) && types[fqn].kind === 'class');
  for (const fqn of Object.keys(types)) {
    if (isRoot(fqn) && types[fqn].assembly === OWN) want(fqn);
  }

  while (pending.length) {
    const fqn = pending.shift()!;
    const t = types[fqn];
    if (!t) continue; // a type of an assembly we do not load (checked as "any")
    const own = t.assembly === OWN;
    if (t.kind === 'enum') {
      enums[short(fqn)] = t.members.map((m: any) => m.name);
    } else if (t.kind === 'interface' && t.datatype) {
      const props: { [prop: string]: string } = {};
      // cdk8s-plus's k8s.* structs are the Kubernetes API's own, hundreds of them: their keys are
      // checked (a misspelt key would otherwise be dropped), and their values only as JSON data
      // (a Map or a function would end in cdk8s's serializer).
      const keysOnly = fqn.startsWith('cdk8s-plus-28.k8s.');
      for (const p of allProperties(fqn).sort((a, b) => a.name.localeCompare(b.name))) {
        props[p.name] = `${p.optional ? '?' : ''}${keysOnly ? 'json' : typeString(p.type)}`;
      }
      structs[short(fqn)] = props;
    } else if (t.kind === 'interface') {
      const required = [
        ...allProperties(fqn).filter(p => !p.optional).map(p => p.name),
        ...allMethods(fqn).map(m => m.name),
      ];
      interfaces[short(fqn)] = [...new Set(required)].sort();
      // What gives one, for messages: the classes that implement it and static methods that return it.
      const givers = Object.values(types).flatMap((c: any) => c.kind !== 'class' || c.abstract || c.assembly !== t.assembly ? [] : [
        ...(c.interfaces ?? []).includes(fqn) ? [`a ${c.name}`] : [],
        ...(c.methods ?? []).filter((m: any) => m.static && m.returns?.type?.fqn === fqn)
          .map((m: any) => `${c.name}.${m.name}(${(m.parameters ?? []).map((p: any) => p.name).join(', ')})`),
      ]);
      if (givers.length) interfaceExamples[short(fqn)] = givers.slice(0, 4);
    } else if (t.kind === 'class') {
      const entry: ClassEntry = {};
      // In the order of the source, which is the order the docs present them in.
      const line = (m: any) => m.locationInModule?.line ?? 0;
      const make = [
        ...(t.properties ?? []).filter((p: any) => p.static && p.type.fqn === fqn)
          .sort((a: any, b: any) => line(a) - line(b)).map((p: any) => p.name),
        ...(t.methods ?? []).filter((m: any) => m.static && m.returns?.type?.fqn === fqn && m.name !== 'set').sort((a: any, b: any) => line(a) - line(b))
          .map((m: any) => `${m.name}(${(m.parameters ?? []).map((p: any) => p.name).join(', ')})`),
      ];
      if (make.length) entry.make = make;
      if (own && isL1(fqn)) {
        // The constructor only: the L1s' other members take what cdk8s's ApiObject takes.
        if (t.initializer) entry.init = params(t.initializer.parameters);
      } else if (own) {
        if (t.initializer && !t.initializer.protected) entry.init = params(t.initializer.parameters);
        if (t.abstract && t.initializer) entry.init = params(t.initializer.parameters);
        const methods = (t.methods ?? []).filter((m: any) => !m.static && !m.protected);
        const statics = (t.methods ?? []).filter((m: any) => m.static && !m.protected);
        if (methods.length) entry.methods = Object.fromEntries(methods.map((m: any) => [m.name, params(m.parameters)]));
        if (statics.length) entry.statics = Object.fromEntries(statics.map((m: any) => [m.name, params(m.parameters)]));
      }
      classes[short(fqn)] = entry;
    }
  }
  const sortKeys = <T>(o: { [k: string]: T }) => Object.fromEntries(Object.keys(o).sort().map(k => [k, o[k]]));
  return {
    structs: sortKeys(structs),
    classes: sortKeys(classes),
    interfaces: sortKeys(interfaces),
    interfaceExamples: sortKeys(interfaceExamples),
    enums: sortKeys(enums),
    open: [...OPEN_STRUCTS].filter(s => short(s) in structs).sort(),
  };
}

/** The generated file's text (`part` says which table it is, for its header). */
export function renderSchema(schema: GeneratedSchema, part: 'api' | 'l1' = 'api'): string {
  const block = (value: unknown) => JSON.stringify(value, null, 1)
    .replace(/\n\s*/g, ' ')
    .replace(/\{ /g, '{').replace(/ \}/g, '}')
    .replace(/\[ /g, '[').replace(/ \]/g, ']');
  const table = (o: { [k: string]: unknown }) =>
    `{\n${Object.entries(o).map(([k, v]) => `  ${JSON.stringify(k)}: ${block(v)},`).join('\n')}\n}`;
  return [
    '// Generated by scripts/boundary-schema.ts from the jsii assembly. Do not edit by hand.',
    '// Type strings: string, number, boolean, any, json (JSON data), a fqn (own types unprefixed), T[] list, T{} map, ?T optional.',
    ...(part === 'l1' ? [`// The L1 classes' constructors (submodules ${L1_SUBMODULES.join(', ')}), loaded on the first L1 a program constructs.`] : []),
    '/* eslint-disable */',
    '',
    '/** Structs: property name to type string. */',
    `export const STRUCTS: { readonly [fqn: string]: { readonly [prop: string]: string } } = ${table(schema.structs)};`,
    '',
    '/** Classes: static members that make one (for messages), constructor and method parameters as name:type. */',
    `export const CLASSES: { readonly [fqn: string]: { readonly make?: string[]; readonly init?: string[]; readonly methods?: { readonly [name: string]: string[] }; readonly statics?: { readonly [name: string]: string[] } } } = ${table(schema.classes)};`,
    '',
    '/** Interfaces that are not structs: the members an object must have to be one. */',
    `export const INTERFACES: { readonly [fqn: string]: string[] } = ${table(schema.interfaces)};`,
    '',
    '/** Interfaces: what gives one (implementing classes, static methods that return one), for messages. */',
    `export const INTERFACE_EXAMPLES: { readonly [fqn: string]: string[] } = ${table(schema.interfaceExamples)};`,
    '',
    '/** Enums: member names. */',
    `export const ENUMS: { readonly [fqn: string]: string[] } = ${table(schema.enums)};`,
    '',
    '/** Structs that take keys they do not name. */',
    `export const OPEN_STRUCTS: readonly string[] = ${JSON.stringify(schema.open)};`,
    '',
  ].join('\n');
}

export const SCHEMA_FILE = path.join('src', 'boundary', 'schema.generated.ts');
export const L1_SCHEMA_FILE = path.join('src', 'boundary', 'schema-l1.generated.ts');

/**
 * The compiled table (JavaScript and its source map) of the table's source `text`, with the
 * project's compiler options, and where jsii puts it under lib/.
 */
export function compileSchema(root: string, text: string, file: string = SCHEMA_FILE): { file: string; js: string; map: string } {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const source = path.join(root, file);
  const out = path.join(options.outDir!, path.relative(options.rootDir ?? root, source)).replace(/\.ts$/, '.js');
  const compiled = ts.transpileModule(text, { compilerOptions: options, fileName: path.basename(source) });
  const map = JSON.parse(compiled.sourceMapText!);
  map.sources = [path.relative(path.dirname(out), source).split(path.sep).join('/')];
  return { file: out, js: compiled.outputText, map: JSON.stringify(map) };
}

if (require.main === module) {
  const root = path.join(__dirname, '..');
  for (const [part, file] of [['api', SCHEMA_FILE], ['l1', L1_SCHEMA_FILE]] as const) {
    const text = renderSchema(buildSchema(root, part), part);
    const source = path.join(root, file);
    if (!fs.existsSync(source) || fs.readFileSync(source, 'utf8') !== text) fs.writeFileSync(source, text);
    const compiled = compileSchema(root, text, file);
    fs.mkdirSync(path.dirname(compiled.file), { recursive: true });
    fs.writeFileSync(compiled.file, compiled.js);
    fs.writeFileSync(`${compiled.file}.map`, compiled.map);
  }
}
