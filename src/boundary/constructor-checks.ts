/**
 * The constructor check that the construct bases call (`KubeflowResource`, and the one construct
 * that is not a KubeflowResource, `PyTorchInitContainerTemplate`). It loads check.ts, its type
 * tables and its messages on the first construct rather than when the library is required (see
 * ../util/lazy.ts); the check itself is check.ts's.
 */
import type { IConstruct } from 'constructs';
import { lazy } from '../util/lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const check = lazy(() => require('./check') as typeof import('./check'));

/** Checks a constructor's arguments against the table and keeps the props on the construct (check.ts `checkConstructor`). */
export function checkConstructor(construct: IConstruct, target: Function, args: unknown[]): void {
  check().checkConstructor(construct, target, args);
}
