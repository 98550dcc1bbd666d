/**
 * The podsets of the Workload Kueue makes for a job, and what each pod of a podset requests, as
 * Kueue v0.15.2 counts them:
 *
 * - a Training Operator v1 job of a kind Kueue queues (the kind table's `kueue`) has one podset per
 *   replica type with `replicas` pods, 1 when unset (pkg/controller/jobs/kubeflow/kubeflowjob
 *   PodSets, podsCount);
 * - a Trainer v2 TrainJob has one podset per replicated job of the JobSet the Trainer makes from
 *   its runtime (pkg/controller/jobs/trainjob podSets): the runtime is resolved as the Trainer
 *   v2.3.0 resolves it (see trainJobPodSets);
 * - a pod requests what pod-requests.ts says (Kubernetes' PodRequests after Kueue's adjustments),
 *   the one pod arithmetic of the library.
 *
 * Kinds Kueue does not integrate (the v1 MPIJob and MXJob) make no Workload and have no podsets.
 */
import { podRequests } from './pod-requests';
import { isKueueQueued } from '../../kinds/kind';
import { V1_JOBS } from '../../kinds/training-operator';
import { isObject } from '../kubernetes/names';
import { BUILTIN_RUNTIMES_RELEASE } from '../trainer/builtin-runtimes.generated';
import { ANCESTOR_LABEL, NODE_JOB } from '../trainer/names';
import { isTrainJob, isTrainerRuntime, runtimeKey, runtimeReferenceOf } from '../trainer/runtime-lookup';
import { RuntimeResolution, resolveRuntime } from '../trainer/runtime-resolver';
import { replicaSpecs, replicasOf, trainingKindOf } from '../training-operator/training-kinds';

/** One podset: its name, its pod count and the pod spec its pods run. */
export interface PodSet {
  readonly name: string;
  readonly count: number;
  readonly podSpec: any;
  /** The pod template's annotations (Kueue reads its topology request there). */
  readonly annotations?: any;
}

/** The podsets of one job, and what could not be resolved (a TrainJob's runtime outside the input). */
export interface JobPodSets {
  readonly podSets: readonly PodSet[];
  readonly note?: string;
}

/** The v1 kinds Kueue's kubeflow integration manages (pkg/controller/jobs/kubeflow/jobs): the kind table's v1 jobs Kueue queues. */
const KUEUE_V1_KINDS = new Set(V1_JOBS.filter(isKueueQueued).map(k => k.kind));

/**
 * The runtimes of an input by their identity (`runtimeKey`; the first of an identity wins, as a
 * search of the list would find it), and the runtime each TrainJob resolves to, resolved once per
 * job (runtime-resolver.ts) for every rule and table that asks.
 */
export interface RuntimeIndex {
  readonly byKey: ReadonlyMap<string, any>;
  /** The runtime the TrainJob document names (the same answer on every call for one document). */
  runtimeOf(job: any): RuntimeResolution<any> | undefined;
}

/** Every TrainingRuntime and ClusterTrainingRuntime among the documents. */
export function runtimeIndex(docs: readonly any[]): RuntimeIndex {
  const byKey = new Map<string, any>();
  for (const doc of docs) {
    if (!isTrainerRuntime(doc)) continue;
    const key = runtimeKey(doc);
    if (!byKey.has(key)) byKey.set(key, doc);
  }
  const resolved = new Map<any, RuntimeResolution<any> | undefined>();
  return {
    byKey,
    runtimeOf(job: any) {
      if (resolved.has(job)) return resolved.get(job);
      const ref = runtimeReferenceOf(job);
      const resolution = ref === undefined ? undefined : resolveRuntime(ref, byKey);
      resolved.set(job, resolution);
      return resolution;
    },
  };
}

/**
 * The runtime a TrainJob names: the input's, else the ClusterTrainingRuntime of that name the
 * Trainer ships (builtin-runtimes.generated.ts), marked `builtIn`; undefined when neither.
 */
export function namedRuntime(job: any, runtimes: RuntimeIndex): { readonly runtime: any; readonly builtIn: boolean } | undefined {
  const resolution = runtimes.runtimeOf(job);
  if (resolution === undefined) return undefined;
  return resolution.own !== undefined ? { runtime: resolution.own, builtIn: false } : { runtime: resolution.builtIn, builtIn: true };
}

/** Whether Kueue makes a Workload for the document's kind. */
export function isKueueJob(doc: any): boolean {
  return isTrainJob(doc) || (trainingKindOf(doc) !== undefined && KUEUE_V1_KINDS.has(doc.kind));
}

/** The podsets of a v1 training job (of any kind the operator runs), in document order. */
export function trainingJobPodSets(doc: any): PodSet[] {
  const facts = trainingKindOf(doc);
  if (facts === undefined) return [];
  return replicaSpecs(doc, facts).map(([name, spec]) => ({
    name, count: Math.max(0, replicasOf(spec)), podSpec: spec.template?.spec, annotations: spec.template?.metadata?.annotations,
  }));
}

/** The podsets of a job Kueue makes a Workload for; undefined for any other document. */
export function kueuePodSets(doc: any, runtimes: RuntimeIndex): JobPodSets | undefined {
  if (!isKueueJob(doc)) return undefined;
  return isTrainJob(doc) ? trainJobPodSets(doc, runtimes) : { podSets: trainingJobPodSets(doc) };
}

const TRAINER_STEP = 'trainer';

/**
 * The podsets of a TrainJob, through its runtime as the v2.3 Trainer resolves it:
 *
 * - each replicated job of the runtime runs `parallelism` pods (default 1) per replica; the one
 *   labelled as the trainer step runs the ML policy's `numNodes` instead
 *   (pkg/runtime/core/trainingruntime.go, newRuntimeInfo);
 * - the job's `trainer.numNodes` replaces that count; for MPI it sets the `node` job, one less when
 *   the launcher runs as a node (the EnforceMLPolicy of the torch, jax, plainml and mpi plugins);
 * - the job's `trainer.resourcesPerNode` is merged key by key into the `node` container of the
 *   trainer step (MergeResourceRequirements, a strategic merge of limits and requests).
 *
 * Initializers are podsets too: Kueue admits the JobSet with the quota of all its replicated jobs.
 * A ClusterTrainingRuntime that is not in the input but has the name of one the Trainer ships is
 * that one (builtin-runtimes.generated.ts: its pods' requests count), with a note; any other
 * runtime that is not in the input leaves only the job's own fields to count, with a note.
 */
export function trainJobPodSets(job: any, runtimes: RuntimeIndex): JobPodSets {
  const ref = runtimeReferenceOf(job);
  const key = ref?.key ?? 'ClusterTrainingRuntime (no name)';
  // A ClusterTrainingRuntime the input lacks is, by its name, one the Trainer ships: counted as shipped.
  const named = namedRuntime(job, runtimes);
  const runtime = named?.runtime;
  const trainer = job.spec?.trainer ?? {};
  const numNodes = positive(trainer.numNodes);
  if (runtime === undefined) {
    const nodes = numNodes ?? 1;
    return {
      podSets: [{ name: NODE_JOB, count: nodes, podSpec: { containers: [{ resources: trainer.resourcesPerNode }] } }],
      note: `runtime ${key} is not in the input: counted ${nodes} ${NODE_JOB} pod${nodes === 1 ? '' : 's'} with the job's trainer.resourcesPerNode only`,
    };
  }
  const mlPolicy = runtime.spec?.mlPolicy;
  const mpi = mlPolicy?.mpi;
  const jobs: any[] = Array.isArray(runtime.spec?.template?.spec?.replicatedJobs) ? runtime.spec.template.spec.replicatedJobs : [];
  const isTrainerStep = (rJob: any) => rJob?.template?.metadata?.labels?.[ANCESTOR_LABEL] === TRAINER_STEP;
  const firstTrainerStep = jobs.find(isTrainerStep);
  return {
    ...(named?.builtIn !== true ? {} : { note: `runtime ${key} is not in the input: counted as the one built into ${BUILTIN_RUNTIMES_RELEASE}` }),
    podSets: jobs.map(rJob => {
      let count = positive(rJob?.template?.spec?.parallelism) ?? 1;
      if (isTrainerStep(rJob) && mlPolicy !== undefined) count = positive(mlPolicy.numNodes) ?? 1;
      if (numNodes !== undefined) {
        if (mpi !== undefined && rJob?.name === NODE_JOB) count = mpi.runLauncherAsNode === true ? Math.max(numNodes - 1, 1) : numNodes;
        else if (mpi === undefined && rJob === firstTrainerStep) count = numNodes;
      }
      const takesResources = mlPolicy !== undefined && (isTrainerStep(rJob) || (mpi?.runLauncherAsNode === true && rJob?.name === NODE_JOB));
      const podSpec = rJob?.template?.spec?.template?.spec;
      return {
        name: text(rJob?.name),
        count: (positive(rJob?.replicas) ?? 1) * count,
        podSpec: takesResources && trainer.resourcesPerNode !== undefined ? withNodeResources(podSpec, trainer.resourcesPerNode) : podSpec,
        annotations: rJob?.template?.spec?.template?.metadata?.annotations,
      };
    }),
  };
}

/** The pod spec with the job's resources merged into its `node` container. */
function withNodeResources(podSpec: any, override: any): any {
  const containers: any[] = Array.isArray(podSpec?.containers) ? podSpec.containers : [];
  return {
    ...podSpec,
    containers: containers.map(c => (c?.name !== NODE_JOB ? c : {
      ...c,
      resources: {
        limits: mergeMaps(c.resources?.limits, override?.limits),
        requests: mergeMaps(c.resources?.requests, override?.requests),
      },
    })),
  };
}

function mergeMaps(base: unknown, over: unknown): Record<string, unknown> | undefined {
  if (base === undefined && over === undefined) return undefined;
  return { ...(isObject(base) ? base : {}), ...(isObject(over) ? over : {}) };
}

/** What all the pods of a podset request. */
export function podSetRequests(podSet: PodSet): Map<string, bigint> {
  const n = BigInt(podSet.count);
  return new Map([...podRequests(podSet.podSpec)].map(([name, v]) => [name, v * n]));
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const positive = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
