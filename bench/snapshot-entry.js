/**
 * A prototype, for row 9 of the bench (bench/startup.ts) only: the entry of a V8 start-up snapshot
 * (`node --snapshot-blob start.blob --build-snapshot snapshot-entry.js`) that holds cdk8s,
 * cdk8s-plus-28 and the library already loaded, so that `node --snapshot-blob start.blob main.ts`
 * starts with them in its heap instead of loading them. It measures what issue 42 asked to try; it
 * is not a way the guide offers (docs/benchmarks.md says why).
 *
 * Node's module loader cannot run while a snapshot is built ("module" breaks the build), so the
 * packages are loaded by a small CommonJS loader of this file's own: the same files, resolved the
 * way Node resolves them (relative paths, node_modules folders, a package's `main`), each wrapped in
 * the function Node wraps a module in. Inline source maps are left out of the sources: Node reads
 * them only with --enable-source-maps, and in the heap they made the blob half as large again.
 * A warm-up synthesis of one job (into a temporary folder) runs before the heap is written, so the
 * rule modules the first synth loads are in it and the functions it ran are already compiled.
 *
 * When the blob starts, the deserialized main function puts every module the snapshot holds into
 * Node's own module cache under its file name, turns on the compile cache (as the library's entry
 * does: it keeps the type-stripped main.ts, so Node's TypeScript stripper is not loaded again), and
 * requires the app (`require()` of an ES module, Node 22.12 and later). The app's imports of cdk8s,
 * cdk8s-plus-28 and the library then resolve to the objects in the snapshot; a module the snapshot
 * lacks is loaded by Node as usual.
 *
 * SNAPSHOT_APP_DIR is the app's folder (its node_modules hold the three packages).
 */
'use strict';
const v8 = require('v8');
const fs = require('fs');
const os = require('os');
const path = require('path');

const APP_DIR = process.env.SNAPSHOT_APP_DIR;
if (!APP_DIR) throw new Error('SNAPSHOT_APP_DIR is not set: the folder whose node_modules hold cdk8s, cdk8s-plus-28 and cdk8s-kubeflow');

/**
 * Node's built-in modules the three packages require; anything else is a file. Node warns, when
 * the snapshot is built, that it has not verified child_process in a snapshot (cdk8s reads
 * `spawnSync` off it when it loads, and uses it only to load YAML from a URL).
 */
const BUILTINS = new Set(['fs', 'path', 'os', 'crypto', 'child_process', 'util', 'events', 'stream', 'url', 'zlib', 'http', 'https', 'assert', 'buffer', 'tty', 'net', 'string_decoder', 'querystring', 'punycode', 'v8', 'constants', 'process']);

/** Every module loaded into the snapshot, by its real file name. */
const loaded = new Map();
/**
 * The modules loaded so far by file name, as `require.cache` holds them: the library's entry reads
 * it to guard each public module once it has loaded.
 */
const moduleCache = Object.create(null);
/** After deserialization: Node's own require, for what the snapshot does not hold. */
let nodeRequire = null;

/** As Node looks: the file, with .js or .json, then a folder's package.json `main`, then its index.js. */
function fileOf(candidate) {
  const isFile = file => {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  const found = [candidate, `${candidate}.js`, `${candidate}.json`].find(isFile);
  if (found) return found;
  try {
    const main = JSON.parse(fs.readFileSync(path.join(candidate, 'package.json'), 'utf8')).main;
    const inMain = main && fileOf(path.join(candidate, main));
    if (inMain) return inMain;
  } catch { /* no package.json */ }
  const index = path.join(candidate, 'index.js');
  return isFile(index) ? index : null;
}

function resolve(request, dir) {
  if (/^\.{0,2}\//.test(request)) return fileOf(path.resolve(dir, request));
  for (let d = dir; ; d = path.dirname(d)) {
    const found = path.basename(d) === 'node_modules' ? null : fileOf(path.join(d, 'node_modules', request));
    if (found) return found;
    if (path.dirname(d) === d) return null;
  }
}

function load(request, dir) {
  const name = request.replace(/^node:/, '');
  // Requiring "module" while the snapshot is built breaks the build. The library's entry requires it
  // only to turn on the compile cache, which the main function below does.
  if (name === 'module') return nodeRequire ? nodeRequire('module') : {};
  if (BUILTINS.has(name) || request.startsWith('node:')) return require(name);
  const found = resolve(request, dir);
  if (!found) throw new Error(`snapshot entry: cannot find ${request} from ${dir}`);
  const file = fs.realpathSync(found);
  const known = loaded.get(file);
  if (known) return known.exports;
  if (nodeRequire) return nodeRequire(file);
  const module = { id: file, filename: file, exports: {}, loaded: false };
  loaded.set(file, module);
  moduleCache[file] = module;
  if (file.endsWith('.json')) {
    module.exports = JSON.parse(fs.readFileSync(file, 'utf8'));
  } else {
    const source = fs.readFileSync(file, 'utf8').replace(/^#!.*/, '').replace(/\n\/\/# sourceMappingURL=data:[^\n]*\s*$/, '\n');
    const wrapped = new Function('exports', 'require', 'module', '__filename', '__dirname', `${source}\n//# sourceURL=${file}`);
    const here = path.dirname(file);
    const localRequire = r => load(r, here);
    localRequire.resolve = r => resolve(r, here);
    localRequire.cache = moduleCache;
    wrapped.call(module.exports, module.exports, localRequire, module, file, here);
  }
  module.loaded = true;
  return module.exports;
}

const cdk8s = load('cdk8s', APP_DIR);
const kplus = load('cdk8s-plus-28', APP_DIR);
const lib = load('cdk8s-kubeflow', APP_DIR);

// The warm-up: one job of the guide's kind, synthesized into a temporary folder.
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-warm-up-'));
try {
  const app = new lib.StableFileNamesApp({ outdir: out });
  const chart = new cdk8s.Chart(app, 'warm-up', { namespace: 'warm-up' });
  new lib.DistributedPyTorch(chart, 'warm-up', {
    metadata: { name: 'warm-up' },
    image: 'warm-up',
    command: ['warm-up'],
    workers: 2,
    resources: { accelerator: lib.Accelerator.nvidia(1), cpu: kplus.Cpu.units(4), memory: cdk8s.Size.gibibytes(16) },
    sharedMemory: cdk8s.Size.gibibytes(2),
    runPolicy: { cleanPodPolicy: lib.CleanPodPolicy.RUNNING },
  });
  app.synth();
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  const Module = require('module');
  const main = path.resolve(process.argv[1]);
  nodeRequire = Module.createRequire(main);
  for (const [file, held] of loaded) {
    const module = new Module(file, null);
    module.filename = file;
    module.loaded = true;
    module.exports = held.exports;
    module.paths = Module._nodeModulePaths(path.dirname(file));
    Module._cache[file] = module;
  }
  if (typeof Module.enableCompileCache === 'function') Module.enableCompileCache();
  process.argv[1] = main;
  nodeRequire(main);
});
