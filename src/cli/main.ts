/**
 * The `cdk8s-kubeflow` command (bin/cdk8s-kubeflow):
 *
 *   cdk8s-kubeflow lint [--format text|json|github] [--rules-off SOURCE]... PATH...
 *   cdk8s-kubeflow plan PATH... [--against PATH]...
 *   cdk8s-kubeflow rules
 *
 * PATH is a YAML file, a folder (searched recursively for *.yaml and *.yml) or `-` for standard
 * input. Exit status (EXIT): 0 when all is well, 1 when lint found something (or a plan input is
 * not YAML), 2 for a usage error, 3 for an internal error (the command itself failed: a CI step
 * must not read that as "the manifests have findings").
 */
import * as fs from 'fs';
import { InputError, readDocuments } from './input';
import { lint } from './lint';
import { LINT_FORMATS, LintFormat, formatLint } from './lint-output';
import { plan, planChange } from './plan';
import { changeMarkdown, planMarkdown } from './plan-markdown';
import { rulesText } from './rules';
import { RULE_SOURCES, RuleSource } from '../rules/rule';

export const USAGE = `Usage:
  cdk8s-kubeflow lint [--format text|json|github] [--rules-off SOURCE]... PATH...
      Checks every Kubeflow document (kubeflow.org/v1 training jobs, MXJob, Trainer v2 TrainJobs
      and runtimes, Workspace, WorkspaceKind) with the strict CRD schema, the Kubernetes rules and
      the operators' rules. --rules-off leaves out one group of rules (repeat it for more):
      kubernetes, jobset, trainer, training-operator, notebooks, kueue or library.
      Exit status 1 when anything is found.
  cdk8s-kubeflow plan PATH... [--against PATH]...
      Markdown: pods, accelerators, CPU and memory per training job (a TrainJob through its
      runtime in the same input), per Kueue queue and per namespace; with --against (repeat it
      for more paths), what changed from those manifests.
  cdk8s-kubeflow rules
      Every rule lint applies, by source (the group --rules-off names) and family, with the
      upstream code or behaviour it mirrors.

PATH is a YAML file, a folder (searched recursively for *.yaml and *.yml) or - for standard input.
Exit status: 0 nothing found, 1 findings, 2 usage error, 3 internal error.
`;

/** Where the command writes and reads; the process's streams unless a test gives its own. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly stdin: () => string;
}

const PROCESS_IO: Io = {
  out: t => process.stdout.write(t),
  err: t => process.stderr.write(t),
  stdin: () => fs.readFileSync(0, 'utf8'),
};

class UsageError extends Error {}

/** The exit statuses of the command. */
export const EXIT = {
  /** Nothing found. */
  OK: 0,
  /** Findings (lint), or a document that is not YAML (plan). */
  FINDINGS: 1,
  /** The command line or a path it names is wrong. */
  USAGE: 2,
  /** Anything else that was thrown: a fault of the command, not of the input's content. */
  INTERNAL: 3,
} as const;

/** Runs the command; returns the exit status. */
export function main(argv: readonly string[], io: Io = PROCESS_IO): number {
  try {
    const [command, ...rest] = argv;
    switch (command) {
      case 'lint': return runLint(rest, io);
      case 'plan': return runPlan(rest, io);
      case 'rules':
        if (rest.length > 0) throw new UsageError('rules takes no arguments');
        io.out(rulesText());
        return EXIT.OK;
      case '--help': case '-h': case 'help':
        io.out(USAGE);
        return EXIT.OK;
      case undefined: throw new UsageError('a command is needed');
      default: throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError) {
      io.err(`cdk8s-kubeflow: ${e.message}\n${e instanceof UsageError ? USAGE : ''}`);
      return EXIT.USAGE;
    }
    io.err(internalError(e));
    return EXIT.INTERNAL;
  }
}

/** What an internal error prints: that it is one, what was thrown, and where (for a bug report). */
export function internalError(e: unknown): string {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : `a non-error value was thrown: ${String(e)}`;
  const stack = e instanceof Error && typeof e.stack === 'string' ? `${e.stack}\n` : '';
  return `cdk8s-kubeflow: internal error (a fault of the command, not a finding): ${what}\n${stack}`;
}

/** Splits `--name value` / `--name=value` options (each takes one value; repeat for more) from paths. */
function parseArgs(args: readonly string[], options: readonly string[]): { paths: string[]; values: Map<string, string[]> } {
  const paths: string[] = [];
  const values = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('--')) {
      const [flag, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (!options.includes(flag)) throw new UsageError(`unknown option "--${flag}"`);
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`--${flag} needs a value`);
      values.set(flag, [...values.get(flag) ?? [], value]);
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option "${arg}"`);
    paths.push(arg);
  }
  return { paths, values };
}

function runLint(args: readonly string[], io: Io): number {
  const { paths, values } = parseArgs(args, ['format', 'rules-off']);
  const formats = values.get('format') ?? ['text'];
  const format = formats[formats.length - 1];
  if (!(LINT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format is "${format}"; expected text, json or github`);
  const sources: readonly string[] = RULE_SOURCES.map(s => s.source);
  const off = new Set<RuleSource>();
  for (const source of values.get('rules-off') ?? []) {
    if (!sources.includes(source)) throw new UsageError(`--rules-off is "${source}"; expected one of ${sources.join(', ')}`);
    off.add(source as RuleSource);
  }
  if (paths.length === 0) throw new UsageError('lint needs at least one PATH');
  const report = lint(readDocuments(paths, io.stdin), off);
  // A path that holds no YAML is most likely a mistake in a CI step; say so, without failing.
  if (report.documents === 0) io.err(`cdk8s-kubeflow: no YAML documents in ${paths.join(', ')}\n`);
  io.out(formatLint(report, format as LintFormat));
  return report.findings.length > 0 ? EXIT.FINDINGS : EXIT.OK;
}

function runPlan(args: readonly string[], io: Io): number {
  const { paths, values } = parseArgs(args, ['against']);
  if (paths.length === 0) throw new UsageError('plan needs at least one PATH');
  const against = values.get('against');
  const now = readDocuments(paths, io.stdin);
  const before = against === undefined ? [] : readDocuments(against, io.stdin);
  const broken = [...before, ...now].filter(d => d.error !== undefined);
  for (const d of broken) io.err(`${d.file}:${d.line}: not YAML: ${d.error}\n`);
  const after = plan(now);
  io.out(against === undefined ? planMarkdown(after) : changeMarkdown(planChange(plan(before), after), after));
  return broken.length > 0 ? EXIT.FINDINGS : EXIT.OK;
}
