/**
 * The Error the library throws for a caller's mistake (a wrong prop, a wrong config string), made
 * so that the message reaches a Python, Java or Go program first and alone.
 *
 * Under those languages the library runs in a jsii kernel, a Node process that serves the host
 * program's calls, and the kernel hands the host two texts of an error: a message and a stack.
 * The pinned Python runtime raises `RuntimeError(message) from JavaScriptError(stack)`, and Python
 * prints the cause first: with a plain Error, the stack's first line came after a JavaScript
 * header, followed by frames of the library and the kernel that say nothing about the user's
 * program (Python prints its own traceback, with the user's line, right after). Java appends the
 * stack to the message. Two things fix that, in a kernel only:
 *
 * - the stack is the message alone, so the first lines Python prints are the message, and Java's
 *   exception text is the message with no JavaScript frames;
 * - `toString()` is the message alone: for a method call (as opposed to `new`) the kernel wraps
 *   the error in its own, whose message is `String(error)`, which was `Error: <message>`.
 *
 * In a Node program (TypeScript, JavaScript) nothing changes: it is a plain Error (no subclass,
 * whose name Node would print), its stack keeps its frames, which start at the throw, and
 * `String(error)` is `Error: <message>`.
 */
export function userError(message: string): Error {
  const error = new Error(message);
  // The stack starts at the caller's throw, as it did with `new Error` there.
  if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(error, userError);
  return forJsiiHost(error);
}

/**
 * The kernel sets this symbol on the global object for every request it serves (its value is
 * the kernel's folder), so it is defined exactly when a host program in another language is the
 * caller. An older kernel that does not set it leaves errors as they were.
 */
const JSII_HOST_DIR = Symbol.for('jsii.context.hostDirName');

/** Whether a jsii kernel runs this process for a Python, Java, Go or .NET program. */
export function inJsiiHost(): boolean {
  return (globalThis as { [key: symbol]: unknown })[JSII_HOST_DIR] !== undefined;
}

/**
 * In a jsii kernel, makes the error's stack and its string form its message, read when the kernel
 * uses them (so a message completed after the throw, such as a "did you mean" added on the way
 * out, is the one sent). Elsewhere it leaves the error alone.
 */
export function forJsiiHost<E extends Error>(error: E): E {
  if (inJsiiHost()) {
    Object.defineProperty(error, 'stack', { get: () => error.message, set: () => undefined, configurable: true });
    Object.defineProperty(error, 'toString', { value: () => error.message, configurable: true, writable: true });
  }
  return error;
}
