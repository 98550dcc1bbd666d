/**
 * What `require('cdk8s-kubeflow')` loads. The rule layers, the strict CRD schemas, the boundary
 * checks and the CLI are needed only by a synth, a first construct or the command line, so the
 * entry point must not load them (bench/load.ts measures what they cost). Runs the compiled
 * package (lib/src/index.js, as test/package/public-api.test.ts does) in a fresh `node`.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const LIB = path.join(ROOT, 'lib');

/** The library's modules (paths under lib/, without .js) loaded after running `code` in a fresh node. */
function loadedAfter(code: string): string[] {
  const script = [
    `const kf = require(${JSON.stringify(path.join(LIB, 'src', 'index.js'))});`,
    code,
    `const lib = ${JSON.stringify(LIB + path.sep)};`,
    'const own = Object.keys(require.cache).filter(f => f.startsWith(lib)).map(f => f.slice(lib.length, -3).split(require("path").sep).join("/"));',
    'process.stdout.write(JSON.stringify(own.sort()));',
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

/**
 * Modules that only a synth, a first construct or the CLI needs. The exceptions are facts the
 * constructs share with the rules (names, the accelerator and shared-memory facts, the resolver of
 * a TrainJob's runtime, whose catalogue of built-in runtimes loads on first use).
 */
const DEFERRED = [
  /^src\/rules\/kubernetes\/(?!names$|replica-keys$|mount-point$|accelerator-facts$)/,
  /^src\/rules\/(app-document|rule-sets|catalogue|document-index)$/,
  /^src\/rules\/(jobset|library)\//,
  /^src\/rules\/trainer\/(?!names$|runtime-lookup$|runtime-resolver$)/,
  /^src\/rules\/training-operator\/(?!training-kinds$|replica-count-texts$)/,
  /^src\/rules\/notebooks\/(?!option-ids$)/,
  /^src\/rules\/kueue\/(?!labels$)/,
  /^src\/rules\/schema\//,
  /^src\/boundary\/check$/,
  /^src\/util\/nearest$/,
  /^src\/notebooks\/internal\/workspace-kind-render$/,
  /^src\/cli\//,
];

const deferred = (modules: string[]) => modules.filter(m => DEFERRED.some(d => d.test(m)));

test('requiring the package loads only its entry point (test/package/lazy-entry.test.ts)', () => {
  expect(loadedAfter('')).toEqual(['src/index']);
});

test('every export read, as a program using the whole API does, loads none of the code that synthesis or a first call needs', () => {
  const modules = loadedAfter('for (const name of Object.keys(kf)) kf[name];');
  expect(modules).toContain('src/boundary/install');
  expect(modules).toContain('imports/trainer');
  expect(deferred(modules)).toEqual([]);
});

test('a synth loads the rules, the checks and the renderers it needs', () => {
  const modules = loadedAfter(`
    const { App, Chart } = require('cdk8s');
    const app = new App({ outdir: require('os').tmpdir() });
    const chart = new Chart(app, 'c');
    new kf.MpiAllReduce(chart, 'mpi', { metadata: { name: 'train' }, image: 'horovod:1', workers: 2, launcherCommand: ['mpirun', '-np', '2', 'python', 'train.py'] });
    const kind = new kf.WorkspaceKind(chart, 'kind', {
      metadata: { name: 'jupyterlab' }, displayName: 'JupyterLab', description: 'JupyterLab in a pod', icon: kf.SpawnerImage.fromUrl('https://example.com/icon.svg'),
    });
    kind.addImageConfig('scipy', { image: 'quay.io/jupyter/scipy-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] });
    kind.addPort({ id: 'jupyterlab', displayName: 'JupyterLab' });
    kind.addPodConfig('small', {});
    app.synthYaml();
  `);
  expect(deferred(modules)).toEqual(expect.arrayContaining([
    'src/rules/kubernetes/index', 'src/rules/rule-sets', 'src/rules/schema/index',
    'src/boundary/check', 'src/rules/training-operator/mpi-processes', 'src/notebooks/internal/workspace-kind-render',
  ]));
  expect(modules.filter(m => m.startsWith('src/cli/'))).toEqual([]);
});
