import { IConstruct } from 'constructs';

/**
 * A synth-time validation message: the field, the value given and what is allowed, in lower case.
 * It is returned from a `node.addValidation` check, and cdk8s puts the construct path in front
 * (`[chart/job] workers is -1; expected ...`), so the path is not repeated here.
 */
export function problem(field: string, value: unknown, allowed: string): string {
  return `${field} is ${show(value)}; ${allowed}`;
}

/**
 * Throws at once for a value that can never be right. The message starts with the construct path,
 * as cdk8s's validation report does: `chart/job: workers is -1; expected ...`.
 */
export function fail(scope: IConstruct, field: string, value: unknown, allowed: string): never {
  throw new Error(`${scope.node.path}: ${problem(field, value, allowed)}`);
}

/** Checks a count that must be a whole number no smaller than `min`. */
export function checkCount(scope: IConstruct, field: string, value: number | undefined, min: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < min) {
    fail(scope, field, value, `expected a whole number of ${min} or more`);
  }
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'not set';
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`;
  return String(value);
}
