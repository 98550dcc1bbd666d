/**
 * Documentation completeness of the library's own API, read from the compiled jsii assembly
 * (`.jsii`). jsii-docgen and the Python, Java and Go bindings take their reference text from the
 * assembly, so a member without a summary there is a blank line in every language's docs.
 */
import * as fs from 'fs';

/** The parts of a jsii assembly this check reads. */
interface Docs {
  readonly summary?: string;
  readonly default?: string;
}

interface Parameter {
  readonly name: string;
  readonly docs?: Docs;
}

interface Property {
  readonly name: string;
  readonly optional?: boolean;
  readonly docs?: Docs;
}

interface Method {
  readonly name: string;
  readonly docs?: Docs;
  readonly parameters?: Parameter[];
}

interface TypeEntry {
  readonly kind: 'class' | 'interface' | 'enum';
  readonly docs?: Docs;
  readonly properties?: Property[];
  readonly methods?: Method[];
  readonly initializer?: { readonly parameters?: Parameter[] };
}

export interface Assembly {
  readonly name: string;
  readonly types?: { [fqn: string]: TypeEntry };
}

/** Reads a `.jsii` assembly file. */
export function readAssembly(file: string): Assembly {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Assembly;
}

/**
 * Every member of the assembly's root module that lacks documentation, one line each:
 *
 * - `Type` for a type without a summary,
 * - `Type#prop` for a property without a summary,
 * - `Type.method()` for a method without a summary,
 * - `Type.method(param)` and `Type.new(param)` for method and initializer parameters without one,
 * - `NO-DEFAULT Type#prop` for an optional property of an interface (a struct) without `@default`.
 *
 * Submodules (the generated L1s under `kubeflow`, `notebooks` and `core`) are left out: their
 * text comes from the CRDs.
 */
export function undocumentedMembers(assembly: Assembly): string[] {
  const missing: string[] = [];
  const prefix = `${assembly.name}.`;
  for (const [fqn, type] of Object.entries(assembly.types ?? {})) {
    if (!fqn.startsWith(prefix) || fqn.slice(prefix.length).includes('.')) continue;
    if (!type.docs?.summary) missing.push(fqn);
    for (const p of type.properties ?? []) {
      if (!p.docs?.summary) missing.push(`${fqn}#${p.name}`);
    }
    for (const m of type.methods ?? []) {
      if (!m.docs?.summary) missing.push(`${fqn}.${m.name}()`);
      for (const param of m.parameters ?? []) {
        if (!param.docs?.summary) missing.push(`${fqn}.${m.name}(${param.name})`);
      }
    }
    for (const param of type.initializer?.parameters ?? []) {
      if (!param.docs?.summary) missing.push(`${fqn}.new(${param.name})`);
    }
    if (type.kind === 'interface') {
      for (const p of type.properties ?? []) {
        if (p.optional && !p.docs?.default) missing.push(`NO-DEFAULT ${fqn}#${p.name}`);
      }
    }
  }
  return missing;
}
