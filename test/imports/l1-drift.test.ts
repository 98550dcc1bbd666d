/**
 * The committed imports/ and src/rules/schema/crds/ must be exactly what the generator writes
 * today from the pinned CRDs: a hand edit, or a generator change without `npx projen import`,
 * fails here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readCrd } from '../../scripts/l1/crd-source';
import { DEFAULT_CRD_ROOT as CRD_ROOT, generate, GeneratedFiles, MODULES, SCHEMA_DIR } from '../../scripts/l1/generate';
import { compactSchema } from '../../scripts/l1/schema-modules';
import { kindSchema } from '../../src/rules/schema';

const ROOT = path.join(__dirname, '..', '..');

/** Differences between a generated folder and the committed one, in words. */
function drift(generated: Map<string, string>, dir: string): string[] {
  const committed = fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => fs.statSync(path.join(dir, f)).isFile()).sort() : [];
  const problems: string[] = [];
  for (const name of [...generated.keys()].sort()) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) {
      problems.push(`${name}: generated but not committed`);
      continue;
    }
    const have = fs.readFileSync(file);
    const want = Buffer.from(generated.get(name)!, 'utf8');
    if (!have.equals(want)) {
      const a = have.toString('utf8').split('\n');
      const b = generated.get(name)!.split('\n');
      const line = b.findIndex((l, i) => l !== a[i]);
      problems.push(`${name}: differs from the generator's output at line ${line + 1}`);
    }
  }
  for (const name of committed) if (!generated.has(name)) problems.push(`${name}: committed but not generated`);
  return problems;
}

test('the comparison reports a changed, a missing and an extra file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-drift-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.ts'), 'one\ntwo\n');
    fs.writeFileSync(path.join(dir, 'extra.ts'), '');
    const generated = new Map([['a.ts', 'one\n2\n'], ['b.ts', '']]);
    expect(drift(generated, dir)).toEqual([
      "a.ts: differs from the generator's output at line 2",
      'b.ts: generated but not committed',
      'extra.ts: committed but not generated',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('generated files match the generator (run `npx projen import` to refresh)', () => {
  let files: GeneratedFiles;
  beforeAll(() => {
    files = generate(CRD_ROOT);
  });

  test('imports/', () => {
    expect(drift(files.imports, path.join(ROOT, 'imports'))).toEqual([]);
  });

  test('src/rules/schema/crds/', () => {
    expect(drift(files.schemas, path.join(ROOT, SCHEMA_DIR))).toEqual([]);
  });

  test('every kind\'s schema, loaded with its shared subtrees, is the full compact schema of its CRD', () => {
    // The written version of each CRD (18), and Kueue's v1beta1 kept for lint of older input (6).
    const kinds = MODULES.flatMap(m => [m.version, ...(m.lintVersions ?? [])].flatMap(v => m.files.map(f => readCrd(CRD_ROOT, f, v))));
    expect(kinds.length).toBe(24);
    expect(kinds.filter(k => k.group === 'kueue.x-k8s.io').map(k => `${k.version} ${k.kind}`).sort()).toEqual([
      'v1beta1 ClusterQueue', 'v1beta1 Cohort', 'v1beta1 LocalQueue', 'v1beta1 ResourceFlavor', 'v1beta1 Topology', 'v1beta1 WorkloadPriorityClass',
      'v1beta2 ClusterQueue', 'v1beta2 Cohort', 'v1beta2 LocalQueue', 'v1beta2 ResourceFlavor', 'v1beta2 Topology', 'v1beta2 WorkloadPriorityClass',
    ]);
    for (const kind of kinds) {
      expect(kindSchema(`${kind.group}/${kind.version}`, kind.kind)).toEqual(compactSchema(kind));
    }
  });
});

describe('a kind without a spec (Kueue\'s WorkloadPriorityClass)', () => {
  const kind = readCrd(CRD_ROOT, 'kueue/kueue.x-k8s.io_workloadpriorityclasses.yaml');

  test('its compact schema holds its top-level fields, strictly, and no spec', () => {
    const schema = compactSchema(kind).schema;
    expect(Object.keys(schema.properties).sort()).toEqual(['apiVersion', 'description', 'kind', 'metadata', 'value']);
    expect(schema.required).toEqual(['apiVersion', 'kind', 'metadata', 'value']);
    expect(schema.properties.value).toEqual({ format: 'int32', type: 'integer' });
  });

  test('its L1 writes the fields at the top of the manifest', () => {
    const module = generate(CRD_ROOT).imports.get('kueue.ts')!;
    expect(module).toContain('export interface WorkloadPriorityClassProps {');
    expect(module).not.toContain('WorkloadPriorityClassSpec');
    expect(module).toContain("    'value': obj.value,");
  });
});
