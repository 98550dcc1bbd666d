import { UsageError, parseCommandLine, synopsis } from '../../../src/cli/base/command-line';
import { CONVERT_COMMAND } from '../../../src/cli/convert/convert-command';
import { LINT_COMMAND } from '../../../src/cli/lint/lint-command';
import { COMMAND_USAGE } from '../../../src/cli/main';
import { PLAN_COMMAND } from '../../../src/cli/plan/plan-command';
import { RULES_COMMAND } from '../../../src/cli/rules/rules-command';

const COMMANDS = [LINT_COMMAND, PLAN_COMMAND, RULES_COMMAND, CONVERT_COMMAND];

describe('one definition per command gives the parser and the help', () => {
  test.each(COMMANDS.map(c => [c.name, c] as const))('%s: every option the parser takes is a row of its help, and none else', (name, command) => {
    const rows = [...COMMAND_USAGE[name as keyof typeof COMMAND_USAGE].matchAll(/^ {2}(--[a-z-]+)/gm)].map(m => m[1]);
    expect(rows).toEqual(command.options.map(o => `--${o.name}`));
    expect(COMMAND_USAGE[name as keyof typeof COMMAND_USAGE].split('\n')[0]).toBe(`Usage: ${synopsis(command)}`);
  });

  test('the parser reads options, switches and paths by the definition', () => {
    const line = parseCommandLine(PLAN_COMMAND, ['a.yaml', '--against=b.yaml', '--against', 'c.yaml', '--allow-empty', '--format', 'text', '-']);
    expect([line.paths, line.all('against'), line.has('allow-empty'), line.last('format'), line.last('target')])
      .toEqual([['a.yaml', '-'], ['b.yaml', 'c.yaml'], true, 'text', undefined]);
    // Without --format, the first choice is the default.
    expect(parseCommandLine(LINT_COMMAND, ['x.yaml']).last('format')).toBe('text');
  });

  test.each([
    [LINT_COMMAND, ['--out', 'x'], 'unknown option "--out"'],
    [LINT_COMMAND, ['--allow-empty=yes'], '--allow-empty takes no value'],
    [CONVERT_COMMAND, ['--out'], '--out needs a value'],
    [CONVERT_COMMAND, ['-x'], 'unknown option "-x"'],
    [RULES_COMMAND, ['x.yaml'], 'rules takes no arguments'],
  ] as const)('%#: %j is a usage error: %s', (command, args, message) => {
    expect(() => parseCommandLine(command, args)).toThrow(new UsageError(message));
  });

  test('a choice outside the definition\'s choices names them', () => {
    expect(() => parseCommandLine(LINT_COMMAND, ['--format', 'yaml']).last('format')).toThrow(new UsageError('--format is "yaml"; expected text, json or github'));
    expect(() => parseCommandLine(PLAN_COMMAND, []).requirePaths()).toThrow(new UsageError('plan needs at least one PATH'));
  });
});
