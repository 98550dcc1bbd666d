/**
 * scripts/code-metrics.ts on a small tree whose figures are known: layers and generated files
 * apart, code lines without comments, the largest function with its place, and the import graph
 * with a cycle that only a type-only import closes and an arrow that only a lazy require() draws.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { metrics } from '../../scripts/code-metrics';

const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'code-metrics-'));
afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  'index.ts': "export * from './a/one';\n",
  // a/one.ts: 7 lines, 5 of them code (the comment lines do not count).
  'a/one.ts': [
    "import { two } from './two';",
    '/** One. */',
    'export function one(): number {',
    '  // twice',
    '  return two() + two();',
    '}',
    'export class Holder { run(): number { return one(); } }',
  ].join('\n') + '\n',
  // a/two.ts closes a cycle with a/one.ts through a type-only import only.
  'a/two.ts': "import type { Holder } from './one';\nexport const two = (h?: Holder): number => (h ? 1 : 2);\n",
  // b/lazy.ts reaches a/one.ts only through a lazy require().
  'b/lazy.ts': "const load = () => require('../a/one') as typeof import('../a/one');\nexport const three = () => load().one() + 1;\n",
  'b/table.generated.ts': 'export const TABLE = [\n  1,\n  2,\n];\n',
};

beforeAll(() => {
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    fs.writeFileSync(path.join(tree, file), text);
  }
});

test('lines per layer, with generated files apart', () => {
  const out = metrics(tree);
  expect(out).toContain('5 modules, 16 lines (12 in 4 hand-written modules, 4 in 1 generated).');
  expect(out).toContain('| (top) | 1 | 1 | 1 | 1 |');
  expect(out).toContain('| a | 2 | 9 | 7 | 5 |');
  expect(out).toContain('| b | 1 | 2 | 2 | 2 |');
  expect(out).toContain('| b (generated) | 1 | 4 | 4 | 4 |');
});

test('the largest functions and methods, named and placed', () => {
  const out = metrics(tree);
  expect(out).toContain('| `one` | `a/one.ts:3` | 4 |');
  expect(out).toContain('| `Holder.run` | `a/one.ts:7` | 1 |');
  expect(out).toContain('| `three` | `b/lazy.ts:2` | 1 |');
});

test('the import graph: type-only and lazy arrows counted apart, cycles with and without type-only imports', () => {
  const out = metrics(tree);
  expect(out).toContain('| arrows, type-only included | 4 |');
  expect(out).toContain('| arrows, type-only left out | 3 |');
  expect(out).toContain('| … of which lazy only (`require()`/`import()`) | 1 |');
  expect(out).toContain('| type-only arrows | 1 |');
  expect(out).toContain('| cycles, type-only included (modules in them) | 1 (2) |');
  expect(out).toContain('| cycles, type-only left out (modules in them) | 0 (0) |');
  expect(out).toContain('- 2 modules: `a/one.ts`, `a/two.ts`');
  expect(out).toContain('| b → a | 1 |');
});
