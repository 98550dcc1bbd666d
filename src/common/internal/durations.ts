import { Duration } from 'cdk8s';
import { Finding, finding } from '../../rules/finding';

/** Manifests count durations in whole seconds; cdk8s cannot convert a fraction of one. */
export const WHOLE_SECONDS = 'expected a whole number of seconds, which the manifest counts in';

/** A duration in seconds, fractional when it is not whole (cdk8s's toSeconds would throw). */
export function secondsOf(duration: Duration): number {
  return duration.toMilliseconds({ integral: false }) / 1000;
}

/** What is wrong with a duration that must be whole seconds, if anything. */
export function wholeSecondsFinding(field: string, duration: Duration | undefined): Finding | undefined {
  if (duration === undefined) return undefined;
  const seconds = secondsOf(duration);
  return Number.isInteger(seconds) ? undefined : finding(field, `${seconds}s`, WHOLE_SECONDS);
}

/**
 * What is wrong with a deadline (`activeDeadlineSeconds`, of a v1 run policy or a TrainJob), if
 * anything: whole seconds, and at least one (the API server refuses 0).
 */
export function deadlineFinding(field: string, duration: Duration | undefined): Finding | undefined {
  const whole = wholeSecondsFinding(field, duration);
  if (whole || duration === undefined) return whole;
  const seconds = duration.toSeconds();
  return seconds < 1 ? finding(field, `${seconds}s`, 'expected at least 1 second') : undefined;
}
