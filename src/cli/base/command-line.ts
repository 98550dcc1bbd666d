/**
 * One definition per command: its name, paths, options and the prose of its help. The parser of
 * its arguments and both help texts (`COMMAND --help` and the usage of every command) are produced
 * from it, so an option the parser takes is an option the help lists, with the same name and value.
 *
 * The prose is kept as written, line by line: the help texts are pinned (test/cli/daily.test.ts,
 * docs/cli.md), and their lines are wrapped by hand, not by a rule a wrapper could follow.
 */
import type { Io } from './io';

/** A usage error: printed with the usage of the command given, status 2. */
export class UsageError extends Error {}

/** One `--name` of a command. */
export interface OptionDefinition {
  /** The option's name, without the dashes. */
  readonly name: string;
  /**
   * What the option takes, as the help names it (`FILE`, `VERSIONS`); undefined for a switch, which
   * takes no value. An option of `choices` names them instead.
   */
  readonly value?: string;
  /** The values the option accepts; the help names them as `a|b|c`. */
  readonly choices?: readonly string[];
  /** The value without the option (the first of `choices` when there are choices). */
  readonly default?: string;
  /** Whether the option may be given more than once to give more values (`[--queues PATH]...`). */
  readonly repeatable?: boolean;
  /** Whether the synopsis names it after the paths (`PATH... [--against PATH]...`). */
  readonly afterPaths?: boolean;
  /** The help's description, one string per line as printed. */
  readonly description: readonly string[];
}

/** One command: what it is called, what it takes, and the prose of its help. */
export interface CommandDefinition {
  readonly name: string;
  /** Whether the command takes PATHs (`PATH...`, at least one). */
  readonly paths: boolean;
  readonly options: readonly OptionDefinition[];
  /** The paragraph of `COMMAND --help` under the synopsis, one string per line. */
  readonly summary: readonly string[];
  /** What the usage of every command says of it under its synopsis, one string per line. */
  readonly overview: readonly string[];
  /** The exit statuses, as `COMMAND --help` ends, one string per line. */
  readonly exitStatus: readonly string[];
}

/** What a PATH is, as every command that takes paths says. */
export const PATHS_TEXT = 'PATH is a YAML file, a folder (searched recursively for *.yaml and *.yml) or - for standard input.';

const HELP_OPTION: OptionDefinition = { name: 'help', description: ['print this help'] };

/** `--format text|json|github`, `--out FILE`, `--allow-empty`; `-h, --help` for the help. */
function label(o: OptionDefinition): string {
  if (o === HELP_OPTION) return '-h, --help';
  const value = o.choices?.join('|') ?? o.value;
  return value === undefined ? `--${o.name}` : `--${o.name} ${value}`;
}

/** `cdk8s-kubeflow plan [--format markdown|text|json] ... PATH... [--against PATH]...` */
export function synopsis(c: CommandDefinition): string {
  const option = (o: OptionDefinition) => `[${label(o)}]${o.repeatable ? '...' : ''}`;
  return [
    `cdk8s-kubeflow ${c.name}`,
    ...c.options.filter(o => !o.afterPaths).map(option),
    ...c.paths ? ['PATH...'] : [],
    ...c.options.filter(o => o.afterPaths).map(option),
  ].join(' ');
}

/** What `COMMAND --help` prints. */
export function commandUsage(c: CommandDefinition): string {
  const options = [...c.options, HELP_OPTION];
  const width = Math.max(...options.map(o => label(o).length));
  const rows = options.flatMap(o => o.description.map((line, i) => `  ${(i === 0 ? label(o) : '').padEnd(width)}  ${line}`));
  return [
    `Usage: ${synopsis(c)}`,
    '',
    ...c.summary,
    '',
    'Options:',
    ...rows,
    '',
    ...c.paths ? [PATHS_TEXT] : [],
    ...c.exitStatus,
    '',
  ].join('\n');
}

/** What `--help` prints: every command's synopsis and overview, then what the command line itself takes. */
export function overallUsage(commands: readonly CommandDefinition[], footer: readonly string[]): string {
  const entry = (line: string, text: readonly string[]) => [`  ${line}`, ...text.map(t => `      ${t}`)];
  return [
    'Usage:',
    ...commands.flatMap(c => entry(synopsis(c), c.overview)),
    ...entry('cdk8s-kubeflow COMMAND --help', ['That command\'s usage and options.']),
    ...entry('cdk8s-kubeflow --version', ['The version of cdk8s-kubeflow.']),
    '',
    ...footer,
    '',
  ].join('\n');
}

/** A command: its definition and what runs it; returns the exit status. */
export interface Command extends CommandDefinition {
  run(line: CommandLine, io: Io): number;
}

/** A command line read by its command's definition. */
export class CommandLine {
  constructor(
    readonly command: CommandDefinition,
    /** The PATHs, in the order given. */
    readonly paths: readonly string[],
    private readonly values: ReadonlyMap<string, readonly string[]>,
  ) {}

  /** The PATHs; a usage error when none is given. */
  requirePaths(): readonly string[] {
    if (this.paths.length === 0) throw new UsageError(`${this.command.name} needs at least one PATH`);
    return this.paths;
  }

  /** Whether the option (or switch) was given. */
  has(option: string): boolean {
    return this.values.has(option);
  }

  /** Every value of the option, in the order given; undefined when it was not given. */
  all(option: string): readonly string[] | undefined {
    return this.values.get(this.definition(option).name);
  }

  /**
   * The option's value: the last one given (a later option overrides an earlier one), else its
   * default. An option of choices must name one of them.
   */
  last(option: string): string | undefined {
    const o = this.definition(option);
    const given = this.values.get(o.name);
    const value = given === undefined ? o.default ?? o.choices?.[0] : given[given.length - 1];
    if (value !== undefined && o.choices !== undefined && !o.choices.includes(value)) {
      throw new UsageError(`--${o.name} is "${value}"; expected ${listed(o.choices)}`);
    }
    return value;
  }

  private definition(option: string): OptionDefinition {
    const o = this.command.options.find(x => x.name === option);
    if (o === undefined) throw new Error(`${this.command.name} has no option --${option}`);
    return o;
  }
}

/** `a, b or c`. */
function listed(values: readonly string[]): string {
  return values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/**
 * Splits `--name value` / `--name=value` options (each takes one value; repeat for more) and
 * `--name` switches (no value) from the paths, by the command's definition.
 */
export function parseCommandLine(command: CommandDefinition, args: readonly string[]): CommandLine {
  if (!command.paths && command.options.length === 0 && args.length > 0) throw new UsageError(`${command.name} takes no arguments`);
  const paths: string[] = [];
  const values = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('--')) {
      // Split at the first "=" only: a value may hold more (`--target=kueue=v0.19`).
      const eq = arg.indexOf('=');
      const flag = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const inline = eq < 0 ? undefined : arg.slice(eq + 1);
      const option = command.options.find(o => o.name === flag);
      if (option !== undefined && option.value === undefined && option.choices === undefined) {
        if (inline !== undefined) throw new UsageError(`--${flag} takes no value`);
        values.set(flag, []);
        continue;
      }
      if (option === undefined) throw new UsageError(`unknown option "--${flag}"`);
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`--${flag} needs a value`);
      values.set(flag, [...values.get(flag) ?? [], value]);
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option "${arg}"`);
    paths.push(arg);
  }
  return new CommandLine(command, paths, values);
}
