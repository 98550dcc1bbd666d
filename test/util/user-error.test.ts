import { App, Chart } from 'cdk8s';
import { DistributedPyTorch } from '../../src';
import { forJsiiHost, inJsiiHost, userError } from '../../src/util/user-error';
import { WHOLE_NUMBER_0_OR_MORE } from '../harness/messages';

/**
 * The library's errors for a caller's mistake: a plain Error in Node, the message alone (as its
 * stack and its string form) in a jsii kernel, which the kernel tells by a global symbol it sets
 * on every request (test/bindings/python checks what Python prints from the real kernel).
 */
const HOST_DIR = Symbol.for('jsii.context.hostDirName');
const global = globalThis as { [key: symbol]: unknown };

function refusal(): Error {
  try {
    new DistributedPyTorch(new Chart(new App(), 'bad'), 'job', { image: 'img', workers: -1 });
  } catch (e) {
    return e as Error;
  }
  throw new Error('no error was thrown');
}

const MESSAGE = `bad/job: workers is -1; ${WHOLE_NUMBER_0_OR_MORE}`;

describe('in a Node program', () => {
  test('the error is a plain Error whose stack has its frames', () => {
    expect(inJsiiHost()).toBe(false);
    const error = refusal();
    expect(Object.getPrototypeOf(error)).toBe(Error.prototype);
    expect(error.message).toBe(MESSAGE);
    expect(String(error)).toBe(`Error: ${MESSAGE}`);
    expect(error.stack!.split('\n')[0]).toBe(`Error: ${MESSAGE}`);
    expect(error.stack).toMatch(/\n\s+at /);
  });

  test('the stack starts at the throw, not in userError', () => {
    function thrower(): never {
      throw userError('x: y is 1; expected 2');
    }
    let error: Error | undefined;
    try {
      thrower();
    } catch (e) {
      error = e as Error;
    }
    expect(error!.stack!.split('\n')[1]).toMatch(/^\s+at thrower /);
  });
});

describe('in a jsii kernel', () => {
  beforeEach(() => { global[HOST_DIR] = '/kernel'; });
  afterEach(() => { delete global[HOST_DIR]; });

  test('the stack and the string form are the message alone', () => {
    expect(inJsiiHost()).toBe(true);
    const error = refusal();
    expect(error.message).toBe(MESSAGE);
    expect(error.stack).toBe(MESSAGE);
    expect(String(error)).toBe(MESSAGE);
  });

  test('a message completed after the throw is the one the stack gives', () => {
    const error = forJsiiHost(new Error('a: b is 1; expected 2'));
    error.message += ': did you mean "c"?';
    expect(error.stack).toBe('a: b is 1; expected 2: did you mean "c"?');
    expect(String(error)).toBe(error.message);
  });
});
