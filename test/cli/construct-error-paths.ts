/**
 * The error paths of the constructs, read from their sources: every call of a helper that makes a
 * finding or throws one, in the L2 folders (common, training, trainer, notebooks, kueue, config), keyed by the
 * file and the source text of the field it names. The lint-parity test maps each key to a
 * catalogue rule or to the construct-only table, so a new check without either fails it.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const SRC = path.join(__dirname, '..', '..', 'src');
const L2_FOLDERS = ['common', 'training', 'trainer', 'notebooks', 'kueue', 'config'];

/** The helpers that make a finding, and which argument holds the field (or, for `refuseValue`, the method). */
const FIELD_ARGUMENT: { [helper: string]: number } = {
  finding: 0,
  fail: 1,
  failAtSynth: 1,
  countFinding: 0,
  checkCount: 1,
  lengthFinding: 0,
  checkLength: 1,
  refuseValue: 0,
};

/** One error path: where it is and what it names. */
export interface ErrorPath {
  /** The file under src/, with forward slashes. */
  readonly file: string;
  readonly line: number;
  /** The helper called (`fail`, `finding`...), or `throw` for a bare `throw new Error` or `throw userError`. */
  readonly helper: string;
  /** The field argument's source text, white space collapsed (`'workers'`, `${field}.url`); the message for a bare throw. */
  readonly field: string;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** `new Error(...)`, or `userError(...)`: the library's error for a caller's mistake (util/user-error.ts). */
function isErrorMade(e: ts.Expression): e is ts.NewExpression | ts.CallExpression {
  return ts.isNewExpression(e) || (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'userError');
}

/** Every error path of the L2 sources, in file order. */
export function constructErrorPaths(): ErrorPath[] {
  const out: ErrorPath[] = [];
  for (const folder of L2_FOLDERS) {
    for (const absolute of sourceFiles(path.join(SRC, folder))) {
      const file = path.relative(SRC, absolute).split(path.sep).join('/');
      const source = ts.createSourceFile(absolute, fs.readFileSync(absolute, 'utf8'), ts.ScriptTarget.Latest, true);
      const text = (node: ts.Node) => node.getText(source).replace(/\s+/g, ' ');
      const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text in FIELD_ARGUMENT) {
          const arg = node.arguments[FIELD_ARGUMENT[node.expression.text]];
          if (arg !== undefined) out.push({ file, line: lineOf(node), helper: node.expression.text, field: text(arg) });
        } else if (ts.isThrowStatement(node) && node.expression && isErrorMade(node.expression)) {
          const arg = node.expression.arguments?.[0];
          out.push({ file, line: lineOf(node), helper: 'throw', field: arg ? text(arg) : '' });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return out;
}

/** The key a table row covers: `<file> <helper> <field text>`. */
export function keyOf(p: ErrorPath): string {
  return `${p.file} ${p.helper} ${p.field}`;
}
