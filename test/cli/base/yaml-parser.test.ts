/**
 * The command's two YAML parsers read the same: js-yaml with the yaml package's YAML 1.1 scalars
 * (the fast one) gives the value and the line the `yaml` package (the full one) gives, and what the
 * fast one does not read goes to the full one, so errors read exactly as they always have.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { inputFiles } from '../../../src/cli/base/input';
import { fastParse, fullParse, parseYamlStream } from '../../../src/cli/base/yaml-parser';

const ROOT = path.join(path.dirname(__dirname), '..', '..');

/** Value and line of each document, as each parser reads them. */
function both(text: string) {
  const fast = fastParse(text);
  const full = fullParse(text);
  const read = (docs: ReturnType<typeof fullParse>) => docs.map(d => ({ value: d.value, line: d.line, error: d.error }));
  return { fast: fast === undefined ? undefined : read(fast), full: read(full) };
}

describe('YAML 1.1 plain scalars: the fast parser gives what the yaml package gives', () => {
  const SCALARS = [
    'yes', 'Yes', 'YES', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'y', 'Y', 'n', 'N', 'true', 'True', 'TRUE', 'false', 'False',
    'yEs', 'oN', '~', 'null', 'Null', 'NULL', 'nULL', '',
    '0755', '-0755', '+0755', '0o755', '08', '09', '0', '-0', '0x1F', '0X1F', '-0x1f', '0b101', '-0b101', '1_000', '1_0_0', '0_', '0b', '0x_',
    '1:30', '-1:30:00', '190:20:30', '1:60', '1:30.5', '1:30.', '12:59:59.999',
    '.inf', '-.inf', '+.Inf', '.INF', '.nan', '.NaN', '.NAN', '.', '-.', '1.', '.5', '-.5e3', '1e3', '1E+3', '1.5e-3', '6.02_2e23', '1_000.5', '1.50', '+1.5',
    '2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2001-12-15T02:59:43.1Z', '2001-12-14 21:59:43.10 +05:30', '2001-1-2',
    '2001-13-45', '20011214', 'v1', '1.0.0', '1Gi', '500m', '0.5', '-', '<', '<<<', 'nvidia.com/gpu', 'http://x:80', '1e', 'e3',
  ];

  test.each(SCALARS)('%j', scalar => {
    const text = `a: ${scalar}\nb: [${scalar === '' ? '~' : scalar}]\n`;
    const { fast, full } = both(text);
    // What the yaml package refuses (`a: -`), the fast parser leaves to it.
    if (full.some(d => d.error !== undefined)) expect(fast).toBeUndefined();
    else expect(fast).toEqual(full);
  });

  test('any word from an alphabet of the characters numbers, booleans and dates are made of', () => {
    const word = fc.stringMatching(/^[-+0-9._:eExXobBnNyYtTfFoOaAlLsSuUiI ~]{1,12}$/)
      .filter(w => w.trim() === w && !/^[-?:,[\]{}#&*!|>'"%@`]|: | #|:$/.test(w));
    fc.assert(fc.property(word, w => {
      const { fast, full } = both(`k: ${w}\n`);
      if (full[0].error !== undefined) return fast === undefined;
      return fast !== undefined && JSON.stringify(fast) === JSON.stringify(full) && sameNumbers(fast[0].value, full[0].value);
    }), { numRuns: 2000, seed: 25 });
  });
});

/** NaN and -0 compared as values (JSON hides them). */
function sameNumbers(a: unknown, b: unknown): boolean {
  const x = (a as any)?.k;
  const y = (b as any)?.k;
  return typeof x === 'number' ? Object.is(x, y) : true;
}

describe('documents: split where the yaml package splits, at the line it gives', () => {
  test.each([
    ['comments before the first document', '# a\n\n# b\napiVersion: v1\nkind: A\n'],
    ['markers, empty documents, comments after the marker', '---\n---\n# nothing\n---   # c\n\n  a: 1\n---\nb: 2\n'],
    ['content on the marker line', '--- {a: 1}\n--- b\n--- |\n  text\n---\n- 1\n'],
    ['an end marker and a document after it without ---', 'a: 1\n...\n# between\nb: 2\n...\n'],
    ['block scalars holding marker-like text that is indented', 'a: |\n  ---\n  ...\nb: 1\n'],
    ['CRLF line ends', 'a: 1\r\n---\r\nb: yes\r\n'],
    ['a last line without a newline', 'a: 1\n---\nb: 0755'],
  ])('%s', (_what, text) => {
    const { fast, full } = both(text);
    expect(fast).toBeDefined();
    expect(fast).toEqual(full);
  });

  test('every YAML file of the repository\'s examples and upstream corpora reads the same, and by the fast parser', () => {
    const files = inputFiles([path.join(ROOT, 'upstream'), path.join(ROOT, 'test', 'cli', 'fixtures')]);
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const { fast, full } = both(fs.readFileSync(file, 'utf8'));
      expect({ file, docs: fast ?? full }).toEqual({ file, docs: full });
    }
  });
});

describe('what goes to the full parser, and reads as it always has', () => {
  test('a duplicate key: the yaml package\'s error and position', () => {
    const text = 'apiVersion: v1\nkind: A\nmetadata:\n  name: a\n  name: b\n';
    expect(fastParse(text)).toBeUndefined();
    expect(parseYamlStream(text)).toEqual([{ error: 'Map keys must be unique', line: 5, column: 3 }]);
  });

  test('a syntax error in the second document: the first is read, the second is the error', () => {
    const text = 'a: 1\n---\nb: [1\n';
    expect(fastParse(text)).toBeUndefined();
    const docs = parseYamlStream(text);
    expect(docs.map(d => [d.value, d.error, d.line])).toEqual([[{ a: 1 }, undefined, 1], [undefined, 'Flow sequence in block collection must be sufficiently indented and end with a ]', 4]]);
  });

  test.each([
    ['a merge key', 'base: {a: 1}\nx:\n  <<: {a: 2}\n  b: 3\n', { base: { a: 1 }, x: { a: 2, b: 3 } }],
    ['anchors and aliases', 'a: &x {size: 1}\nb: *x\n', { a: { size: 1 }, b: { size: 1 } }],
    ['a tag', 'a: !!str 0755\n', { a: '0755' }],
    ['a directive', '%YAML 1.1\n---\na: on\n', { a: true }],
  ])('%s', (_what, text, value) => {
    expect(fastParse(text)).toBeUndefined();
    expect(parseYamlStream(text).map(d => d.value)).toEqual([value]);
  });
});
