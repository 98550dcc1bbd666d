/**
 * The edits made to json2jsii's rendered code. Each is a regular expression over text that
 * json2jsii owns, so a new json2jsii release could change that text and make an edit silently
 * match nothing (longer doc blocks, a quadratic toJson, in every published L1). Every edit therefore
 * states how often it must match, counted from a simpler marker of the same thing, and fails loudly
 * when the count differs.
 */

/** A regular-expression edit that must match exactly `expected` times. */
export interface Rewrite {
  /** Named in the error: what the edit is for. */
  readonly name: string;
  readonly pattern: RegExp;
  readonly replacement: string;
  readonly expected: number;
}

/** A rewrite that matched a different number of times than it must. */
export class RewriteMismatchError extends Error {
  public constructor(name: string, matched: number, expected: number) {
    super(`json2jsii output rewrite "${name}" matched ${matched} time(s); expected ${expected} `
      + '(did a json2jsii upgrade change the code it renders? see scripts/l1/rewrites.ts)');
    this.name = 'RewriteMismatchError';
  }
}

/** Applies one rewrite, checking how often it matched. */
export function rewrite(text: string, r: Rewrite): string {
  if (!r.pattern.global) throw new Error(`json2jsii output rewrite "${r.name}" must use a global pattern`);
  let matched = 0;
  const out = text.replace(r.pattern, (...args: any[]) => {
    matched++;
    // Expand $1..$9 as String.replace would, with the groups of this match.
    return r.replacement.replace(/\$(\d)/g, (_m, i) => args[Number(i)] ?? '');
  });
  if (matched !== r.expected) throw new RewriteMismatchError(r.name, matched, r.expected);
  return out;
}

function count(text: string, marker: RegExp): number {
  return (text.match(marker) ?? []).length;
}

/**
 * Shortens json2jsii's doc blocks (our descriptions are one line, and the `@schema` tag repeats the
 * type and field name) and replaces its undefined-filtering. `leadingLines` is the number of empty
 * lines json2jsii writes first (one per external type registered, see externals.ts).
 */
export function tidyJson2jsiiOutput(rendered: string, leadingLines: number): string {
  const lead = rendered.match(/^\n*/)![0].length;
  if (lead !== leadingLines) {
    throw new RewriteMismatchError('drop the empty lines of the external types', lead, leadingLines);
  }
  let body = rendered.slice(lead);
  const schemaTags = count(body, /^\s*\* @schema /gm);
  const defaults = count(body, /^\s*\* @default /gm);
  const bareBlocks = count(body, /\/\*\*\n\s*\* @schema /g);
  const toJsonFunctions = count(body, /^export function toJson_/gm);
  const rewrites: Rewrite[] = [
    {
      name: 'doc block with @default: drop the @schema tag',
      pattern: /\/\*\*\n(\s*)\* (.+)\n\s*\*\n\s*\* @default (.+)\n\s*\* @schema .+\n\s*\*\//g,
      replacement: '/**\n$1* $2\n$1* @default $3\n$1*/',
      expected: defaults,
    },
    {
      name: 'doc block with a description: one line without the @schema tag',
      pattern: /\/\*\*\n\s*\* (.+)\n\s*\*\n\s*\* @schema .+\n\s*\*\//g,
      replacement: '/** $1 */',
      expected: schemaTags - defaults - bareBlocks,
    },
    {
      name: 'doc block with only the @schema tag: one line',
      pattern: /\/\*\*\n\s*\* @schema (.+)\n\s*\*\//g,
      replacement: '/** $1 */',
      expected: bareBlocks,
    },
    {
      name: 'toJson doc block',
      pattern: /\/\*\*\n \* Converts an object of type '(\w+)' to JSON representation.\n \*\//g,
      replacement: '/** Converts a $1 to the JSON of the manifest. */',
      expected: toJsonFunctions,
    },
    {
      // json2jsii filters undefined fields by spreading the result into a new object once per
      // field, which is quadratic in the fields of a type (30 for a Volume) and most of synthesis
      // garbage.
      name: 'toJson undefined filter: withoutUndefined()',
      pattern: /  \/\/ filter undefined values\n  return Object\.entries\(result\)\.reduce\(\(r, i\) => \(i\[1\] === undefined\) \? r : \(\{ \.\.\.r, \[i\[0\]\]: i\[1\] \}\), \{\}\);/g,
      replacement: '  return withoutUndefined(result);',
      expected: toJsonFunctions,
    },
  ];
  for (const r of rewrites) body = rewrite(body, r);
  return body;
}
