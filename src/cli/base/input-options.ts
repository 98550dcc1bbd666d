/** The options `lint` and `plan` share: the target's versions and an input without documents. */
import { CommandLine, OptionDefinition, UsageError } from './command-line';
import { InputError } from './input';
import type { Io } from './io';
import { TargetError, VersionWindow, parseTargetText, targetWindow } from '../../rules/target';

/** `--allow-empty`, with the description the command gives it. */
export const allowEmptyOption = (description: readonly string[]): OptionDefinition => ({ name: 'allow-empty', description });

/** `--target VERSIONS`, with the description the command gives it. */
export const targetOption = (description: readonly string[]): OptionDefinition => ({ name: 'target', value: 'VERSIONS', description });

/** The window of `--target` (the last one given); the whole support window without it. */
export function targetWindowOf(line: CommandLine): VersionWindow | undefined {
  const given = line.last('target');
  if (given === undefined) return undefined;
  try {
    return targetWindow(parseTargetText(given, '--target'), '--target');
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
export function noDocuments(line: CommandLine, io: Io): void {
  const where = `no YAML documents in ${line.paths.join(', ')}`;
  if (!line.has('allow-empty')) throw new InputError(`${where}; expected at least one (--allow-empty accepts an input without any)`);
  io.err(`cdk8s-kubeflow: ${where}\n`);
}
