/**
 * Bad input to the L1 generator fails with a message that names the file, and never leaves a
 * half-written imports/ behind. Everything runs on scratch copies: the real CRDs and imports/ are
 * only read.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { DEFAULT_CRD_ROOT, generate, GeneratedFiles, MODULES, SCHEMA_DIR, writeGenerated } from '../../../scripts/l1/generate';
import { rewrite, tidyJson2jsiiOutput } from '../../../scripts/l1/rewrites';
import { SHARED_TYPE_NAMES, SharedTypeNamer } from '../../../scripts/l1/shared-type-names';
import { BUILTIN_RUNTIMES_MODULE } from '../../../scripts/trainer/builtin-runtimes';

const ROOT = path.join(__dirname, '..', '..', '..');
const CRD_ROOT = DEFAULT_CRD_ROOT;

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

describe('generate() names the file and the problem', () => {
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

  test('a CRD without the version its module declares, and one that no longer serves it', () => {
    const crds = copyCrds();
    const file = path.join(crds, 'kueue/kueue.x-k8s.io_cohorts.yaml');
    const doc: any = yaml.load(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, yaml.dump({ ...doc, spec: { ...doc.spec, versions: doc.spec.versions.filter((v: any) => v.name !== 'v1beta2') } }));
    expect(messageOf(() => generate(crds))).toBe('kueue/kueue.x-k8s.io_cohorts.yaml: has no version v1beta2; it has v1beta1');
    const unserved = doc.spec.versions.map((v: any) => (v.name === 'v1beta2' ? { ...v, served: false } : v));
    fs.writeFileSync(file, yaml.dump({ ...doc, spec: { ...doc.spec, versions: unserved } }));
    expect(messageOf(() => generate(crds))).toBe('kueue/kueue.x-k8s.io_cohorts.yaml: version v1beta2 is not served');
  });
});

/** Edits one copied CRD file's storage-version schema in place. */
function editSchema(crds: string, file: string, edit: (schema: any) => void) {
  const full = path.join(crds, file);
  const doc: any = yaml.load(fs.readFileSync(full, 'utf8'));
  const version = doc.spec.versions.find((v: any) => v.storage) ?? doc.spec.versions[0];
  edit(version.schema.openAPIV3Schema);
  fs.writeFileSync(full, yaml.dump(doc));
}

const MXJOBS = 'training-operator/kubeflow.org_mxjobs.yaml';
const PYTORCHJOBS = 'training-operator/kubeflow.org_pytorchjobs.yaml';
const TFJOBS = 'training-operator/kubeflow.org_tfjobs.yaml';

describe('generate() refuses to change the public API silently', () => {
  test('a core type whose schemas disagree on a required field (a merge would make it optional)', () => {
    const crds = copyCrds();
    editSchema(crds, MXJOBS, schema => {
      const podSpec = schema.properties.spec.properties.mxReplicaSpecs.additionalProperties.properties.template.properties.spec;
      podSpec.required = podSpec.required.filter((r: string) => r !== 'containers');
    });
    expect(messageOf(() => generate(crds))).toBe('cannot merge two schemas of core type PodSpec: containers is required in '
      + 'training-operator/kubeflow.org_pytorchjobs.yaml: spec.pytorchReplicaSpecs.*.template.spec but not in '
      + 'training-operator/kubeflow.org_mxjobs.yaml: spec.mxReplicaSpecs.*.template.spec; expected both schemas to require '
      + 'the same fields (a merged core.PodSpec would make containers optional for every kind that embeds it)');
  });

  test('the same refusal when the later schema is the one that requires more', () => {
    const crds = copyCrds();
    editSchema(crds, MXJOBS, schema => {
      schema.properties.spec.properties.mxReplicaSpecs.additionalProperties.properties.template.properties.spec.required.push('nodeName');
    });
    expect(messageOf(() => generate(crds))).toBe('cannot merge two schemas of core type PodSpec: nodeName is required in '
      + 'training-operator/kubeflow.org_mxjobs.yaml: spec.mxReplicaSpecs.*.template.spec but not in '
      + 'training-operator/kubeflow.org_pytorchjobs.yaml: spec.pytorchReplicaSpecs.*.template.spec; expected both schemas to require '
      + 'the same fields (a merged core.PodSpec would make nodeName optional for every kind that embeds it)');
  });

  test('the same refusal inside a subtree that the core type declares inline', () => {
    const crds = copyCrds();
    editSchema(crds, TFJOBS, schema => {
      const podSpec = schema.properties.spec.properties.tfReplicaSpecs.additionalProperties.properties.template.properties.spec;
      const container = podSpec.properties.containers.items;
      // restartPolicyRules is newer than Kubernetes 1.28, so core.Container declares its items itself.
      container.properties.restartPolicyRules.items.required = [];
    });
    expect(messageOf(() => generate(crds))).toBe('cannot merge two schemas of core type Container: restartPolicyRules[].action is required in '
      + 'training-operator/kubeflow.org_pytorchjobs.yaml: spec.pytorchReplicaSpecs.*.template.spec.containers.[] but not in '
      + 'training-operator/kubeflow.org_tfjobs.yaml: spec.tfReplicaSpecs.*.template.spec.containers.[]; expected both schemas to require '
      + 'the same fields (a merged core.Container would make restartPolicyRules[].action optional for every kind that embeds it)');
  });

  test('schemas that disagree only inside a field typed by cdk8s-plus-28 are merged (the k8s type decides)', () => {
    // The pinned MXJob CRD does not require hostAliases[].ip, the others do; HostAlias is k8s.HostAlias.
    expect(() => generate(CRD_ROOT)).not.toThrow();
  });

  test('a subtree that two kinds now share, with no name in the table', () => {
    const crds = copyCrds();
    const addField = (schema: any) => {
      schema.properties.spec.properties.priorityHint = { type: 'object', properties: { level: { type: 'string' } } };
    };
    editSchema(crds, PYTORCHJOBS, addField);
    editSchema(crds, TFJOBS, addField);
    expect(messageOf(() => generate(crds))).toBe('the subtree at spec.priorityHint (spec.priorityHint, spec.priorityHint) is shared but has no public name; '
      + 'add its path to SHARED_TYPE_NAMES in scripts/l1/shared-type-names.ts');
  });
});

describe('SharedTypeNamer takes public names from its table only', () => {
  test('the table names every shared type of the pinned CRDs (the generator checks that each is used)', () => {
    expect(Object.values(SHARED_TYPE_NAMES).sort()).toEqual(
      ['ContainerPatch', 'FairSharing', 'IconOrLogo', 'InitializerSpec', 'JobSetTemplate', 'Match', 'MlPolicy', 'PatchMetadata', 'PodGroupPolicy',
        'PodMetadata', 'Redirect', 'ReplicaSpec', 'ResourceGroup', 'RunPolicy', 'Spawner', 'ValueSpawner']);
  });

  test('a name is the same whatever order the subtrees are found in', () => {
    const table = { 'spec.a': 'Alpha', 'spec.b.c': 'Gamma' };
    const one = new SharedTypeNamer(table);
    const two = new SharedTypeNamer(table);
    expect([one.nameFor('spec.a', []), one.nameFor('spec.b.c', [])]).toEqual(['Alpha', 'Gamma']);
    expect([two.nameFor('spec.b.c', []), two.nameFor('spec.a', [])]).toEqual(['Gamma', 'Alpha']);
  });

  test('an entry no shared subtree uses (a public type would disappear)', () => {
    const namer = new SharedTypeNamer({ 'spec.a': 'Alpha', 'spec.gone': 'Gone' });
    namer.nameFor('spec.a', ['spec.a', 'spec.a']);
    expect(messageOf(() => namer.checkAllUsed())).toBe('SHARED_TYPE_NAMES has names that no shared subtree uses: spec.gone (Gone); '
      + 'remove them from scripts/l1/shared-type-names.ts (a public type would disappear)');
  });

  test('one name for two paths', () => {
    const namer = new SharedTypeNamer({ 'spec.a': 'Same', 'spec.b': 'Same' });
    namer.nameFor('spec.a', []);
    expect(messageOf(() => namer.nameFor('spec.b', []))).toBe('SHARED_TYPE_NAMES gives the name Same to both spec.a and spec.b');
  });
});

describe('every rewrite of json2jsii output must match exactly as often as expected', () => {
  test('a rewrite that matches less often than expected names itself', () => {
    expect(messageOf(() => rewrite('a b a', { name: 'a to c', pattern: /a/g, replacement: 'c', expected: 3 })))
      .toBe('json2jsii output rewrite "a to c" matched 2 time(s); expected 3 (did a json2jsii upgrade change the code it renders? see scripts/l1/rewrites.ts)');
    expect(rewrite('a b a', { name: 'a to c', pattern: /(a)/g, replacement: '[$1]', expected: 2 })).toBe('[a] b [a]');
  });

  const toJson = (filter: string) => [
    '/**',
    " * Converts an object of type 'Thing' to JSON representation.",
    ' */',
    '/* eslint-disable max-len, quote-props */',
    'export function toJson_Thing(obj: Thing | undefined): Record<string, any> | undefined {',
    '  if (obj === undefined) { return undefined; }',
    '  const result = {',
    "    'size': obj.size,",
    '  };',
    filter,
    '}',
    '',
  ].join('\n');
  const docBlock = ['/**', ' * `spec.size`: integer.', ' *', ' * @schema Thing#size', ' */', ''].join('\n');
  const FILTER = '  // filter undefined values\n  return Object.entries(result).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1] }), {});';

  test('json2jsii output as today is tidied', () => {
    expect(tidyJson2jsiiOutput(`\n\n${docBlock}${toJson(FILTER)}`, 2)).toBe([
      '/** `spec.size`: integer. */',
      '/** Converts a Thing to the JSON of the manifest. */',
      '/* eslint-disable max-len, quote-props */',
      'export function toJson_Thing(obj: Thing | undefined): Record<string, any> | undefined {',
      '  if (obj === undefined) { return undefined; }',
      '  const result = {',
      "    'size': obj.size,",
      '  };',
      '  return withoutUndefined(result);',
      '}',
      '',
    ].join('\n'));
  });

  test('a json2jsii that filters undefined values differently fails the generator', () => {
    const changed = toJson('  return Object.fromEntries(Object.entries(result).filter(([, v]) => v !== undefined));');
    expect(messageOf(() => tidyJson2jsiiOutput(`\n\n${docBlock}${changed}`, 2))).toBe('json2jsii output rewrite "toJson undefined filter: withoutUndefined()" '
      + 'matched 0 time(s); expected 1 (did a json2jsii upgrade change the code it renders? see scripts/l1/rewrites.ts)');
  });

  test('a json2jsii whose doc blocks changed shape fails the generator', () => {
    const changed = docBlock.replace(' *\n * @schema', ' * @schema');
    expect(messageOf(() => tidyJson2jsiiOutput(`\n\n${changed}${toJson(FILTER)}`, 2))).toBe('json2jsii output rewrite "doc block with a description: '
      + 'one line without the @schema tag" matched 0 time(s); expected 1 (did a json2jsii upgrade change the code it renders? see scripts/l1/rewrites.ts)');
  });

  test('a json2jsii that emits external types differently fails the generator', () => {
    expect(messageOf(() => tidyJson2jsiiOutput(`\n${docBlock}${toJson(FILTER)}`, 2))).toBe('json2jsii output rewrite "drop the empty lines of the external types" '
      + 'matched 1 time(s); expected 2 (did a json2jsii upgrade change the code it renders? see scripts/l1/rewrites.ts)');
  });
});

describe('writeGenerated() swaps whole folders', () => {
  /** A scratch output root holding a copy of the committed imports/ and schema modules. */
  function outputRoot(): { root: string; imports: string; schemas: string } {
    const root = path.join(scratch, 'out');
    const imports = path.join(root, 'imports');
    const schemas = path.join(root, SCHEMA_DIR);
    fs.cpSync(path.join(ROOT, 'imports'), imports, { recursive: true });
    fs.cpSync(path.join(ROOT, SCHEMA_DIR), schemas, { recursive: true });
    return { root, imports, schemas };
  }

  test('replaces the folder, dropping files that are no longer generated, and leaves no staging folder', () => {
    const out = outputRoot();
    fs.writeFileSync(path.join(out.imports, 'stale.ts'), '// from an older run\n');
    const files: GeneratedFiles = { imports: new Map([['a.ts', 'a\n']]), schemas: new Map([['s.ts', '{}\n']]) };
    writeGenerated(files, out.imports, out.schemas);
    expect(snapshot(out.imports)).toEqual({ 'a.ts': Buffer.from('a\n').toString('hex') });
    expect(snapshot(out.schemas)).toEqual({ 's.ts': Buffer.from('{}\n').toString('hex') });
    expect(fs.readdirSync(out.root).sort()).toEqual(['imports', 'src']);
    expect(fs.readdirSync(path.dirname(out.schemas))).toEqual(['crds']);
  });

  test('a file that cannot be written leaves the folder as it was', () => {
    const out = outputRoot();
    const before = snapshot(out.imports);
    // A name in a folder that does not exist fails while staging, after other files were written.
    const files: GeneratedFiles = { imports: new Map([['a.ts', 'a\n'], ['missing/b.ts', 'b\n']]), schemas: new Map() };
    expect(() => writeGenerated(files, out.imports, out.schemas)).toThrow(/ENOENT/);
    expect(snapshot(out.imports)).toEqual(before);
  });

  test('generate() checks every CRD before anything is written', () => {
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

describe('the generate-l1 CLI', () => {
  const run = (crdRoot: string, outRoot: string) => spawnSync('npx', ['ts-node', '--transpile-only', 'scripts/generate-l1.ts', crdRoot, outRoot], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });

  test('exits non-zero with the message and leaves imports/ untouched', () => {
    const out = path.join(scratch, 'out');
    fs.cpSync(path.join(ROOT, 'imports'), path.join(out, 'imports'), { recursive: true });
    fs.cpSync(path.join(ROOT, SCHEMA_DIR), path.join(out, SCHEMA_DIR), { recursive: true });
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
    const result = run(CRD_ROOT, out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(snapshot(path.join(out, 'imports'))).toEqual(snapshot(path.join(ROOT, 'imports')));
    expect(snapshot(path.join(out, SCHEMA_DIR))).toEqual(snapshot(path.join(ROOT, SCHEMA_DIR)));
    expect(fs.readFileSync(path.join(out, BUILTIN_RUNTIMES_MODULE), 'utf8')).toBe(fs.readFileSync(path.join(ROOT, BUILTIN_RUNTIMES_MODULE), 'utf8'));
  });
});
