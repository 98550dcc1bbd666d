/**
 * The boundary checks that construct constructors call. They load check.ts, its type tables and
 * its messages on the first construct rather than when the library is required (see ../lazy.ts);
 * the checks themselves are check.ts's.
 */
import type { IConstruct } from 'constructs';
import { lazy } from '../util/lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const check = lazy(() => require('./check') as typeof import('./check'));

/** Checks a constructor's arguments against the table (check.ts `checkConstructor`). */
export function checkConstructor(scope: IConstruct, target: Function, args: unknown[]): void {
  check().checkConstructor(scope, target, args);
}

/** Checks a construct's props before `super()` and returns them (check.ts `checkedProps`). */
export function checkedProps<T>(scope: IConstruct, id: string, target: Function, props: T): T {
  return check().checkedProps(scope, id, target, props);
}
