/**
 * The public names of the generated L1 submodules (`kubeflow`, `notebooks`, `trainer`, `kueue`, `core`), read from the
 * generated sources, against the committed list in test/imports/l1-public-names.txt. Every name is a
 * promise in four languages, so a CRD update or a generator change that adds, renames or removes
 * one must show up as an edit of that list in review, never as a side effect.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');
const LIST = path.join(__dirname, 'l1-public-names.txt');
const SUBMODULES = ['kubeflow', 'notebooks', 'trainer', 'kueue', 'core'];

/** `<submodule>.<Name> (<kind>)` for every exported declaration of one generated file, sorted. */
function exportedNames(submodule: string, source: string): string[] {
  const file = ts.createSourceFile(`${submodule}.ts`, source, ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some(m => m.kind === ts.SyntaxKind.ExportKeyword);
  const kindOf = (node: ts.Node): string => {
    if (ts.isClassDeclaration(node)) return 'class';
    if (ts.isInterfaceDeclaration(node)) return 'interface';
    if (ts.isEnumDeclaration(node)) return 'enum';
    if (ts.isFunctionDeclaration(node)) return 'function';
    if (ts.isTypeAliasDeclaration(node)) return 'type';
    return ts.SyntaxKind[node.kind];
  };
  file.forEachChild(node => {
    if (!exported(node)) return;
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) names.push(`${submodule}.${d.name.getText(file)} (const)`);
    } else {
      const name = (node as ts.DeclarationStatement).name?.getText(file) ?? '?';
      names.push(`${submodule}.${name} (${kindOf(node)})`);
    }
  });
  return names.sort();
}

test('the L1 public names are the committed list (edit test/imports/l1-public-names.txt to accept a change)', () => {
  const current = SUBMODULES.flatMap(m => exportedNames(m, fs.readFileSync(path.join(ROOT, 'imports', `${m}.ts`), 'utf8'))).sort();
  const committed = fs.readFileSync(LIST, 'utf8').split('\n').filter(l => l && !l.startsWith('#'));
  expect({
    added: current.filter(n => !committed.includes(n)),
    removed: committed.filter(n => !current.includes(n)),
  }).toEqual({ added: [], removed: [] });
  // The list is kept in the order the test reads it, so an edit is one line.
  expect(committed).toEqual(current);
});

test('the reader finds every kind of export', () => {
  const source = [
    'export class A {}', 'class Hidden {}', 'export interface B {}', 'export enum C { X }',
    'export function toJson_B() {}', 'function helper() {}', 'export type D = string;', 'export const E = 1;',
  ].join('\n');
  expect(exportedNames('m', source)).toEqual(['m.A (class)', 'm.B (interface)', 'm.C (enum)', 'm.D (type)', 'm.E (const)', 'm.toJson_B (function)']);
});
