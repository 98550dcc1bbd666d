/**
 * Load-time benchmark: what requiring this library costs on top of cdk8s-plus-28, which every user
 * loads anyway. Each sample is a fresh `node -e` child process (a warm file cache but a cold module
 * cache), timing only the `require` inside the child so that node's own start-up does not dilute
 * the ratio. The two cases alternate, so drift on a busy machine hits both alike.
 *
 * Needs the compiled package: run `npx projen compile` first (jsii, then the boundary table it writes into lib/).
 * Usage: npx ts-node --project tsconfig.dev.json bench/load.ts [runs, default 21]
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');
export const LIBRARY_ENTRY = path.join(ROOT, 'lib', 'src', 'index.js');

/** The load-time target: the library may add at most 10% to loading cdk8s-plus-28 alone (issue #25). */
export const TARGET_RATIO = 1.1;

export interface LoadSample {
  /** Milliseconds spent in `require` inside the child. */
  readonly requireMs: number;
  /** Milliseconds of the whole child process, seen from the parent. */
  readonly processMs: number;
}

export interface LoadResult {
  readonly runs: number;
  readonly baseline: LoadSample;
  readonly library: LoadSample;
  /** library.requireMs / baseline.requireMs, on the medians. */
  readonly ratio: number;
}

function sample(request: string): LoadSample {
  const code = [
    'const t = process.hrtime.bigint();',
    `require(${JSON.stringify(request)});`,
    'process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));',
  ].join(' ');
  const start = process.hrtime.bigint();
  const out = execFileSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8' });
  return { requireMs: Number(out), processMs: Number(process.hrtime.bigint() - start) / 1e6 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Medians of `runs` alternating samples of each case, after one unmeasured warm-up of each. */
export function measureLoad(runs = 21): LoadResult {
  if (runs < 15) throw new Error(`at least 15 runs are needed for a stable median, got ${runs}`);
  if (!fs.existsSync(LIBRARY_ENTRY)) {
    throw new Error(`${path.relative(ROOT, LIBRARY_ENTRY)} is missing: compile first with \`npx projen compile\``);
  }
  sample('cdk8s-plus-28');
  sample(LIBRARY_ENTRY);
  const baseline: LoadSample[] = [];
  const library: LoadSample[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(sample('cdk8s-plus-28'));
    library.push(sample(LIBRARY_ENTRY));
  }
  const summarize = (xs: LoadSample[]): LoadSample => ({
    requireMs: median(xs.map(x => x.requireMs)),
    processMs: median(xs.map(x => x.processMs)),
  });
  const b = summarize(baseline);
  const l = summarize(library);
  return { runs, baseline: b, library: l, ratio: l.requireMs / b.requireMs };
}

if (require.main === module) {
  const runs = process.argv[2] ? Number(process.argv[2]) : 21;
  const r = measureLoad(runs);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`load time, median of ${r.runs} fresh node processes (node ${process.version})`);
  console.log(`  require('cdk8s-plus-28')       ${ms(r.baseline.requireMs)}  (whole process ${ms(r.baseline.processMs)})`);
  console.log(`  require('./lib/src/index.js')  ${ms(r.library.requireMs)}  (whole process ${ms(r.library.processMs)})`);
  console.log(`  ratio ${r.ratio.toFixed(3)} (target <= ${TARGET_RATIO}): ${r.ratio <= TARGET_RATIO ? 'within target' : 'OVER TARGET'}`);
}
