import { Finding, describe, finding } from '../../rules/finding';
import { lazy } from '../../util/lazy';
import { userError } from '../../util/user-error';

// Loaded by the first refusal, not with the package (test/package/load-laziness.test.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const suggest = lazy(() => require('../../util/nearest') as typeof import('../../util/nearest'));

/**
 * The shared steps of the `parse` statics: a config holds a string, the class knows a fixed set of
 * values; a value outside the set is refused at once, naming the config key when the caller gave
 * one, listing the values known and the closest of them. (`of()` stays the way to a value the
 * pinned controller does not know; see synth/unknown-values.ts.)
 */

/** Where a refused config value's error keeps its finding (the error stays a plain Error, as all of the library's). */
const REFUSED = Symbol.for('cdk8s-kubeflow.refused-config-value');

/**
 * The error of a refused config value, `<Class.parse>: <key> is <value>; <allowed>`, carrying the
 * finding it describes, so that a ConfigReader can record it without the method's name (it reports
 * the key alone, beside the other refused values).
 */
export function refusedValue(method: string, refused: Finding): Error {
  const error = userError(`${method}: ${describe(refused)}`);
  Object.defineProperty(error, REFUSED, { value: refused });
  return error;
}

/** The finding of a refused config value's error, or undefined for any other error. */
export function refusedFinding(error: unknown): Finding | undefined {
  return error instanceof Error ? (error as unknown as { [REFUSED]?: Finding })[REFUSED] : undefined;
}

/** Throws the error of a refused config value: `<Class.parse>: <key> is <value>; <allowed>`. */
export function refuseValue(method: string, key: string | undefined, value: unknown, allowed: string): never {
  throw refusedValue(method, finding(key ?? 'value', value, allowed));
}

/** `"a", "b" or "c"`. */
export function quotedList(values: readonly string[]): string {
  const quoted = values.map(v => JSON.stringify(v));
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** ` (did you mean "x"?)` for the known value closest to `given`, or nothing. */
export function didYouMean(given: string, known: readonly string[]): string {
  const guess = suggest().nearest(given, known.filter(k => k !== ''));
  return guess === undefined ? '' : `: did you mean ${JSON.stringify(guess)}?`;
}

/** The first of `known` at most `edits` edits from `given`, ignoring case (a likely typo of it). */
export function typoOf(given: string, known: readonly string[], edits: number): string | undefined {
  return known.find(k => suggest().distance(given.toLowerCase(), k.toLowerCase()) <= edits);
}

/**
 * The instance whose raw value is `value` exactly (the spelling the CRD or the config uses), or the
 * refusal.
 *
 * @param method the static that parses, for the message (`RestartPolicy.parse`)
 * @param known each raw value with its instance, in the order the message lists them
 * @param what who knows these values, for the message (`the values training-operator v1.9.4 knows`)
 * @param otherwise how to reach a value outside the set, if there is a way
 */
export function parseKnown<T>(
  method: string, value: string, key: string | undefined, known: ReadonlyArray<readonly [string, T]>, what: string, otherwise?: string,
): T {
  const raws = known.map(([raw]) => raw);
  const also = otherwise ? ` (${otherwise})` : '';
  // A number or a boolean from a YAML file (`restartPolicy: yes`) is refused like a wrong string.
  if (typeof value !== 'string') return refuseValue(method, key, value, `expected a string: ${quotedList(raws)}${also}`);
  const match = known.find(([raw]) => raw === value);
  if (match) return match[1];
  return refuseValue(method, key, value, `expected ${quotedList(raws)}, ${what}${also}${didYouMean(value, raws)}`);
}
