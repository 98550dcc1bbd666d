/**
 * The differential corpus for the Go conformance run (conformance/kube, conformance/kubeflow):
 * random configurations from the property arbitraries, valid ones and ones with a Kubernetes-level
 * fault (test/properties/k8s-faults.ts), each built and judged by the library:
 *
 * - emitted (no findings)                      -> accepted/<n>.yaml: the real validators must pass it;
 * - rejected, every finding a Kubernetes rule  -> rendered again with the library's Kubernetes rules
 *   (the rules of source `kubernetes`)            off, written to rejected/<n>.yaml with the findings
 *                                                 in rejected/<n>.findings.json: the real validators
 *                                                 should reject it too;
 * - anything else (a construct error, a finding of another layer) is counted and left out.
 *
 * Usage: ts-node --transpile-only --project tsconfig.dev.json scripts/differential.ts
 * Environment: DIFFERENTIAL_DIR (default test-reports/differential), DIFFERENTIAL_COUNT (default
 * 2000), DIFFERENTIAL_SEED (default fixed, so that two runs write the same corpus).
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart, Testing, Yaml } from 'cdk8s';
import * as fc from 'fast-check';
import {
  DistributedJax, DistributedPaddle, DistributedPyTorch, DistributedXGBoost, MpiAllReduce, ParameterServerTF, TrainingJob,
} from '../src';
import { ruleSource } from '../src/rules/catalogue';
import { collectFindings, KUBERNETES_RULES_CONTEXT, PathFinding } from '../src/synth/engine';
import { applyRole, consistent, decorateJob, FaultEffect, Ids, jobDataFor, jobProps, JobData } from '../test/properties/job-arbitraries';
import { jobK8sEffect, jobK8sFault, JobK8sFault, kindK8sEffect, kindK8sFault, KindK8sFault } from '../test/properties/k8s-faults';
import { buildKind, kindData, KindData } from '../test/properties/notebook-arbitraries';

/** The operator-injected variables of every kind (KUBEFLOW-FACTS.md), kept out of generated env. */
const INJECTED = /^(MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|PET_.*|PYTHONUNBUFFERED|TF_CONFIG|WORKER_PORT|WORKER_ADDRS|COORDINATOR_ADDRESS|COORDINATOR_PORT|NUM_PROCESSES|PROCESS_ID|PADDLE_.*|OMPI_.*|I_MPI_.*|NVIDIA_VISIBLE_DEVICES)$/;

const JOB_KINDS = ['PyTorchJob', 'TFJob', 'MPIJob', 'XGBoostJob', 'PaddleJob', 'JAXJob'] as const;
type JobKind = typeof JOB_KINDS[number];

/** One generated configuration: a training job or a WorkspaceKind, with or without a fault. */
type Case =
  | { type: 'job'; kind: JobKind; data: JobData; workers: number; fault?: JobK8sFault }
  | { type: 'workspacekind'; data: KindData; fault?: KindK8sFault };

const jobCase = fc.record({
  type: fc.constant('job' as const),
  kind: fc.constantFrom(...JOB_KINDS),
  data: jobDataFor(INJECTED),
  workers: fc.integer({ min: 1, max: 4 }),
  fault: fc.option(jobK8sFault, { freq: 2, nil: undefined }),
}).map(c => ({ ...c, data: consistent({ job: c.data }, { mpi: c.kind === 'MPIJob' }).job }));
const kindCase = fc.record({
  type: fc.constant('workspacekind' as const),
  data: kindData,
  fault: fc.option(kindK8sFault, { freq: 2, nil: undefined }),
});
/** Six training jobs for one WorkspaceKind; about half of each with a fault. */
const caseArbitrary: fc.Arbitrary<Case> = fc.oneof({ weight: 6, arbitrary: jobCase }, { weight: 1, arbitrary: kindCase });

/** The replica types and counts of a kind, for the job's name (`fitName`). */
function replicasOf(kind: JobKind, workers: number): { [type: string]: number } {
  switch (kind) {
    case 'PyTorchJob':
    case 'XGBoostJob': return { Master: 1, Worker: workers };
    case 'MPIJob': return { Launcher: 1, Worker: workers };
    default: return { Worker: workers };
  }
}

function buildJob(chart: Chart, c: Extract<Case, { type: 'job' }>): TrainingJob {
  const ids = new Ids();
  const effect: FaultEffect | undefined = c.fault && jobK8sEffect(c.fault);
  let props: any = jobProps(chart, ids, c.data, replicasOf(c.kind, c.workers));
  if (effect?.job) props = effect.job(props);
  props = { ...props, workers: c.workers, worker: applyRole(effect, undefined, true) };
  let job: TrainingJob;
  switch (c.kind) {
    case 'PyTorchJob': job = new DistributedPyTorch(chart, 'job', props); break;
    case 'TFJob': job = new ParameterServerTF(chart, 'job', props); break;
    case 'MPIJob': {
      // mpirun starts the program: a job-wide command and arguments are the MPI job's trainingCommand.
      const training = [...(props.command ?? []), ...(props.args ?? [])];
      job = new MpiAllReduce(chart, 'job', { ...props, command: undefined, args: undefined, trainingCommand: training.length ? training : undefined });
      break;
    }
    case 'XGBoostJob': job = new DistributedXGBoost(chart, 'job', props); break;
    case 'PaddleJob': job = new DistributedPaddle(chart, 'job', props); break;
    default: job = new DistributedJax(chart, 'job', props);
  }
  decorateJob(job, c.data, chart, ids);
  effect?.after?.(job, chart);
  return job;
}

function build(chart: Chart, c: Case): void {
  if (c.type === 'job') buildJob(chart, c);
  else buildKind(chart, c.data, new Ids(), { props: c.fault && kindK8sEffect(c.fault) });
}

/** The outcome of building one case. */
type Outcome =
  | { result: 'emitted'; docs: any[] }
  | { result: 'findings'; findings: PathFinding[] }
  | { result: 'error'; error: string };

function render(c: Case, kubernetesRules: boolean): Outcome {
  const app = new App({ outdir: Testing.app().outdir });
  if (!kubernetesRules) app.node.setContext(KUBERNETES_RULES_CONTEXT, 'off');
  const chart = new Chart(app, 'test');
  try {
    build(chart, c);
    const findings = collectFindings(app);
    if (findings.length > 0) return { result: 'findings', findings };
    for (const construct of chart.node.findAll()) {
      const errors = construct.node.validate();
      if (errors.length > 0) return { result: 'error', error: `[${construct.node.path}] ${errors.join('; ')}` };
    }
    return { result: 'emitted', docs: Testing.synth(chart) };
  } catch (e) {
    return { result: 'error', error: e instanceof Error ? e.message : String(e) };
  }
}

function describeFindings(findings: PathFinding[]): string {
  return findings.map(f => `${f.path}: ${f.finding.field} (rule ${f.finding.rule ?? 'none'})`).join('; ');
}

/** Whether a finding is of a Kubernetes rule (the group the differential run checks, and the one the context key switches off). */
function isKubernetesRule(f: PathFinding): boolean {
  return ruleSource(f.finding.rule) === 'kubernetes';
}

/** Writes manifests with cdk8s's own serializer: the bytes `cdk8s synth` would write. */
function writeYaml(file: string, docs: any[]) {
  fs.writeFileSync(file, Yaml.stringify(...docs));
}

function main() {
  const out = process.env.DIFFERENTIAL_DIR ?? path.join('test-reports', 'differential');
  const count = Number(process.env.DIFFERENTIAL_COUNT ?? 2000);
  const seed = Number(process.env.DIFFERENTIAL_SEED ?? 20261201);
  // The training-operator module's verdicts belong to the previous corpus.
  fs.rmSync(path.join(out, 'kubeflow-verdicts.json'), { force: true });
  for (const side of ['accepted', 'rejected']) {
    fs.rmSync(path.join(out, side), { recursive: true, force: true });
    fs.mkdirSync(path.join(out, side), { recursive: true });
  }
  const figures = {
    configurations: 0,
    faulty: 0,
    accepted: 0,
    acceptedFaulty: 0,
    rejected: 0,
    otherFindings: 0,
    constructErrors: 0,
    unrenderable: 0,
  };
  const errorsByFault = new Map<string, number>();
  const firstErrorByFault = new Map<string, string>();
  const unrenderable: string[] = [];
  const cases = fc.sample(caseArbitrary, { numRuns: count, seed });
  // What each case is, for reading a report: its kind and its fault.
  const index: { [name: string]: { kind: string; fault?: unknown } } = {};
  cases.forEach((c, i) => {
    const name = String(i).padStart(5, '0');
    figures.configurations++;
    index[name] = { kind: c.type === 'job' ? c.kind : 'WorkspaceKind', fault: c.fault };
    if (c.fault) figures.faulty++;
    const first = render(c, true);
    if (first.result === 'emitted') {
      figures.accepted++;
      if (c.fault) figures.acceptedFaulty++;
      writeYaml(path.join(out, 'accepted', `${name}.yaml`), first.docs);
      return;
    }
    if (first.result === 'error') {
      figures.constructErrors++;
      const key = c.fault?.fault ?? 'none';
      errorsByFault.set(key, (errorsByFault.get(key) ?? 0) + 1);
      if (!firstErrorByFault.has(key)) firstErrorByFault.set(key, `${name}: ${first.error.split('\n').slice(0, 2).join(' ')}`);
      return;
    }
    if (!first.findings.every(isKubernetesRule)) {
      figures.otherFindings++;
      return;
    }
    const again = render(c, false);
    if (again.result !== 'emitted') {
      figures.unrenderable++;
      if (unrenderable.length < 3) unrenderable.push(`${name}: ${again.result === 'error' ? again.error : describeFindings(again.findings)}`);
      return;
    }
    figures.rejected++;
    writeYaml(path.join(out, 'rejected', `${name}.yaml`), again.docs);
    const findings = first.findings.map(f => ({ ...f.finding, path: f.path }));
    fs.writeFileSync(path.join(out, 'rejected', `${name}.findings.json`), `${JSON.stringify(findings, null, 2)}\n`);
  });
  fs.writeFileSync(path.join(out, 'index.json'), `${JSON.stringify(index, null, 1)}\n`);
  console.log(`differential: ${figures.configurations} configurations (${figures.faulty} with a Kubernetes-level fault, seed ${seed}) -> ${out}`);
  console.log(`differential: accepted ${figures.accepted} (of which ${figures.acceptedFaulty} with a fault), rejected for Kubernetes rules ${figures.rejected}, ` +
    `rejected by other findings ${figures.otherFindings}, construct errors ${figures.constructErrors}, refused by the constructs' own checks as well ${figures.unrenderable}`);
  for (const u of unrenderable) console.log(`differential: refused by the constructs' own checks as well: ${u.split('\n').slice(0, 3).join(' ')}`);
  for (const [fault, n] of [...errorsByFault].sort()) {
    console.log(`differential: construct errors with fault "${fault}": ${n} (first: ${firstErrorByFault.get(fault)})`);
  }
}

main();
