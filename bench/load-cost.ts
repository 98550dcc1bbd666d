/**
 * Load cost: how long `require()` of the compiled package takes in a fresh `node`, against
 * cdk8s-plus-28 alone and against the plain `cdk8s import` output for the same CRDs.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT, bin, lineCount, log, run, walk } from './util';
import { UPSTREAM_CRDS } from '../scripts/upstream/pins';

/** The CRDs the L1s are generated from: the 7 training-operator kinds and the 2 Notebooks v2 kinds. */
export const CRDS_DIR = process.env.BENCH_CRDS ?? UPSTREAM_CRDS;
const CRD_FOLDERS = ['training-operator', 'notebooks-v2', 'trainer-v2'];

export interface LibraryBuild {
  /** The entry point that is required. */
  readonly entry: string;
  /** What was done to get it. */
  readonly note: string;
}

/** Sources the compiled library is made from, with the file jsii writes for each. */
function compiledPairs(): Array<[string, string]> {
  return ['src', 'imports'].flatMap(dir => walk(path.join(ROOT, dir), f => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map(ts => [ts, path.join(ROOT, 'lib', path.relative(ROOT, ts)).replace(/\.ts$/, '.js')] as [string, string]));
}

/**
 * Compiles the library (the project's compile task) when lib/ or .jsii is missing or older than a source file.
 * A failed compile (another engineer mid-edit) falls back to the existing lib/ if there is one.
 */
export function ensureCompiledLibrary(): LibraryBuild {
  const entry = path.join(ROOT, 'lib', 'src', 'index.js');
  const assembly = path.join(ROOT, '.jsii');
  const mtime = (f: string) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : -1);
  const pairs = compiledPairs();
  const newestSource = Math.max(...pairs.map(([ts]) => mtime(ts)));
  const stale = pairs.filter(([ts, js]) => mtime(js) < mtime(ts)).map(([ts]) => path.relative(ROOT, ts));
  if (!fs.existsSync(entry) || mtime(assembly) < newestSource || stale.length) {
    const why = !fs.existsSync(entry) ? 'lib/ missing' : stale.length ? `stale: ${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ', ...' : ''}` : '.jsii older than sources';
    log(`compiling with jsii (${why})`);
    const t0 = Date.now();
    try {
      // The project's compile task: jsii, then the boundary table it writes from the new assembly.
      run(bin('projen'), ['compile']);
      return { entry, note: `compiled by \`projen compile\` (jsii and the boundary table) in this run (${why}; ${((Date.now() - t0) / 1000).toFixed(0)} s)` };
    } catch (e) {
      if (!fs.existsSync(entry)) throw e;
      log(`jsii failed, measuring the existing lib/: ${String(e).split('\n')[0]}`);
      return { entry, note: `jsii failed in this run (${why}); the existing lib/ was measured` };
    }
  }
  return { entry, note: 'lib/ and .jsii up to date with src/ and imports/' };
}

export interface ImportBaseline {
  /** Compiled JavaScript files, one per CRD. */
  readonly files: string[];
  /** Lines of the generated TypeScript. */
  readonly tsLines: number;
  readonly crds: number;
  /** Seconds to generate and compile. */
  readonly seconds: number;
}

/**
 * Runs up to `limit` commands at a time in `cwd`. `cdk8s import` records what it imported in the
 * cdk8s.yaml of its working folder, so it must not run in the project's own.
 */
async function parallel(commands: Array<[string, string[]]>, limit: number, cwd: string): Promise<void> {
  const queue = [...commands];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const [cmd, args] = c;
      await new Promise<void>((resolve, reject) => {
        const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', d => { stderr += d; });
        child.on('error', reject);
        child.on('exit', code => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}\n${stderr.slice(-2000)}`))));
      });
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/**
 * `cdk8s import <crd> --language typescript --output <tmp>/<crd>` for every CRD (each into its own
 * folder: they share the API group, so they would overwrite one `kubeflow.org.ts`), then `tsc`
 * to CommonJS. `tmp` gets a node_modules link to the project's so that cdk8s resolves.
 */
export async function generateCdk8sImport(tmp: string): Promise<ImportBaseline | string> {
  const crds = CRD_FOLDERS.flatMap(d => walk(path.join(CRDS_DIR, d), f => f.endsWith('.yaml') || f.endsWith('.yml'))).sort();
  if (crds.length === 0) return `no CRDs in ${CRDS_DIR}`;
  const t0 = Date.now();
  const src = path.join(tmp, 'ts');
  const out = path.join(tmp, 'js');
  fs.mkdirSync(tmp, { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tmp, 'node_modules'), 'dir');
  log(`cdk8s import of ${crds.length} CRDs into ${src}`);
  await parallel(crds.map(crd => [bin('cdk8s'), ['import', crd, '--language', 'typescript', '--output',
    path.join(src, path.basename(crd).replace(/\.ya?ml$/, '')), '--no-check-upgrade']] as [string, string[]]), Math.max(1, Math.min(2, os.cpus().length)), tmp);
  const tsFiles = walk(src, f => f.endsWith('.ts')).sort();
  log(`tsc of ${tsFiles.length} files (${lineCount(tsFiles)} lines)`);
  run(bin('tsc'), ['--outDir', out, '--rootDir', src, '--module', 'commonjs', '--target', 'ES2020', '--skipLibCheck',
    '--declaration', 'false', '--types', 'node', ...tsFiles], { cwd: tmp });
  const files = walk(out, f => f.endsWith('.js')).sort();
  return { files, tsLines: lineCount(tsFiles), crds: crds.length, seconds: (Date.now() - t0) / 1000 };
}

export interface RequireTarget {
  readonly name: string;
  /** Absolute paths required in order. */
  readonly files: string[];
}

export interface RequireTimes {
  /** Time spent in `require()` inside the child, ms. */
  readonly requireMs: number[];
  /** CPU time of the child during the `require()` calls, ms (less sensitive to other load). */
  readonly requireCpuMs: number[];
  /** Spawn to exit of the whole `node` process, ms. */
  readonly processMs: number[];
}

const PROBE = `
const files = JSON.parse(process.argv[1]);
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
for (const f of files) require(f);
const wall = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = process.cpuUsage(c0);
process.stdout.write(wall + ' ' + (cpu.user + cpu.system) / 1000);
`;

/** `runs` fresh processes per target, interleaved round by round, after one unrecorded warm-up round. */
export function measureRequire(targets: RequireTarget[], runs: number): Record<string, RequireTimes> {
  const times: Record<string, { requireMs: number[]; requireCpuMs: number[]; processMs: number[] }> = {};
  for (const t of targets) times[t.name] = { requireMs: [], requireCpuMs: [], processMs: [] };
  for (let r = -1; r < runs; r++) {
    const order = targets.map((_, i) => targets[(i + Math.max(r, 0)) % targets.length]);
    for (const t of order) {
      const t0 = process.hrtime.bigint();
      const result = spawnSync(process.execPath, ['-e', PROBE, JSON.stringify(t.files)], { cwd: os.tmpdir(), encoding: 'utf8' });
      const wall = Number(process.hrtime.bigint() - t0) / 1e6;
      if (result.status !== 0) throw new Error(`require of ${t.name} failed:\n${result.stderr}`);
      if (r >= 0) {
        const [wallMs, cpuMs] = result.stdout.trim().split(' ').map(Number);
        times[t.name].requireMs.push(wallMs);
        times[t.name].requireCpuMs.push(cpuMs);
        times[t.name].processMs.push(wall);
      }
    }
  }
  return times;
}
