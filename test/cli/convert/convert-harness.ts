/**
 * What the convert tests do with a generated module: run it in this process (transpiled with
 * TypeScript, `cdk8s-kubeflow` resolved to the package's own source), type check it and lint it
 * with the project's ESLint configuration.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { loadESLint } from 'eslint';
import * as ts from 'typescript';
import { RULE_SETS } from '../../../src/rules/rule-sets';
import { rulesContextKey } from '../../../src/synth/rule-switches';

const ROOT = path.join(path.dirname(__dirname), '..', '..');

/* eslint-disable @typescript-eslint/no-require-imports */
const MODULES: { readonly [name: string]: () => unknown } = {
  'cdk8s': () => require('cdk8s'),
  'cdk8s-plus-28': () => require('cdk8s-plus-28'),
  'cdk8s-kubeflow': () => require('../../../src'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * What the module writes: the objects its charts synthesize, in chart and creation order, with
 * every rule group switched off. The L1s a module constructs are checked at synth as `lint` checks
 * their documents (src/synth/l1-documents.ts), so the module of an input `lint` finds fault with
 * is refused at synth with rules on (convert-synth-rules.test.ts); these tests compare what it writes.
 */
export function synthesizeModule(code: string): any[] {
  return runModule(code, appWithRulesOff()).charts.flatMap(c => c.toJson());
}

/** The objects each chart of the module synthesizes (rules off, as `synthesizeModule`), by chart id, in the order the module creates the charts. */
export function synthesizeCharts(code: string): Array<[string, any[]]> {
  return runModule(code, appWithRulesOff()).charts.map(c => [c.node.id, c.toJson()]);
}

/** An app with every rule group switched off (src/synth/rule-switches.ts). */
function appWithRulesOff(): App {
  const app = new App();
  for (const set of RULE_SETS) app.node.setContext(rulesContextKey(set.source), 'off');
  return app;
}

/** Runs the module's function on `app` (a new App by default) and returns the app. */
export function runModule(code: string, app = new App()): App {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText;
  const module = { exports: {} as any };
  const load = (name: string) => {
    const m = MODULES[name];
    if (m === undefined) throw new Error(`the generated module imports ${name}, which it should not`);
    return m();
  };
  new Function('require', 'module', 'exports', js)(load, module, module.exports);
  // The default app's charts are rendered with toJson(): nothing is written, so it needs no output folder.
  module.exports.default(app);
  return app;
}

/** Type errors of the modules (file name -> code), `cdk8s-kubeflow` mapped to src/index.ts; one program for all. */
export function typeErrors(modules: ReadonlyMap<string, string>, dir: string): string[] {
  for (const [name, code] of modules) fs.writeFileSync(path.join(dir, name), code);
  const files = [...modules.keys()].map(n => path.join(dir, n));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    ignoreDeprecations: '6.0',
    esModuleInterop: true,
    skipLibCheck: true,
    noUnusedLocals: true,
    baseUrl: ROOT,
    paths: { 'cdk8s-kubeflow': ['src/index.ts'] },
    types: [],
  } as ts.CompilerOptions);
  return ts.getPreEmitDiagnostics(program)
    .filter(d => d.file === undefined || files.includes(path.resolve(d.file.fileName)))
    .map(d => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/**
 * ESLint's messages (errors and warnings) for the modules, already written to `dir` (a folder of
 * the repository, so that the project's configuration and typed rules apply). The one change:
 * import/no-unresolved lets `cdk8s-kubeflow` pass, since the package cannot resolve its own name
 * inside its repository (a user's project has it in node_modules).
 */
export async function lintMessages(files: readonly string[]): Promise<string[]> {
  // The project keeps ESLint's .eslintrc configuration (the eslint task sets ESLINT_USE_FLAT_CONFIG=false).
  const LegacyESLint = await loadESLint({ useFlatConfig: false });
  const eslint = new LegacyESLint({ cwd: ROOT, overrideConfig: { rules: { 'import/no-unresolved': ['error', { ignore: ['^cdk8s-kubeflow$'] }] } } } as any);
  const results = await eslint.lintFiles([...files]);
  return results.flatMap(r => r.messages.map(m => `${path.basename(r.filePath)}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
}

/** A folder for generated modules inside the repository's test folder (the ESLint and tsconfig scope). */
export function scratchFolder(name: string): string {
  const dir = path.join(path.dirname(__dirname), `${name}-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
