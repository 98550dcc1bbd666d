/**
 * Rewrites lib/src/index.js, the package's JavaScript entry point, so that each export loads its
 * module on first use. tsc compiles `export * from './training/pytorch'` to a `require()` that runs
 * when the package is required, so every program paid for all 95 modules of the public API and the
 * five L1 submodules, whatever it used. The rewritten entry defines the same names, in the same
 * order, as getters that require the module on first access and then keep the value.
 *
 * What stays as jsii made it: src/index.ts, the declarations (lib/src/index.d.ts), the assembly
 * (.jsii) and every other compiled module. The jsii kernel under the Python, Java and Go packages
 * finds a class by reading its name off the entry point, which the getter answers.
 *
 * src/index.ts ends by handing its exports to the boundary (`guardExports(exports)`,
 * src/boundary/install.ts), the one place the classes are guarded. The rewritten entry does the
 * same lazily: when an export is first read, it hands the boundary the exports of every public
 * module loaded by then (the one just read and the ones it loaded), so a class is guarded before
 * the caller can reach it, whether as an export or as a value another class returns.
 *
 * The compile task runs this right after jsii. It reads src/index.ts, not the compiled entry, so a
 * second run writes the same file; it refuses a statement it does not know, so a change to
 * src/index.ts that the lazy entry cannot express fails the build. test/package/lazy-entry.test.ts checks
 * that the entry exports exactly what src/index.ts does, value for value.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');
const SOURCE = path.join(ROOT, 'src', 'index.ts');
const ENTRY = path.join(ROOT, 'lib', 'src', 'index.js');

/** What src/index.ts exports: modules whose names it re-exports, and namespaces. */
export interface EntryPlan {
  /** `export * from '<module>'`, in order. */
  readonly modules: string[];
  /** `export * as <name> from '<module>'`, in order. */
  readonly namespaces: Array<{ name: string; module: string }>;
  /** The boundary module whose `guardExports` the entry hands its exports to, if it does. */
  readonly guard?: string;
}

/**
 * Reads src/index.ts; anything but comments, the two export forms and the boundary's import and
 * call (`import { guardExports } from '<module>';`, then `guardExports(exports);` as the last
 * statement) is an error.
 */
export function readPlan(source: string): EntryPlan {
  const modules: string[] = [];
  const namespaces: Array<{ name: string; module: string }> = [];
  let imported: string | undefined;
  let guard: string | undefined;
  const statements = source.replace(/\/\*[\s\S]*?\*\//g, '').split('\n').map(l => l.replace(/\/\/.*$/, '').trim()).filter(Boolean);
  for (const [i, statement] of statements.entries()) {
    const star = /^export \* from '(\.{1,2}\/[\w./-]+)';$/.exec(statement);
    const ns = /^export \* as (\w+) from '(\.{1,2}\/[\w./-]+)';$/.exec(statement);
    const guardImport = /^import \{ guardExports \} from '(\.{1,2}\/[\w./-]+)';$/.exec(statement);
    if (star) modules.push(star[1]);
    else if (ns) namespaces.push({ name: ns[1], module: ns[2] });
    else if (guardImport && imported === undefined) imported = guardImport[1];
    else if (statement === 'guardExports(exports);' && imported !== undefined && i === statements.length - 1) guard = imported;
    else throw new Error(`src/index.ts: "${statement}" is not an export the lazy entry can write (scripts/lazy-entry.ts)`);
  }
  if (imported !== undefined && guard === undefined) {
    throw new Error('src/index.ts: guardExports is imported but its exports are not handed to it last (scripts/lazy-entry.ts)');
  }
  return guard === undefined ? { modules, namespaces } : { modules, namespaces, guard };
}

/**
 * The names each module contributes, as tsc's `__exportStar` would bind them: a name already bound
 * by an earlier module is skipped, and `default` never is.
 */
export function exportedNames(plan: EntryPlan, load: (module: string) => object): Array<{ name: string; module: string }> {
  const seen = new Set<string>(plan.namespaces.map(n => n.name));
  const names: Array<{ name: string; module: string }> = [];
  for (const module of plan.modules) {
    for (const name of Object.keys(load(module))) {
      if (name === 'default' || name === '__esModule' || seen.has(name)) continue;
      seen.add(name);
      names.push({ name, module });
    }
  }
  return names;
}

/** The text of the lazy entry point. */
export function renderEntry(plan: EntryPlan, names: Array<{ name: string; module: string }>): string {
  const all = [...names.map(n => n.name), ...plan.namespaces.map(n => n.name)];
  const modules = [...new Set(names.map(n => n.module))];
  const lines = [
    '"use strict";',
    '// Written by scripts/lazy-entry.ts from src/index.ts after jsii compiled it: every export of the',
    '// package loads its module on first use and then keeps the value. The declarations beside this',
    '// file are the compiler\'s.',
    'Object.defineProperty(exports, "__esModule", { value: true });',
    // A platform repository runs its app once per change: compiling the library's modules (and, at
    // the first synth, the rules') was a large part of its start (bench/startup.ts). Node 22.1 and
    // later keep V8's code of every module loaded from here on in its compile cache; the next run
    // reads it instead of compiling. It never changes what a module does, and Node's own variables
    // govern it: NODE_COMPILE_CACHE names the folder (else one under the system's temporary
    // folder), NODE_DISABLE_COMPILE_CACHE=1 turns it off. Older Node has no such function.
    '// Node 22.1+: the modules loaded from here on are kept in Node\'s compile cache (NODE_DISABLE_COMPILE_CACHE=1 turns it off).',
    'const { enableCompileCache } = require("module");',
    'if (typeof enableCompileCache === "function") enableCompileCache();',
    '// Node\'s ES-module import finds a CommonJS module\'s names by reading its text; this line names',
    '// them and never runs.',
    `0 && (${all.map(n => `exports.${n}`).join(' = ')} = void 0);`,
    `const modules = ${JSON.stringify(modules)};`,
    'const names = {',
    ...names.map(n => `  ${n.name}: ${modules.indexOf(n.module)},`),
    '};',
    ...(plan.guard === undefined ? [] : [
      '// The boundary (src/index.ts hands it its exports): when an export is first read, every public',
      '// module loaded by then has its classes guarded, so a class another module returns is too.',
      'const guarded = new Set();',
      'function guardLoaded() {',
      `  const boundary = require(${JSON.stringify(plan.guard)});`,
      '  boundary.guardExports({}); // sets the L1 classes\' hook once (src/boundary/l1-guard.ts)',
      '  for (let i = 0; i < modules.length; i++) {',
      '    if (guarded.has(i)) continue;',
      '    const loaded = require.cache[require("path").join(__dirname, modules[i]) + ".js"];',
      '    if (!loaded || !loaded.loaded) continue;',
      '    guarded.add(i);',
      '    boundary.guardExports(loaded.exports);',
      '  }',
      '}',
    ]),
    'function define(name, load) {',
    '  Object.defineProperty(exports, name, {',
    '    enumerable: true,',
    '    configurable: true,',
    '    get() {',
    '      const value = load();',
    '      Object.defineProperty(exports, name, { value, enumerable: true, writable: false, configurable: false });',
    '      return value;',
    '    },',
    '  });',
    '}',
    // tsc declares the namespaces before the names it re-exports; the keys keep that order.
    // An L1 submodule's classes are guarded through the hook the boundary sets (src/boundary/l1-guard.ts).
    ...plan.namespaces.map(n => (plan.guard === undefined
      ? `define(${JSON.stringify(n.name)}, () => require(${JSON.stringify(n.module)}));`
      : `define(${JSON.stringify(n.name)}, () => { const value = require(${JSON.stringify(n.module)}); guardLoaded(); return value; });`)),
    plan.guard === undefined
      ? 'for (const name of Object.keys(names)) define(name, () => require(modules[names[name]])[name]);'
      : 'for (const name of Object.keys(names)) define(name, () => { const value = require(modules[names[name]])[name]; guardLoaded(); return value; });',
    '',
  ];
  return lines.join('\n');
}

function main(): void {
  const plan = readPlan(fs.readFileSync(SOURCE, 'utf8'));
  const dir = path.dirname(ENTRY);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const names = exportedNames(plan, module => require(path.join(dir, module)));
  fs.writeFileSync(ENTRY, renderEntry(plan, names));
  // tsc's source map described the eager entry; the written one maps to nothing in src/.
  fs.rmSync(`${ENTRY}.map`, { force: true });
  console.log(`lib/src/index.js: ${names.length} names from ${plan.modules.length} modules and ${plan.namespaces.length} submodules, each loaded on first use`);
}

if (require.main === module) main();
