/**
 * The command's start (issue 25): `cdk8s-kubeflow lint` of one small file in a fresh process,
 * against a fresh `node` that only requires the package (`node -e "require('cdk8s-kubeflow')"`):
 * a CI step runs the command once per push, so its start is most of what it costs there. Target:
 * at most 1.5 times the baseline. Whole processes are timed from the parent (start-up, loading,
 * reading, checking, printing); the cases alternate, after one unrecorded warm-up of each.
 *
 * The launcher keeps V8's code cache of the bundled command (bin/cdk8s-kubeflow): the measured
 * call finds the cache the warm-up wrote, in a folder of this run's own. The first call after an
 * install, with no cache yet, is timed apart, each sample with a new empty folder.
 *
 * Needs the compiled package (`npx projen compile`).
 *   npx ts-node --project tsconfig.dev.json bench/cli-start.ts [runs, default 21]
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT, fmtMs, median } from './util';

export const CLI_START_TARGET = 1.5;

export interface CliStartResult {
  readonly runs: number;
  /** Median milliseconds of `node bin/cdk8s-kubeflow lint FILE`, with the code cache of an earlier call. */
  readonly cliMs: number;
  /** The same with no code cache yet (the first call after an install), which writes it. */
  readonly coldMs: number;
  /** Median milliseconds of `node -e "require(<the package>)"`. */
  readonly requireMs: number;
  /** Median milliseconds of `node -e 0`, for reference: node's own start. */
  readonly nodeMs: number;
  readonly ratio: number;
}

/** One valid PyTorchJob: the file a small repository's CI step lints (test/cli/bundle.test.ts lints it too). */
export const SMALL_FILE = path.join(ROOT, 'test', 'cli', 'fixtures', 'small-pytorchjob.yaml');

function timed(args: string[], status: number, env: NodeJS.ProcessEnv = process.env): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== status) throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stdout}${result.stderr}`);
  return ms;
}

export function measureCliStart(runs = 21): CliStartResult {
  const entry = path.join(ROOT, 'lib', 'src', 'index.js');
  if (!fs.existsSync(entry)) throw new Error('lib/src/index.js is missing: compile first with `npx projen compile`');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cli-'));
  const bin = path.join(ROOT, 'bin', 'cdk8s-kubeflow');
  const withCache = (folder: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, CDK8S_KUBEFLOW_COMPILE_CACHE: folder };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    return env;
  };
  let cold = 0;
  try {
    const cases = {
      cli: () => timed([bin, 'lint', SMALL_FILE], 0, withCache(path.join(dir, 'cache'))),
      cold: () => timed([bin, 'lint', SMALL_FILE], 0, withCache(path.join(dir, `cold-${cold++}`))),
      require: () => timed(['-e', `require(${JSON.stringify(entry)})`], 0),
      node: () => timed(['-e', '0'], 0),
    };
    const times: Record<keyof typeof cases, number[]> = { cli: [], cold: [], require: [], node: [] };
    for (const run of Object.values(cases)) run();
    for (let i = 0; i < runs; i++) {
      for (const [name, run] of Object.entries(cases)) times[name as keyof typeof cases].push(run());
    }
    const cliMs = median(times.cli);
    const requireMs = median(times.require);
    return { runs, cliMs, coldMs: median(times.cold), requireMs, nodeMs: median(times.node), ratio: cliMs / requireMs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const r = measureCliStart(Number(process.argv[2] ?? 21));
  process.stdout.write(`cdk8s-kubeflow lint of one small file: ${fmtMs(r.cliMs)} (first call, no code cache: ${fmtMs(r.coldMs)}); node -e "require(the package)": ${fmtMs(r.requireMs)}; `
    + `node -e 0: ${fmtMs(r.nodeMs)}; ratio ${r.ratio.toFixed(2)}x (target <= ${CLI_START_TARGET}x); medians of ${r.runs} fresh processes each\n`);
}
