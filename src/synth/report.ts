import { IConstruct } from 'constructs';
import { Finding, describe, finding } from '../rules/finding';
import { userError } from '../util/user-error';

/*
 * How findings reach the user. Impossible single values are thrown at once, with the construct path
 * in front (`chart/job: workers is -1; expected ...`); cross-field checks are registered with
 * `node.addValidation` and returned at synth, where cdk8s puts `[chart/job] ` in front. A call
 * that contradicts an earlier call (a key set twice, two volumes of one name, one mount path
 * twice) is recorded with `failAtSynth` and reported at synth too, in the one list cdk8s makes of
 * every construct's findings, while the construct goes on with the earlier value: one run then
 * shows every such mistake of the app instead of the first.
 */

/** Throws the finding at once, as `<path>: <message>`. */
export function raise(scope: IConstruct, f: Finding): never {
  throw userError(`${scope.node.path}: ${describe(f)}`);
}

/** Throws `field is value; allowed` at once. */
export function fail(scope: IConstruct, field: string, value: unknown, allowed: string): never {
  return raise(scope, finding(field, value, allowed));
}

/** The findings recorded on each construct by failAtSynth, reported by one validation per construct. */
const RECORDED = new WeakMap<IConstruct, Finding[]>();

/**
 * Records `field is value; allowed` for the construct to report at synth; the caller goes on
 * without the contradicting value (it keeps the earlier one), so nothing wrong is ever written.
 */
export function failAtSynth(scope: IConstruct, field: string, value: unknown, allowed: string): void {
  let recorded = RECORDED.get(scope);
  if (recorded === undefined) {
    const list: Finding[] = [];
    recorded = list;
    RECORDED.set(scope, list);
    scope.node.addValidation({ validate: () => list.map(describe) });
  }
  recorded.push(finding(field, value, allowed));
}

/** Throws the first finding, if there is one. */
export function raiseFirst(scope: IConstruct, findings: Array<Finding | undefined>): void {
  const first = findings.find(f => f !== undefined);
  if (first) raise(scope, first);
}

/** Registers a synth-time check whose findings cdk8s reports with the construct path. */
export function addCheck(scope: IConstruct, check: () => Finding[]): void {
  scope.node.addValidation({ validate: () => check().map(describe) });
}

/** A count that must be a whole number no smaller than `min`. */
export function countFinding(field: string, value: number | undefined, min: number): Finding | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    return finding(field, value, `expected a whole number of ${min} or more`);
  }
  return undefined;
}

/** Throws for a count that is not a whole number of at least `min`. */
export function checkCount(scope: IConstruct, field: string, value: number | undefined, min: number): void {
  const f = countFinding(field, value, min);
  if (f) raise(scope, f);
}

/** A text whose length must be between `min` and `max` characters. */
export function lengthFinding(field: string, value: string, min: number, max: number): Finding | undefined {
  if (typeof value !== 'string' || value.length < min || value.length > max) return finding(field, value, `expected ${min} to ${max} characters`);
  return undefined;
}

/** Throws for a text whose length is not between `min` and `max` characters. */
export function checkLength(scope: IConstruct, field: string, value: string, min: number, max: number): void {
  const f = lengthFinding(field, value, min, max);
  if (f) raise(scope, f);
}
