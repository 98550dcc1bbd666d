/**
 * The members the audit walks, read from the jsii assembly (`.jsii`, written by `npx projen compile`)
 * rather than from the sources, so a member added to the public API is walked without an edit
 * here: the props of a struct (its bases' included), the nested structs a prop holds, and the
 * public instance methods and setters of a class.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..', '..');
const PREFIX = 'cdk8s-kubeflow.';

export interface TypeRef {
  readonly primitive?: string;
  readonly fqn?: string;
  readonly collection?: { kind: 'array' | 'map'; elementtype: TypeRef };
}

/** One prop of a struct, with the struct that declares it (a base's props are the base's). */
export interface StructProp {
  readonly name: string;
  readonly declaredBy: string;
  readonly type: TypeRef;
  readonly optional: boolean;
}

/** One public instance method or setter of a class, with the class that declares it. */
export interface ClassMember {
  readonly name: string;
  readonly declaredBy: string;
  readonly kind: 'method' | 'setter';
}

const assembly = JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf8'));
const types: { [fqn: string]: any } = assembly.types;

/** The name of a type of this package's root module (`ReplicaOptions`), else undefined. */
export function ownName(type: TypeRef): string | undefined {
  if (!type.fqn?.startsWith(PREFIX)) return undefined;
  const name = type.fqn.slice(PREFIX.length);
  return name.includes('.') ? undefined : name;
}

/** Whether `name` is a struct (a jsii datatype interface) of the root module. */
export function isStruct(name: string): boolean {
  return Boolean(types[PREFIX + name]?.datatype);
}

/** Every struct of the root module. */
export function allStructs(): string[] {
  return Object.values(types).filter(t => !t.namespace && t.datatype).map(t => t.name).sort();
}

/** Every class of the root module. */
export function allClasses(): string[] {
  return Object.values(types).filter(t => !t.namespace && t.kind === 'class').map(t => t.name).sort();
}

/** The structs a struct extends, directly. */
export function structBases(name: string): string[] {
  return (types[PREFIX + name]?.interfaces ?? []).map((fqn: string) => fqn.slice(PREFIX.length));
}

/** The props of a struct, its bases' first, each once. */
export function structProps(name: string): StructProp[] {
  const seen = new Map<string, StructProp>();
  const visit = (fqn: string) => {
    const type = types[fqn];
    for (const base of type.interfaces ?? []) visit(base);
    for (const p of type.properties ?? []) {
      seen.set(p.name, { name: p.name, declaredBy: type.name, type: p.type, optional: Boolean(p.optional) });
    }
  };
  visit(PREFIX + name);
  return [...seen.values()];
}

/** The public instance methods and setters a class declares itself (not its bases'). */
export function ownMembers(name: string): ClassMember[] {
  const type = types[PREFIX + name];
  const methods: ClassMember[] = (type.methods ?? [])
    .filter((m: any) => !m.protected && !m.static)
    .map((m: any) => ({ name: m.name, declaredBy: name, kind: 'method' as const }));
  const setters: ClassMember[] = (type.properties ?? [])
    .filter((p: any) => !p.protected && !p.static && !p.immutable && !p.const)
    .map((p: any) => ({ name: p.name, declaredBy: name, kind: 'setter' as const }));
  return [...methods, ...setters];
}

/** The class's own base of this package, if any (`TrainingJob` for `DistributedPyTorch`). */
export function ownBase(name: string): string | undefined {
  const base: string | undefined = types[PREFIX + name]?.base;
  return base?.startsWith(PREFIX) ? base.slice(PREFIX.length) : undefined;
}

/** The public instance methods and setters of a class and of its bases in this package. */
export function classMembers(name: string): ClassMember[] {
  const base = ownBase(name);
  return [...(base ? classMembers(base) : []), ...ownMembers(name)];
}

/** A type as the tables key it: `string`, `boolean`, `cdk8s.Size`, `Resources`, `map<string>`, `array<cdk8s-plus-28.k8s.Toleration>`. */
export function typeKey(type: TypeRef): string {
  if (type.primitive) return type.primitive;
  if (type.fqn) return type.fqn.startsWith(PREFIX) ? type.fqn.slice(PREFIX.length) : type.fqn;
  if (type.collection) return `${type.collection.kind}<${typeKey(type.collection.elementtype)}>`;
  return 'union';
}

/** One parameter of a static method. */
export interface Param {
  readonly name: string;
  readonly type: TypeRef;
  readonly optional: boolean;
}

/** The public static methods a class declares, with their parameters. */
export function staticMethods(name: string): Array<{ name: string; params: Param[] }> {
  return (types[PREFIX + name]?.methods ?? [])
    .filter((m: any) => m.static && !m.protected)
    .map((m: any) => ({
      name: m.name,
      params: (m.parameters ?? []).map((p: any) => ({ name: p.name, type: p.type, optional: Boolean(p.optional) })),
    }));
}
