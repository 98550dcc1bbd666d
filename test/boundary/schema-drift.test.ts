/**
 * Both copies of each boundary table (the API's, and the L1 classes' constructors') must be what scripts/boundary-schema.ts writes from today's jsii
 * assembly: the source under src/ (which tests and type checks read) and the JavaScript under lib/
 * (which the package ships next to `.jsii`). A changed prop, method or struct compiled without the
 * compile task's generator step (a bare `jsii`) fails here. `npm test` compiles first, so `.jsii`
 * and lib/ exist; a bare `npx jest` before any compile fails with the reason, never skips.
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildSchema, compileSchema, L1_SCHEMA_FILE, renderSchema, SCHEMA_FILE } from '../../scripts/boundary-schema';

const ROOT = path.join(__dirname, '..', '..');

/** The table generated from today's assembly; a missing assembly fails the test that asks. */
function generated(part: 'api' | 'l1' = 'api'): string {
  const hint = 'run `npx projen compile` first';
  expect({ assembly: fs.existsSync(path.join(ROOT, '.jsii')), hint }).toEqual({ assembly: true, hint });
  return renderSchema(buildSchema(ROOT, part), part);
}

/** 'same', or the first line where `actual` differs from `expected`. */
function difference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const b = expected.split('\n');
  const line = b.findIndex((l, i) => l !== a[i]);
  return line === -1 && a.length === b.length ? 'same' : `differs at line ${line + 1}: ${b[line]?.slice(0, 200)}`;
}

test('schema.generated.ts is what the generator writes from .jsii (regenerate: npx projen compile)', () => {
  expect(difference(fs.readFileSync(path.join(ROOT, SCHEMA_FILE), 'utf8'), generated())).toBe('same');
});

test('the table in lib/ is the generated table, compiled as jsii compiles the source (regenerate: npx projen compile)', () => {
  const compiled = compileSchema(ROOT, generated());
  expect(path.relative(ROOT, compiled.file)).toBe(path.join('lib', SCHEMA_FILE.replace(/\.ts$/, '.js')));
  expect(difference(fs.readFileSync(compiled.file, 'utf8'), compiled.js)).toBe('same');
  expect(fs.readFileSync(`${compiled.file}.map`, 'utf8')).toBe(compiled.map);
});

test('schema-l1.generated.ts, in src/ and lib/, is what the generator writes from .jsii (regenerate: npx projen compile)', () => {
  const text = generated('l1');
  expect(difference(fs.readFileSync(path.join(ROOT, L1_SCHEMA_FILE), 'utf8'), text)).toBe('same');
  const compiled = compileSchema(ROOT, text, L1_SCHEMA_FILE);
  expect(path.relative(ROOT, compiled.file)).toBe(path.join('lib', L1_SCHEMA_FILE.replace(/\.ts$/, '.js')));
  expect(difference(fs.readFileSync(compiled.file, 'utf8'), compiled.js)).toBe('same');
});
