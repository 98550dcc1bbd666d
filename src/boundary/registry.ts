import { inJsiiHost } from '../util/user-error';

/**
 * The library's classes by name, from the public modules loaded so far: install.ts fills it as
 * each module loads, check.ts reads it for `instanceof` tests (a class not in it has no instance
 * in this process, since its module has not run). It is a module of its own so that install.ts
 * and check.ts never load each other, and so that nothing in the boundary loads a public module
 * (the public modules load the boundary, not the reverse).
 */
export const OWN_CLASSES = new Map<string, Function>();

/**
 * The library's constructs made so far (the construct base's check adds each, check.ts
 * `checkConstructor`): an L1 whose scope is one of them is that construct's own object, which the
 * construct checks and registers with the rules itself (l1-guard.ts leaves it alone).
 */
export const LIBRARY_CONSTRUCTS = new WeakSet<object>();

/**
 * Points a refused call's stack at the caller: the frames of `entry` (a method wrapper, or the
 * class a user called with `new`) and of everything it called are left out, so the first frame
 * under the message is the user's line rather than the boundary's or the constructor's.
 */
export function fromCaller(error: unknown, entry: Function): unknown {
  // In a jsii kernel the caller is a program in another language, which prints its own
  // traceback: the error keeps its message as its stack (util/user-error.ts).
  if (inJsiiHost()) return error;
  if (error instanceof Error && typeof Error.captureStackTrace === 'function') Error.captureStackTrace(error, entry);
  return error;
}

