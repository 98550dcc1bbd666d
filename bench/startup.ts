/**
 * Start-up against Helm (issue 42, row 9): a platform repository's whole synthesis of one and ten
 * jobs, the way the own-repo guide runs it (docs/own-repo.md: one `node` process running the app;
 * and `cdk8s synth` running that app), beside one `helm template` process rendering the same
 * PyTorchJobs from a chart (bench/helm-chart/). Whole processes are timed from this one; the cases
 * alternate in every round, after one unrecorded warm-up of each, and each figure is a median.
 *
 * Where the time goes: the app is cut into stages, each a process of its own that does a little
 * more than the one before (node with an empty script; + require cdk8s; + cdk8s-plus-28; + the
 * library's exports the app reads; + constructing the jobs; + the modules the rules load at the
 * first synth; the whole app), and each part is the difference of two medians. The guide runs
 * `node main.ts` (Node 22.18+), which the target is judged on; what it adds to `node app.js` is cut
 * into Node's TypeScript stripper (an empty .ts file) and the rest (its ES-module import).
 *
 * Idea (a) of issue 42's start-up item, measured and not adopted: a V8 start-up snapshot holding
 * cdk8s, cdk8s-plus-28 and the library (bench/snapshot-entry.js), built per Node in the run and
 * asserted to write the bytes the app writes.
 *
 * Helm is built from its Go module (`go install helm.sh/helm/v4/cmd/helm@v4.3.2`) into
 * ${CDK8S_KUBEFLOW_CACHE:-$HOME/.cache/cdk8s-kubeflow}/helm/, once; without Go the row is skipped
 * and says why. Node 24 comes from scripts/node-binary.sh; the machine's own node runs beside it.
 *
 * Needs the compiled package (`npx projen compile`).
 *   npx ts-node --project tsconfig.dev.json bench/startup.ts [runs, default 11] [--no-write]
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import * as jsYaml from 'js-yaml';
import { ROOT, fmtMs, log, median } from './util';

/** Ten jobs, the guide's way on Node 24, within this many times one Helm process (issue 42). */
export const STARTUP_TARGET = 2;
export const HELM_MODULE = 'helm.sh/helm/v4';
export const HELM_VERSION = 'v4.3.2';
export const STARTUP_NS = [1, 10];
const CHART = path.join(__dirname, 'helm-chart');
const CACHE = process.env.CDK8S_KUBEFLOW_CACHE || path.join(os.homedir(), '.cache', 'cdk8s-kubeflow');

/** The stages of the app, each a script that does what the one before it does, and a little more. */
export const STAGES = ['node', 'cdk8s', 'plus', 'library', 'construct', 'rules', 'app'] as const;
export type Stage = typeof STAGES[number];
export const STAGE_NAMES: Record<Stage, string> = {
  node: 'node itself (an empty script)',
  cdk8s: "cdk8s (`require`, after the library's entry, which turns on the compile cache)",
  plus: 'cdk8s-plus-28 (`require`)',
  library: "the library's modules the app's exports load",
  construct: 'constructing the jobs',
  rules: 'the modules the rules load at the first synth',
  app: 'synth: the rules, the schema, YAML and the files',
};

/** Medians over the rounds of one case: wall time, and CPU time (the process and its children). */
export interface Figure {
  readonly ms: number;
  readonly cpuMs: number;
}

/** Extra ways to run the app, where the Node runs them. */
export const VARIANTS = {
  cacheOff: 'the app with NODE_DISABLE_COMPILE_CACHE=1 (Node 22.1+: no compile cache, as before the library enabled it)',
  cacheEnv: "the app with NODE_COMPILE_CACHE set (Node 22.1+: the cache on from the start, the app's file and the library's entry cached too)",
  typeStripped: '`node main.ts`, the guide\'s way (Node 22.18+: type stripping, no compile step)',
  typeStrippedCacheEnv: "`node main.ts` with NODE_COMPILE_CACHE set (main.ts's stripped text cached too, so Node's TypeScript stripper does not load)",
  snapshot: '`node --snapshot-blob start.blob main.ts` (a prototype: a V8 start-up snapshot holding the three packages, bench/snapshot-entry.js)',
} as const;
export type VariantKey = keyof typeof VARIANTS;

export interface NodeFigures {
  readonly version: string;
  /** Each stage's whole process, per N (the `app` stage is the guide's app). */
  readonly stages: Record<number, Record<Stage, Figure>>;
  /** `cdk8s synth` running the app, per N. */
  readonly cdk8sSynth: Record<number, Figure>;
  /** The variants this Node runs, per N. */
  readonly variants: Partial<Record<VariantKey, Record<number, Figure>>>;
  /** Node running an empty TypeScript file (Node 22.18+): node itself and its TypeScript stripper. */
  readonly emptyTypeScript?: Figure;
  /** Building the snapshot of the `snapshot` variant once (the median of three builds). */
  readonly snapshotBuild?: Figure;
}

export interface StartupResult {
  readonly runs: number;
  readonly helmVersion: string;
  /** One `helm template` process, per N. */
  readonly helm: Record<number, Figure>;
  readonly nodes: NodeFigures[];
}

interface Ran { readonly status: number | null; readonly out: string; readonly err: string; readonly ms: number; readonly cpuMs: number }

/**
 * Runs a command under bash, whose `times` then prints the CPU time of the command and its
 * children (user + system, to the millisecond) on a third pipe: on a shared machine the wall time
 * also counts the waits for a core, which CPU time leaves out. bash's own start is in the wall time
 * of every case alike (a few ms).
 */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Ran {
  const start = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', '"$@"; s=$?; times >&3; exit $s', 'bash', command, ...args], {
    encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], ...options,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) return { status: null, out: '', err: String(r.error), ms, cpuMs: NaN };
  // `times` prints the shell's own user and system time, then its children's: "0m0.123s 0m0.045s".
  const children = String(r.output[3] ?? '').trim().split('\n')[1] ?? '';
  const cpuMs = children.split(/\s+/).reduce((sum, t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? sum + (Number(m[1]) * 60 + Number(m[2])) * 1000 : NaN;
  }, 0);
  return { status: r.status, out: r.stdout, err: r.stderr, ms, cpuMs };
}

/** The Helm binary, built from its module on first use; or why there is none. */
export function helmBinary(): { helm: string } | { skip: string } {
  const dir = path.join(CACHE, 'helm', HELM_VERSION, 'bin');
  const helm = path.join(dir, 'helm');
  if (fs.existsSync(helm) && run(helm, ['version', '--short']).status === 0) return { helm };
  const go = run('go', ['version']);
  if (go.status !== 0) return { skip: `Go is not installed (\`go version\` failed): the row builds Helm from its module (${HELM_MODULE}@${HELM_VERSION}) and needs Go for that` };
  log(`building Helm: go install ${HELM_MODULE}/cmd/helm@${HELM_VERSION} into ${dir}`);
  fs.mkdirSync(dir, { recursive: true });
  // Outside any module, so `go install pkg@version` builds the release as its own go.mod pins it.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-helm-'));
  try {
    const built = run('go', ['install', `${HELM_MODULE}/cmd/helm@${HELM_VERSION}`], { cwd: work, env: { ...process.env, GOBIN: dir, GOFLAGS: '-mod=mod' } });
    if (built.status !== 0) return { skip: `building Helm failed (go install ${HELM_MODULE}/cmd/helm@${HELM_VERSION}): ${built.err.trim().split('\n').slice(-3).join(' ')}` };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return { helm };
}

/** The node binaries: this process's own, and Node 24 from scripts/node-binary.sh (once per version). */
function nodeBinaries(): string[] {
  const found = [process.execPath];
  const r = run(path.join(ROOT, 'scripts', 'node-binary.sh'), ['24'], { cwd: ROOT });
  if (r.status === 0) found.push(path.join(r.out.trim(), 'node'));
  else log(`no Node 24 (scripts/node-binary.sh 24 failed): ${r.err.trim().split('\n').pop()}`);
  const byVersion = new Map<string, string>();
  for (const node of found) byVersion.set(run(node, ['--version']).out.trim(), node);
  return [...byVersion.values()];
}

const jobNames = (n: number) => Array.from({ length: n }, (_, i) => `resnet-${i}`);

/** The guide's main.ts (docs/own-repo.md), with N jobs named resnet-0, resnet-1, ... from JOBS. */
const APP_BODY = `
const app = new StableFileNamesApp();
try {
  const chart = new Chart(app, 'training', { namespace: 'team-vision' });
  for (let i = 0; i < Number(process.env.JOBS); i++) {
    new DistributedPyTorch(chart, \`resnet-\${i}\`, {
      metadata: { name: \`resnet-\${i}\` },
      image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
      command: ['torchrun', '/workspace/train.py'],
      workers: 2,
      resources: { accelerator: Accelerator.nvidia(1), cpu: kplus.Cpu.units(4), memory: Size.gibibytes(16) },
      sharedMemory: Size.gibibytes(2),
      runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING },
    });
  }
  STAGE_SYNTH
} catch (e) {
  if (!(e instanceof Error) || e instanceof TypeError || e instanceof ReferenceError) throw e;
  console.error(e.message);
  process.exit(1);
}
`;
/**
 * The guide's imports in its order: the library first, whose entry turns on the compile cache and
 * loads nothing else, so cdk8s and cdk8s-plus-28 load with the cache on; the app's names are read
 * off it after them (each loads its module).
 */
const REQUIRES = [
  "const fs = require('fs');",
  "const kubeflow = require('cdk8s-kubeflow');",
  "const { App, Chart, Size } = require('cdk8s');",
  "const kplus = require('cdk8s-plus-28');",
  'const { Accelerator, CleanPodPolicy, DistributedPyTorch, StableFileNamesApp } = kubeflow;',
];
/** What engine.ts loads at the first pass (its `rules`), required by path. */
const RULE_MODULES = ['rule-sets', 'schema', 'catalogue', 'library/ignore-rule', 'training-operator/known-values']
  .map(m => `require(${JSON.stringify(path.join(ROOT, 'lib', 'src', 'rules', m))});`);

function stageScript(stage: Stage): string {
  const upTo = STAGES.indexOf(stage);
  if (upTo === 0) return '';
  if (upTo <= 3) return `${REQUIRES.slice(0, upTo + 2).join('\n')}\n`;
  const synth = stage === 'app' ? 'fs.rmSync(app.outdir, { recursive: true, force: true });\n  app.synth();' : stage === 'rules' ? RULE_MODULES.join('\n  ') : '';
  return `${REQUIRES.join('\n')}\n${APP_BODY.replace('STAGE_SYNTH', synth)}`;
}

/** main.ts as the guide writes it (imports, types), for Node's type stripping. */
function typeScriptApp(): string {
  return [
    "import * as fs from 'fs';",
    "import { Accelerator, CleanPodPolicy, DistributedPyTorch, StableFileNamesApp } from 'cdk8s-kubeflow';",
    "import { Chart, Size } from 'cdk8s';",
    "import * as kplus from 'cdk8s-plus-28';",
    APP_BODY.replace('STAGE_SYNTH', 'fs.rmSync(app.outdir, { recursive: true, force: true });\n  app.synth();').replace('e instanceof Error', '(e as unknown) instanceof Error'),
  ].join('\n');
}

/** A folder like the guide's repository: the app, cdk8s.yaml, and node_modules linking this checkout's packages. */
function setUpApp(dir: string): void {
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const pkg of ['cdk8s', 'cdk8s-plus-28', 'constructs']) fs.symlinkSync(path.join(ROOT, 'node_modules', pkg), path.join(modules, pkg));
  fs.symlinkSync(ROOT, path.join(modules, 'cdk8s-kubeflow'));
  for (const stage of STAGES) fs.writeFileSync(path.join(dir, `${stage}.js`), stageScript(stage));
  fs.writeFileSync(path.join(dir, 'main.ts'), typeScriptApp());
  fs.writeFileSync(path.join(dir, 'empty.ts'), 'export {};\n');
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), 'language: typescript\napp: node app.js\n');
  for (const n of STARTUP_NS) fs.writeFileSync(path.join(dir, `values-${n}.yaml`), `names:\n${jobNames(n).map(j => `  - ${j}\n`).join('')}`);
}

const documents = (text: string) => jsYaml.loadAll(text).filter(d => d !== null && d !== undefined);

/** The bytes the app wrote, after running it as `command args` in `dir`. */
function written(command: string, args: string[], dir: string, env: NodeJS.ProcessEnv): Buffer {
  const r = run(command, args, { cwd: dir, env });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${r.err}`);
  return fs.readFileSync(path.join(dir, 'dist', 'training.k8s.yaml'));
}

/**
 * Builds the snapshot of the `snapshot` variant for one Node (bench/snapshot-entry.js) and returns
 * the blob's path and what a build costs (the median of three). Throws unless `node main.ts` and
 * the snapshot write the same bytes as `node app.js` for every N.
 */
function buildSnapshot(node: string, version: string, dir: string, env: (n: number) => NodeJS.ProcessEnv): { blob: string; build: Figure } {
  const blob = path.join(dir, `start-${version}.blob`);
  const builds = [0, 1, 2].map(() => {
    const r = run(node, ['--snapshot-blob', blob, '--build-snapshot', path.join(__dirname, 'snapshot-entry.js')], { cwd: dir, env: { ...env(1), SNAPSHOT_APP_DIR: dir } });
    if (r.status !== 0) throw new Error(`building the snapshot failed: ${r.err}`);
    return r;
  });
  for (const n of STARTUP_NS) {
    const js = written(node, ['app.js'], dir, env(n));
    for (const args of [['main.ts'], ['--snapshot-blob', blob, 'main.ts']]) {
      if (!written(node, args, dir, env(n)).equals(js)) throw new Error(`N=${n}: \`node ${args.join(' ')}\` does not write the bytes \`node app.js\` writes`);
    }
  }
  return { blob, build: { ms: median(builds.map(b => b.ms)), cpuMs: median(builds.map(b => b.cpuMs)) } };
}

/** The fairness check: Helm renders exactly the documents the app writes. */
function assertSameJobs(helm: string, node: string, dir: string, n: number): void {
  const env = { ...process.env, JOBS: String(n) };
  const app = run(node, ['app.js'], { cwd: dir, env });
  if (app.status !== 0) throw new Error(`the app failed: ${app.err}`);
  const ours = documents(fs.readFileSync(path.join(dir, 'dist', 'training.k8s.yaml'), 'utf8'));
  const rendered = run(helm, ['template', 'bench', CHART, '-f', `values-${n}.yaml`], { cwd: dir });
  if (rendered.status !== 0) throw new Error(`helm template failed: ${rendered.err}`);
  const theirs = documents(rendered.out);
  if (ours.length !== n || !isDeepStrictEqual(ours, theirs)) {
    throw new Error(`N=${n}: the chart does not render the app's documents (${ours.length} vs ${theirs.length} documents)`);
  }
}

export function measureStartup(runs = 11): StartupResult | string {
  const built = helmBinary();
  if ('skip' in built) return built.skip;
  const helm = built.helm;
  const helmVersion = run(helm, ['version', '--short']).out.trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  try {
    setUpApp(dir);
    const nodes = nodeBinaries();
    for (const n of STARTUP_NS) assertSameJobs(helm, nodes[0], dir, n);
    const versions = nodes.map(node => run(node, ['--version']).out.trim());
    // Each case: a name and a function that runs one process and returns its times.
    const cases: Array<{ key: string; once: () => Ran }> = [];
    const cacheRoot = path.join(dir, 'compile-cache');
    fs.mkdirSync(path.join(cacheRoot, 'tmp'), { recursive: true });
    const timed = (command: string, args: string[], env: NodeJS.ProcessEnv): Ran => {
      const r = run(command, args, { cwd: dir, env });
      if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status}: ${r.err}${r.out}`);
      return r;
    };
    const baseEnv = (node: string, n: number): NodeJS.ProcessEnv => {
      const env: NodeJS.ProcessEnv = { ...process.env, JOBS: String(n), PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`, CDK8S_CHECK_UPGRADE: 'false' };
      // The compile cache the library enables goes under os.tmpdir(): this run's own folder, so the
      // warm-up writes it and the recorded runs find it, as a user's second run does.
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      env.TMPDIR = path.join(cacheRoot, 'tmp');
      return env;
    };
    const variants = (v: string): VariantKey[] => {
      const [major, minor] = v.slice(1).split('.').map(Number);
      const atLeast = (m: number, n: number) => major > m || (major === m && minor >= n);
      return [...(atLeast(22, 1) ? ['cacheOff', 'cacheEnv'] as const : []), ...(atLeast(22, 18) ? ['typeStripped', 'typeStrippedCacheEnv', 'snapshot'] as const : [])];
    };
    const snapshots = new Map<string, { blob: string; build: Figure }>();
    nodes.forEach((node, i) => {
      const v = versions[i];
      if (variants(v).includes('snapshot')) {
        log(`${v}: building the start-up snapshot (bench/snapshot-entry.js)`);
        snapshots.set(v, buildSnapshot(node, v, dir, n => baseEnv(node, n)));
        cases.push({ key: `${v}/empty-ts`, once: () => timed(node, ['empty.ts'], baseEnv(node, 1)) });
      }
      for (const n of STARTUP_NS) {
        for (const stage of STAGES) cases.push({ key: `${v}/${n}/${stage}`, once: () => timed(node, [`${stage}.js`], baseEnv(node, n)) });
        cases.push({ key: `${v}/${n}/cdk8s-synth`, once: () => timed(path.join(ROOT, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade'], baseEnv(node, n)) });
        for (const variant of variants(v)) {
          const env = variant === 'cacheOff' ? { ...baseEnv(node, n), NODE_DISABLE_COMPILE_CACHE: '1' }
            : variant === 'cacheEnv' || variant === 'typeStrippedCacheEnv' ? { ...baseEnv(node, n), NODE_COMPILE_CACHE: path.join(cacheRoot, 'env') } : baseEnv(node, n);
          const args = variant === 'cacheOff' || variant === 'cacheEnv' ? ['app.js']
            : variant === 'snapshot' ? ['--snapshot-blob', snapshots.get(v)!.blob, 'main.ts'] : ['main.ts'];
          cases.push({ key: `${v}/${n}/${variant}`, once: () => timed(node, args, env) });
        }
      }
    });
    for (const n of STARTUP_NS) cases.push({ key: `helm/${n}`, once: () => timed(helm, ['template', 'bench', CHART, '-f', `values-${n}.yaml`], process.env) });
    log(`start-up against Helm: ${cases.length} cases, ${runs} rounds`);
    for (const c of cases) c.once();
    const times = new Map<string, Ran[]>(cases.map(c => [c.key, []]));
    for (let round = 0; round < runs; round++) {
      // The order rotates every round, so drift on a shared machine hits every case alike.
      for (let k = 0; k < cases.length; k++) {
        const c = cases[(k + round * 7) % cases.length];
        times.get(c.key)!.push(c.once());
      }
    }
    const fig = (key: string): Figure => ({ ms: median(times.get(key)!.map(r => r.ms)), cpuMs: median(times.get(key)!.map(r => r.cpuMs)) });
    const perN = (f: (n: number) => Figure) => Object.fromEntries(STARTUP_NS.map(n => [n, f(n)])) as Record<number, Figure>;
    return {
      runs,
      helmVersion,
      helm: perN(n => fig(`helm/${n}`)),
      nodes: versions.map(v => ({
        version: v,
        stages: Object.fromEntries(STARTUP_NS.map(n => [n, Object.fromEntries(STAGES.map(s => [s, fig(`${v}/${n}/${s}`)]))])) as Record<number, Record<Stage, Figure>>,
        cdk8sSynth: perN(n => fig(`${v}/${n}/cdk8s-synth`)),
        variants: Object.fromEntries(variants(v).map(k => [k, perN(n => fig(`${v}/${n}/${k}`))])),
        ...(snapshots.has(v) ? { emptyTypeScript: fig(`${v}/empty-ts`), snapshotBuild: snapshots.get(v)!.build } : {}),
      })),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The guide's way (docs/own-repo.md): `node main.ts` where Node strips types (22.18 and later),
 * else the app compiled to JavaScript (`node app.js`), as the guide says for an older Node.
 */
export const guideWay = (node: NodeFigures, n: number): Figure => node.variants.typeStripped?.[n] ?? node.stages[n].app;

const sub = (a: Figure, b: Figure): Figure => ({ ms: a.ms - b.ms, cpuMs: a.cpuMs - b.cpuMs });

/** What `node main.ts` adds to `node app.js`: Node's TypeScript stripper, and the rest (the ES-module import). */
function typeScriptParts(node: NodeFigures, n: number): { stripper: Figure; esm: Figure } | undefined {
  const stripped = node.variants.typeStripped?.[n];
  if (!stripped || !node.emptyTypeScript) return undefined;
  const stripper = sub(node.emptyTypeScript, node.stages[n].node);
  return { stripper, esm: sub(sub(stripped, node.stages[n].app), stripper) };
}

/** What the figures say about the verdict: the part below the library, and the library's own. */
function reading(r: StartupResult): string[] {
  const out: string[] = [];
  for (const node of r.nodes) {
    const n = 10;
    const s = node.stages[n];
    const helm = r.helm[n];
    const guide = guideWay(node, n);
    const own = sub(s.app, s.plus);
    let line = `- ${node.version}, ten jobs, the guide's way (${node.variants.typeStripped ? '`node main.ts`' : '`node app.js`'}): ${both(guide)}, ${times(guide, helm)} one Helm process. `
      + `Node, cdk8s and cdk8s-plus-28 alone (the \`plus\` stage, no code of the library) take ${both(s.plus)}, ${times(s.plus, helm)}; `
      + `the library's part of \`node app.js\` (its modules, the jobs, the rules, synth with cdk8s's YAML) is the remaining ${both(own)}.`;
    const ts = typeScriptParts(node, n);
    if (ts) line += ` \`node main.ts\` adds Node's TypeScript stripper, ${both(ts.stripper)}, and ${both(ts.esm)} more: its ES-module import reads every export of the library, which loads every public module, where \`require\` loads the four the app names.`;
    const off = node.variants.cacheOff?.[n];
    if (off) line += ` Without the compile cache the library enables (a first run, as on a fresh CI runner), \`node app.js\` takes ${both(off)}.`;
    const warm = node.variants.typeStrippedCacheEnv?.[n];
    if (warm) line += ` With NODE_COMPILE_CACHE set for the whole process, \`node main.ts\` takes ${both(warm)} (${times(warm, helm)}).`;
    const snap = node.variants.snapshot?.[n];
    if (snap && node.snapshotBuild) line += ` On a start-up snapshot (the prototype) it takes ${both(snap)}, ${times(snap, helm)}, once the snapshot is built, which takes ${both(node.snapshotBuild)} per install of the packages.`;
    out.push(line);
  }
  return out.length ? ['Reading the row:', '', ...out, ''] : [];
}

const both = (f: Figure) => `${fmtMs(f.ms)} (CPU ${fmtMs(f.cpuMs)})`;
const times = (a: Figure, b: Figure) => `${(a.ms / b.ms).toFixed(2)}× (CPU ${(a.cpuMs / b.cpuMs).toFixed(2)}×)`;

/** Whether a Node's ten jobs carry the verdict: Node 24, as issue 42 sets it. */
export const judged = (version: string, n: number) => n === 10 && /^v24\./.test(version);

/** The variants the section shows in columns of their own (the guide's way has its own). */
const VARIANT_COLUMNS = (Object.keys(VARIANTS) as VariantKey[]).filter(k => k !== 'typeStripped');

/** The section of docs/benchmarks.md (and what the script prints). */
export function startupSection(r: StartupResult | string): string[] {
  if (typeof r === 'string') return ['## Start-up against Helm (row 9)', '', `Skipped: ${r}.`, ''];
  const lines = [
    '## Start-up against Helm (row 9)',
    '',
    `Whole processes timed from the bench (wall time, and in parentheses the CPU time of the process and its children), medians of ${r.runs} rounds after a warm-up, every case in every round, the order rotating (bench/startup.ts). The app is the own-repo guide's main.ts with N jobs named resnet-0, resnet-1, ..., run the guide's way (\`node main.ts\`, Node 22.18 and later; the target is judged on it) and as JavaScript (\`node app.js\`, which the stages below cut up), all writing the same bytes (asserted). Helm, built from \`${HELM_MODULE}@${HELM_VERSION}\` (\`helm version --short\` prints ${r.helmVersion}: \`go install\` does not stamp the release's patch version), renders the same PyTorchJobs from bench/helm-chart/ (asserted: the same documents).`,
    '',
    `| Node | N | the guide's way (\`node main.ts\`; \`node app.js\` before 22.18) | one \`helm template\` | guide's way / Helm | target | \`node app.js\` | \`cdk8s synth\` | ${VARIANT_COLUMNS.map(k => VARIANTS[k]).join(' | ')} |`,
    `|:---|---:|---:|---:|---:|:---:|---:|---:|${VARIANT_COLUMNS.map(() => '---:').join('|')}|`,
  ];
  for (const node of r.nodes) {
    for (const n of STARTUP_NS) {
      const guide = guideWay(node, n);
      const ratio = guide.ms / r.helm[n].ms;
      const target = judged(node.version, n) ? `≤ ${STARTUP_TARGET}×: ${ratio <= STARTUP_TARGET ? 'PASS' : '**MISS**'}` : '';
      const variantCells = VARIANT_COLUMNS.map(k => (node.variants[k] ? both(node.variants[k]![n]) : '—'));
      lines.push(`| ${node.version} | ${n} | ${both(guide)} | ${both(r.helm[n])} | ${times(guide, r.helm[n])} | ${target} | ${both(node.stages[n].app)} | ${both(node.cdk8sSynth[n])} | ${variantCells.join(' | ')} |`);
    }
  }
  lines.push('', "Where the app's time goes: each stage is a process that does what the one before it does and a little more; a part is the difference of the two medians (wall; CPU in parentheses), so small parts can come out negative from the noise.", '');
  const heads = r.nodes.flatMap(node => STARTUP_NS.map(n => `${node.version}, N=${n}`));
  lines.push(`| part | ${heads.join(' | ')} |`, `|:---|${heads.map(() => '---:').join('|')}|`);
  STAGES.forEach((stage, i) => {
    const cells = r.nodes.flatMap(node => STARTUP_NS.map(n => {
      const s = node.stages[n];
      const prev: Figure = i === 0 ? { ms: 0, cpuMs: 0 } : s[STAGES[i - 1]];
      return both({ ms: s[stage].ms - prev.ms, cpuMs: s[stage].cpuMs - prev.cpuMs });
    }));
    lines.push(`| ${STAGE_NAMES[stage]} | ${cells.join(' | ')} |`);
  });
  lines.push(`| **\`node app.js\`** | ${r.nodes.flatMap(node => STARTUP_NS.map(n => `**${both(node.stages[n].app)}**`)).join(' | ')} |`);
  const tsCells = (f: (parts: { stripper: Figure; esm: Figure }) => Figure) => r.nodes.flatMap(node => STARTUP_NS.map(n => {
    const parts = typeScriptParts(node, n);
    return parts ? both(f(parts)) : '—';
  }));
  lines.push(`| \`node main.ts\`: Node's TypeScript stripper (an empty \`.ts\` file against an empty script) | ${tsCells(p => p.stripper).join(' | ')} |`);
  lines.push(`| \`node main.ts\`: the rest (the ES-module import reads every export, so every public module of the library loads) | ${tsCells(p => p.esm).join(' | ')} |`);
  lines.push(`| **the guide's way** | ${r.nodes.flatMap(node => STARTUP_NS.map(n => `**${both(guideWay(node, n))}**`)).join(' | ')} |`, '');
  lines.push(...reading(r));
  return lines;
}

/**
 * Writes the section into docs/benchmarks.md when this script runs alone: in place of the one there
 * (from a whole `npm run bench` or an earlier run of this script), else before "How it was
 * measured", with a line saying it comes from a run of its own.
 */
function writeSection(section: string[]): void {
  const doc = path.join(ROOT, 'docs', 'benchmarks.md');
  const text = fs.readFileSync(doc, 'utf8');
  const load = os.loadavg()[0].toFixed(1);
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const [head, ...rest] = section;
  const busy = os.loadavg()[0] > os.cpus().length ? ' The load average was above the core count: the wall times count the waits for a core, so read the CPU figures.' : '';
  const block = [head, '', `Measured by \`bench/startup.ts\` alone (${when} UTC, load average ${load} at the end, ${os.cpus().length} cores), not in the run the table above comes from.${busy}`, ...rest].join('\n');
  const start = text.indexOf(head);
  const next = start < 0 ? -1 : text.indexOf('\n## ', start + head.length);
  const updated = start >= 0 ? `${text.slice(0, start)}${block}\n${next < 0 ? '' : text.slice(next + 1)}`
    : text.replace('## How it was measured', `${block}\n## How it was measured`);
  fs.writeFileSync(doc, updated);
  log('wrote the start-up section of docs/benchmarks.md');
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const runs = Number(argv.find(a => /^\d+$/.test(a)) ?? 11);
  const section = startupSection(measureStartup(runs));
  process.stdout.write(`${section.join('\n')}\n`);
  if (!argv.includes('--no-write')) writeSection(section);
}
