/**
 * `cdk8s-kubeflow convert`: the exact module for a few representative inputs (one per kind and
 * tier: a v1 job with quantities, an int-or-string, a null member and a field the CRD lacks;
 * TrainJobs the TrainJob construct says and one it does not; a runtime with an enum; a Workspace;
 * Kueue objects and a ConfigMap), each proven by synthesizing it; and the command's options,
 * errors and exit statuses.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { lintMessages, scratchFolder, synthesizeModule, typeErrors } from './convert-harness';
import { readDocuments } from '../../../src/cli/base/input';
import { kueueAsRead } from '../../../src/cli/convert/convert-kueue';
import { normalised, propertyName } from '../../../src/cli/convert/convert-typed';
import { COMMAND_USAGE, EXIT } from '../../../src/cli/main';
import { kindSchema, pinnedKinds } from '../../../src/rules/schema';
import { tempFolder } from '../examples-output';
import { runCli } from '../run-cli';

// The fixtures are named relative to the repository, as a user names files in theirs.
const FIXTURES = path.relative(process.cwd(), path.join(path.dirname(__dirname), 'fixtures', 'convert'));
const fixture = (name: string) => path.join(FIXTURES, name);
const CASES = ['pytorch.yaml', 'trainer.yaml', 'workspace.yaml', 'team-b/queues.yaml'];

// At the file's level, so that it is removed when a filtered run (-t) skips the describe below.
const scratch = scratchFolder('converted-cases');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the module for one file of each kind', () => {
  const outputs = new Map(CASES.map(c => [c, runCli(['convert', fixture(c)])]));

  test.each(CASES)('%s: the exact module', c => {
    const result = outputs.get(c)!;
    expect(result.status).toBe(EXIT.OK);
    expect(result.stdout).toMatchSnapshot();
  });

  test.each(CASES)('%s: the module synthesizes the objects of the file (nulls dropped, as cdk8s writes them)', c => {
    const expected = readDocuments([fixture(c)]).map(d => kueueAsRead(normalised(d.doc)));
    expect(synthesizeModule(outputs.get(c)!.stdout).map(kueueAsRead)).toStrictEqual(expected);
  });

  test('the figures on standard error', () => {
    expect(outputs.get('trainer.yaml')!.stderr).toBe([
      'cdk8s-kubeflow: converted 4 objects from 1 file',
      '  trainer.kubeflow.org/v1alpha1 ClusterTrainingRuntime: 1 by its typed L1 class',
      '  trainer.kubeflow.org/v1alpha1 TrainJob: 1 by its typed L1 class',
      '  trainer.kubeflow.org/v1alpha1 TrainJob: 2 by its L2 construct',
      '',
    ].join('\n'));
    expect(outputs.get('pytorch.yaml')!.stderr).toBe([
      'cdk8s-kubeflow: converted 1 object from 1 file',
      '  kubeflow.org/v1 PyTorchJob: 1 by its typed L1 class with JSON patches',
      '',
    ].join('\n'));
  });

  test('the modules type check and pass the project\'s ESLint configuration', async () => {
    const modules = new Map(CASES.map(c => [`${c.replace(/[^a-z]+/g, '_')}.ts`, outputs.get(c)!.stdout]));
    expect(typeErrors(modules, scratch)).toEqual([]);
    expect(await lintMessages([...modules.keys()].map(m => path.join(scratch, m)))).toEqual([]);
  });
});

describe('several files', () => {
  const all = runCli(['convert', FIXTURES]);

  test('one chart per file, named after it; a second file of the same name gets a numbered chart', () => {
    expect(all.status).toBe(EXIT.OK);
    expect([...all.stdout.matchAll(/new Chart\(app, '([^']+)'\)/g)].map(m => m[1])).toEqual(['pytorch', 'pytorch-2', 'queues', 'trainer', 'workspace']);
    expect(all.stdout).toContain('/** The objects of 5 files, converted by cdk8s-kubeflow convert. */');
    expect(all.stdout).toContain(`  // ${fixture('team-b/pytorch.yaml')}\n  const pytorch2Chart = new Chart(app, 'pytorch-2');`);
  });

  test('the module of the folder synthesizes every object of it, in file order', () => {
    // Kueue objects as Kueue reads them: the module writes v1beta1 input as v1beta2.
    expect(synthesizeModule(all.stdout).map(kueueAsRead)).toStrictEqual(readDocuments([FIXTURES]).map(d => kueueAsRead(normalised(d.doc))));
  });

  test('the output is the same on every run', () => {
    expect(runCli(['convert', FIXTURES]).stdout).toBe(all.stdout);
  });

  test('--out writes the module to the file, main.ts beside it, and names the command that runs them; nothing to standard output', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convert-out-'));
    try {
      const out = path.join(dir, 'app.ts');
      const result = runCli(['convert', '--out', out, FIXTURES]);
      const main = path.join(dir, 'main.ts');
      expect(result).toEqual({
        status: EXIT.OK,
        stdout: '',
        stderr: `${all.stderr}cdk8s-kubeflow: wrote ${out} and ${main}; \`cd ${dir} && node main.ts\` writes the objects to dist/\n`,
      });
      expect(fs.readFileSync(out, 'utf8')).toBe(all.stdout);
      expect(fs.readFileSync(main, 'utf8')).toBe([
        '// The entry point of the app cdk8s-kubeflow convert wrote: `node main.ts` writes dist/.',
        "import { StableFileNamesApp } from 'cdk8s-kubeflow';",
        '// A relative import names the .ts file, as Node\'s type stripping needs.',
        "import converted from './app.ts';",
        '',
        'const app = new StableFileNamesApp();',
        'converted(app);',
        'app.synth();',
        '',
      ].join('\n'));
      // A main.ts of the user's is left as it is, and the message says so.
      fs.writeFileSync(main, '// mine\n');
      const again = runCli(['convert', '--out', out, FIXTURES]);
      expect(again.stderr.split('\n').slice(-2)).toEqual([
        `cdk8s-kubeflow: wrote ${out}; ${main} is there already, so it was left as it is (it runs the module with \`cd ${dir} && node main.ts\` when it calls its default function)`,
        '',
      ]);
      expect(fs.readFileSync(main, 'utf8')).toBe('// mine\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a kind: List is read item by item, and objects of the same name get numbered ids', () => {
    const dir = tempFolder({
      'list.yaml': [
        'apiVersion: v1',
        'kind: List',
        'items:',
        '  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}',
        '  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: other}}',
      ].join('\n'),
    });
    try {
      const result = runCli(['convert', path.join(dir, 'list.yaml')]);
      expect(result.status).toBe(EXIT.OK);
      expect([...result.stdout.matchAll(/new ApiObject\(listChart, '([^']+)'/g)].map(m => m[1])).toEqual(['configmap-a', 'configmap-a-2']);
      expect(synthesizeModule(result.stdout)).toStrictEqual([
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'other' } },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('docs/cli.md\'s example is what the command prints for its YAML', () => {
  const doc = fs.readFileSync(path.join(path.dirname(__dirname), '..', '..', 'docs', 'cli.md'), 'utf8');
  const section = doc.slice(doc.indexOf('For example, `training.yaml`'));
  const block = (lang: string) => new RegExp(`^\`\`\`${lang}\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(section)![1];
  const dir = tempFolder({ 'training.yaml': block('yaml') });
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    expect(runCli(['convert', 'training.yaml'])).toEqual({ status: EXIT.OK, stdout: block('ts'), stderr: block('text') });
  } finally {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an object without metadata.name (generateName) keeps none: a JSON patch removes the name cdk8s would generate', () => {
  const yaml = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {generateName: settings-}',
    '---',
    'apiVersion: kubeflow.org/v1',
    'kind: TFJob',
    'metadata: {generateName: mnist-, namespace: ml}',
    'spec:',
    '  tfReplicaSpecs:',
    '    Worker:',
    '      template: {spec: {containers: [{name: tensorflow, image: tensorflow/tensorflow:2.16.1}]}}',
  ].join('\n');
  const result = runCli(['convert', '-'], yaml);
  expect(result.status).toBe(EXIT.OK);
  expect(synthesizeModule(result.stdout)).toStrictEqual(readDocuments(['-'], () => yaml).map(d => d.doc));
  expect(result.stdout.match(/^ *\/\/ The input has no metadata.name.*$|^ *JsonPatch\..*$|^ *new \w.*$/gm)).toEqual([
    '  // The input has no metadata.name, and cdk8s would generate one: a JSON patch removes it.',
    '  new ApiObject(stdinChart, \'configmap-settings\', {',
    '    JsonPatch.remove(\'/metadata/name\'),',
    '  // The input has no metadata.name, and cdk8s would generate one: a JSON patch removes it.',
    '  new kubeflow.TfJob(stdinChart, \'tfjob-mnist\', {',
    '    JsonPatch.remove(\'/metadata/name\'),',
  ]);
});

describe('errors and usage', () => {
  test('a document that is not YAML: status 1, the file and line, no module', () => {
    const result = runCli(['convert', '-'], 'apiVersion: v1\nkind: ConfigMap\n---\nkey: [unclosed\n');
    expect(result.status).toBe(EXIT.FINDINGS);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('cdk8s-kubeflow: <stdin>:5: not YAML: Flow sequence in block collection must be sufficiently indented and end with a ]\n');
  });

  test('a document that is not a Kubernetes object: status 1, what it lacks', () => {
    const result = runCli(['convert', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\nname: b\n');
    expect(result).toEqual({
      status: EXIT.FINDINGS,
      stdout: '',
      stderr: 'cdk8s-kubeflow: <stdin>:5: the document is not a Kubernetes object (it needs an apiVersion and a kind, both strings)\n',
    });
  });

  test('usage errors: status 2', () => {
    expect(runCli(['convert']).stderr).toMatch(/^cdk8s-kubeflow: convert needs at least one PATH\nUsage:/);
    expect(runCli(['convert']).status).toBe(EXIT.USAGE);
    const twice = runCli(['convert', '--out', 'a.ts', '--out', 'b.ts', FIXTURES]);
    expect([twice.status, twice.stderr.split('\n')[0]]).toEqual([EXIT.USAGE, 'cdk8s-kubeflow: --out takes one FILE']);
    const missing = runCli(['convert', 'no-such.yaml']);
    expect([missing.status, missing.stderr]).toEqual([EXIT.USAGE, 'cdk8s-kubeflow: no-such.yaml: no such file or folder\n']);
    const unwritable = runCli(['convert', '--out', path.join(FIXTURES, 'no-such-folder', 'app.ts'), fixture('workspace.yaml')]);
    expect(unwritable.status).toBe(EXIT.USAGE);
    expect(unwritable.stderr.split('\n')[0]).toMatch(/^cdk8s-kubeflow: --out .*no-such-folder.app\.ts: ENOENT: no such file or directory/);
  });

  test('--help prints the command\'s usage', () => {
    expect(runCli(['convert', '--help'])).toEqual({ status: EXIT.OK, stdout: COMMAND_USAGE.convert, stderr: '' });
    expect(runCli(['help', 'convert']).stdout).toBe(COMMAND_USAGE.convert);
  });
});

test('property names are the ones json2jsii gives (checked against the camelcase package the generator uses)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const camelcase: (s: string) => string = require('camelcase');
  const names = new Set<string>();
  const walk = (node: any) => {
    if (typeof node !== 'object' || node === null) return;
    for (const name of Object.keys(node.properties ?? {})) names.add(name);
    for (const v of Object.values(node)) walk(v);
  };
  for (const k of pinnedKinds()) {
    const [apiVersion, kind] = k.split(' ');
    walk(kindSchema(apiVersion, kind)!.schema);
  }
  expect(names.size).toBeGreaterThan(400);
  const wrong = [...names, 'hostIPC', 'podIPs', 'x-kubernetes-preserve', 'v1beta1', '$ref', 'kubernetes.io/os'].filter(n => propertyName(n) !== camelcase(n.replace(/^\$/, '').replace('/', '_')));
  expect(wrong).toEqual([]);
  expect(['hostIPC', 'podIPs', 'v1beta1'].map(propertyName)).toEqual(['hostIpc', 'podIPs', 'v1Beta1']);
});
