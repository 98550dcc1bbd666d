/**
 * The layers of src/ (docs/architecture.md): every import, static or lazy, flows down the table
 * below, no module reaches into another family's internal/ folder, nothing loads in a cycle, and
 * the package exports exactly the top-level modules of the four public families.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { cycles } from '../../scripts/code-metrics';

const SRC = path.join(__dirname, '..', '..', 'src');

/** Layers from the bottom up; a module may import its own layer's modules and those of `uses`. */
const LAYERS: ReadonlyArray<{ readonly layer: string; readonly folders: readonly string[]; readonly uses: readonly string[] }> = [
  { layer: 'util', folders: ['util'], uses: [] },
  // The kind table: every kind declared once, read by every layer above.
  { layer: 'kinds', folders: ['kinds'], uses: ['util'] },
  { layer: 'rules', folders: ['rules'], uses: ['util', 'kinds'] },
  // What runs the rules at synth and reports to cdk8s: the constructs use it, lint never does.
  { layer: 'synth', folders: ['synth'], uses: ['util', 'kinds', 'rules'] },
  { layer: 'boundary', folders: ['boundary'], uses: ['util', 'kinds', 'rules', 'synth'] },
  { layer: 'common', folders: ['common'], uses: ['util', 'kinds', 'rules', 'synth', 'boundary'] },
  // The three families sit side by side: none imports another.
  { layer: 'training', folders: ['training'], uses: ['util', 'kinds', 'rules', 'synth', 'boundary', 'common'] },
  { layer: 'trainer', folders: ['trainer'], uses: ['util', 'kinds', 'rules', 'synth', 'boundary', 'common'] },
  { layer: 'notebooks', folders: ['notebooks'], uses: ['util', 'kinds', 'rules', 'synth', 'boundary', 'common'] },
  { layer: 'kueue', folders: ['kueue'], uses: ['util', 'kinds', 'rules', 'synth', 'boundary', 'common'] },
  // Reads config values into the families' types, so it sits above them.
  { layer: 'config', folders: ['config'], uses: ['util', 'kinds', 'rules', 'synth', 'boundary', 'common', 'training', 'trainer', 'notebooks', 'kueue'] },
  { layer: 'cli', folders: ['cli'], uses: ['util', 'kinds', 'rules'] },
  { layer: 'entry', folders: ['index.ts'], uses: ['util', 'kinds', 'rules', 'synth', 'boundary', 'common', 'training', 'trainer', 'notebooks', 'kueue', 'config'] },
];
const PUBLIC_FAMILIES = ['common', 'training', 'trainer', 'notebooks', 'kueue', 'config'];

interface Module { readonly file: string; readonly imports: ReadonlyArray<{ readonly target: string; readonly typeOnly: boolean }> }

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find(f => fs.existsSync(f));
}

/** Every relative import of a module: `import`, `export ... from`, `require()` and `import()`. */
function readModule(file: string): Module {
  const text = fs.readFileSync(file, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const typeOnly = new Set([...text.matchAll(/^\s*(?:import|export)\s+type\b[^;]*?from\s+'([^']+)'/gm)].map(m => m[1]));
  const imports = info.importedFiles
    .filter(i => i.fileName.startsWith('.'))
    .map(i => ({ spec: i.fileName, target: resolve(file, i.fileName) }))
    .filter((i): i is { spec: string; target: string } => i.target !== undefined && i.target.startsWith(SRC))
    .map(i => ({ target: path.relative(SRC, i.target), typeOnly: typeOnly.has(i.spec) }));
  return { file: path.relative(SRC, file), imports };
}

const MODULES = sourceFiles(SRC).map(readModule);

function layerOf(file: string): string {
  const top = file.split(path.sep)[0];
  const found = LAYERS.find(l => l.folders.includes(top));
  if (!found) throw new Error(`${file} is in no layer of test/package/architecture.test.ts (add its folder to LAYERS and to docs/architecture.md)`);
  return found.layer;
}

test('every module of src/ belongs to a layer', () => {
  expect(MODULES.length).toBeGreaterThan(100);
  for (const m of MODULES) expect(() => layerOf(m.file)).not.toThrow();
});

test('imports flow down the layers, and the families do not import each other', () => {
  const upward = MODULES.flatMap(m => m.imports
    .filter(i => layerOf(i.target) !== layerOf(m.file) && !LAYERS.find(l => l.layer === layerOf(m.file))!.uses.includes(layerOf(i.target)))
    .map(i => `${m.file} (${layerOf(m.file)}) imports ${i.target} (${layerOf(i.target)})`));
  expect(upward).toEqual([]);
});

test('a family\'s internal/ folder is imported from that family only (common/internal from the families above too)', () => {
  const wrong = MODULES.flatMap(m => m.imports
    .filter(i => i.target.split(path.sep)[1] === 'internal')
    .filter(i => {
      const owner = i.target.split(path.sep)[0];
      const importer = m.file.split(path.sep)[0];
      return owner === 'common' ? !PUBLIC_FAMILIES.includes(importer) : importer !== owner;
    })
    .map(i => `${m.file} imports ${i.target}`));
  expect(wrong).toEqual([]);
});

test('no module loads in a cycle (lazy require() included)', () => {
  const graph = new Map(MODULES.map(m => [m.file, m.imports.filter(i => !i.typeOnly).map(i => i.target)]));
  expect(cycles(graph)).toEqual([]);
});

test('the package exports exactly the top-level modules of the public families', () => {
  const index = fs.readFileSync(path.join(SRC, 'index.ts'), 'utf8');
  const exported = [...index.matchAll(/^export \* from '\.\/([^']+)';/gm)].map(m => `${m[1]}.ts`).sort();
  const publicModules = MODULES.map(m => m.file)
    .filter(f => PUBLIC_FAMILIES.includes(f.split(path.sep)[0]) && f.split(path.sep).length === 2)
    .sort();
  expect(exported).toEqual(publicModules);
});

test('the rules do not depend on the constructs (lint runs them without loading a construct)', () => {
  const reachable = new Set<string>();
  const walk = (file: string): void => {
    if (reachable.has(file)) return;
    reachable.add(file);
    for (const i of MODULES.find(m => m.file === file)?.imports ?? []) if (!i.typeOnly) walk(i.target);
  };
  walk(path.join('cli', 'main.ts'));
  expect([...reachable].filter(f => PUBLIC_FAMILIES.includes(f.split(path.sep)[0])).sort()).toEqual([]);
});

test('docs/architecture.md states the same layers and the same allowed imports', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'architecture.md'), 'utf8');
  const table = doc.slice(doc.indexOf('| Layer |'), doc.indexOf('\n\n', doc.indexOf('| Layer |')));
  const rows = table.split('\n').slice(2).map(row => row.split('|').map(cell => cell.trim()));
  const documented = rows.map(([, layer, , uses]) => ({
    layer,
    uses: uses === 'nothing of `src/`' ? [] : uses === 'everything above but cli'
      ? LAYERS.filter(l => !['entry', 'cli'].includes(l.layer)).map(l => l.layer) : uses.split(', '),
  }));
  expect(documented).toEqual(LAYERS.map(l => ({ layer: l.layer, uses: [...l.uses] })));
});
