import { ApiObject, Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { AppRuntime, appRuntimeIndex } from './trainer-runtime';
import { acceleratorToleration } from '../../rules/kubernetes/accelerator-facts';
import { LAUNCHER_JOB, NODE_JOB } from '../../rules/trainer/names';
import { runtimeReference } from '../../rules/trainer/runtime-lookup';
import { resolveRuntime } from '../../rules/trainer/runtime-resolver';
import { oncePerSynth } from '../../synth/render-hook';
import type { TrainingRuntimeRef } from '../training-runtime-ref';

/**
 * The runtime a TrainJob construct runs on, as the controller will find it: the runtime construct
 * its ref carries, else the app's runtime of the name it gives, else (for a ClusterTrainingRuntime
 * the cluster is not said to provide) the one the Trainer release ships. Resolved once per synth
 * per job by the one resolver (rules/trainer/runtime-resolver.ts) and read by everything the job's
 * render and checks need to know of its runtime.
 */
export interface JobRuntime {
  /** The app's runtime the job names by string; undefined when it passes a runtime's ref, or the app has none of that name. */
  readonly named?: AppRuntime;
  /** The API object of the app's runtime: the ref's, or the one named. */
  readonly apiObject?: ApiObject;
  /** The document of the built-in runtime the job names, when neither the app defines it nor the job says the cluster provides it. */
  readonly builtIn?: any;
  /** The document of the built-in runtime of the name, whether or not the job says the cluster provides it (Kueue counts the pods by it all the same). */
  readonly catalogued?: any;
}

/** The job's runtime: kept for the length of a synth (names are final then), resolved afresh outside one. */
export function jobRuntime(job: ApiObject, ref: TrainingRuntimeRef): JobRuntime {
  const memo = oncePerSynth(job.node.root, 'trainjob-runtimes', () => new Map<ApiObject, JobRuntime>());
  let runtime = memo.get(job);
  if (runtime === undefined) {
    runtime = resolve(job, ref);
    memo.set(job, runtime);
  }
  return runtime;
}

function resolve(job: ApiObject, ref: TrainingRuntimeRef): JobRuntime {
  // A runtime construct's ref is the runtime itself: nothing to look up.
  if (ref._facts) return { apiObject: ref._facts.apiObject };
  const resolution = resolveRuntime(runtimeReference(ref.kind, ref.name, job.metadata.namespace ?? ''), appRuntimeIndex(job.node.root));
  if (resolution?.own !== undefined) return { named: resolution.own, apiObject: resolution.own.apiObject };
  if (resolution === undefined) return {};
  return ref.provided ? { catalogued: resolution.builtIn } : { builtIn: resolution.builtIn, catalogued: resolution.builtIn };
}

/** The runtime's document: the app's runtime as this synth renders it (kept once rendered), or the built-in one. */
export function runtimeDocument(runtime: JobRuntime): any | undefined {
  return runtime.apiObject?.toJson() ?? runtime.builtIn;
}

/**
 * The jobs of a built-in runtime whose pods train: `node`, and the MPI `launcher` when it runs as
 * a node (it then gets resourcesPerNode and trains, core/trainingruntime.go).
 */
export function builtinTrainingJobs(runtime: JobRuntime): string[] | undefined {
  const builtin = runtime.builtIn;
  if (!builtin?.spec?.mlPolicy?.mpi?.runLauncherAsNode) return undefined;
  return builtin.spec.template.spec.replicatedJobs.map((j: any) => j.name).filter((n: string) => n === NODE_JOB || n === LAUNCHER_JOB);
}

/** The tolerations of a replicated job's pods in the runtime, which a patch's tolerations replace. */
export function runtimeTolerations(runtime: JobRuntime, job: string): any[] {
  const jobs: any[] = runtimeDocument(runtime)?.spec?.template?.spec?.replicatedJobs ?? [];
  return jobs.find(j => j?.name === job)?.template?.spec?.template?.spec?.tolerations ?? [];
}

/** The ML policy name of a built-in runtime. */
export function builtinPolicyName(runtime: JobRuntime): string | undefined {
  const policy = runtime.builtIn?.spec?.mlPolicy ?? {};
  return Object.keys(policy).find(k => k !== 'numNodes');
}

/**
 * The toleration a v1 job of the same shape gets for its accelerator's taint. Only on a built-in
 * runtime, whose pods have no tolerations: a patch's tolerations replace the runtime's (the
 * Trainer merges the patch strategically, and a pod's tolerations have no merge key), and a
 * runtime construct tolerates its own accelerator already.
 */
export function builtinAcceleratorTolerations(runtime: JobRuntime, resourceName: string | undefined): k8s.Toleration[] {
  const builtin = runtime.builtIn;
  if (resourceName === undefined || !builtin) return [];
  const jobs: any[] = builtin.spec.template.spec.replicatedJobs;
  if (jobs.some(j => j.template?.spec?.template?.spec?.tolerations)) return [];
  return [acceleratorToleration(resourceName)];
}

/**
 * Whether the job's document can depend on the runtime's without a new dependency between charts:
 * the runtime is in the job's chart, or in a chart nested in it (cdk8s makes a chart depend on the
 * charts nested in it, so that dependency is there already).
 */
export function orderedWithin(job: ApiObject, runtime: ApiObject): boolean {
  const jobChart = Chart.of(job);
  const runtimeChart = Chart.of(runtime);
  return runtimeChart === jobChart || runtimeChart.node.scopes.includes(jobChart);
}
