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
 */
import * as fs from 'fs';
import * as path from 'path';
import { InputError, readDocuments } from './input';
import { hasErrors, lint } from './lint';
import { LINT_FORMATS, LintFormat, formatLint } from './lint-output';
import { RuleSource } from '../rules/rule';
import { RULE_SETS } from '../rules/rule-sets';
import { TargetError, VersionWindow, parseTargetText, targetWindow } from '../rules/target';

const PATHS = 'PATH is a YAML file, a folder (searched recursively for *.yaml and *.yml) or - for standard input.';
const STATUS = 'Exit status: 0 nothing found, 1 findings, 2 usage error, 3 internal error.';
/** What an input without YAML documents is, and how to accept one. */
const EMPTY_OPTION = `--allow-empty              an input without YAML documents is no error; without it,
                             one is (status 2): a CI step that checks an empty folder checks nothing`;
const TARGET_OPTION = `--target VERSIONS          the versions the cluster runs, as KEY=VERSION pairs separated by
                             commas (kueue=v0.19,trainer=v2.3); keys: kubernetes, trainingOperator,
                             jobset, trainer, notebooks, kueue; each inside the support window
                             (docs/versions.md); without it, the whole window`;

/** Each command's usage, printed by `COMMAND --help`. */
export const COMMAND_USAGE = {
  lint: `Usage: cdk8s-kubeflow lint [--format text|json|github] [--rules-off SOURCE]... [--target VERSIONS] [--allow-empty] PATH...

Checks every Kubeflow document (kubeflow.org/v1 training jobs, MXJob, Trainer v2 TrainJobs and
runtimes, Workspace, WorkspaceKind) with the strict CRD schema, the Kubernetes rules and the
operators' rules. A rule of some upstream versions only (cdk8s-kubeflow rules shows them) applies
when the target's versions include them.

Options:
  --format text|json|github  text (the default): one line per finding and a summary; json: one
                             object with every finding; github: GitHub Actions annotations
  --rules-off SOURCE         leave out one group of rules (repeat it for more): kubernetes, jobset,
                             trainer, training-operator, notebooks, kueue or library
  ${TARGET_OPTION}
  ${EMPTY_OPTION}
  -h, --help                 print this help

${PATHS}
An object silences one rule with the annotation ignore-rule.cdk8s-kubeflow.io/<source>.<name>
(the rule id with "." for "/") whose value is the reason; lint lists every rule silenced.

Exit status: 0 no findings or warnings only, 1 errors found, 2 usage error (or an input without
YAML documents), 3 internal error.
`,
  plan: `Usage: cdk8s-kubeflow plan [--format markdown|text|json] [--target VERSIONS] [--allow-empty] PATH... [--against PATH]... [--queues PATH]...

Pods, accelerators, CPU and memory per training job (a TrainJob through its runtime in the same
input) and per notebook workspace (its WorkspaceKind's pod config in the same input), per Kueue
queue and per namespace; with Kueue ClusterQueues in the input or --queues, the jobs' demand per
ClusterQueue and flavor against quota and the jobs Kueue never admits; with --against, what
changed from those manifests.

Options:
  --format markdown|text|json  markdown (the default): tables for a pull-request comment; text:
                               the same tables aligned for a terminal; json: one object
  --against PATH               the manifests to compare with (repeat it for more paths)
  --queues PATH                Kueue objects (ClusterQueue, LocalQueue, ResourceFlavor, Cohort)
                               kept apart from the jobs (repeat it for more paths)
  --target VERSIONS            the versions the cluster runs, as lint takes them (kueue=v0.19,...);
                               checked against the support window and named on standard error
  --allow-empty                PATHs without YAML documents are no error; without it, they are
                               (status 2): a plan of nothing says nothing
  -h, --help                   print this help

${PATHS}
Exit status: 0 planned, 1 an input document is not YAML or Kueue can never admit a job of PATH
(its ClusterQueue can never give what it asks for), 2 usage error (or PATHs without YAML
documents), 3 internal error.
`,
  rules: `Usage: cdk8s-kubeflow rules

Every rule lint applies, by source (the group --rules-off names) and family, with the upstream
code or behaviour it mirrors, and for a rule of some upstream versions only, those versions.

Options:
  -h, --help  print this help

Exit status: 0 listed, 2 usage error, 3 internal error.
`,
  convert: `Usage: cdk8s-kubeflow convert [--out FILE] PATH...

Writes a TypeScript cdk8s module (export default function (app: App): void) that synthesizes the
objects of the YAML: one Chart per input file; each object by its L2 construct where that says it
exactly (TrainJob, Workspace), else by the typed L1 class of its kind (kubeflow, trainer,
notebooks; a JSON patch for a field the class cannot say), else (Kueue objects, ConfigMaps) by an
ApiObject that holds it as written, with a comment on each fallback. Standard error counts the
objects per kind and by what said them.

Options:
  --out FILE  write the module to FILE instead of standard output, and beside it main.ts (unless
              there is one), the app's entry point: \`node main.ts\` in that folder (Node
              22.18 or newer) writes the objects to dist/
  -h, --help  print this help

${PATHS}
Exit status: 0 converted, 1 an input document is not YAML or not a Kubernetes object, 2 usage
error, 3 internal error.
`,
} as const;

export const USAGE = `Usage:
  cdk8s-kubeflow lint [--format text|json|github] [--rules-off SOURCE]... [--target VERSIONS] [--allow-empty] PATH...
      Checks every Kubeflow document (kubeflow.org/v1 training jobs, MXJob, Trainer v2 TrainJobs
      and runtimes, Workspace, WorkspaceKind) with the strict CRD schema, the Kubernetes rules and
      the operators' rules. --rules-off leaves out one group of rules (repeat it for more):
      kubernetes, jobset, trainer, training-operator, notebooks, kueue or library. --target names
      the versions the cluster runs (kueue=v0.19,trainer=v2.3): rules of other versions say
      nothing; without it, lint judges for every version of the support window. An input without
      YAML documents is an error (status 2) unless --allow-empty is given. An object silences
      one rule with the annotation ignore-rule.cdk8s-kubeflow.io/<source>.<name>: "<reason>";
      lint lists every rule silenced. Exit status 1 when an error is found (warnings alone: 0).
  cdk8s-kubeflow plan [--format markdown|text|json] [--target VERSIONS] [--allow-empty] PATH... [--against PATH]... [--queues PATH]...
      Pods, accelerators, CPU and memory per training job (a TrainJob through its runtime in the
      same input) and per notebook workspace, per Kueue queue and per namespace, as Markdown (the
      default), aligned text or JSON; with ClusterQueues in the input or --queues, the demand per
      ClusterQueue and flavor against quota and the jobs never admitted; with --against (repeat
      it for more paths), what changed from those manifests; --target and --allow-empty as lint
      takes them.
  cdk8s-kubeflow rules
      Every rule lint applies, by source (the group --rules-off names) and family, with the
      upstream code or behaviour it mirrors and the upstream versions it applies to.
  cdk8s-kubeflow convert [--out FILE] PATH...
      A TypeScript cdk8s module that synthesizes the objects of the YAML, one Chart per file:
      each object by its L2 construct where that says it exactly, else by its typed L1 class
      (JSON patches for what the class cannot say) or an ApiObject; to FILE with --out, else on
      standard output.
  cdk8s-kubeflow COMMAND --help
      That command's usage and options.
  cdk8s-kubeflow --version
      The version of cdk8s-kubeflow.

${PATHS}
${STATUS}
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
  /** Findings (lint), or a document that is not YAML (plan), or not a Kubernetes object (convert). */
  FINDINGS: 1,
  /** The command line or a path it names is wrong. */
  USAGE: 2,
  /** Anything else that was thrown: a fault of the command, not of the input's content. */
  INTERNAL: 3,
} as const;

/** Runs the command; returns the exit status. */
export function main(argv: readonly string[], io: Io = PROCESS_IO): number {
  const [command, ...rest] = argv;
  try {
    if (isCommand(command) && rest.some(a => a === '--help' || a === '-h')) {
      io.out(COMMAND_USAGE[command]);
      return EXIT.OK;
    }
    switch (command) {
      case 'lint': return runLint(rest, io);
      case 'plan': return runPlan(rest, io);
      case 'convert': return runConvert(rest, io);
      case 'rules':
        if (rest.length > 0) throw new UsageError('rules takes no arguments');
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        io.out((require('./rules') as typeof import('./rules')).rulesText());
        return EXIT.OK;
      case '--help': case '-h': case 'help':
        if (rest.length > 1 || (rest.length === 1 && !isCommand(rest[0]))) throw new UsageError(`help takes one command: ${Object.keys(COMMAND_USAGE).join(', ')}`);
        io.out(rest.length === 1 ? COMMAND_USAGE[rest[0] as keyof typeof COMMAND_USAGE] : USAGE);
        return EXIT.OK;
      case '--version':
        if (rest.length > 0) throw new UsageError('--version takes no arguments');
        io.out(`${packageVersion()}\n`);
        return EXIT.OK;
      case undefined: throw new UsageError('a command is needed');
      default: throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError) {
      // A usage error of a command shows that command's usage, not every command's.
      const usage = e instanceof UsageError ? isCommand(command) ? COMMAND_USAGE[command] : USAGE : '';
      io.err(`cdk8s-kubeflow: ${e.message}\n${usage}`);
      return EXIT.USAGE;
    }
    io.err(internalError(e));
    return EXIT.INTERNAL;
  }
}

const isCommand = (c: string | undefined): c is keyof typeof COMMAND_USAGE => c !== undefined && Object.keys(COMMAND_USAGE).includes(c);

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

/**
 * Splits `--name value` / `--name=value` options (each takes one value; repeat for more) and
 * `--name` switches (no value) from paths.
 */
function parseArgs(
  args: readonly string[], options: readonly string[], switches: readonly string[] = [],
): { paths: string[]; values: Map<string, string[]> } {
  const paths: string[] = [];
  const values = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('--')) {
      // Split at the first "=" only: a value may hold more (`--target=kueue=v0.19`).
      const eq = arg.indexOf('=');
      const flag = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const inline = eq < 0 ? undefined : arg.slice(eq + 1);
      if (switches.includes(flag)) {
        if (inline !== undefined) throw new UsageError(`--${flag} takes no value`);
        values.set(flag, []);
        continue;
      }
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

/** The window of `--target` (the last one given); the whole support window without it. */
function targetOption(values: ReadonlyMap<string, string[]>): VersionWindow | undefined {
  const given = values.get('target');
  if (given === undefined) return undefined;
  try {
    return targetWindow(parseTargetText(given[given.length - 1], '--target'), '--target');
  } catch (e) {
    if (e instanceof TargetError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * PATHs that hold no YAML document: most likely a CI step pointed at a folder a synth did not fill,
 * which would otherwise pass having checked nothing. An error (status 2), or with `--allow-empty`
 * a note on standard error.
 */
function noDocuments(paths: readonly string[], values: ReadonlyMap<string, string[]>, io: Io): void {
  const where = `no YAML documents in ${paths.join(', ')}`;
  if (!values.has('allow-empty')) throw new InputError(`${where}; expected at least one (--allow-empty accepts an input without any)`);
  io.err(`cdk8s-kubeflow: ${where}\n`);
}

function runLint(args: readonly string[], io: Io): number {
  const { paths, values } = parseArgs(args, ['format', 'rules-off', 'target'], ['allow-empty']);
  const window = targetOption(values);
  const formats = values.get('format') ?? ['text'];
  const format = formats[formats.length - 1];
  if (!(LINT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format is "${format}"; expected text, json or github`);
  const sources: readonly string[] = RULE_SETS.map(s => s.source);
  const off = new Set<RuleSource>();
  for (const source of values.get('rules-off') ?? []) {
    if (!sources.includes(source)) throw new UsageError(`--rules-off is "${source}"; expected one of ${sources.join(', ')}`);
    off.add(source as RuleSource);
  }
  if (paths.length === 0) throw new UsageError('lint needs at least one PATH');
  const report = lint(readDocuments(paths, io.stdin), off, window);
  if (report.documents === 0) noDocuments(paths, values, io);
  io.out(formatLint(report, format as LintFormat));
  return hasErrors(report) ? EXIT.FINDINGS : EXIT.OK;
}

/**
 * The modules of `plan`, loaded when it runs (and those of `rules` likewise): `lint`, the command a
 * CI step runs on every push, starts without them (bench/cli-start.ts measures the start).
 */
function planModules() {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...require('./plan') as typeof import('./plan'),
    ...require('./plan-json') as typeof import('./plan-json'),
    ...require('./plan-markdown') as typeof import('./plan-markdown'),
    ...require('./plan-queues') as typeof import('./plan-queues'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

const PLAN_FORMATS = ['markdown', 'text', 'json'] as const;

function runPlan(args: readonly string[], io: Io): number {
  const { paths, values } = parseArgs(args, ['against', 'format', 'queues', 'target'], ['allow-empty']);
  // No part of a plan differs by version yet; the target is checked, so a CI step's typo fails here too.
  if (targetOption(values) !== undefined) io.err(`cdk8s-kubeflow: plan for the target ${values.get('target')!.slice(-1)[0]}\n`);
  const formats = values.get('format') ?? ['markdown'];
  const format = formats[formats.length - 1];
  if (!(PLAN_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format is "${format}"; expected markdown, text or json`);
  if (paths.length === 0) throw new UsageError('plan needs at least one PATH');
  const against = values.get('against');
  const now = readDocuments(paths, io.stdin);
  if (now.length === 0) noDocuments(paths, values, io);
  const before = against === undefined ? [] : readDocuments(against, io.stdin);
  const queues = readDocuments(values.get('queues') ?? [], io.stdin);
  const {
    plan, planChange, changeJson, planJson, changeMarkdown, changeText, planMarkdown, planText, hasClusterQueue, hasNeverAdmitted,
  } = planModules();
  const broken = [...before, ...now, ...queues].filter(d => d.error !== undefined);
  for (const d of broken) io.err(`${d.file}:${d.line}: not YAML: ${d.error}\n`);
  const after = plan(now, queues);
  if (against === undefined) {
    io.out(format === 'json' ? planJson(after) : format === 'text' ? planText(after) : planMarkdown(after));
  } else {
    // Manifests from before the change without ClusterQueues are measured against today's queues.
    const change = planChange(plan(before, hasClusterQueue(before) ? queues : [...queues, ...now]), after);
    io.out(format === 'json' ? changeJson(change, after) : format === 'text' ? changeText(change, after) : changeMarkdown(change, after));
  }
  // A job that can never be admitted fails the plan as a finding fails lint: the change cannot run as written.
  return broken.length > 0 || hasNeverAdmitted(after) ? EXIT.FINDINGS : EXIT.OK;
}

/** `convert`: the module on standard output (or --out), the figures on standard error. */
function runConvert(args: readonly string[], io: Io): number {
  const { paths, values } = parseArgs(args, ['out']);
  const outs = values.get('out') ?? [];
  if (outs.length > 1) throw new UsageError('--out takes one FILE');
  if (paths.length === 0) throw new UsageError('convert needs at least one PATH');
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
}
