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
 * first synth; the whole app), and each part is the difference of two medians.
 *
 * Helm is built from its Go module (`go install helm.sh/helm/v4/cmd/helm@v4.3.2`) into
 * ${CDK8S_KUBEFLOW_CACHE:-$HOME/.cache/cdk8s-kubeflow}/helm/, once; without Go the row is skipped
 * and says why. Node 24 comes from scripts/node-binary.sh; the machine's own node runs beside it.
 *
 * Needs the compiled package (`npx projen compile`).
 *   npx ts-node --project tsconfig.dev.json bench/startup.ts [runs, default 11] [--no-write]
 */
import { spawnSync } from 'child_process';
import { isDeepStrictEqual } from 'util';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
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
  cdk8s: 'cdk8s (`require`)',
  plus: 'cdk8s-plus-28 (`require`)',
  library: "the library's modules the app's exports load",
  construct: 'constructing the jobs',
  rules: 'the modules the rules load at the first synth',
  app: 'synth: the rules, the schema, YAML and the files',
};

export interface NodeFigures {
  readonly version: string;
  /** Median ms of each stage's whole process, per N (the `app` stage is the guide's app). */
  readonly stages: Record<number, Record<Stage, number>>;
  /** `cdk8s synth` running the app, per N. */
  readonly cdk8sSynth: Record<number, number>;
  /** The app run with NODE_COMPILE_CACHE set for the whole process (Node 22.1 and later), per N. */
  readonly compileCacheEnv?: Record<number, number>;
  /** The app as main.ts run by Node's type stripping (Node 22.18 and later), per N. */
  readonly typeStripped?: Record<number, number>;
}

export interface StartupResult {
  readonly runs: number;
  readonly helmVersion: string;
  /** Median ms of one `helm template` process, per N. */
  readonly helm: Record<number, number>;
  readonly nodes: NodeFigures[];
}

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { status: number | null; out: string; err: string; ms: number } {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) return { status: null, out: '', err: String(r.error), ms };
  return { status: r.status, out: r.stdout, err: r.stderr, ms };
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
const REQUIRES = [
  "const fs = require('fs');",
  "const { App, Chart, Size } = require('cdk8s');",
  "const kplus = require('cdk8s-plus-28');",
  "const { Accelerator, CleanPodPolicy, DistributedPyTorch, StableFileNamesApp } = require('cdk8s-kubeflow');",
];
/** What engine.ts loads at the first pass (its `rules`), required by path. */
const RULE_MODULES = ['kubernetes', 'across-documents', 'schema', 'operators', 'catalogue', 'training-operator/known-values']
  .map(m => `require(${JSON.stringify(path.join(ROOT, 'lib', 'src', 'rules', m))});`);

function stageScript(stage: Stage): string {
  const upTo = STAGES.indexOf(stage);
  if (upTo === 0) return '';
  if (upTo <= 3) return `${REQUIRES.slice(0, upTo + 1).join('\n')}\n`;
  const synth = stage === 'app' ? 'fs.rmSync(app.outdir, { recursive: true, force: true });\n  app.synth();' : stage === 'rules' ? RULE_MODULES.join('\n  ') : '';
  return `${REQUIRES.join('\n')}\n${APP_BODY.replace('STAGE_SYNTH', synth)}`;
}

/** main.ts as the guide writes it (imports, types), for Node's type stripping. */
function typeScriptApp(): string {
  return [
    "import * as fs from 'fs';",
    "import { Chart, Size } from 'cdk8s';",
    "import * as kplus from 'cdk8s-plus-28';",
    "import { Accelerator, CleanPodPolicy, DistributedPyTorch, StableFileNamesApp } from 'cdk8s-kubeflow';",
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
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), 'language: typescript\napp: node app.js\n');
  for (const n of STARTUP_NS) fs.writeFileSync(path.join(dir, `values-${n}.yaml`), `names:\n${jobNames(n).map(j => `  - ${j}\n`).join('')}`);
}

const documents = (text: string) => parseAllDocuments(text).map(d => d.toJSON()).filter(d => d !== null);

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
    const major = (v: string) => Number(/^v(\d+)/.exec(v)?.[1]);
    const minor = (v: string) => Number(/^v\d+\.(\d+)/.exec(v)?.[1]);
    // Each case: a name and a function that runs one process and returns its wall time.
    const cases: Array<{ key: string; once: () => number }> = [];
    const cacheRoot = path.join(dir, 'compile-cache');
    fs.mkdirSync(path.join(cacheRoot, 'tmp'), { recursive: true });
    const timed = (command: string, args: string[], env: NodeJS.ProcessEnv): number => {
      const r = run(command, args, { cwd: dir, env });
      if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status}: ${r.err}${r.out}`);
      return r.ms;
    };
    const baseEnv = (node: string, n: number): NodeJS.ProcessEnv => {
      const env: NodeJS.ProcessEnv = { ...process.env, JOBS: String(n), PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`, CDK8S_CHECK_UPGRADE: 'false' };
      // A compile cache the library enables goes under os.tmpdir(): this run's own folder, so the
      // warm-up writes it and the recorded runs find it, as a user's second run does.
      delete env.NODE_COMPILE_CACHE;
      env.TMPDIR = path.join(cacheRoot, 'tmp');
      return env;
    };
    nodes.forEach((node, i) => {
      const v = versions[i];
      for (const n of STARTUP_NS) {
        for (const stage of STAGES) cases.push({ key: `${v}/${n}/${stage}`, once: () => timed(node, [`${stage}.js`], baseEnv(node, n)) });
        cases.push({ key: `${v}/${n}/cdk8s-synth`, once: () => timed(path.join(ROOT, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade'], baseEnv(node, n)) });
        if (major(v) > 22 || (major(v) === 22 && minor(v) >= 1)) {
          cases.push({ key: `${v}/${n}/compile-cache-env`, once: () => timed(node, ['app.js'], { ...baseEnv(node, n), NODE_COMPILE_CACHE: path.join(cacheRoot, `env-${v}`) }) });
        }
        if (major(v) > 22 || (major(v) === 22 && minor(v) >= 18)) {
          cases.push({ key: `${v}/${n}/type-stripped`, once: () => timed(node, ['main.ts'], baseEnv(node, n)) });
        }
      }
    });
    for (const n of STARTUP_NS) cases.push({ key: `helm/${n}`, once: () => timed(helm, ['template', 'bench', CHART, '-f', `values-${n}.yaml`], process.env) });
    log(`start-up against Helm: ${cases.length} cases, ${runs} rounds`);
    for (const c of cases) c.once();
    const times = new Map<string, number[]>(cases.map(c => [c.key, []]));
    for (let round = 0; round < runs; round++) {
      // The order rotates every round, so drift on a shared machine hits every case alike.
      for (let k = 0; k < cases.length; k++) {
        const c = cases[(k + round * 7) % cases.length];
        times.get(c.key)!.push(c.once());
      }
    }
    const med = (key: string) => median(times.get(key) ?? []);
    const perN = (f: (n: number) => number) => Object.fromEntries(STARTUP_NS.map(n => [n, f(n)])) as Record<number, number>;
    return {
      runs,
      helmVersion,
      helm: perN(n => med(`helm/${n}`)),
      nodes: versions.map(v => ({
        version: v,
        stages: Object.fromEntries(STARTUP_NS.map(n => [n, Object.fromEntries(STAGES.map(s => [s, med(`${v}/${n}/${s}`)]))])) as Record<number, Record<Stage, number>>,
        cdk8sSynth: perN(n => med(`${v}/${n}/cdk8s-synth`)),
        compileCacheEnv: times.has(`${v}/1/compile-cache-env`) ? perN(n => med(`${v}/${n}/compile-cache-env`)) : undefined,
        typeStripped: times.has(`${v}/1/type-stripped`) ? perN(n => med(`${v}/${n}/type-stripped`)) : undefined,
      })),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The section of docs/benchmarks.md (and the printed table). */
export function startupSection(r: StartupResult | string): string[] {
  if (typeof r === 'string') return ['## Start-up against Helm (row 9)', '', `Skipped: ${r}.`, ''];
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const lines = [
    '## Start-up against Helm (row 9)',
    '',
    `Whole processes, medians of ${r.runs} alternating rounds after a warm-up (bench/startup.ts). Helm: ${r.helmVersion}, built from \`${HELM_MODULE}@${HELM_VERSION}\`, rendering bench/helm-chart/ (the same PyTorchJobs, asserted). The app is the own-repo guide's main.ts with N jobs, compiled to JavaScript.`,
    '',
    `| Node | N | the app (\`node app.js\`) | \`cdk8s synth\` | with NODE_COMPILE_CACHE | \`node main.ts\` (type stripping) | one \`helm template\` | app / Helm | target |`,
    '|:---|---:|---:|---:|---:|---:|---:|---:|:---:|',
  ];
  for (const node of r.nodes) {
    for (const n of STARTUP_NS) {
      const app = node.stages[n].app;
      const target = n === 10 && /^v24\./.test(node.version) ? (app / r.helm[n] <= STARTUP_TARGET ? `≤ ${STARTUP_TARGET}×: PASS` : `≤ ${STARTUP_TARGET}×: **MISS**`) : '';
      lines.push(`| ${node.version} | ${n} | ${fmtMs(app)} | ${fmtMs(node.cdk8sSynth[n])} | ${node.compileCacheEnv ? fmtMs(node.compileCacheEnv[n]) : '—'} | ${node.typeStripped ? fmtMs(node.typeStripped[n]) : '—'} | ${fmtMs(r.helm[n])} | ${x(app, r.helm[n])} | ${target} |`);
    }
  }
  lines.push('', 'Where the app\'s time goes (each part: the median of a process that does a little more, less the median of the one before):', '');
  const heads = r.nodes.flatMap(node => STARTUP_NS.map(n => `${node.version}, N=${n}`));
  lines.push(`| part | ${heads.join(' | ')} |`, `|:---|${heads.map(() => '---:').join('|')}|`);
  STAGES.forEach((stage, i) => {
    const cells = r.nodes.flatMap(node => STARTUP_NS.map(n => {
      const s = node.stages[n];
      return fmtMs(i === 0 ? s[stage] : s[stage] - s[STAGES[i - 1]]);
    }));
    lines.push(`| ${STAGE_NAMES[stage]} | ${cells.join(' | ')} |`);
  });
  lines.push(`| **the whole app** | ${r.nodes.flatMap(node => STARTUP_NS.map(n => `**${fmtMs(node.stages[n].app)}**`)).join(' | ')} |`, '');
  return lines;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const runs = Number(argv.find(a => /^\d+$/.test(a)) ?? 11);
  const r = measureStartup(runs);
  const section = startupSection(r);
  process.stdout.write(`${section.join('\n')}\n`);
}
