import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import {
  Accelerator, ClusterTrainingRuntime, MlPolicy, PodGroupPolicy, PodSecurity, TrainingRuntime, TrainJob, TrainingRuntimeRef,
} from '../../src';
import { describe as describeFinding } from '../../src/rules/finding';
import { kubernetesFindings } from '../../src/rules/kubernetes';
import { appFindings } from '../../src/rules/rule-sets';
import { isConstructError, RUNS, renderTwice } from '../harness/properties';
import { validateManifest } from '../harness/schema-validator';

const ANCESTOR = 'trainer.kubeflow.org/trainjob-ancestor-step';
const STEP_CONTAINER: Record<string, string> = { 'trainer': 'node', 'dataset-initializer': 'dataset-initializer', 'model-initializer': 'model-initializer' };
const RESERVED = /^(PET_|OMPI_MCA_|DMLC_)/;

const policies = ['torch', 'mpi', 'jax', 'xgboost', 'flux'] as const;
const envName = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,11}$/).filter(n => !RESERVED.test(n));

/** Random valid runtime-and-job pairs. */
const validConfig = fc.record({
  policy: fc.constantFrom(...policies),
  clusterScoped: fc.boolean(),
  gpus: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
  shmGi: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
  restricted: fc.boolean(),
  istio: fc.boolean(),
  numNodes: fc.integer({ min: 1, max: 16 }),
  dataset: fc.boolean(),
  model: fc.boolean(),
  gang: fc.constantFrom('none', 'coscheduling', 'volcano'),
  runLauncherAsNode: fc.boolean(),
  jobNodes: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
  procFraction: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  env: fc.uniqueArray(fc.tuple(envName, fc.string({ maxLength: 8 })), { maxLength: 3, selector: ([n]) => n }),
  nodeSelector: fc.option(fc.dictionary(fc.stringMatching(/^[a-z]([a-z0-9-]{0,7}[a-z0-9])?$/), fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxKeys: 2 }), { nil: undefined }),
  queue: fc.option(fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/), { nil: undefined }),
});
type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

function policyOf(c: Config, slots?: number): MlPolicy {
  switch (c.policy) {
    case 'torch': return MlPolicy.torch();
    case 'mpi': return MlPolicy.mpi({ slotsPerWorker: slots, runLauncherAsNode: c.runLauncherAsNode });
    case 'jax': return MlPolicy.jax();
    case 'xgboost': return MlPolicy.xgboost();
    default: return MlPolicy.flux();
  }
}

function build(chart: Chart, c: Config, procsOverride?: number): void {
  const fromFraction = c.gpus !== undefined && c.procFraction !== undefined ? Math.max(1, Math.floor(c.gpus * c.procFraction)) : undefined;
  const procs = procsOverride ?? fromFraction;
  const Runtime = c.clusterScoped ? ClusterTrainingRuntime : TrainingRuntime;
  const runtime = new Runtime(chart, 'rt', {
    // A TrainingRuntime serves only its own namespace (trainer/trainjob-runtime checks it).
    metadata: { name: 'rt', namespace: c.clusterScoped ? undefined : 'ml' },
    mlPolicy: policyOf(c, c.policy === 'mpi' ? procs : undefined),
    image: 'trainer:1',
    numNodes: c.numNodes,
    resources: c.gpus !== undefined ? { accelerator: Accelerator.nvidia(c.gpus) } : undefined,
    // The flux plugin mounts its own memory volume at /dev/shm over a runtime's (trainer/runtime-plugin-volume).
    sharedMemory: c.shmGi !== undefined && c.policy !== 'flux' ? Size.gibibytes(c.shmGi) : undefined,
    security: c.restricted ? PodSecurity.RESTRICTED : undefined,
    istioSidecar: c.istio,
    datasetInitializer: c.dataset ? { image: 'ghcr.io/kubeflow/trainer/dataset-initializer' } : undefined,
    modelInitializer: c.model ? { image: 'ghcr.io/kubeflow/trainer/model-initializer' } : undefined,
    podGroupPolicy: c.gang === 'coscheduling' ? PodGroupPolicy.coscheduling() : c.gang === 'volcano' ? PodGroupPolicy.volcano() : undefined,
  });
  new TrainJob(chart, 'job', {
    metadata: { name: 'job', namespace: 'ml' },
    runtime: runtime.ref,
    numNodes: c.jobNodes,
    // MPI takes slots in the runtime; the jax and xgboost plugins never read numProcPerNode (trainer/trainjob-reach).
    numProcPerNode: c.policy === 'mpi' || c.policy === 'jax' || c.policy === 'xgboost' ? undefined : procs,
    env: Object.fromEntries(c.env.map(([n, v]) => [n, kplus.EnvValue.fromValue(v)])),
    nodeSelector: c.nodeSelector,
    queue: c.queue,
    datasetInitializer: c.dataset ? { storageUri: 'hf://org/data' } : undefined,
    modelInitializer: c.model ? { storageUri: 'hf://org/model' } : undefined,
  });
}

/** Every replicated job of a runtime with the step it is, if any. */
function jobsOf(runtime: any): any[] {
  return runtime.spec.template.spec.replicatedJobs;
}

test(`${RUNS} random valid runtime and TrainJob pairs are schema-valid, deterministic, rule-clean and keep Trainer's invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    // The MPI launcher as a node needs both jobs, which the construct always writes.
    const docs = renderTwice(chart => build(chart, c));
    const problems: string[] = [];
    for (const d of docs) problems.push(...validateManifest(d), ...kubernetesFindings(d).map(describeFinding));
    problems.push(...appFindings(docs.map((doc, i) => ({ path: String(i), doc }))).map(f => describeFinding(f.finding)));
    const [runtime, job] = docs;
    // The runtime comes first (GitOps order), and the job names it.
    if (!/TrainingRuntime$/.test(runtime.kind) || job.kind !== 'TrainJob') problems.push(`order ${runtime.kind}, ${job.kind}`);
    if (job.spec.runtimeRef.kind !== runtime.kind || job.spec.runtimeRef.name !== runtime.metadata.name) problems.push('runtimeRef');
    // Each step's job runs once and has the container the controller looks for; exactly one trainer step.
    const steps = jobsOf(runtime).map((j: any) => j.template.metadata?.labels?.[ANCESTOR]).filter(Boolean);
    if (steps.filter((s: string) => s === 'trainer').length !== 1) problems.push(`trainer steps ${steps}`);
    for (const j of jobsOf(runtime)) {
      const step = j.template.metadata?.labels?.[ANCESTOR];
      if (step && j.name.length > 20) problems.push(`name ${j.name}`);
      if (step && !j.template.spec.template.spec.containers.some((x: any) => x.name === STEP_CONTAINER[step])) problems.push(`container of ${step}`);
      const annotations = j.template.spec.template.metadata?.annotations ?? {};
      if ((annotations['sidecar.istio.io/inject'] === 'false') === c.istio) problems.push('istio opt-out');
    }
    // Processes per node never exceed the GPUs per node.
    const procs = job.spec.trainer?.numProcPerNode ?? runtime.spec.mlPolicy.mpi?.numProcPerNode;
    if (procs !== undefined && c.gpus !== undefined && procs > c.gpus) problems.push(`procs ${procs} > ${c.gpus}`);
    if (problems.length) throw new Error(problems.join('\n'));
  }), { numRuns: RUNS });
});

test(`${RUNS} random jobs with more processes per node than GPUs fail with the construct's own message`, () => {
  fc.assert(fc.property(validConfig.filter(c => c.policy === 'torch'), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), (c, gpus, extra) => {
    const config = { ...c, gpus };
    try {
      renderTwice(chart => build(chart, config, gpus + extra));
    } catch (e) {
      if (!isConstructError(e)) throw e;
      if (!(e as Error).message.includes(`numProcPerNode is ${gpus + extra}; expected at most the ${gpus} accelerators per node`)) throw e;
      return;
    }
    throw new Error('no error');
  }), { numRuns: RUNS });
});

test('the by-name reference writes what it is given', () => {
  const [job] = renderTwice(chart => new TrainJob(chart, 'job', { metadata: { name: 'j' }, runtime: TrainingRuntimeRef.namespaced('team-runtime') }));
  expect(job.spec.runtimeRef).toEqual({ apiGroup: 'trainer.kubeflow.org', kind: 'TrainingRuntime', name: 'team-runtime' });
});
