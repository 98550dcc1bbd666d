/**
 * The compiled entry point (lib/src/index.js, written by scripts/lazy-entry.ts after jsii) loads
 * each export's module on first use. These tests hold it to what tsc's eager entry would give:
 * the same names with the same values, the boundary checks on every class however it was reached,
 * and the names Node's ES-module import reads. They run the compiled package in fresh `node`
 * processes, as a user's program would.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { exportedNames, readPlan, renderEntry } from '../../scripts/lazy-entry';
import * as source from '../../src';
import { CLASSES } from '../../src/boundary/schema.generated';

const ROOT = path.join(__dirname, '..', '..');
const ENTRY = path.join(ROOT, 'lib', 'src', 'index.js');
const LIB = path.join(ROOT, 'lib', 'src');

/** Runs `code` in a fresh node (the package entry bound to `kf`) and parses what it prints. */
function fresh(code: string): any {
  const script = `const kf = require(${JSON.stringify(ENTRY)});\n${code}`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

const plan = readPlan(fs.readFileSync(path.join(ROOT, 'src', 'index.ts'), 'utf8'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const names = exportedNames(plan, module => require(path.join(LIB, module)));

test('the compiled entry is the one the script writes from src/index.ts', () => {
  expect(fs.readFileSync(ENTRY, 'utf8')).toBe(renderEntry(plan, names));
  expect(fs.existsSync(`${ENTRY}.map`)).toBe(false);
});

test('it exports the names of src/index.ts, in order, each the value of its own module', () => {
  expect(fresh('process.stdout.write(JSON.stringify(Object.keys(kf)));')).toEqual(Object.keys(source));
  const mismatched = fresh(`
    const path = require('path');
    const names = ${JSON.stringify(names)};
    const namespaces = ${JSON.stringify(plan.namespaces)};
    const wrong = names.filter(n => kf[n.name] !== require(path.join(${JSON.stringify(LIB)}, n.module))[n.name]).map(n => n.name);
    for (const n of namespaces) if (kf[n.name] !== require(path.join(${JSON.stringify(LIB)}, n.module))) wrong.push(n.name);
    process.stdout.write(JSON.stringify(wrong));`);
  expect(mismatched).toEqual([]);
  expect(names.length).toBe(53);
  expect(plan.namespaces.map(n => n.name)).toEqual(['kubeflow', 'notebooks', 'trainer', 'kueue', 'core']);
});

test('an export, once read, keeps its value and cannot be reassigned', () => {
  expect(fresh(`
    const first = kf.DistributedPyTorch;
    kf.DistributedPyTorch = 1;
    const d = Object.getOwnPropertyDescriptor(kf, 'DistributedPyTorch');
    process.stdout.write(JSON.stringify([first === kf.DistributedPyTorch, 'value' in d, d.writable, d.configurable, d.enumerable]));`))
    .toEqual([true, true, false, false, true]);
});

test('requiring the package loads only the entry; an export loads its module and what that needs', () => {
  const loaded = fresh(`
    const lib = ${JSON.stringify(path.join(ROOT, 'lib') + path.sep)};
    const own = () => Object.keys(require.cache).filter(f => f.startsWith(lib)).map(f => f.slice(lib.length, -3)).sort();
    const bare = own();
    kf.DistributedPyTorch;
    process.stdout.write(JSON.stringify({ bare, pytorch: own() }));`);
  expect(loaded.bare).toEqual(['src/index']);
  expect(loaded.pytorch).toEqual(expect.arrayContaining(['src/training/pytorch', 'src/common/replica', 'imports/kubeflow']));
  expect(loaded.pytorch).not.toContain('src/trainer/train-job');
  expect(loaded.pytorch).not.toContain('imports/trainer');
  expect(loaded.pytorch).not.toContain('src/notebooks/workspace-kind');
});

test('reading any one export guards its class and every class of the table loaded with it', () => {
  // One fresh process per export, so that no other read guards what this one loaded.
  const unguarded: string[] = [];
  for (const { name } of names) {
    const found = JSON.parse(execFileSync(process.execPath, ['-e', `
      const kf = require(${JSON.stringify(ENTRY)});
      kf[${JSON.stringify(name)}];
      const path = require('path');
      const { OWN_CLASSES } = require(${JSON.stringify(path.join(LIB, 'boundary', 'registry'))});
      const { CLASSES } = require(${JSON.stringify(path.join(LIB, 'boundary', 'schema.generated'))});
      const GUARDED = Symbol.for('cdk8s-kubeflow.boundary.guarded');
      const out = [];
      for (const module of ${JSON.stringify(plan.modules)}) {
        const loaded = require.cache[path.join(${JSON.stringify(LIB)}, module) + '.js'];
        if (!loaded) continue;
        for (const [name, cls] of Object.entries(loaded.exports)) {
          if (typeof cls !== 'function' || !CLASSES[name]) continue;
          if (OWN_CLASSES.get(name) !== cls) out.push(name + ' (not registered)');
          for (const [method, ps] of Object.entries(CLASSES[name].methods || {})) if (ps.length && !cls.prototype[method][GUARDED]) out.push(name + '.prototype.' + method);
          for (const [method, ps] of Object.entries(CLASSES[name].statics || {})) if (ps.length && !cls[method][GUARDED]) out.push(name + '.' + method);
        }
      }
      if (typeof kf[${JSON.stringify(name)}] === 'function' && CLASSES[${JSON.stringify(name)}] && OWN_CLASSES.get(${JSON.stringify(name)}) !== kf[${JSON.stringify(name)}]) out.push(${JSON.stringify(name)} + ' (read, not registered)');
      process.stdout.write(JSON.stringify(out));`], { cwd: ROOT, encoding: 'utf8' }));
    unguarded.push(...found.map((f: string) => `${name}: ${f}`));
  }
  expect(unguarded).toEqual([]);
  // Every class of the table is exported by one of those modules.
  const exported = new Set(names.map(n => n.name));
  expect(Object.keys(CLASSES).filter(c => !c.includes('.') && !exported.has(c))).toEqual([]);
});

test('src/index.ts hands its exports to the boundary last, and the lazy entry does it per read', () => {
  expect(plan.guard).toBe('./boundary/install');
  expect(() => readPlan("import { guardExports } from './boundary/install';\nexport * from './a';\n"))
    .toThrow('src/index.ts: guardExports is imported but its exports are not handed to it last (scripts/lazy-entry.ts)');
  expect(() => readPlan("import { guardExports } from './boundary/install';\nguardExports(exports);\nexport * from './a';\n"))
    .toThrow('src/index.ts: "guardExports(exports);" is not an export the lazy entry can write (scripts/lazy-entry.ts)');
  expect(renderEntry({ modules: ['./a'], namespaces: [] }, [{ name: 'A', module: './a' }])).not.toContain('guardLoaded');
  expect(renderEntry(plan, names)).toContain('define(name, () => { const value = require(modules[names[name]])[name]; guardLoaded(); return value; })');
});

test('a class reached only as a return value is guarded: the ReplicaGroup of a job read from the entry', () => {
  expect(fresh(`
    const { App, Chart } = require('cdk8s');
    const chart = new Chart(new App(), 'test');
    const job = new kf.DistributedPyTorch(chart, 'job', { image: 'registry.example.com/train:1.0', workers: 2 });
    let message;
    try { job.worker.scale('two'); } catch (e) { message = e.message; }
    process.stdout.write(JSON.stringify(message));`))
    .toBe('test/job/Worker: replicas is "two"; expected a finite number');
});

test('a value for a class whose module has not loaded is refused: no instance of it can exist yet', () => {
  expect(fresh(`
    const { App, Chart } = require('cdk8s');
    const chart = new Chart(new App(), 'test');
    const before = require.cache[require.resolve(${JSON.stringify(path.join(LIB, 'common', 'node-health'))})] !== undefined;
    let message;
    try { new kf.DistributedPyTorch(chart, 'job', { image: 'registry.example.com/train:1.0', nodeHealth: ['gpu'] }); } catch (e) { message = e.message; }
    process.stdout.write(JSON.stringify([before, message]));`))
    .toEqual([false, 'test/job: nodeHealth[0] is "gpu"; expected a NodeHealth: NodeHealth.AUTOPILOT, NodeHealth.labelNotIn(labelKey, values) or NodeHealth.avoidHosts(hostnames)']);
});

test('an L1 submodule read alone has its classes guarded; a program of constructs never loads the L1 table', () => {
  const l1 = fresh(`
    const { App, Chart } = require('cdk8s');
    const { kueue } = kf;
    let message;
    try { new kueue.LocalQueue(new Chart(new App(), 'test'), 'lq', { spec: { clusterQueue: 5 } }); } catch (e) { message = e.message; }
    const table = Object.keys(require.cache).some(f => f.endsWith('schema-l1.generated.js'));
    process.stdout.write(JSON.stringify([message, table]));`);
  expect(l1).toEqual(['test/lq: spec.clusterQueue is 5; expected a string', true]);
  const constructs = fresh(`
    const { App, Chart } = require('cdk8s');
    const app = new App({ outdir: require('os').tmpdir() });
    const chart = new Chart(app, 'test');
    new kf.DistributedPyTorch(chart, 'job', { image: 'registry.example.com/train:1.0', workers: 2 });
    chart.toJson();
    process.stdout.write(JSON.stringify(Object.keys(require.cache).some(f => f.endsWith('schema-l1.generated.js'))));`);
  expect(constructs).toBe(false);
});

test('an ES-module import offers every name and reads the same values', () => {
  const script = `
    import * as ns from ${JSON.stringify(ENTRY)};
    import { createRequire } from 'module';
    const kf = createRequire(import.meta.url)(${JSON.stringify(ENTRY)});
    const names = Object.keys(kf);
    process.stdout.write(JSON.stringify([names.filter(n => !(n in ns)), names.filter(n => ns[n] !== kf[n])]));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
  expect(out).toEqual([[], []]);
});

test('the script refuses a statement of src/index.ts that the lazy entry cannot express', () => {
  expect(() => readPlan("export * from './common/accelerator';\nexport { Accelerator as Gpu } from './common/accelerator';\n"))
    .toThrow('src/index.ts: "export { Accelerator as Gpu } from \'./common/accelerator\';" is not an export the lazy entry can write (scripts/lazy-entry.ts)');
  expect(readPlan("// c\n/* d */\nexport * from './a';\nexport * as b from '../b';\n")).toEqual({ modules: ['./a'], namespaces: [{ name: 'b', module: '../b' }] });
});

test('a name two modules export is bound from the first, as tsc binds it', () => {
  const modules: { [m: string]: object } = { './a': { X: 1, Y: 2, default: 0 }, './b': { X: 3, Z: 4 } };
  expect(exportedNames({ modules: ['./a', './b'], namespaces: [{ name: 'Z', module: '../z' }] }, m => modules[m]))
    .toEqual([{ name: 'X', module: './a' }, { name: 'Y', module: './a' }]);
});

// Node 22.1 and later: requiring the package turns on Node's compile cache for the modules loaded
// after it (bench/startup.ts measures what it saves), in the folder Node's own variables choose;
// NODE_DISABLE_COMPILE_CACHE=1 leaves it off. Older Node has no compile cache and nothing changes.
test('requiring the package enables Node\'s compile cache where Node has one, and the variable turns it off', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hasCache = typeof (require('module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
  try {
    const folder = (extra: NodeJS.ProcessEnv) => {
      const env: NodeJS.ProcessEnv = { ...process.env };
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      Object.assign(env, extra);
      const script = `const m = require('module'); const before = m.getCompileCacheDir ? m.getCompileCacheDir() : undefined;
        require(${JSON.stringify(ENTRY)});
        process.stdout.write(JSON.stringify([before ?? null, m.getCompileCacheDir ? m.getCompileCacheDir() ?? null : null]));`;
      return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', env }));
    };
    const chosen = path.join(tmp, 'chosen');
    if (hasCache) {
      expect(folder({ TMPDIR: tmp })).toEqual([null, expect.stringContaining(path.join(tmp, 'node-compile-cache'))]);
      expect(folder({ NODE_DISABLE_COMPILE_CACHE: '1', TMPDIR: tmp })).toEqual([null, null]);
      expect(folder({ TMPDIR: tmp, NODE_COMPILE_CACHE: chosen })[1]).toEqual(expect.stringContaining(chosen));
    } else {
      expect(folder({ TMPDIR: tmp })).toEqual([null, null]);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
