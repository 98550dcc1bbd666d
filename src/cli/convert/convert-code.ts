/**
 * The TypeScript that `convert` prints, as a small expression tree: each node knows how to print
 * itself in the repository's style (2-space indent, single quotes, trailing commas on multi-line
 * literals, keys quoted only when one key of the object needs it) and what value it evaluates to,
 * so that a mapper can check that the code it prints renders the input before it prints it.
 */

/** A value in the generated code. */
export type Expr =
  | { readonly type: 'json'; readonly value: unknown }
  | { readonly type: 'object'; readonly entries: ReadonlyArray<readonly [key: string, value: Expr]> }
  | { readonly type: 'array'; readonly items: readonly Expr[] }
  | { readonly type: 'call'; readonly callee: string; readonly args: readonly Expr[]; readonly evaluate: (...args: any[]) => unknown }
  /** A name that holds a value, such as an enum member. */
  | { readonly type: 'ref'; readonly code: string; readonly value: unknown };

export const json = (value: unknown): Expr => ({ type: 'json', value });
export const object = (entries: ReadonlyArray<readonly [string, Expr]>): Expr => ({ type: 'object', entries });
export const array = (items: readonly Expr[]): Expr => ({ type: 'array', items });
export const ref = (code: string, value: unknown): Expr => ({ type: 'ref', code, value });
export const call = (callee: string, args: readonly Expr[], run: (...args: any[]) => unknown): Expr => ({ type: 'call', callee, args, evaluate: run });

/** The value the expression evaluates to. */
export function evaluate(e: Expr): unknown {
  switch (e.type) {
    case 'json': return e.value;
    case 'object': return Object.fromEntries(e.entries.map(([k, v]) => [k, evaluate(v)]));
    case 'array': return e.items.map(evaluate);
    case 'call': return e.evaluate(...e.args.map(evaluate));
    case 'ref': return e.value;
  }
}

/** The line length under which a literal without nested objects is printed on one line. */
const INLINE_WIDTH = 100;
const INDENT = '  ';

/** The code of an expression that starts at `indent` (the indentation of its line). */
export function print(e: Expr, indent = ''): string {
  const flat = printFlat(e);
  if (flat !== undefined && indent.length + flat.length <= INLINE_WIDTH) return flat;
  const inner = indent + INDENT;
  switch (e.type) {
    case 'json': return printJson(e.value, indent);
    case 'object': {
      if (e.entries.length === 0) return '{}';
      const quote = e.entries.some(([k]) => !isIdentifier(k));
      return `{\n${e.entries.map(([k, v]) => `${inner}${quote ? quoteString(k) : k}: ${print(v, inner)},\n`).join('')}${indent}}`;
    }
    case 'array':
      if (e.items.length === 0) return '[]';
      return `[\n${e.items.map(v => `${inner}${print(v, inner)},\n`).join('')}${indent}]`;
    case 'ref': return e.code;
    case 'call':
      return `${e.callee}(\n${e.args.map(v => `${inner}${print(v, inner)},\n`).join('')}${indent})`;
  }
}

/** One-line code for scalars, calls and literals without nested objects; undefined otherwise. */
function printFlat(e: Expr): string | undefined {
  switch (e.type) {
    case 'json': return flatJson(e.value);
    case 'object': return e.entries.length === 0 ? '{}' : undefined;
    case 'array': {
      const items = e.items.map(i => (i.type === 'object' || (i.type === 'json' && typeof i.value === 'object' && i.value !== null) ? undefined : printFlat(i)));
      return items.every(i => i !== undefined) ? `[${items.join(', ')}]` : undefined;
    }
    case 'call': {
      const args = e.args.map(printFlat);
      return args.every(a => a !== undefined) ? `${e.callee}(${args.join(', ')})` : undefined;
    }
    case 'ref': return e.code;
  }
}

function flatJson(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return quoteString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.some(v => typeof v === 'object' && v !== null)) return undefined;
    return `[${value.map(flatJson).join(', ')}]`;
  }
  if (typeof value === 'object' && Object.keys(value).length === 0) return '{}';
  return undefined;
}

/** Plain JSON (an object or array that holds objects), printed like the literals above. */
function printJson(value: unknown, indent: string): string {
  if (Array.isArray(value)) return print(array(value.map(json)), indent);
  if (typeof value === 'object' && value !== null) return print(object(Object.entries(value).map(([k, v]) => [k, json(v)])), indent);
  const flat = flatJson(value);
  if (flat === undefined) throw new Error(`cannot print ${typeof value} as code`);
  return flat;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function isIdentifier(key: string): boolean {
  return IDENTIFIER.test(key);
}

/** A single-quoted string literal; control characters and non-ASCII line separators escaped. */
export function quoteString(s: string): string {
  let out = '\'';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '\'') out += '\\\'';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}
