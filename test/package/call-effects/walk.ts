/**
 * The audit's walk: every prop of every root's struct (nested structs' props by path), every
 * public method and setter of every construct and replica group, each given its sample and
 * synthesized against the same build without it. A member changes the manifest, is refused with
 * the library's message, or changes nothing.
 */
import { App, Chart, Testing } from 'cdk8s';
import { allClasses, classMembers, isStruct, ownName, staticMethods, structBases, structProps, typeKey, TypeRef } from './assembly';
import { CONTEXTS, MINIMAL_STRUCTS, Root, ROOTS } from './roots';
import { BY_PROP, BY_TYPE, METHOD_ARGS } from './samples';
import { BY_PARAM, STATICS } from './statics';
import * as lib from '../../../src';

export type Outcome =
  | { readonly effect: 'changed' }
  | { readonly effect: 'refused'; readonly message: string }
  | { readonly effect: 'none' }
  | { readonly effect: 'no sample' }
  | { readonly effect: 'broken'; readonly message: string };

export interface Walked {
  /** `DistributedPyTorch: master.image`, `DistributedPyTorch.worker: addEnv()`. */
  readonly member: string;
  readonly kind: 'prop' | 'method' | 'setter' | 'static';
  readonly outcome: Outcome;
}

/** One synth of a build: the documents as JSON, or the error it ended in. */
function render(build: (chart: Chart) => void): { docs?: string; error?: unknown } {
  try {
    const chart = new Chart(new App({ outdir: Testing.app().outdir }), 'test');
    build(chart);
    const errors = chart.node.findAll().flatMap(c => c.node.validate().map(e => `[${c.node.path}] ${e}`));
    if (errors.length) return { error: new Error(`Validation failed with the following errors:\n  ${errors.join('\n  ')}`) };
    return { docs: JSON.stringify(Testing.synth(chart)) };
  } catch (error) {
    return { error };
  }
}

/** The library's own refusal: a plain Error naming the construct path, never a TypeError or a crash. */
function refusal(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.constructor !== Error) return undefined;
  return /^(test\/|Validation failed with the following errors:\n {2}\[test)/.test(error.message) ? error.message : undefined;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.constructor.name}: ${error.message.split('\n').slice(0, 3).join(' | ')}` : String(error);
}

/**
 * Compares the build with the member against the build without it. `prepare` makes the member's
 * sample in the chart first, in both builds, so a sample that adds objects of its own (a
 * LocalQueue, a volume) is in the baseline too and only its use is compared.
 */
type Build = (chart: Chart, sample: unknown) => void;
function compare(prepare: (chart: Chart) => unknown, without: Build, withIt: Build): Outcome {
  const base = render(chart => without(chart, prepare(chart)));
  if (base.error !== undefined) return { effect: 'broken', message: `the baseline fails: ${describeError(base.error)}` };
  const changed = render(chart => withIt(chart, prepare(chart)));
  if (changed.error !== undefined) {
    const message = refusal(changed.error);
    return message === undefined ? { effect: 'broken', message: describeError(changed.error) } : { effect: 'refused', message };
  }
  return changed.docs === base.docs ? { effect: 'none' } : { effect: 'changed' };
}

/** The sample of a prop: by root and path, by the struct declaring it, else by type. */
function sampleOf(root: string, path: string, declaredBy: string, prop: string, type: TypeRef) {
  return BY_PROP[`${root}: ${path}`] ?? BY_PROP[`${declaredBy}.${prop}`] ?? BY_TYPE[typeKey(type)];
}

/** The minimal value of the struct at `path` of a root: by root and path, else by struct. */
function minimalAt(root: string, path: string[], struct: string, chart: Chart): object {
  return (MINIMAL_STRUCTS[`${root}: ${path.join('.')}`] ?? MINIMAL_STRUCTS[struct])?.(chart) ?? {};
}

/**
 * `{ a: { b: value } }` for the path `a.b`, over the minimal values of the structs on the way;
 * without a value, the path's outer structs alone (the walked prop unset).
 */
function nested(root: string, path: string[], structs: string[], chart: Chart, value?: { value: unknown }, at: string[] = []): any {
  const [head, ...rest] = path;
  if (rest.length === 0) return value ? { [head]: value.value } : {};
  const here = [...at, head];
  return { [head]: { ...minimalAt(root, here, structs[0], chart), ...nested(root, rest, structs.slice(1), chart, value, here) } };
}

/** The props of a root's struct, by path, nested structs included (each a path of its own). */
interface PropPath { path: string[]; structs: string[]; declaredBy: string; type: TypeRef }
function propPaths(struct: string, prefix: string[] = [], structs: string[] = []): PropPath[] {
  const out: PropPath[] = [];
  for (const prop of structProps(struct)) {
    const inner = ownName(prop.type);
    if (inner && isStruct(inner)) {
      out.push(...propPaths(inner, [...prefix, prop.name], [...structs, inner]));
    } else {
      out.push({ path: [...prefix, prop.name], structs, declaredBy: prop.declaredBy, type: prop.type });
    }
  }
  return out;
}

/** The structs each root reaches (its own, the ones it extends, and the nested ones). */
export function structsReached(): Set<string> {
  const reached = new Set<string>();
  const visit = (struct: string) => {
    reached.add(struct);
    for (const base of structBases(struct)) if (!reached.has(base)) visit(base);
    for (const prop of structProps(struct)) {
      const inner = ownName(prop.type);
      if (inner && isStruct(inner) && !reached.has(inner)) visit(inner);
    }
  };
  for (const root of ROOTS) visit(root.struct);
  return reached;
}

function walkProps(root: Root): Walked[] {
  return propPaths(root.struct).map(({ path, structs, declaredBy, type }) => {
    const member = `${root.name}: ${path.join('.')}`;
    const sample = sampleOf(root.name, path.join('.'), declaredBy, path[path.length - 1], type);
    if (!sample) return { member, kind: 'prop' as const, outcome: { effect: 'no sample' as const } };
    // The root's context for the path and the path's outer structs, at their minimal values, are in both builds.
    const context = (chart: Chart) => ({
      ...CONTEXTS[`${root.name}: ${path[0]}`]?.(chart),
      ...(path.length > 1 ? CONTEXTS[`${root.name}: ${path.join('.')}`]?.(chart) : {}),
    });
    const without = (chart: Chart) => root.build(chart, { ...context(chart), ...nested(root.name, path, structs, chart) });
    const withIt = (chart: Chart, value: unknown) => root.build(chart, { ...context(chart), ...nested(root.name, path, structs, chart, { value }) });
    return { member, kind: 'prop' as const, outcome: compare(sample, without, withIt) };
  });
}

/** A construct's members, or a replica group's (reached through the job that holds it). */
export interface Holder {
  readonly name: string;
  readonly className: string;
  build(chart: Chart): any;
}

/** The objects whose methods are walked: each root's construct, each v1 job's replica groups, and the two classes no root builds. */
export function holders(): Holder[] {
  const out: Holder[] = [];
  for (const root of ROOTS) {
    if (typeof (lib as any)[root.name] !== 'function') continue;
    const made = root.build(new Chart(Testing.app(), 'probe'), {});
    const className = made?.constructor?.name;
    if (!className || (lib as any)[className] !== made.constructor || root.name !== className) continue;
    out.push({ name: root.name, className, build: chart => root.build(chart, {}) });
    if (made instanceof lib.TrainingJob) {
      made.replicaGroups.forEach((group, i) => out.push({
        name: `${root.name}.${group.replicaType}`,
        className: 'ReplicaGroup',
        build: chart => (root.build(chart, {}) as lib.TrainingJob).replicaGroups[i],
      }));
    }
  }
  // A runtime's replica groups: the nodes, the MPI launcher and the two initializers.
  const runtime = (chart: Chart) => new lib.TrainingRuntime(chart, 'runtime', {
    metadata: { name: 'mpi-audit' },
    mlPolicy: lib.MlPolicy.mpi(),
    image: 'registry.example.com/train:1.0',
    datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer:v2.0.0' },
    modelInitializer: { image: 'ghcr.io/kubeflow/trainer/model-initializer:v2.0.0' },
  });
  for (const group of ['nodes', 'launcher', 'datasetInitializer', 'modelInitializer'] as const) {
    out.push({ name: `TrainingRuntime.${group}`, className: 'ReplicaGroup', build: chart => runtime(chart)[group] });
  }
  out.push({ name: 'ConfigReader', className: 'ConfigReader', build: chart => new lib.ConfigReader(chart, 'config') });
  out.push({ name: 'StableFileNamesApp', className: 'StableFileNamesApp', build: () => new lib.StableFileNamesApp({ outdir: Testing.app().outdir }) });
  return out;
}

/**
 * A ConfigReader's arguments: a value not in the config (undefined) and its key; the reader
 * returns nothing and records nothing, as for a key the config leaves out.
 */
function readerArgs(method: string): unknown[] {
  if (method === 'check') return [];
  if (method === 'accelerator') return [undefined, undefined, 'audit.accelerator'];
  return [undefined, `audit.${method}`];
}

function walkMethods(holder: Holder): Walked[] {
  return classMembers(holder.className).map(m => {
    const member = `${holder.name}: ${m.name}${m.kind === 'method' ? '()' : ''}`;
    const args = holder.className === 'ConfigReader' ? () => readerArgs(m.name)
      : holder.className === 'StableFileNamesApp' ? () => [] : METHOD_ARGS[`${m.declaredBy}.${m.name}`];
    if (!args) return { member, kind: m.kind, outcome: { effect: 'no sample' as const } };
    const call = (target: any, values: unknown[]) => m.kind === 'method' ? target[m.name](...values) : (target[m.name] = values[0]);
    return {
      member,
      kind: m.kind,
      outcome: compare(args, chart => holder.build(chart), (chart, values) => call(holder.build(chart), values as unknown[])),
    };
  });
}

/**
 * The parameters of every static method: each given its sample in turn over the minimal
 * arguments. Not walked: `parse` and the `Parse` class (configuration text read into the values
 * the constants and factories give, test/config/), `PlatformDefaults.set` (walked as a root),
 * and struct parameters (walked prop by prop as roots).
 */
function walkStatics(): Walked[] {
  const out: Walked[] = [];
  for (const className of allClasses()) {
    if (className === 'Parse') continue;
    for (const method of staticMethods(className)) {
      if (method.name === 'parse' || `${className}.${method.name}` === 'PlatformDefaults.set') continue;
      const entry = STATICS[`${className}.${method.name}`];
      method.params.forEach((param, i) => {
        const struct = ownName(param.type);
        if (struct && isStruct(struct)) return;
        const member = `${className}.${method.name}(${param.name})`;
        const sample = BY_PARAM[`${className}.${method.name}.${param.name}`] ?? BY_TYPE[typeKey(param.type)];
        if (!entry || !sample) {
          out.push({ member, kind: 'static', outcome: { effect: 'no sample' } });
          return;
        }
        const withArg = (chart: Chart, value: unknown) => {
          const args = entry.args(chart);
          while (args.length < i) args.push(undefined);
          args[i] = value;
          entry.run(chart, args);
        };
        out.push({ member, kind: 'static', outcome: compare(sample, chart => entry.run(chart, entry.args(chart)), withArg) });
      });
    }
  }
  return out;
}

/** Walks every member once. */
export function walk(): Walked[] {
  return [...ROOTS.flatMap(walkProps), ...holders().flatMap(walkMethods), ...walkStatics()];
}
