import { TypeGenerator } from 'json2jsii';
import { CoreTypes, plain } from './core-types';
import { CrdKind } from './crd-source';
import { describe } from './docs';
import { embeddedTypeAt } from './embedded-rules';
import { API_OBJECT_METADATA, coreType, externalRef, INT_OR_STRING, k8sType, QUANTITY, registerExternal } from './externals';
import { tidyJson2jsiiOutput } from './rewrites';
import { canonical, isIntOrString, JsonSchema, withoutDescriptions } from './schema';
import { SharedTypeNamer } from './shared-type-names';

/** The user-settable part of a kind: its spec, without upstream descriptions and without status. */
export function specOf(kind: CrdKind): JsonSchema {
  const spec = kind.schema.properties?.spec;
  if (!spec) throw new Error(`${kind.file}: the ${kind.kind} schema has no spec`);
  return withoutDescriptions(spec);
}

/** Fields every object has, which the L1 writes itself (apiVersion, kind, metadata) or never writes (status). */
const OBJECT_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/**
 * The fields of a kind that has no spec (Kueue's WorkloadPriorityClass keeps `value` and
 * `description` at the top, like a Kubernetes PriorityClass), without upstream descriptions;
 * undefined for a kind with a spec.
 */
export function topLevelFieldsOf(kind: CrdKind): JsonSchema | undefined {
  if (kind.schema.properties?.spec) return undefined;
  const fields = Object.entries(kind.schema.properties ?? {}).filter(([name]) => !OBJECT_FIELDS.has(name));
  if (fields.length === 0) throw new Error(`${kind.file}: the ${kind.kind} schema has neither a spec nor fields of its own`);
  return withoutDescriptions({ type: 'object', properties: Object.fromEntries(fields) });
}

/** Walks a spec and records every embedded Kubernetes core type with the core registry. */
export function collectEmbedded(kind: CrdKind, core: CoreTypes): void {
  if (topLevelFieldsOf(kind)) return;
  walk(specOf(kind), 'spec', (schema, path) => {
    const type = embeddedTypeAt(path);
    if (type && schema.properties) {
      core.collect(type, schema, `${kind.file}: ${path}`);
      return true;
    }
    return false;
  });
}

/**
 * Renders one module (one API group version) with an L1 class per kind. Subtrees that several
 * kinds share exactly (run policy, replica spec, ...) become one named type instead of a copy per
 * kind.
 */
export function renderKindModule(kinds: CrdKind[], core: CoreTypes, header: string, names: SharedTypeNamer, module: string): string {
  const withSpec = kinds.filter(k => !topLevelFieldsOf(k));
  const specs = new Map(withSpec.map(k => [k.kind, typeEmbedded(specOf(k), 'spec', core)]));
  const shared = shareCommonSubtrees(specs, names);

  const gen = new TypeGenerator({ renderTypeName: def => def });
  const externals = registerExternals(gen, core);
  for (const [name, def] of shared) gen.addDefinition(name, forJson2jsii(describe(def.schema, def.path)));

  for (const kind of kinds) {
    const name = TypeGenerator.normalizeTypeName(kind.kind);
    const topLevel = topLevelFieldsOf(kind);
    if (topLevel) {
      // No spec: the props are the metadata and the kind's own top-level fields.
      const fields = describe(topLevel, kind.kind).properties!;
      const required = (kind.schema.required ?? []).filter(r => !OBJECT_FIELDS.has(r));
      gen.emitCustomType(name, code => emitClass(code, name, kind, required.length > 0, module));
      gen.emitType(`${name}Props`, {
        type: 'object',
        description: `Props of a ${kind.kind} (${kind.group}/${kind.version}).`,
        properties: {
          metadata: { ...externalRef(API_OBJECT_METADATA[0]), description: 'Kubernetes object metadata.' },
          ...fields,
        },
        ...(required.length > 0 ? { required } : {}),
      } as Parameters<TypeGenerator['emitType']>[1], `${name}Props`);
      continue;
    }
    const spec = specs.get(kind.kind)!;
    const specRequired = (kind.schema.required ?? []).includes('spec');
    gen.addDefinition(`${name}Spec`, forJson2jsii(describe(spec, 'spec')));
    gen.emitCustomType(name, code => emitClass(code, name, kind, specRequired, module));
    gen.emitType(`${name}Props`, {
      type: 'object',
      description: `Props of a ${kind.kind} (${kind.group}/${kind.version}).`,
      properties: {
        metadata: { ...externalRef(API_OBJECT_METADATA[0]), description: 'Kubernetes object metadata.' },
        spec: { $ref: `#/definitions/${name}Spec`, description: `The ${kind.kind} spec.` },
      },
      ...(specRequired ? { required: ['spec'] } : {}),
    }, `${name}Props`);
  }
  return finish(header, gen.render(), externals);
}

/** Renders the core module: the Kubernetes types the CRDs embed in a newer version than k8s 1.28. */
export function renderCoreModule(core: CoreTypes, header: string): string {
  const gen = new TypeGenerator({ renderTypeName: def => def });
  const externals = registerExternals(gen, core);
  const own = core.ownTypes();
  for (const type of own) gen.addDefinition(type, forJson2jsii(describe(core.definition(type), type)));
  for (const type of own) gen.emitType(type, undefined, type);
  return finish(header, gen.render(), externals);
}

/** Our schema type is looser than json-schema's draft-4 typing, which json2jsii declares. */
function forJson2jsii(schema: JsonSchema): Parameters<TypeGenerator['addDefinition']>[1] {
  return schema as Parameters<TypeGenerator['addDefinition']>[1];
}

/** Registers every external type (before any other type, see externals.ts); returns how many. */
function registerExternals(gen: TypeGenerator, core: CoreTypes): number {
  const externals = [...core.embeddedTypes().flatMap(type => [k8sType(type), coreType(type)]), QUANTITY, INT_OR_STRING, API_OBJECT_METADATA];
  for (const external of externals) registerExternal(gen, external);
  return externals.length;
}

function emitClass(code: any, name: string, kind: CrdKind, specRequired: boolean, module: string) {
  const gvk = `{ apiVersion: '${kind.group}/${kind.version}', kind: '${kind.kind}' }`;
  const propsParam = specRequired ? `props: ${name}Props` : `props: ${name}Props = {}`;
  code.line('/**');
  code.line(` * A ${kind.kind} (\`${kind.group}/${kind.version}\`, ${kind.scope.toLowerCase()}), typed from the pinned CRD.`);
  code.line(' */');
  code.openBlock(`export class ${name} extends ApiObject`);
  code.line(`/** The apiVersion and kind of every ${kind.kind}. */`);
  code.line(`public static readonly GVK: GroupVersionKind = ${gvk};`);
  code.line();
  code.line(`/** A ${kind.kind} manifest as plain JSON, for embedding in other objects. */`);
  code.openBlock(`public static manifest(${propsParam}): any`);
  code.line(`return { ...${name}.GVK, ...toJson_${name}Props(props) };`);
  code.closeBlock();
  code.line();
  code.line('/** JSON patches, kept here rather than by ApiObject, which would apply them before the typed serializer. */');
  code.line('private readonly manifestPatches: JsonPatch[] = [];');
  code.line();
  code.line('/** What the library runs around the rendering (late metadata, one rendering per synth; src/synth/render-hook.ts). */');
  code.line('private renderHook?: (render: () => any) => any;');
  code.line();
  code.line('/** How the props resolve where the library renders the object (src/common/internal/resolve-props.ts); cdk8s\'s `toJson()` otherwise. */');
  code.line('private propsResolver?: (apiObject: ApiObject) => any;');
  code.line();
  code.line(`/** Adds a ${kind.kind} to \`scope\`. */`);
  code.openBlock(`public constructor(scope: Construct, id: string, ${propsParam})`);
  code.line(`super(scope, id, { ...${name}.GVK, ...props });`);
  // The package's entry checks the props a program gives and registers the document with the
  // rules at synth (src/boundary/l1-guard.ts); the library's own constructs do both themselves.
  code.line(`l1Constructed(this, '${module}.${name}', props);`);
  code.closeBlock();
  code.line();
  code.line('/**');
  code.line(' * Adds RFC 6902 JSON patches, applied to the manifest as written.');
  code.line(' *');
  code.line(' * They apply after the typed serializer, so their paths use the field names of the schema');
  code.line(' * (`hostIPC`, not `hostIpc`) and a patch can also add a field the pinned CRD lacks.');
  code.line(' *');
  code.line(' * @param ops The patch operations, with paths into the manifest.');
  code.line(' */');
  code.openBlock('public override addJsonPatch(...ops: JsonPatch[]): void');
  code.line('this.manifestPatches.push(...ops);');
  code.closeBlock();
  code.line();
  code.line('/** The manifest, with the field names of the schema and the JSON patches applied. */');
  code.openBlock('public override toJson(): any');
  code.line('return this.renderHook === undefined ? this.renderManifest() : this.renderHook(() => this.renderManifest());');
  code.closeBlock();
  code.line();
  code.line('/** Sets what runs around the rendering (the library\'s constructs do). @internal */');
  code.openBlock('public _setRenderHook(hook: (render: () => any) => any): void');
  code.line('this.renderHook = hook;');
  code.closeBlock();
  code.line();
  code.line('/** Sets how the props resolve; it answers undefined where cdk8s\'s `toJson()` must. @internal */');
  code.openBlock('public _setPropsResolver(resolver: (apiObject: ApiObject) => any): void');
  code.line('this.propsResolver = resolver;');
  code.closeBlock();
  code.line();
  code.line('/** Whether JSON patches were added (the library then checks the manifest against the strict schema). @internal */');
  code.openBlock('public get _hasJsonPatches(): boolean');
  code.line('return this.manifestPatches.length > 0;');
  code.closeBlock();
  code.line();
  code.openBlock('private renderManifest(): any');
  code.line('const resolved = this.propsResolver?.(this) ?? super.toJson();');
  code.line(`return withJsonPatches(this, { ...${name}.GVK, ...toJson_${name}Props(resolved) }, this.manifestPatches);`);
  code.closeBlock();
  code.closeBlock();
  return { type: name, toJson: (x: string) => x };
}

/** Replaces embedded core types and quantities with references to their typed counterparts. */
function typeEmbedded(schema: JsonSchema, path: string, core: CoreTypes): JsonSchema {
  const type = embeddedTypeAt(path);
  if (type && schema.properties) return core.refFor(type);
  if (isIntOrString(schema)) return plain(schema);
  // json2jsii types a date-time string as Date, which the walk in the coverage test and a user's
  // plain-JSON value cannot carry; the manifest holds an RFC 3339 string.
  if (schema.format === 'date-time') return withoutFormat(schema);
  // An object with no declared fields (Trainer's `mlPolicy.jax: {}`, a choice marker) would become
  // `any`; it is a struct without fields, which is exactly what the API server keeps of it.
  if (schema.type === 'object' && !schema.properties && schema.additionalProperties === undefined
    && schema['x-kubernetes-preserve-unknown-fields'] !== true) {
    return { ...schema, properties: {} };
  }
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties)
      .map(([name, sub]) => [name, typeEmbedded(sub, `${path}.${name}`, core)]));
  }
  if (schema.items) out.items = typeEmbedded(schema.items, `${path}.[]`, core);
  if (typeof schema.additionalProperties === 'object') {
    out.additionalProperties = typeEmbedded(schema.additionalProperties, `${path}.*`, core);
  }
  return out;
}

function withoutFormat(schema: JsonSchema): JsonSchema {
  const { format: _format, ...rest } = schema;
  return rest;
}

interface SharedType { readonly schema: JsonSchema; readonly path: string }

/**
 * Finds object subtrees that two or more kinds have in identical form, shallowest first, and
 * replaces each with a `$ref` to one definition, named from the table of shared-type-names.ts.
 */
function shareCommonSubtrees(specs: Map<string, JsonSchema>, names: SharedTypeNamer): Map<string, SharedType> {
  const shared = new Map<string, SharedType>();
  for (;;) {
    const groups = new Map<string, { kinds: Set<string>; sites: Array<{ parent: any; key: string; path: string[] }> }>();
    for (const [kind, spec] of specs) {
      walkSites(spec, ['spec'], (parent, key, node, path) => {
        if (!node.properties || path.length < 2) return;
        const c = canonical(node);
        const g = groups.get(c) ?? { kinds: new Set(), sites: [] };
        g.kinds.add(kind);
        g.sites.push({ parent, key, path });
        groups.set(c, g);
      });
    }
    const candidates = [...groups.entries()].filter(([, g]) => g.sites.length > 1)
      .sort(([ca, a], [cb, b]) => Math.min(...a.sites.map(s => s.path.length)) - Math.min(...b.sites.map(s => s.path.length)) || (ca < cb ? -1 : 1));
    if (candidates.length === 0) return shared;
    const [c, group] = candidates[0];
    const path = generalize(group.sites.map(s => s.path)).join('.').replace(/\.\[\]/g, '[]');
    const name = names.nameFor(path, group.sites.map(s => s.path.join('.').replace(/\.\[\]/g, '[]')));
    shared.set(name, { schema: JSON.parse(c), path });
    for (const site of group.sites) site.parent[site.key] = { '$ref': `#/definitions/${name}`, 'x-type-name': name };
  }
}

function walkSites(node: JsonSchema, path: string[], visit: (parent: any, key: string, node: JsonSchema, path: string[]) => void) {
  for (const [name, sub] of Object.entries(node.properties ?? {})) {
    visit(node.properties, name, sub, [...path, name]);
    walkSites(sub, [...path, name], visit);
  }
  if (node.items) {
    visit(node, 'items', node.items, [...path, '[]']);
    walkSites(node.items, [...path, '[]'], visit);
  }
  if (typeof node.additionalProperties === 'object') {
    visit(node, 'additionalProperties', node.additionalProperties, [...path, '*']);
    walkSites(node.additionalProperties, [...path, '*'], visit);
  }
}

/**
 * One path for several: a segment that differs becomes `*` plus the suffix all share
 * (`*ReplicaSpecs`), or the alternatives joined with `|` when they share none (`icon|logo`).
 */
function generalize(paths: string[][]): string[] {
  // Sites may sit at different depths; they are compared from the end.
  const depth = Math.min(...paths.map(p => p.length));
  const aligned = paths.map(p => ['spec', ...p.slice(p.length - depth + 1)]);
  const first = aligned[0];
  return first.map((segment, i) => {
    const all = [...new Set(aligned.map(p => p[i]))].sort();
    if (all.length === 1) return segment;
    let suffix = segment;
    while (suffix && !all.every(s => s.endsWith(suffix))) suffix = suffix.slice(1);
    return suffix ? `*${suffix}` : all.join('|');
  });
}

function walk(schema: JsonSchema, path: string, stop: (schema: JsonSchema, path: string) => boolean) {
  if (stop(schema, path)) return;
  for (const [name, sub] of Object.entries(schema.properties ?? {})) walk(sub, `${path}.${name}`, stop);
  if (schema.items) walk(schema.items, `${path}.[]`, stop);
  if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${path}.*`, stop);
}

/** The helper every toJson function ends with: the fields that are set, in order. */
const WITHOUT_UNDEFINED = `
/** The fields of a rendered object that are set, in their order. */
function withoutUndefined(result: { [key: string]: any }): Record<string, any> {
  const out: Record<string, any> = {};
  for (const key of Object.keys(result)) {
    if (result[key] !== undefined) out[key] = result[key];
  }
  return out;
}
`;

/**
 * The helper every L1 class's toJson ends with. cdk8s's ApiObject applies JSON patches to the
 * resolved props, before our typed serializer, which drops every field the pinned types lack: a
 * patch adding such a field would vanish without a word. The classes keep their patches and apply
 * them here, to the manifest as written.
 */
const WITH_JSON_PATCHES = `
/** Applies an L1's JSON patches to its serialized manifest; errors name the construct as cdk8s's own do. */
function withJsonPatches(obj: ApiObject, manifest: any, patches: JsonPatch[]): any {
  if (patches.length === 0) return manifest;
  try {
    return JsonPatch.apply(manifest, ...patches);
  } catch (e) {
    throw new Error(\`Failed serializing construct at path '\${obj.node.path}' with name '\${obj.name}': \${e}\`);
  }
}
`;

/** Tidies json2jsii's code (see rewrites.ts) and adds the header with only the imports the code uses. */
function finish(header: string, rendered: string, externals: number): string {
  const body = tidyJson2jsiiOutput(rendered, externals);
  const classes = /\bextends ApiObject\b/.test(body);
  const lines = [header];
  const cdk8s = ['ApiObject', 'ApiObjectMetadata', 'GroupVersionKind', 'JsonPatch'].filter(n => new RegExp(`\\b${n}\\b`).test(body));
  if (cdk8s.length) lines.push(`import { ${cdk8s.join(', ')} } from 'cdk8s';`);
  if (/\bConstruct\b/.test(body)) lines.push("import { Construct } from 'constructs';");
  if (/\bk8s\./.test(body)) lines.push("import { k8s } from 'cdk8s-plus-28';");
  if (/\bcore\./.test(body)) lines.push("import * as core from './core';");
  if (classes) lines.push("import { l1Constructed } from './l1-hooks';");
  return `${lines.join('\n')}\n\n${body.trimEnd()}\n${WITHOUT_UNDEFINED}${classes ? WITH_JSON_PATCHES : ''}`;
}

/**
 * The module every L1 class calls once it is constructed. It holds one hook, which the package's
 * entry sets (src/boundary/l1-guard.ts): without it (a program that loads imports/ directly, or the
 * CLI's `convert`), constructing an L1 does nothing more than cdk8s's ApiObject does.
 */
export function renderHooksModule(header: string): string {
  return `${header}
import { ApiObject } from 'cdk8s';

let hook: ((apiObject: ApiObject, type: string, props: unknown) => void) | undefined;

/** Sets what runs when an L1 class is constructed (the package's entry does, once). */
export function setL1ConstructedHook(run: (apiObject: ApiObject, type: string, props: unknown) => void): void {
  hook = run;
}

/** Called by every L1 class's constructor, right after cdk8s's: \`type\` is \`<module>.<class>\`, \`props\` as given. */
export function l1Constructed(apiObject: ApiObject, type: string, props: unknown): void {
  if (hook !== undefined) hook(apiObject, type, props);
}
`;
}
