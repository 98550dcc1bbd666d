/**
 * Bad input to the L1 generator fails with a message that names the file, and never leaves a
 * half-written imports/ behind. Everything runs on scratch copies: the real CRDs and imports/ are
 * only read.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generate, GeneratedFiles, MODULES, writeGenerated } from '../scripts/l1/generate';

const ROOT = path.join(__dirname, '..');
const CRD_ROOT = path.join(ROOT, '..', 'shared', 'crds');

let scratch: string;
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'generator-errors-'));
});
afterEach(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A copy of the pinned CRD files the generator reads, in `<scratch>/crds`. */
function copyCrds(): string {
  const target = path.join(scratch, 'crds');
  for (const file of MODULES.flatMap(m => m.files)) {
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.copyFileSync(path.join(CRD_ROOT, file), path.join(target, file));
  }
  return target;
}

/** Every file below a folder, relative path to bytes (as hex, so that a difference reads well). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) visit(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full).toString('hex');
    }
  };
  visit(dir);
  return out;
}

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e: any) {
    return e.message;
  }
  throw new Error('expected an error, but none was thrown');
}

const describeWithCrds = fs.existsSync(CRD_ROOT) ? describe : describe.skip;
if (!fs.existsSync(CRD_ROOT)) {
  test(`skipped: the pinned CRDs (${CRD_ROOT}) are not available`, () => {
    console.log(`generator-errors: ${CRD_ROOT} does not exist; the error cases need a copy of it`);
  });
}

describeWithCrds('generate() names the file and the problem', () => {
  test('a missing file', () => {
    const crds = copyCrds();
    fs.rmSync(path.join(crds, 'training-operator/kubeflow.org_tfjobs.yaml'));
    expect(messageOf(() => generate(crds))).toBe('training-operator/kubeflow.org_tfjobs.yaml: file not found');
  });

  test('malformed YAML', () => {
    const crds = copyCrds();
    fs.writeFileSync(path.join(crds, 'training-operator/kubeflow.org_pytorchjobs.yaml'), 'kind: [CustomResourceDefinition\nspec: {\n');
    expect(messageOf(() => generate(crds))).toMatch(/^training-operator\/kubeflow\.org_pytorchjobs\.yaml: not valid YAML \(.+\)$/);
  });

  test('more than one YAML document is malformed too', () => {
    const crds = copyCrds();
    const file = path.join(crds, 'notebooks-v2/kubeflow.org_workspaces.yaml');
    fs.appendFileSync(file, '\n---\nkind: ConfigMap\n');
    expect(messageOf(() => generate(crds))).toMatch(/^notebooks-v2\/kubeflow\.org_workspaces\.yaml: not valid YAML \(.+\)$/);
  });

  test('a document that is not a CRD', () => {
    const crds = copyCrds();
    fs.writeFileSync(path.join(crds, 'training-operator/kubeflow.org_mpijobs.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    expect(messageOf(() => generate(crds))).toBe('training-operator/kubeflow.org_mpijobs.yaml: expected kind CustomResourceDefinition, found "ConfigMap"');
  });

  test('an empty file', () => {
    const crds = copyCrds();
    fs.writeFileSync(path.join(crds, 'training-operator/kubeflow.org_jaxjobs.yaml'), '');
    expect(messageOf(() => generate(crds))).toBe('training-operator/kubeflow.org_jaxjobs.yaml: empty document');
  });

  test('a CRD without a schema', () => {
    const crds = copyCrds();
    fs.writeFileSync(path.join(crds, 'training-operator/kubeflow.org_mxjobs.yaml'), [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'spec:',
      '  group: kubeflow.org',
      '  names: { kind: MXJob, plural: mxjobs }',
      '  scope: Namespaced',
      '  versions: [{ name: v1, served: true, storage: true }]',
      '',
    ].join('\n'));
    expect(messageOf(() => generate(crds))).toBe('training-operator/kubeflow.org_mxjobs.yaml: version v1 has no openAPIV3Schema with properties');
  });
});

describe('writeGenerated() swaps whole folders', () => {
  /** A scratch output root holding a copy of the committed imports/ and test/schemas/. */
  function outputRoot(): { root: string; imports: string; schemas: string } {
    const root = path.join(scratch, 'out');
    const imports = path.join(root, 'imports');
    const schemas = path.join(root, 'test', 'schemas');
    fs.cpSync(path.join(ROOT, 'imports'), imports, { recursive: true });
    fs.cpSync(path.join(ROOT, 'test', 'schemas'), schemas, { recursive: true });
    return { root, imports, schemas };
  }

  test('replaces the folder, dropping files that are no longer generated, and leaves no staging folder', () => {
    const out = outputRoot();
    fs.writeFileSync(path.join(out.imports, 'stale.ts'), '// from an older run\n');
    const files: GeneratedFiles = { imports: new Map([['a.ts', 'a\n']]), schemas: new Map([['s.json', '{}\n']]) };
    writeGenerated(files, out.imports, out.schemas);
    expect(snapshot(out.imports)).toEqual({ 'a.ts': Buffer.from('a\n').toString('hex') });
    expect(snapshot(out.schemas)).toEqual({ 's.json': Buffer.from('{}\n').toString('hex') });
    expect(fs.readdirSync(out.root).sort()).toEqual(['imports', 'test']);
    expect(fs.readdirSync(path.join(out.root, 'test'))).toEqual(['schemas']);
  });

  test('a file that cannot be written leaves the folder as it was', () => {
    const out = outputRoot();
    const before = snapshot(out.imports);
    // A name in a folder that does not exist fails while staging, after other files were written.
    const files: GeneratedFiles = { imports: new Map([['a.ts', 'a\n'], ['missing/b.ts', 'b\n']]), schemas: new Map() };
    expect(() => writeGenerated(files, out.imports, out.schemas)).toThrow(/ENOENT/);
    expect(snapshot(out.imports)).toEqual(before);
  });

  (fs.existsSync(CRD_ROOT) ? test : test.skip)('generate() checks every CRD before anything is written', () => {
    const out = outputRoot();
    const before = snapshot(out.root);
    const crds = copyCrds();
    // The last file of the last module: all others were read and rendered fine.
    const last = MODULES[MODULES.length - 1].files.slice(-1)[0];
    fs.writeFileSync(path.join(crds, last), 'kind: Nope\n');
    expect(() => writeGenerated(generate(crds), out.imports, out.schemas)).toThrow(`${last}: expected kind CustomResourceDefinition, found "Nope"`);
    expect(snapshot(out.root)).toEqual(before);
  });
});

describeWithCrds('the generate-l1 CLI', () => {
  const run = (crdRoot: string, outRoot: string) => spawnSync('npx', ['ts-node', '--transpile-only', 'scripts/generate-l1.ts', crdRoot, outRoot], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });

  test('exits non-zero with the message and leaves imports/ untouched', () => {
    const out = path.join(scratch, 'out');
    fs.cpSync(path.join(ROOT, 'imports'), path.join(out, 'imports'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'test', 'schemas'), path.join(out, 'test', 'schemas'), { recursive: true });
    const before = snapshot(out);
    const crds = copyCrds();
    fs.rmSync(path.join(crds, 'notebooks-v2/kubeflow.org_workspacekinds.yaml'));

    const result = run(crds, out);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('generate-l1: notebooks-v2/kubeflow.org_workspacekinds.yaml: file not found');
    expect(result.stdout).toBe('');
    expect(snapshot(out)).toEqual(before);
  });

  test('writes into the output root it is given, exactly what is committed', () => {
    const out = path.join(scratch, 'out');
    fs.mkdirSync(path.join(out, 'test'), { recursive: true });
    const result = run(CRD_ROOT, out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(snapshot(path.join(out, 'imports'))).toEqual(snapshot(path.join(ROOT, 'imports')));
    expect(snapshot(path.join(out, 'test', 'schemas'))).toEqual(snapshot(path.join(ROOT, 'test', 'schemas')));
  });
});
