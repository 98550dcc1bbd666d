/**
 * `cdk8s-kubeflow convert`: its definition (the parser and the help come from it) and its run: the
 * module on standard output (or --out), the figures on standard error. The modules of the
 * conversion are loaded when it runs, so that `lint` starts without them.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Command, UsageError } from '../base/command-line';
import { readDocuments } from '../base/input';
import { EXIT } from '../base/io';

export const CONVERT_COMMAND: Command = {
  name: 'convert',
  paths: true,
  options: [
    {
      name: 'out',
      value: 'FILE',
      description: [
        'write the module to FILE instead of standard output, and beside it main.ts (unless',
        'there is one), the app\'s entry point: `node main.ts` in that folder (Node',
        '22.18 or newer) writes the objects to dist/',
      ],
    },
  ],
  summary: [
    'Writes a TypeScript cdk8s module (export default function (app: App): void) that synthesizes the',
    'objects of the YAML: one Chart per input file; each object by its L2 construct where that says it',
    'exactly (TrainJob, Workspace), else by the typed L1 class of its kind (kubeflow, trainer,',
    'notebooks; a JSON patch for a field the class cannot say), else (Kueue objects, ConfigMaps) by an',
    'ApiObject that holds it as written, with a comment on each fallback. Standard error counts the',
    'objects per kind and by what said them.',
  ],
  overview: [
    'A TypeScript cdk8s module that synthesizes the objects of the YAML, one Chart per file:',
    'each object by its L2 construct where that says it exactly, else by its typed L1 class',
    '(JSON patches for what the class cannot say) or an ApiObject; to FILE with --out, else on',
    'standard output.',
  ],
  exitStatus: [
    'Exit status: 0 converted, 1 an input document is not YAML or not a Kubernetes object, 2 usage',
    'error, 3 internal error.',
  ],
  run(line, io) {
    const outs = line.all('out') ?? [];
    if (outs.length > 1) throw new UsageError('--out takes one FILE');
    const paths = line.requirePaths();
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { convert, conversionSummary } = require('./convert') as typeof import('./convert');
    const { ConvertInputError } = require('./convert-reader') as typeof import('./convert-reader');
    /* eslint-enable @typescript-eslint/no-require-imports */
    let conversion;
    try {
      conversion = convert(readDocuments(paths, io.stdin));
    } catch (e) {
      if (!(e instanceof ConvertInputError)) throw e;
      io.err(`cdk8s-kubeflow: ${e.message}\n`);
      return EXIT.FINDINGS;
    }
    if (outs.length === 0) {
      io.out(conversion.code);
      io.err(conversionSummary(conversion));
      return EXIT.OK;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { entryPoint, RUN_COMMAND } = require('./convert-entry') as typeof import('./convert-entry');
    const entry = entryPoint(outs[0]);
    const written = [outs[0]];
    try {
      fs.writeFileSync(outs[0], conversion.code);
      if (entry !== undefined && !fs.existsSync(entry.file)) {
        fs.writeFileSync(entry.file, entry.code);
        written.push(entry.file);
      }
    } catch (e) {
      throw new UsageError(`--out ${outs[0]}: ${(e as Error).message}`);
    }
    io.err(conversionSummary(conversion));
    const folder = path.dirname(outs[0]);
    const run = `${folder === '.' ? '' : `cd ${folder} && `}${RUN_COMMAND}`;
    io.err(entry === undefined || written.length > 1
      ? `cdk8s-kubeflow: wrote ${written.join(' and ')}; \`${run}\` writes the objects to dist/\n`
      : `cdk8s-kubeflow: wrote ${outs[0]}; ${entry.file} is there already, so it was left as it is (it runs the module with \`${run}\` when it calls its default function)\n`);
    return EXIT.OK;
  },
};
