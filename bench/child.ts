/**
 * The measuring side of the synthesis and memory benchmarks. bench/run.ts transpiles this file and
 * workloads.ts to plain JavaScript in a temp folder and runs it with `node`, so that the measured
 * process holds only cdk8s, cdk8s-plus-28 and the compiled library (lib/src/index.js), not
 * ts-node or TypeScript.
 *
 *   node child.js <project root> '{"mode":"synth","ns":[1,10],"reps":{"1":20,"10":10},"renderNs":[10],"perTemplateNs":[10],"trainJobNs":[10],"warmup":2,"outdir":"/tmp/x"}'
 *   node child.js <project root> '{"mode":"memory","variant":"l2","n":1000,"outdir":"/tmp/x"}'
 *   node child.js <project root> '{"mode":"profile","variant":"l2","n":1000,"reps":3,"outdir":"/tmp/x"}'
 *   node child.js <project root> '{"mode":"phases","groups":[["l2","l1"]],"n":1000,"reps":9,"warmup":2,"outdir":"/tmp/x"}'
 *
 * Prints one JSON line with the results.
 */
import * as fs from 'fs';
import { Session } from 'inspector';
import { createRequire } from 'module';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import { measurePhases } from './phases';
import { Libs, TRAIN_JOB_VARIANTS, Variant, VARIANTS, buildApp, checkSameManifest, checkSameTrainJobManifest } from './workloads';

export interface SynthRun {
  /** Constructing the app and its N jobs, in ms. */
  readonly constructMs: number;
  /** `app.synth()`: validation, rendering, YAML to the temp folder, in ms. */
  readonly synthMs: number;
  /** CPU time of the process (all threads) over both, in ms: less sensitive to other load on the machine. */
  readonly cpuMs: number;
}

export interface SynthResult {
  /** What the fairness check compared. */
  readonly checks: string[];
  /** runs[variant][n] */
  readonly runs: Record<string, Record<string, SynthRun[]>>;
  /** Rendering with the app's validation (`chart.toJson()`, no YAML), render[variant][n]. */
  readonly render: Record<string, Record<string, SynthRun[]>>;
  /** Rendering alone (every API object's `toJson()`: no YAML, no validation), renderObjects[variant][n]. */
  readonly renderObjects: Record<string, Record<string, SynthRun[]>>;
  /** Bytes of YAML written, bytes[variant][n]. */
  readonly bytes: Record<string, Record<string, number>>;
}

export interface MemoryResult {
  /** Peak resident set size of the process, in bytes. */
  readonly maxRssBytes: number;
  /** V8 heap in use after synthesis, in bytes. */
  readonly heapUsedBytes: number;
}

export interface ProfileEntry {
  /** A function (`name file:line`) or a code group (`cdk8s`, `lib/src`, `GC`, ...). */
  readonly name: string;
  /** Self time, ms per synthesis. */
  readonly selfMs: number;
}

export interface ProfileResult {
  /** Wall time of one synthesis while profiling, ms (median). */
  readonly wallMs: number;
  /** Self time by code group, largest first. */
  readonly groups: ProfileEntry[];
  /** Self time by function, largest first. */
  readonly functions: ProfileEntry[];
  /** Self time by function of this library's own code (lib/src), largest first. */
  readonly ownFunctions: ProfileEntry[];
  /** Self time per synthesis of all samples, ms. */
  readonly totalMs: number;
}

type Config =
  | { mode: 'synth'; ns: number[]; reps: Record<string, number>; renderNs: number[]; perTemplateNs: number[]; trainJobNs: number[]; warmup: number; outdir: string }
  | { mode: 'memory'; variant: Variant | 'none'; n: number; outdir: string }
  | { mode: 'profile'; variant: Variant; n: number; reps: number; outdir: string; cpuprofile?: string }
  | { mode: 'phases'; groups: Variant[][]; n: number; reps: number; warmup: number; outdir: string };

function loadLibs(root: string): Libs {
  const req = createRequire(path.join(root, 'package.json'));
  return { cdk8s: req('cdk8s'), kplus: req('cdk8s-plus-28'), kf: req(path.join(root, 'lib', 'src', 'index.js')) };
}

function dirBytes(dir: string): number {
  return fs.readdirSync(dir).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
}

function once(libs: Libs, variant: Variant, n: number, outdir: string): SynthRun & { bytes: number } {
  fs.rmSync(outdir, { recursive: true, force: true });
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const app = buildApp(libs, variant, n, outdir);
  const t1 = process.hrtime.bigint();
  app.synth();
  const t2 = process.hrtime.bigint();
  const cpu = process.cpuUsage(c0);
  const bytes = dirBytes(outdir);
  fs.rmSync(outdir, { recursive: true, force: true });
  return { constructMs: Number(t1 - t0) / 1e6, synthMs: Number(t2 - t1) / 1e6, cpuMs: (cpu.user + cpu.system) / 1000, bytes };
}

/**
 * Rendering without YAML. `chart`: every chart's `toJson()`, as `Testing.synth` does, which
 * validates the app first (so the L2's rules and schema run). `objects`: every API object's
 * `toJson()` in tree order, which renders without validating: the L2's own rendering against the L1's.
 */
function renderOnce(libs: Libs, variant: Variant, n: number, outdir: string, how: 'chart' | 'objects'): SynthRun {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const app = buildApp(libs, variant, n, outdir);
  const t1 = process.hrtime.bigint();
  if (how === 'chart') {
    for (const chart of app.charts) chart.toJson();
  } else {
    for (const c of app.node.findAll()) if (c instanceof libs.cdk8s.ApiObject) c.toJson();
  }
  const t2 = process.hrtime.bigint();
  const cpu = process.cpuUsage(c0);
  return { constructMs: Number(t1 - t0) / 1e6, synthMs: Number(t2 - t1) / 1e6, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function synth(libs: Libs, config: Extract<Config, { mode: 'synth' }>): SynthResult {
  const checks = [...checkSameManifest(libs, isDeepStrictEqual), ...checkSameTrainJobManifest(libs, isDeepStrictEqual)];
  // Warm the JIT on every variant before anything is recorded. No forced GC between runs: in
  // trials a global.gc() before each run made the run after it 3-5 times slower at N <= 100 for
  // every variant alike, which would bury the differences between them.
  for (let i = 0; i < config.warmup; i++) for (const v of VARIANTS) once(libs, v, 100, config.outdir);
  const runs: SynthResult['runs'] = {};
  const render: SynthResult['render'] = {};
  const renderObjects: SynthResult['renderObjects'] = {};
  const bytes: SynthResult['bytes'] = {};
  for (const v of [...VARIANTS, 'kplusPerTemplate', ...TRAIN_JOB_VARIANTS]) { runs[v] = {}; render[v] = {}; renderObjects[v] = {}; bytes[v] = {}; }

  /**
   * `reps` rounds of every variant; the order rotates each round so that none always runs first.
   * `warmup` unrecorded rounds at the same size come first: the first runs at a size larger than
   * any before are slower while V8 grows the heap to it (and, for the Trainer rows, finishes
   * compiling their code), the more so for the variant that allocates more, so that without them a
   * row's medians depended on which rows ran before it.
   */
  const rounds = (n: number, variants: Variant[], measure: (v: Variant, record: boolean) => void) => {
    for (let r = 0; r < config.warmup; r++) for (const v of variants) measure(v, false);
    for (let r = 0; r < config.reps[String(n)]; r++) {
      for (let i = 0; i < variants.length; i++) measure(variants[(i + r) % variants.length], true);
    }
  };
  for (const n of config.ns) {
    const variants: Variant[] = config.perTemplateNs.includes(n) ? [...VARIANTS, 'kplusPerTemplate'] : VARIANTS;
    for (const v of variants) runs[v][n] = [];
    rounds(n, variants, (v, record) => {
      const { bytes: written, ...run } = once(libs, v, n, config.outdir);
      if (!record) return;
      runs[v][n].push(run);
      bytes[v][n] = written;
    });
  }
  for (const n of config.renderNs) {
    for (const v of VARIANTS) { render[v][n] = []; renderObjects[v][n] = []; }
    rounds(n, VARIANTS, (v, record) => {
      const run = renderOnce(libs, v, n, config.outdir, 'chart');
      if (record) render[v][n].push(run);
    });
    rounds(n, VARIANTS, (v, record) => {
      const run = renderOnce(libs, v, n, config.outdir, 'objects');
      if (record) renderObjects[v][n].push(run);
    });
  }
  // Trainer v2 last, with warm-up rounds of its own, so that its code does not change how the
  // rounds above ran.
  if (config.trainJobNs.length) {
    for (let i = 0; i < config.warmup; i++) for (const v of TRAIN_JOB_VARIANTS) once(libs, v, 100, config.outdir);
  }
  for (const n of config.trainJobNs) {
    for (const v of TRAIN_JOB_VARIANTS) runs[v][n] = [];
    rounds(n, TRAIN_JOB_VARIANTS, (v, record) => {
      const { bytes: written, ...run } = once(libs, v, n, config.outdir);
      if (!record) return;
      runs[v][n].push(run);
      bytes[v][n] = written;
    });
  }
  return { checks, runs, render, renderObjects, bytes };
}

function memory(libs: Libs, config: Extract<Config, { mode: 'memory' }>): MemoryResult {
  if (config.variant !== 'none') {
    const app = buildApp(libs, config.variant, config.n, config.outdir);
    app.synth();
  }
  const result = { maxRssBytes: process.resourceUsage().maxRSS * 1024, heapUsedBytes: process.memoryUsage().heapUsed };
  fs.rmSync(config.outdir, { recursive: true, force: true });
  return result;
}

/** Where a profiled function lives, in coarse groups. */
function groupOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)' || functionName === '(idle)') return functionName;
  const packages = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
  if (packages.length) return packages[packages.length - 1][1];
  const own = /\/lib\/(src|imports)\//.exec(url);
  if (own) return `cdk8s-kubeflow lib/${own[1]}`;
  if (/\/(workloads|child)\.js$/.test(url)) return 'bench harness';
  if (url.startsWith('node:') || url === '') return 'node internals / native';
  return url;
}

/**
 * CPU profile (V8 sampling, in-process) of `reps` syntheses, after two warm-up runs.
 */
function profile(libs: Libs, config: Extract<Config, { mode: 'profile' }>): ProfileResult {
  for (let i = 0; i < 2; i++) once(libs, config.variant, Math.min(config.n, 100), config.outdir);
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): any => {
    let out: any;
    let error: any;
    session.post(method, params ?? {}, (err, res) => { error = err; out = res; });
    if (error) throw error;
    return out;
  };
  post('Profiler.enable');
  post('Profiler.setSamplingInterval', { interval: 200 });
  post('Profiler.start');
  const walls: number[] = [];
  for (let r = 0; r < config.reps; r++) {
    const run = once(libs, config.variant, config.n, config.outdir);
    walls.push(run.constructMs + run.synthMs);
  }
  const { profile: prof } = post('Profiler.stop');
  session.disconnect();
  if (config.cpuprofile) fs.writeFileSync(config.cpuprofile, JSON.stringify(prof));

  const byId = new Map<number, any>(prof.nodes.map((n: any) => [n.id, n]));
  const self = new Map<number, number>();
  prof.samples.forEach((id: number, i: number) => self.set(id, (self.get(id) ?? 0) + prof.timeDeltas[i] / 1000));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const g = groupOf(url, functionName);
    groups.set(g, (groups.get(g) ?? 0) + ms / config.reps);
    const file = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${file} [${g}]`.trim();
    functions.set(key, (functions.get(key) ?? 0) + ms / config.reps);
  }
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, selfMs]) => ({ name, selfMs }));
  const sorted = [...walls].sort((a, b) => a - b);
  const own = new Map([...functions].filter(([k]) => k.endsWith('[cdk8s-kubeflow lib/src]')));
  const totalMs = [...groups.values()].reduce((a, b) => a + b, 0);
  const wallMs = sorted[Math.floor(sorted.length / 2)];
  return { wallMs, groups: top(groups, 12), functions: top(functions, 25), ownFunctions: top(own, 8), totalMs };
}

if (require.main === module) {
  const [root, json] = process.argv.slice(2);
  const config = JSON.parse(json) as Config;
  const libs = loadLibs(root);
  const result = config.mode === 'synth' ? synth(libs, config)
    : config.mode === 'memory' ? memory(libs, config)
      : config.mode === 'phases' ? measurePhases(libs, root, config.groups, config.n, config.reps, config.warmup, config.outdir)
        : profile(libs, config);
  process.stdout.write(JSON.stringify(result) + '\n');
}
