/**
 * `npx ts-node --project tsconfig.dev.json scripts/code-metrics.ts [dir]`: figures on the shape of
 * a source tree (default `src/`), printed as markdown, so a refactor can show its before and after
 * from one command rather than from hand counts:
 *
 * - lines per layer (each top folder of the tree is a layer; `index.ts` and other files at the top
 *   are "(top)"), generated files (`*.generated.ts`) left out of the layers and counted apart;
 * - the ten largest files and the ten largest functions or methods, by lines;
 * - the import graph between the tree's modules: modules, arrows and cycles, once counting
 *   type-only imports as arrows and once without them. A lazy `require()` (or `import()`) of a
 *   module is an arrow like a static import, since it loads the module too.
 *
 * It reads the files with the TypeScript parser (no type-checking, no program): a line counts as
 * code when a token other than a comment stands on it.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

/** How one module reaches another. */
type ArrowKind = 'static' | 'lazy' | 'type';

interface FileFigures {
  /** Path relative to the root, with `/` separators. */
  readonly file: string;
  readonly layer: string;
  readonly generated: boolean;
  /** Physical lines of the file. */
  readonly lines: number;
  /** Lines with a token other than a comment on them. */
  readonly code: number;
  readonly functions: readonly FunctionFigures[];
  /** The modules of the tree this one imports, with how (several imports of one module merge). */
  readonly imports: ReadonlyMap<string, Set<ArrowKind>>;
}

interface FunctionFigures {
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap(entry => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
      return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
    });
}

/** Lines on which a token other than a comment stands (a multi-line string counts all its lines). */
function codeLines(source: ts.SourceFile): number {
  const lines = new Set<number>();
  const mark = (start: number, end: number): void => {
    const first = source.getLineAndCharacterOfPosition(start).line;
    const last = source.getLineAndCharacterOfPosition(Math.max(start, end - 1)).line;
    for (let l = first; l <= last; l++) lines.add(l);
  };
  // Walk the tree's tokens (a bare scanner cannot tell a regular expression or a template's tail
  // from an operator): every leaf node is a token, and its trivia are skipped. JSDoc nodes are
  // comments.
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    if (node.getChildCount(source) === 0) {
      if (node.kind !== ts.SyntaxKind.EndOfFileToken) mark(node.getStart(source), node.getEnd());
      return;
    }
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return lines.size;
}

function lineOf(source: ts.SourceFile, position: number): number {
  return source.getLineAndCharacterOfPosition(position).line + 1;
}

/** The name a reader would look a function up by: `Class.method`, `name` of `const name = () =>`. */
function functionName(node: ts.Node, source: ts.SourceFile): string | undefined {
  const ownerClass = (n: ts.Node): string => {
    const parent = n.parent;
    return (ts.isClassLike(parent) || ts.isInterfaceDeclaration(parent)) && parent.name ? `${parent.name.text}.` : '';
  };
  const text = (name: ts.Node | undefined): string | undefined => name ? name.getText(source) : undefined;
  if (ts.isFunctionDeclaration(node)) return text(node.name) ?? 'default';
  if (ts.isMethodDeclaration(node)) return ownerClass(node) + text(node.name);
  if (ts.isConstructorDeclaration(node)) return `${ownerClass(node)}constructor`;
  if (ts.isGetAccessorDeclaration(node)) return `${ownerClass(node)}get ${text(node.name)}`;
  if (ts.isSetAccessorDeclaration(node)) return `${ownerClass(node)}set ${text(node.name)}`;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent)) return text(parent.name);
    if (ts.isPropertyAssignment(parent)) return text(parent.name);
    if (ts.isPropertyDeclaration(parent)) return ownerClass(parent) + text(parent.name);
    if (ts.isFunctionExpression(node) && node.name) return node.name.text;
    return undefined; // a callback: counted within the function that holds it
  }
  return undefined;
}

function functionsOf(source: ts.SourceFile): FunctionFigures[] {
  const found: FunctionFigures[] = [];
  const visit = (node: ts.Node): void => {
    const isFunction = ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined;
    const name = isFunction ? functionName(node, source) : undefined;
    if (name !== undefined) {
      const line = lineOf(source, node.getStart(source));
      found.push({ name, line, lines: lineOf(source, node.getEnd()) - line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The module a relative specifier names, if it is a file of the tree. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base]
    .find(candidate => /\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** Every module a file reaches, and how: static import/export, lazy require()/import(), type-only. */
function importsOf(source: ts.SourceFile, file: string): Array<{ readonly target: string; readonly kind: ArrowKind }> {
  const found: Array<{ target: string; kind: ArrowKind }> = [];
  const add = (specifier: ts.Expression | ts.Node | undefined, kind: ArrowKind): void => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return; // a computed path: not followed
    const target = resolveSpecifier(file, specifier.text);
    if (target) found.push({ target, kind });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && named !== undefined
        && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every(e => e.isTypeOnly)));
      add(node.moduleSpecifier, allTypes ? 'type' : 'static');
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause;
      const allTypes = node.isTypeOnly || (named !== undefined && ts.isNamedExports(named)
        && named.elements.length > 0 && named.elements.every(e => e.isTypeOnly));
      add(node.moduleSpecifier, allTypes ? 'type' : 'static');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly ? 'type' : 'static');
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if ((ts.isIdentifier(callee) && callee.text === 'require') || callee.kind === ts.SyntaxKind.ImportKeyword) {
        add(node.arguments[0], 'lazy');
      }
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(argument.literal, 'type');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function readFile(root: string, full: string): FileFigures {
  const text = fs.readFileSync(full, 'utf8');
  const source = ts.createSourceFile(full, text, ts.ScriptTarget.Latest, true);
  const file = path.relative(root, full).split(path.sep).join('/');
  const imports = new Map<string, Set<ArrowKind>>();
  for (const i of importsOf(source, full)) {
    const target = path.relative(root, i.target).split(path.sep).join('/');
    if (target.startsWith('..')) continue; // outside the tree (imports/, node_modules)
    if (!imports.has(target)) imports.set(target, new Set());
    imports.get(target)!.add(i.kind);
  }
  const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return {
    file,
    layer: file.includes('/') ? file.split('/')[0] : '(top)',
    generated: /\.generated\.tsx?$/.test(file),
    lines,
    code: codeLines(source),
    functions: functionsOf(source),
    imports,
  };
}

/**
 * Strongly connected components of more than one module (or a module importing itself), largest
 * first: the import cycles of `graph`. The architecture test asks the same of src/'s load graph.
 */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

const number = (n: number): string => n.toLocaleString('en-US');

function table(head: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): string {
  const cell = (c: string | number): string => typeof c === 'number' ? number(c) : c;
  return [
    `| ${head.join(' | ')} |`,
    // Numbers right-aligned, text left-aligned (by the first row's cells).
    `| ${head.map((_, i) => typeof rows[0]?.[i] === 'number' ? '---:' : '---').join(' | ')} |`,
    ...rows.map(r => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

export function metrics(root: string): string {
  const files = sourceFiles(root).map(f => readFile(root, f));
  const handWritten = files.filter(f => !f.generated);
  const generated = files.filter(f => f.generated);
  const out: string[] = [];
  const label = path.basename(path.resolve(root));

  out.push(`# Code metrics of \`${label}/\``, '');
  out.push(`${number(files.length)} modules, ${number(files.reduce((s, f) => s + f.lines, 0))} lines `
    + `(${number(handWritten.reduce((s, f) => s + f.lines, 0))} in ${number(handWritten.length)} hand-written modules, `
    + `${number(generated.reduce((s, f) => s + f.lines, 0))} in ${number(generated.length)} generated).`, '');

  out.push('## Lines per layer', '', 'Generated files (`*.generated.ts`) are left out of the layers and counted in the last rows. '
    + 'Code lines are lines with a token other than a comment on them.', '');
  const layers = [...new Set(handWritten.map(f => f.layer))].sort();
  const layerRow = (name: string, group: readonly FileFigures[]): Array<string | number> => [
    name, group.length, group.reduce((s, f) => s + f.lines, 0), group.reduce((s, f) => s + f.code, 0),
    group.length === 0 ? 0 : Math.round(group.reduce((s, f) => s + f.lines, 0) / group.length),
  ];
  out.push(table(['layer', 'modules', 'lines', 'code lines', 'lines per module'], [
    ...layers.map(l => layerRow(l, handWritten.filter(f => f.layer === l))),
    layerRow('**hand-written**', handWritten),
    ...[...new Set(generated.map(f => f.layer))].sort().map(l => layerRow(`${l} (generated)`, generated.filter(f => f.layer === l))),
    layerRow('**generated**', generated),
    layerRow('**all**', files),
  ]), '');

  out.push('## The ten largest files', '', 'Hand-written modules; generated ones are listed apart below.', '');
  const largest = (group: readonly FileFigures[]) => [...group].sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file)).slice(0, 10);
  out.push(table(['file', 'lines', 'code lines'], largest(handWritten).map(f => [`\`${f.file}\``, f.lines, f.code])), '');
  if (generated.length > 0) {
    out.push(table(['generated file', 'lines', 'code lines'], largest(generated).map(f => [`\`${f.file}\``, f.lines, f.code])), '');
  }

  out.push('## The ten largest functions and methods', '', 'Lines from the declaration to its closing brace (nested functions count within '
    + 'their holder and on their own); hand-written modules only.', '');
  const functions = handWritten.flatMap(f => f.functions.map(fn => ({ ...fn, file: f.file })))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line).slice(0, 10);
  out.push(table(['function', 'where', 'lines'], functions.map(fn => [`\`${fn.name}\``, `\`${fn.file}:${fn.line}\``, fn.lines])), '');
  const allFunctions = handWritten.flatMap(f => f.functions);
  const over = (n: number) => allFunctions.filter(fn => fn.lines > n).length;
  out.push(`${number(allFunctions.length)} named functions and methods; ${number(over(50))} over 50 lines, ${number(over(100))} over 100.`, '');

  out.push('## Import graph', '', 'Arrows between modules of the tree (one per importing module and imported module). '
    + 'A lazy `require()`/`import()` is an arrow; an arrow is type-only when every import along it is `import type` '
    + '(or `typeof import(...)`).', '');
  const arrows = files.flatMap(f => [...f.imports].map(([target, kinds]) => ({ from: f.file, target, kinds })));
  const runtime = arrows.filter(a => a.kinds.has('static') || a.kinds.has('lazy'));
  const lazyOnly = arrows.filter(a => a.kinds.has('lazy') && !a.kinds.has('static'));
  const typeOnly = arrows.filter(a => !a.kinds.has('static') && !a.kinds.has('lazy'));
  const graphOf = (group: typeof arrows) => {
    const graph = new Map<string, string[]>(files.map(f => [f.file, []]));
    for (const a of group) graph.get(a.from)!.push(a.target);
    return graph;
  };
  const withTypes = cycles(graphOf(arrows));
  const withoutTypes = cycles(graphOf(runtime));
  const inCycles = (found: string[][]) => found.reduce((s, c) => s + c.length, 0);
  const layerArrows = new Map<string, number>();
  for (const a of arrows) {
    const from = files.find(f => f.file === a.from)!.layer;
    const to = files.find(f => f.file === a.target)!.layer;
    if (from !== to) layerArrows.set(`${from} → ${to}`, (layerArrows.get(`${from} → ${to}`) ?? 0) + 1);
  }
  out.push(table(['', 'count'], [
    ['modules', files.length],
    ['arrows, type-only included', arrows.length],
    ['arrows, type-only left out', runtime.length],
    ['… of which lazy only (`require()`/`import()`)', lazyOnly.length],
    ['type-only arrows', typeOnly.length],
    ['arrows between layers', [...layerArrows.values()].reduce((s, n) => s + n, 0)],
    ['cycles, type-only included (modules in them)', `${withTypes.length} (${inCycles(withTypes)})`],
    ['cycles, type-only left out (modules in them)', `${withoutTypes.length} (${inCycles(withoutTypes)})`],
  ]), '');
  const fanIn = new Map<string, number>();
  for (const a of arrows) fanIn.set(a.target, (fanIn.get(a.target) ?? 0) + 1);
  out.push('Most imported modules (arrows in, type-only included): '
    + [...fanIn].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5).map(([f, n]) => `\`${f}\` ${n}`).join(', ') + '.', '');
  out.push('Most importing modules (arrows out): '
    + [...files].sort((a, b) => b.imports.size - a.imports.size || a.file.localeCompare(b.file)).slice(0, 5)
      .map(f => `\`${f.file}\` ${f.imports.size}`).join(', ') + '.', '');
  out.push('### Arrows between layers', '');
  out.push(table(['from → to', 'arrows'], [...layerArrows].sort((a, b) => a[0].localeCompare(b[0]))), '');
  const listCycles = (title: string, found: string[][]): void => {
    out.push(`### ${title}`, '');
    if (found.length === 0) out.push('None.', '');
    else out.push(...found.map(c => `- ${c.length} modules: ${c.map(m => `\`${m}\``).join(', ')}`), '');
  };
  listCycles('Cycles, type-only imports included', withTypes);
  listCycles('Cycles, type-only imports left out', withoutTypes);
  return out.join('\n');
}

if (require.main === module) {
  const dir = process.argv[2] ?? path.join(__dirname, '..', 'src');
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    process.stderr.write(`code-metrics: ${dir} is not a folder; expected the folder to measure (default src/)\n`);
    process.exit(2);
  }
  process.stdout.write(metrics(dir) + '\n');
}
