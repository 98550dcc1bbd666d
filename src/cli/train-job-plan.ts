/**
 * What a Trainer v2 TrainJob asks of the cluster. A TrainJob says little by itself: its pods come
 * from the runtime it references, with the job's node count and resources per node laid over the
 * runtime's, as the v2.3 Trainer resolves them:
 *
 * - each replicated job of the runtime runs `parallelism` pods (default 1) per replica; the one
 *   labelled as the trainer step runs the ML policy's `numNodes` instead
 *   (pkg/runtime/core/trainingruntime.go, newRuntimeInfo);
 * - the job's `trainer.numNodes` replaces that count; for MPI it sets the `node` job, one less when
 *   the launcher runs as a node (the EnforceMLPolicy of the torch, jax, plainml and mpi plugins);
 * - the job's `trainer.resourcesPerNode` is merged key by key into the `node` container of the
 *   trainer step (MergeResourceRequirements, a strategic merge of limits and requests).
 *
 * Kueue admits a JobSet with the quota of all its replicated jobs, initializers included, so the
 * plan sums them all. A runtime that is not in the input (a built-in one installed on the cluster)
 * leaves only the job's own fields to count, and the plan says so.
 */
import { Amounts, NO_AMOUNTS, add, podAmounts, times } from './amounts';
import { ANCESTOR_LABEL, NODE_JOB } from '../rules/trainer/names';
import { isTrainerRuntime, runtimeKey, runtimeReferenceOf } from '../rules/trainer/runtime-lookup';

const TRAINER_STEP = 'trainer';

/** The runtimes of an input, by their identity (`runtimeKey`). */
export type RuntimeIndex = ReadonlyMap<string, any>;

/** Every TrainingRuntime and ClusterTrainingRuntime among the documents. */
export function runtimeIndex(docs: readonly any[]): RuntimeIndex {
  return new Map(docs.filter(isTrainerRuntime).map(doc => [runtimeKey(doc), doc]));
}

/** What a TrainJob asks for: its pods per replicated job and their amounts. */
export interface TrainJobDemand {
  readonly roles: ReadonlyArray<readonly [string, number]>;
  readonly pods: number;
  readonly amounts: Amounts;
  /** Set when the runtime is not in the input, so only the job's own fields are counted. */
  readonly note?: string;
}

/** The demand of one TrainJob, resolved against the runtimes of the same input. */
export function trainJobDemand(job: any, runtimes: RuntimeIndex): TrainJobDemand {
  const key = runtimeReferenceOf(job)?.key ?? 'ClusterTrainingRuntime (no name)';
  const runtime = runtimes.get(key);
  const trainer = job.spec?.trainer ?? {};
  const numNodes = positive(trainer.numNodes);
  if (runtime === undefined) {
    const nodes = numNodes ?? 1;
    return {
      roles: [[NODE_JOB, nodes]],
      pods: nodes,
      amounts: times(podAmounts({ containers: [{ resources: trainer.resourcesPerNode }] }), nodes),
      note: `runtime ${key} is not in the input: counted ${nodes} ${NODE_JOB} pod${nodes === 1 ? '' : 's'} with the job's trainer.resourcesPerNode only`,
    };
  }
  const mlPolicy = runtime.spec?.mlPolicy;
  const mpi = mlPolicy?.mpi;
  const jobs: any[] = Array.isArray(runtime.spec?.template?.spec?.replicatedJobs) ? runtime.spec.template.spec.replicatedJobs : [];
  const isTrainerStep = (rJob: any) => rJob?.template?.metadata?.labels?.[ANCESTOR_LABEL] === TRAINER_STEP;
  const firstTrainerStep = jobs.find(isTrainerStep);
  const roles: Array<[string, number]> = [];
  let amounts = NO_AMOUNTS;
  let pods = 0;
  for (const rJob of jobs) {
    let count = positive(rJob?.template?.spec?.parallelism) ?? 1;
    if (isTrainerStep(rJob) && mlPolicy !== undefined) count = positive(mlPolicy.numNodes) ?? 1;
    if (numNodes !== undefined) {
      if (mpi !== undefined && rJob?.name === NODE_JOB) count = mpi.runLauncherAsNode === true ? Math.max(numNodes - 1, 1) : numNodes;
      else if (mpi === undefined && rJob === firstTrainerStep) count = numNodes;
    }
    const n = (positive(rJob?.replicas) ?? 1) * count;
    const takesResources = mlPolicy !== undefined && (isTrainerStep(rJob) || (mpi?.runLauncherAsNode === true && rJob?.name === NODE_JOB));
    const podSpec = rJob?.template?.spec?.template?.spec;
    const spec = takesResources && trainer.resourcesPerNode !== undefined ? withNodeResources(podSpec, trainer.resourcesPerNode) : podSpec;
    roles.push([text(rJob?.name), n]);
    pods += n;
    amounts = add(amounts, times(podAmounts(spec), n));
  }
  return { roles, pods, amounts };
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const positive = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
