/**
 * The entry point `convert --out FILE` writes beside the module, so what it writes is an app that
 * runs: `main.ts` makes the app, hands it to the module's default function and synthesizes into
 * `dist/`, one file per chart named after the chart (StableFileNamesApp: the charts a converted
 * Kueue platform links are not numbered), as the own-repo guide's `main.ts` does
 * (docs/own-repo.md). An existing `main.ts` is the user's and is left alone.
 */
import * as path from 'path';

/** The entry point's file name, beside the module. */
export const ENTRY_POINT = 'main.ts';

/**
 * The command that runs the app, from the module's folder: Node's own type stripping (on by default
 * from Node 22.18 and 23.6), as the guide's app runs its main.ts, so no compile step or ts-node.
 */
export const RUN_COMMAND = `node ${ENTRY_POINT}`;

/** The entry point of the module at `moduleFile`, or undefined when the module is itself named main.ts. */
export function entryPoint(moduleFile: string): { readonly file: string; readonly code: string } | undefined {
  if (path.basename(moduleFile) === ENTRY_POINT) return undefined;
  const name = path.basename(moduleFile).replace(/\.(m|c)?ts$/, '');
  return {
    file: path.join(path.dirname(moduleFile), ENTRY_POINT),
    code: [
      `// The entry point of the app cdk8s-kubeflow convert wrote: \`${RUN_COMMAND}\` writes dist/.`,
      "import { StableFileNamesApp } from 'cdk8s-kubeflow';",
      "// A relative import names the .ts file, as Node's type stripping needs.",
      `import converted from './${name}.ts';`,
      '',
      'const app = new StableFileNamesApp();',
      'converted(app);',
      'app.synth();',
      '',
    ].join('\n'),
  };
}
