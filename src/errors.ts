import { IConstruct } from 'constructs';

/**
 * The one shape every validation message has: the construct path, the field, the value given and
 * what is allowed. Messages are lower case so they read well inside cdk8s's validation report.
 */
export function problem(scope: IConstruct, field: string, value: unknown, allowed: string): string {
  return `${scope.node.path}: ${field} is ${show(value)}; ${allowed}`;
}

/** Throws at once for a value that can never be right, with the message of `problem`. */
export function fail(scope: IConstruct, field: string, value: unknown, allowed: string): never {
  throw new Error(problem(scope, field, value, allowed));
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
