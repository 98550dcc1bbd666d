/**
 * The evaluator of the CRDs' CEL rules (`x-kubernetes-validations`) on JSON values, as the API
 * server's CEL validation evaluates them on a create.
 *
 * The rules are parsed when the L1s are generated (scripts/l1/cel-rules.ts, with @bufbuild/cel's
 * parser), and the compact schemas hold the parsed expression in the small form below, so the
 * library needs no parser and no dependency at run time. The generator refuses an expression that
 * uses anything this evaluator does not implement, and test/rules/schema/cel.test.ts compares it
 * with @bufbuild/cel's own evaluator on every rule of the pinned CRDs.
 *
 * Semantics kept from CEL: `&&` and `||` absorb an error when the other side decides (`false && e`
 * is false), a missing field is an error ("no such key") and `has()` tests presence, comprehension
 * macros (`all`, `exists`, `exists_one`, `filter`, `map`) run as the parser expanded them, and an
 * operator applied to the wrong types is an error ("no such overload"). An error makes the rule fail,
 * as the API server reports it.
 */

/** A parsed CEL expression, in the form the compact schemas store. */
export type CelExpr =
  | readonly ['id', string]
  | readonly ['lit', string | number | boolean | null]
  | readonly ['sel', CelExpr, string]
  | readonly ['has', CelExpr, string]
  | readonly ['call', string, CelExpr | null, readonly CelExpr[]]
  | readonly ['list', readonly CelExpr[]]
  | readonly ['comp', string, CelExpr, string, CelExpr, CelExpr, CelExpr, CelExpr];

/** One rule of a schema node as the compact schema holds it: parsed, or marked as a transition rule. */
export interface CelRule {
  readonly rule: string;
  readonly message?: string;
  /** Reads `oldSelf`: evaluated on updates only, so never by the library. */
  readonly transition?: true;
  /** The parsed expression (absent on a transition rule). */
  readonly expr?: CelExpr;
  /** The one field below the node the rule reads (dotted), where its finding is reported; absent when it reads several or the node itself. */
  readonly field?: string;
}

/** The functions and operators the evaluator implements (the generator refuses any other). */
export const CEL_FUNCTIONS: readonly string[] = [
  '_&&_', '_||_', '!_', '_?_:_', '_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '_+_', '_-_', '_*_', '-_',
  '@in', '_[_]', '@not_strictly_false', 'size', 'matches', 'startsWith', 'endsWith', 'contains',
];

/** An evaluation error: the rule fails with it. */
export class CelError {
  constructor(readonly message: string) {}
}

type Value = unknown;
type Scope = ReadonlyMap<string, Value>;

/** The result of `expr` with `self` bound to `self`: a value, or the error that stopped it. */
export function evaluate(expr: CelExpr, self: unknown): Value | CelError {
  return run(expr, new Map([['self', self]]));
}

function run(e: CelExpr, scope: Scope): Value | CelError {
  switch (e[0]) {
    case 'id':
      return scope.has(e[1]) ? scope.get(e[1]) : new CelError(`undeclared reference to '${e[1]}'`);
    case 'lit':
      return e[1];
    case 'sel': {
      const operand = run(e[1], scope);
      if (operand instanceof CelError) return operand;
      if (!isMap(operand)) return noOverload('.', [operand]);
      return e[2] in operand && operand[e[2]] !== undefined ? operand[e[2]] : new CelError(`no such key: ${e[2]}`);
    }
    case 'has': {
      const operand = run(e[1], scope);
      if (operand instanceof CelError) return operand;
      if (!isMap(operand)) return noOverload('has', [operand]);
      return e[2] in operand && operand[e[2]] !== undefined;
    }
    case 'list': {
      const items: Value[] = [];
      for (const item of e[1]) {
        const v = run(item, scope);
        if (v instanceof CelError) return v;
        items.push(v);
      }
      return items;
    }
    case 'comp':
      return comprehension(e, scope);
    case 'call':
      return call(e[1], e[2], e[3], scope);
  }
}

function comprehension(e: Extract<CelExpr, readonly ['comp', ...unknown[]]>, scope: Scope): Value | CelError {
  const [, iterVar, rangeExpr, accuVar, init, condition, step, result] = e;
  const range = run(rangeExpr, scope);
  if (range instanceof CelError) return range;
  let elements: readonly Value[];
  if (Array.isArray(range)) elements = range;
  else if (isMap(range)) elements = Object.keys(range);
  else return noOverload('comprehension', [range]);
  const inner = new Map(scope);
  let accu = run(init, scope);
  for (const element of elements) {
    inner.set(accuVar, accu);
    inner.set(iterVar, element);
    const go = run(condition, inner);
    if (go === false) break;
    if (go instanceof CelError) return go;
    accu = run(step, inner);
  }
  inner.set(accuVar, accu);
  return run(result, inner);
}

function call(fn: string, target: CelExpr | null, argExprs: readonly CelExpr[], scope: Scope): Value | CelError {
  // The logical operators decide on one side even when the other is an error.
  if (fn === '_&&_' || fn === '_||_') {
    const decisive = fn === '_||_';
    const [a, b] = argExprs.map(x => run(x, scope));
    if (a === decisive || b === decisive) return decisive;
    if (a instanceof CelError) return a;
    if (b instanceof CelError) return b;
    if (typeof a !== 'boolean' || typeof b !== 'boolean') return noOverload(fn, [a, b]);
    return !decisive;
  }
  if (fn === '_?_:_') {
    const c = run(argExprs[0], scope);
    if (c instanceof CelError) return c;
    if (typeof c !== 'boolean') return noOverload(fn, [c]);
    return run(argExprs[c ? 1 : 2], scope);
  }
  if (fn === '@not_strictly_false') {
    return run(argExprs[0], scope) !== false;
  }
  const args: Value[] = [];
  for (const x of target === null ? argExprs : [target, ...argExprs]) {
    const v = run(x, scope);
    if (v instanceof CelError) return v;
    args.push(v);
  }
  const [a, b] = args;
  switch (fn) {
    case '!_': return typeof a === 'boolean' ? !a : noOverload(fn, args);
    case '-_': return typeof a === 'number' ? -a : noOverload(fn, args);
    case '_==_': return equal(a, b);
    case '_!=_': return !equal(a, b);
    case '_<_': case '_<=_': case '_>_': case '_>=_': return compare(fn, a, b);
    case '_+_':
      if (typeof a === 'number' && typeof b === 'number') return a + b;
      if (typeof a === 'string' && typeof b === 'string') return a + b;
      if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
      return noOverload(fn, args);
    case '_-_': return typeof a === 'number' && typeof b === 'number' ? a - b : noOverload(fn, args);
    case '_*_': return typeof a === 'number' && typeof b === 'number' ? a * b : noOverload(fn, args);
    case '@in':
      if (Array.isArray(b)) return b.some(x => equal(a, x));
      if (isMap(b)) return typeof a === 'string' && a in b;
      return noOverload(fn, args);
    case '_[_]':
      if (Array.isArray(a) && typeof b === 'number') return Number.isInteger(b) && b >= 0 && b < a.length ? a[b] : new CelError(`index out of range: ${b}`);
      if (isMap(a) && typeof b === 'string') return b in a ? a[b] : new CelError(`no such key: ${b}`);
      return noOverload(fn, args);
    case 'size':
      if (typeof a === 'string') return [...a].length;
      if (Array.isArray(a)) return a.length;
      if (isMap(a)) return Object.keys(a).length;
      return noOverload(fn, args);
    case 'matches':
      return typeof a === 'string' && typeof b === 'string' ? regex(b).test(a) : noOverload(fn, args);
    case 'startsWith': return typeof a === 'string' && typeof b === 'string' ? a.startsWith(b) : noOverload(fn, args);
    case 'endsWith': return typeof a === 'string' && typeof b === 'string' ? a.endsWith(b) : noOverload(fn, args);
    case 'contains': return typeof a === 'string' && typeof b === 'string' ? a.includes(b) : noOverload(fn, args);
    default: return new CelError(`unknown function ${fn}`);
  }
}

function compare(fn: string, a: Value, b: Value): boolean | CelError {
  if (!((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))) return noOverload(fn, [a, b]);
  switch (fn) {
    case '_<_': return a < b;
    case '_<=_': return a <= b;
    case '_>_': return a > b;
    default: return a >= b;
  }
}

/** CEL equality on JSON values: by value for lists and maps, false across types. */
function equal(a: Value, b: Value): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every(k => k in b && equal(a[k], b[k]));
  }
  return a === b;
}

function isMap(v: Value): v is { readonly [key: string]: Value } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function noOverload(fn: string, args: readonly Value[]): CelError {
  return new CelError(`no such overload: ${fn}(${args.map(typeName).join(', ')})`);
}

function typeName(v: Value): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

const regexes = new Map<string, RegExp>();
/** CEL's `matches` is RE2 and unanchored; the pinned CRDs' patterns mean the same in JavaScript. */
function regex(pattern: string): RegExp {
  let r = regexes.get(pattern);
  if (!r) {
    r = new RegExp(pattern, 'u');
    regexes.set(pattern, r);
  }
  return r;
}
