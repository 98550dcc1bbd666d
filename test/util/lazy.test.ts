/**
 * The library defers loading code one way (src/util/lazy.ts): `lazy(() => require('<path>') as
 * typeof import('<path>'))`. Every relative `require()` in src/ outside the command (which reads
 * YAML parsers from cdk8s's folder) and the strict schemas' generated tables has that form, with the
 * type naming the module it loads, so the two cannot drift apart.
 */
import * as fs from 'fs';
import * as path from 'path';
import { lazy } from '../../src/util/lazy';

const SRC = path.join(__dirname, '..', '..', 'src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The schemas' tables are generated files named by kind at run time; the command is bundled whole. */
const ELSEWHERE = [path.join(SRC, 'cli') + path.sep, path.join(SRC, 'rules', 'schema', 'index.ts')];

test('every deferred load in src/ is a lazy require typed by the module it loads', () => {
  const loads: string[] = [];
  const wrong: string[] = [];
  for (const file of sources(SRC).filter(f => !ELSEWHERE.some(e => f.startsWith(e)))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\brequire\((['"`])([^'"`]*)\1\)(?: as typeof import\((['"])([^'"]*)\3\))?/g)) {
      const where = `${path.relative(SRC, file)}: require('${match[2]}')`;
      loads.push(where);
      if (match[4] !== match[2]) wrong.push(`${where} is typed as ${match[4] === undefined ? 'nothing' : `import('${match[4]}')`}`);
      // The load sits inside a lazy(...) still open where it is.
      const before = text.slice(0, match.index);
      const open = before.lastIndexOf('lazy(');
      const between = open < 0 ? '' : before.slice(open + 'lazy'.length);
      if (open < 0 || between.split('(').length <= between.split(')').length) wrong.push(`${where} is not inside lazy()`);
    }
  }
  expect(wrong).toEqual([]);
  expect(loads.length).toBeGreaterThanOrEqual(10);
});

test('lazy computes on first use, once, and keeps an undefined value too', () => {
  let calls = 0;
  const value = lazy(() => {
    calls++;
    return undefined;
  });
  expect(calls).toBe(0);
  expect(value()).toBeUndefined();
  expect(value()).toBeUndefined();
  expect(calls).toBe(1);
});
