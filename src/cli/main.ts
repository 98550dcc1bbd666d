/**
 * The `cdk8s-kubeflow` command (bin/cdk8s-kubeflow):
 *
 *   cdk8s-kubeflow lint [--format text|json|github] [--rules-off SOURCE]... [--target VERSIONS] [--allow-empty] PATH...
 *   cdk8s-kubeflow plan [--format markdown|text|json] [--target VERSIONS] [--allow-empty] PATH... [--against PATH]... [--queues PATH]...
 *   cdk8s-kubeflow rules
 *   cdk8s-kubeflow convert [--out FILE] PATH...
 *   cdk8s-kubeflow --help | --version;  cdk8s-kubeflow COMMAND --help
 *
 * PATH is a YAML file, a folder (searched recursively for *.yaml and *.yml) or `-` for standard
 * input. Exit status (EXIT): 0 when all is well, 1 when lint found an error (or a plan input is
 * not YAML, or a job of the plan can never be admitted), 2 for a usage error, 3 for an internal error (the command itself failed: a CI step
 * must not read that as "the manifests have findings"). The help is printed on standard output
 * with status 0; on a usage error, on standard error with status 2.
 *
 * Each command is one definition in its folder (lint/lint-command.ts, plan/plan-command.ts,
 * rules/rules-command.ts, convert/convert-command.ts): its options and the prose of its help. The
 * parser and both help texts are generated from it (base/command-line.ts); this module only
 * dispatches.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Command, PATHS_TEXT, UsageError, commandUsage, overallUsage, parseCommandLine } from './base/command-line';
import { InputError } from './base/input';
import { EXIT, Io, PROCESS_IO } from './base/io';
import { CONVERT_COMMAND } from './convert/convert-command';
import { LINT_COMMAND } from './lint/lint-command';
import { PLAN_COMMAND } from './plan/plan-command';
import { RULES_COMMAND } from './rules/rules-command';

export { EXIT, Io } from './base/io';

/** The commands, in the order the usage lists them. */
const COMMANDS: readonly Command[] = [LINT_COMMAND, PLAN_COMMAND, RULES_COMMAND, CONVERT_COMMAND];

type CommandName = 'lint' | 'plan' | 'rules' | 'convert';

/** Each command's usage, printed by `COMMAND --help`; generated from the definition its parser reads. */
export const COMMAND_USAGE = Object.fromEntries(COMMANDS.map(c => [c.name, commandUsage(c)])) as { readonly [name in CommandName]: string };

const STATUS = 'Exit status: 0 nothing found, 1 findings, 2 usage error, 3 internal error.';

/** The usage of every command, printed by `--help`. */
export const USAGE = overallUsage(COMMANDS, [PATHS_TEXT, STATUS]);

/** Runs the command; returns the exit status. */
export function main(argv: readonly string[], io: Io = PROCESS_IO): number {
  const [name, ...rest] = argv;
  const command = COMMANDS.find(c => c.name === name);
  try {
    if (command !== undefined) {
      if (rest.some(a => a === '--help' || a === '-h')) {
        io.out(COMMAND_USAGE[command.name as CommandName]);
        return EXIT.OK;
      }
      return command.run(parseCommandLine(command, rest), io);
    }
    switch (name) {
      case '--help': case '-h': case 'help':
        if (rest.length > 1 || (rest.length === 1 && !isCommand(rest[0]))) throw new UsageError(`help takes one command: ${COMMANDS.map(c => c.name).join(', ')}`);
        io.out(rest.length === 1 ? COMMAND_USAGE[rest[0] as CommandName] : USAGE);
        return EXIT.OK;
      case '--version':
        if (rest.length > 0) throw new UsageError('--version takes no arguments');
        io.out(`${packageVersion()}\n`);
        return EXIT.OK;
      case undefined: throw new UsageError('a command is needed');
      default: throw new UsageError(`unknown command "${name}"`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError) {
      // A usage error of a command shows that command's usage, not every command's.
      const usage = e instanceof UsageError ? command !== undefined ? COMMAND_USAGE[command.name as CommandName] : USAGE : '';
      io.err(`cdk8s-kubeflow: ${e.message}\n${usage}`);
      return EXIT.USAGE;
    }
    io.err(internalError(e));
    return EXIT.INTERNAL;
  }
}

const isCommand = (c: string | undefined): c is CommandName => COMMANDS.some(x => x.name === c);

/** The version in the package's own package.json (found upwards from src/cli or lib/src/cli). */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (manifest.name === 'cdk8s-kubeflow') return String(manifest.version);
    }
    if (path.dirname(dir) === dir) throw new Error(`no package.json of cdk8s-kubeflow above ${__dirname}`);
  }
}

/** What an internal error prints: that it is one, what was thrown, and where (for a bug report). */
export function internalError(e: unknown): string {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : `a non-error value was thrown: ${String(e)}`;
  const stack = e instanceof Error && typeof e.stack === 'string' ? `${e.stack}\n` : '';
  return `cdk8s-kubeflow: internal error (a fault of the command, not a finding): ${what}\n${stack}`;
}

