import * as kplus from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { failAtSynth } from '../../synth/report';
import { canonicalJson } from '../../util/collections';

/*
 * The one meaning of every keyed `add*` method of the library (pod labels and annotations, node
 * selectors, environment variables): a key holds one value. A second, different value for a key
 * is refused at synth, naming the construct path, the key and both values, because the two calls
 * come from different places of a program and silently keeping either one hides a mistake; until
 * then the key keeps the first value, and the app's other mistakes are reported with it. The same
 * value again changes nothing, so a helper that adds a label can run more than once.
 */

/** Sets `map[key]`, or records the finding for synth when it already holds another value. */
export function setOnce(scope: IConstruct, field: string, map: { [key: string]: string }, key: string, value: string): void {
  const existing = map[key];
  if (existing !== undefined && existing !== value) {
    failAtSynth(scope, `${field}[${JSON.stringify(key)}]`, value, `expected one value per key; it is already ${JSON.stringify(existing)}`);
    return;
  }
  map[key] = value;
}

/**
 * Whether a key set for every group of a job or runtime may be passed on to them: false, recorded
 * for synth once for the owner (rather than once per group), when a group holds another value.
 */
export function passOnceToGroups(owner: IConstruct, field: string, held: Array<string | undefined>, key: string, value: string): boolean {
  const existing = held.find(v => v !== undefined && v !== value);
  if (existing === undefined) return true;
  failAtSynth(owner, `${field}[${JSON.stringify(key)}]`, value, `expected one value per key; it is already ${JSON.stringify(existing)}`);
  return false;
}

/** Whether two environment values render the same (a literal, or the same reference). */
export function sameEnv(a: kplus.EnvValue, b: kplus.EnvValue): boolean {
  return a === b || (a.value === b.value && canonicalJson(a.valueFrom) === canonicalJson(b.valueFrom));
}

/**
 * Whether variable `name` must still be added: false when `existing` is the same value (a repeat
 * changes nothing), and false when it is another value, recorded for synth.
 */
export function envToAdd(scope: IConstruct, name: string, existing: kplus.EnvValue | undefined, value: kplus.EnvValue): boolean {
  if (existing === undefined) return true;
  if (!sameEnv(existing, value)) {
    failAtSynth(scope, `env[${name}]`, value.value ?? 'a reference', `expected one value per variable; it is already ${existing.value !== undefined ? JSON.stringify(existing.value) : 'set from a reference'}`);
  }
  return false;
}
