/**
 * `cdk8s-kubeflow lint` on 1,000 job documents (issues #16, #25): the time to read, parse and check
 * one multi-document YAML file, against plain js-yaml parsing of the same text in the same process
 * as the baseline (what any YAML linter pays at least; target: at most twice that). The documents
 * are the examples' training jobs, renamed and repeated to 1,000, so every kind and rule family is
 * exercised. The scaling run lints 10, 100, 1,000 and 10,000 of them: the time per document must
 * not grow with the count (the rules across documents index, they do not compare every pair).
 *
 *   npx ts-node --project tsconfig.dev.json bench/lint.ts
 *
 * Not a test: it prints the figures; `measureLint()` gives them to bench/run.ts.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, YamlOutputType } from 'cdk8s';
import * as jsYaml from 'js-yaml';
import { fmtInt, fmtMs, log, median } from './util';
import { buildExamples } from '../examples/main';
import { readDocuments } from '../src/cli/base/input';
import { parseYamlStream } from '../src/cli/base/yaml-parser';
import { lint } from '../src/cli/lint/lint';
import { formatLint } from '../src/cli/lint/lint-output';
import { trainingKindOf } from '../src/rules/training-operator/training-kinds';

export interface LintResult {
  /** Timed runs of each. */
  readonly runs: number;
  readonly documents: number;
  readonly findings: number;
  /** Median milliseconds of one `lint` run over the file (read, parse, check, format). */
  readonly lintMs: number;
  /** Median milliseconds of parsing alone with the command's parser (src/cli/base/yaml-parser.ts). */
  readonly parseMs: number;
  /** Median milliseconds of js-yaml `loadAll` of the same text. */
  readonly baselineMs: number;
  readonly ratio: number;
}

const DOCUMENTS = 1000;
const RUNS = 11;
/** lint at most this many times js-yaml's `loadAll` of the same text. */
export const LINT_TARGET = 2;
export const SCALING_COUNTS = [10, 100, 1000, 10000];

export interface ScalingPoint {
  readonly documents: number;
  readonly runs: number;
  /** Median milliseconds of one lint run. */
  readonly ms: number;
  readonly perDocumentMs: number;
}

/** The examples' training jobs, renamed and repeated to `count` documents, as one YAML text. */
export function jobDocuments(count: number): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lint-'));
  try {
    buildExamples(new App({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART })).synth();
    const jobs = fs.readdirSync(outdir).sort()
      .flatMap(f => jsYaml.loadAll(fs.readFileSync(path.join(outdir, f), 'utf8')) as any[])
      .filter(d => trainingKindOf(d) !== undefined);
    const docs = Array.from({ length: count }, (_, i) => {
      const job = structuredClone(jobs[i % jobs.length]);
      job.metadata.name = `${job.metadata.name.slice(0, 40)}-${i}`;
      return job;
    });
    return docs.map(d => jsYaml.dump(d, { noRefs: true, lineWidth: -1 })).join('---\n');
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Times lint and the js-yaml baseline, alternating, after one warm-up run of each. */
export function measureLint(count = DOCUMENTS, runs = RUNS): LintResult {
  const text = jobDocuments(count);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lint-input-'));
  const file = path.join(dir, 'jobs.yaml');
  fs.writeFileSync(file, text);
  try {
    let findings = 0;
    let documents = 0;
    const runLint = () => {
      const report = lint(readDocuments([file]));
      formatLint(report, 'text');
      findings = report.findings.length;
      documents = report.documents;
    };
    const runParse = () => parseYamlStream(fs.readFileSync(file, 'utf8'));
    const runBaseline = () => jsYaml.loadAll(fs.readFileSync(file, 'utf8'));
    runLint();
    runParse();
    runBaseline();
    const lintTimes: number[] = [];
    const parseTimes: number[] = [];
    const baselineTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      lintTimes.push(time(runLint));
      parseTimes.push(time(runParse));
      baselineTimes.push(time(runBaseline));
    }
    const lintMs = median(lintTimes);
    const baselineMs = median(baselineTimes);
    return { runs, documents, findings, lintMs, parseMs: median(parseTimes), baselineMs, ratio: lintMs / baselineMs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** lint of `counts` documents each (runs fewer times the more there are), median time per document. */
export function measureLintScaling(counts = SCALING_COUNTS): ScalingPoint[] {
  const biggest = jobDocuments(Math.max(...counts)).split('---\n');
  return counts.map(count => {
    const text = biggest.slice(0, count).join('---\n');
    // Five at 10,000, not fewer: the row compares this median with the one at 100, and with three
    // runs one slow run (a major GC) was enough to move it past the target.
    const runs = count >= 10000 ? 5 : count >= 1000 ? 7 : 21;
    const runLint = () => lint(readDocuments(['-'], () => text));
    runLint();
    const times = Array.from({ length: runs }, () => time(runLint));
    const ms = median(times);
    return { documents: count, runs, ms, perDocumentMs: ms / count };
  });
}

if (require.main === module) {
  log(`lint of ${DOCUMENTS} job documents, ${RUNS} runs each`);
  const r = measureLint();
  process.stdout.write(`lint of ${r.documents} job documents: ${fmtMs(r.lintMs)} (median of ${RUNS}), of which parsing `
    + `${fmtMs(r.parseMs)}; js-yaml loadAll of the same text: ${fmtMs(r.baselineMs)}; ratio ${r.ratio.toFixed(2)}x (target <= ${LINT_TARGET}x); findings ${r.findings}\n`);
  log(`lint scaling, ${SCALING_COUNTS.join(', ')} documents`);
  for (const p of measureLintScaling()) {
    process.stdout.write(`lint of ${fmtInt(p.documents)} documents: ${fmtMs(p.ms)} (median of ${p.runs}), ${(p.perDocumentMs * 1000).toFixed(0)} µs per document\n`);
  }
}
