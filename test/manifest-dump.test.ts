import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { DUMP_DIR_ENV, dumpFileName, dumpManifests } from './harness/manifest-dump';

describe('manifest dump for the Go conformance run', () => {
  const saved = process.env[DUMP_DIR_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[DUMP_DIR_ENV];
    else process.env[DUMP_DIR_ENV] = saved;
  });

  test('names files after the test file and a zero-padded counter', () => {
    expect(dumpFileName('test/pytorch.test.ts', 7)).toBe('test-pytorch.test.ts-0007.yaml');
    expect(dumpFileName('test/properties/a b.test.ts', 12)).toBe('test-properties-a-b.test.ts-0012.yaml');
  });

  test('writes nothing when the variable is unset', () => {
    delete process.env[DUMP_DIR_ENV];
    expect(dumpManifests([{ kind: 'ConfigMap' }])).toBeUndefined();
  });

  test('writes each document set as one multi-document YAML file, in order', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dump-'));
    process.env[DUMP_DIR_ENV] = dir;
    const first = dumpManifests([{ kind: 'A', metadata: { name: 'a' } }, { kind: 'B', metadata: { name: 'b' } }])!;
    const second = dumpManifests([{ kind: 'C', metadata: { name: 'c' } }])!;
    expect(path.basename(first)).toMatch(/^test-manifest-dump\.test\.ts-\d{4}\.yaml$/);
    expect(Number(path.basename(second).slice(-9, -5))).toBe(Number(path.basename(first).slice(-9, -5)) + 1);
    expect(yaml.loadAll(fs.readFileSync(first, 'utf8'))).toEqual([{ kind: 'A', metadata: { name: 'a' } }, { kind: 'B', metadata: { name: 'b' } }]);
    expect(yaml.loadAll(fs.readFileSync(second, 'utf8'))).toEqual([{ kind: 'C', metadata: { name: 'c' } }]);
  });
});
