/**
 * Installs the boundary checks on the library's classes, in one place: the package's entry point.
 * `guardExports` registers each class the table lists (so `instanceof` can be tested against it)
 * and wraps its public methods and static factories to check their arguments against the table
 * before they run. src/index.ts hands it its exports once every module is loaded; the compiled
 * entry (written by scripts/lazy-entry.ts), which loads each module on first use, hands it the
 * exports of every public module loaded so far each time an export is first read, so a class
 * reached only as the value another module's method returns (a job's `ReplicaGroup`) is guarded
 * too. A public module has no call of its own: a new class is guarded by being exported.
 * Constructors cannot be wrapped without replacing the exported classes, so the construct base
 * checks the props (`KubeflowResource`, through constructor-checks.ts). test/package/lazy-entry.test.ts
 * reads each export alone in a fresh process and checks that every class of the table loaded with
 * it is guarded. The L1 classes of the submodules are guarded through the one hook they call
 * (l1-guard.ts), set by the first call here.
 *
 * This module loads no public module (they are handed to it), and check.ts only on a wrapper's
 * first call, so that reading an export costs only the table (see ../util/lazy.ts).
 */
import type { Where } from './check';
import { installL1Guard } from './l1-guard';
import { fromCaller, OWN_CLASSES } from './registry';
import { CLASSES } from './schema.generated';
import { lazy } from '../util/lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const check = lazy(() => require('./check') as typeof import('./check'));

const GUARDED = Symbol.for('cdk8s-kubeflow.boundary.guarded');

/** Registers and guards every class among a module's (or the entry's) exports that the table lists as the library's own. */
export function guardExports(api: object): void {
  // The L1 submodules are exports too (namespaces): their classes call one hook (l1-guard.ts).
  installL1Guard();
  for (const [name, value] of Object.entries(api)) {
    // Only the classes the table lists as the library's own (unprefixed names); other exports are skipped.
    if (typeof value === 'function' && value.name === name && CLASSES[name] && !OWN_CLASSES.has(name)) guardClass(value);
  }
}

/** Registers a class and wraps its methods and static factories with argument checks. */
function guardClass(cls: Function): void {
  OWN_CLASSES.set(cls.name, cls);
  const entry = CLASSES[cls.name];
  for (const method of Object.keys(entry.methods ?? {})) wrap(cls, cls.prototype, method, false);
  for (const method of Object.keys(entry.statics ?? {})) wrap(cls, cls, method, true);
}

function wrap(cls: Function, owner: any, method: string, isStatic: boolean): void {
  const original = owner[method];
  const entry = CLASSES[cls.name];
  const specs = isStatic ? entry.statics?.[method] : entry.methods?.[method];
  if (typeof original !== 'function' || original[GUARDED] || !specs || specs.length === 0) return;
  const label = `${cls.name}.${method}`;
  const params = lazy(() => check().methodParams(cls.name, method, isStatic) ?? []);
  const guarded = function (this: any, ...args: unknown[]) {
    // The construct's path when there is one (an instance method of a construct, or a static
    // method that takes a scope first), else the method's name.
    const where: Where = isConstruct(this) ? this : isStatic && isConstruct(args[0]) ? args[0] : label;
    const ps = params();
    try {
      check().checkArgs(where, ps, args);
    } catch (error) {
      // The user's call, not this wrapper, is the top frame of a refused call's stack.
      throw fromCaller(error, guarded);
    }
    // jsii passes an omitted optional argument as undefined; a null from JavaScript would skip
    // the method's default value, so it is passed the same way.
    for (let i = 0; i < ps.length && i < args.length; i++) if (args[i] === null && ps[i].optional) args[i] = undefined;
    return original.apply(this, args);
  };
  Object.defineProperty(guarded, 'name', { value: method });
  Object.defineProperty(guarded, GUARDED, { value: true });
  Object.defineProperty(owner, method, { value: guarded, writable: true, configurable: true, enumerable: false });
}

/** A construct (its path is worked out only for a message, as it walks the tree). */
function isConstruct(value: any): value is Where {
  return typeof value === 'object' && value !== null && typeof value.node === 'object' && value.node !== null && 'scope' in value.node;
}
