/**
 * Where the synthesis time of rows 1 and 6 goes at N = 1,000: the L2 and its L1 baseline, phase by
 * phase, so that the gap between them (the aim is 1.2×) can be read as what it is made of rather
 * than guessed from a profile. Runs in its own child process (child.ts, mode `phases`), because it
 * wraps functions of the loaded modules for good:
 *
 * - construct: building the app and its N jobs (`buildApp`);
 * - render: the generated L1 classes' `toJson()` (the L2's renderings are those objects too);
 * - rules: the library's rules over the rendered documents (Kubernetes, CRD schema with CEL,
 *   operators, across documents), the functions the engine calls;
 * - ordering: cdk8s's dependency graphs (`DependencyGraph`, built twice per synth, over every
 *   construct of the app);
 * - yaml: `Yaml.stringify`;
 * - other: the rest of `app.synth()`: cdk8s's validation and dependency passes over every
 *   construct, the engine's bookkeeping, writing the files.
 *
 * Each phase is the time spent inside its functions (the outermost timed call only), in wall-clock
 * milliseconds. The variants of a group run in rounds, one run each, so that a difference between
 * an L2 and its L1 can be taken within a round (`pairedDifference`), where both ran a moment apart:
 * the machine's speed drifts by more than the differences sought over a run of the benchmark (in
 * medians over one run, the YAML of identical documents came out 15% apart between two variants).
 * The wrappers cost a little, alike for every variant.
 */
import { createRequire } from 'module';
import * as path from 'path';
import { median } from './util';
import { Libs, Variant, buildApp } from './workloads';

export const PHASES = ['construct', 'render', 'rules', 'ordering', 'yaml', 'other'] as const;
export type Phase = typeof PHASES[number];

/** One instrumented synthesis: ms per phase, and in all. */
export type PhaseRun = Record<Phase | 'total', number>;

export interface PhaseResult {
  readonly n: number;
  /** Rounds: every variant of a group ran once in each. */
  readonly runs: number;
  /** perRound[variant][round]. */
  readonly perRound: Record<string, PhaseRun[]>;
}

/** The median over the runs of a variant, per phase. */
export function medianRun(result: PhaseResult, variant: Variant): PhaseRun {
  const runs = result.perRound[variant];
  return Object.fromEntries([...PHASES, 'total'].map(k => [k, median(runs.map(r => r[k as keyof PhaseRun]))])) as PhaseRun;
}

/** `variant` minus `base`, per phase: the median over the rounds of the difference within each round. */
export function pairedDifference(result: PhaseResult, variant: Variant, base: Variant): PhaseRun {
  const a = result.perRound[variant];
  const b = result.perRound[base];
  return Object.fromEntries([...PHASES, 'total'].map(k => [k, median(a.map((r, i) => r[k as keyof PhaseRun] - b[i][k as keyof PhaseRun]))])) as PhaseRun;
}

type Timed = Exclude<Phase, 'construct' | 'other'>;

/** Wraps the functions each phase runs; returns the time spent in each since the last `take()`. */
function instrument(libs: Libs, root: string): { take(): Record<Timed, number> } {
  let spent: Record<Timed, number> = { render: 0, rules: 0, ordering: 0, yaml: 0 };
  let depth = 0;
  const timed = <F extends (...args: any[]) => any>(phase: Timed, fn: F) => function (this: unknown, ...args: unknown[]) {
    if (depth > 0) return fn.apply(this, args);
    depth++;
    const t0 = process.hrtime.bigint();
    try {
      return fn.apply(this, args);
    } finally {
      spent[phase] += Number(process.hrtime.bigint() - t0) / 1e6;
      depth--;
    }
  };
  const wrap = (owner: any, name: string, phase: Timed) => {
    if (typeof owner[name] !== 'function') throw new Error(`phases: ${name} is not a function to time`);
    owner[name] = timed(phase, owner[name]);
  };
  // The engine requires each rule layer on its first pass and reads the function then: wrapped
  // before any synth, the wrapper is what it reads.
  const rules = path.join(root, 'lib', 'src', 'rules');
  /* eslint-disable @typescript-eslint/no-require-imports */
  wrap(require(path.join(rules, 'schema', 'index.js')), 'schemaViolations', 'rules');
  wrap(require(path.join(rules, 'rule-sets.js')), 'documentFindings', 'rules');
  wrap(require(path.join(rules, 'rule-sets.js')), 'appFindings', 'rules');
  /* eslint-enable @typescript-eslint/no-require-imports */
  for (const l1 of [libs.kf.kubeflow.PyTorchJob, libs.kf.trainer.TrainJob, libs.kf.trainer.ClusterTrainingRuntime]) wrap(l1.prototype, 'toJson', 'render');
  wrap(libs.cdk8s.Yaml, 'stringify', 'yaml');
  // cdk8s's app module reads `DependencyGraph` from this module object at each use.
  const dependency = createRequire(path.join(root, 'package.json'))('cdk8s/lib/dependency');
  const Graph = dependency.DependencyGraph;
  dependency.DependencyGraph = timed('ordering', function (node: unknown) { return new Graph(node); });
  return {
    take() {
      const taken = spent;
      spent = { render: 0, rules: 0, ordering: 0, yaml: 0 };
      return taken;
    },
  };
}

/**
 * `reps` instrumented syntheses of N jobs of every variant of each group, after `warmup` unrecorded
 * rounds; within a group the variants alternate and their order rotates every round.
 */
export function measurePhases(libs: Libs, root: string, groups: Variant[][], n: number, reps: number, warmup: number, outdir: string): PhaseResult {
  const timers = instrument(libs, root);
  const runs: Record<string, PhaseRun[]> = {};
  const once = (v: Variant): PhaseRun => {
    timers.take();
    const t0 = process.hrtime.bigint();
    const app = buildApp(libs, v, n, outdir);
    const t1 = process.hrtime.bigint();
    app.synth();
    const t2 = process.hrtime.bigint();
    const spent = timers.take();
    const construct = Number(t1 - t0) / 1e6;
    const total = Number(t2 - t0) / 1e6;
    const inPhases = spent.render + spent.rules + spent.ordering + spent.yaml;
    return { construct, ...spent, other: total - construct - inPhases, total };
  };
  for (const group of groups) {
    for (const v of group) runs[v] = [];
    for (let r = 0; r < warmup; r++) for (const v of group) once(v);
    for (let r = 0; r < reps; r++) {
      for (let i = 0; i < group.length; i++) {
        const v = group[(i + r) % group.length];
        runs[v].push(once(v));
      }
    }
  }
  return { n, runs: reps, perRound: runs };
}
