/**
 * `cdk8s-kubeflow plan`: what the training jobs and notebook workspaces of a set of manifests ask
 * of the cluster (pods per role, accelerators per vendor, CPU, memory) per job or workspace, per
 * Kueue queue and per namespace, and with a second set, what changed between them. Jobs and
 * workspaces are keyed by kind, namespace and name.
 */
import { Amounts, NO_AMOUNTS, add, podAmounts, times } from './amounts';
import { QueueChange, QueuePlan, compare, jobKey, kueueObjects, queueChanges, queuePlan } from './plan-queues';
import { RuntimeIndex, runtimeIndex, trainJobDemand } from './train-job-plan';
import { WorkspaceKindIndex, isWorkspace, workspaceDemand, workspaceKindIndex } from './workspace-plan';
import { WORKSPACE } from '../../kinds/notebooks';
import { TRAIN_JOB } from '../../kinds/trainer';
import { trainingJobPodSets } from '../../rules/kueue/capacity-podsets';
import { KUEUE_QUEUE_LABEL } from '../../rules/kueue/labels';
import { isTrainJob } from '../../rules/trainer/runtime-lookup';
import { trainingKindOf } from '../../rules/training-operator/training-kinds';
import { canonicalJson } from '../../util/collections';
import { InputDocument } from '../base/input';

/** What one training job (or notebook workspace, with `workspace` set) asks for. */
export interface JobPlan {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** The Kueue LocalQueue (`kueue.x-k8s.io/queue-name`), `''` for none. */
  readonly queue: string;
  /** Pods per replica type, in document order. */
  readonly roles: ReadonlyArray<readonly [string, number]>;
  /** The most workers of an elastic job (`elasticPolicy.maxReplicas`), when above the initial count; amounts count the initial pods. */
  readonly elasticMaxWorkers?: number;
  readonly pods: number;
  readonly amounts: Amounts;
  /** What the plan could not count (a TrainJob whose runtime is not in the input). */
  readonly note?: string;
  /**
   * Why Kueue never admits the job, when its ClusterQueue is in the input and can never give what
   * it asks for. Its amounts still count in every total (it asks for them all the same).
   */
  readonly neverAdmitted?: string;
  /** A Workspace's WorkspaceKind, chosen pod config and whether it is paused (no pod). */
  readonly workspace?: { readonly kind: string; readonly podConfig: string; readonly paused: boolean };
  /** The document with its keys sorted: any change to it makes the job "changed". */
  readonly canonical: string;
}

/** Totals of a group of jobs (a queue or a namespace). */
export interface Total {
  readonly key: string;
  /** Training jobs. */
  readonly jobs: number;
  readonly workspaces: number;
  readonly pods: number;
  readonly amounts: Amounts;
  /** How many of its jobs Kueue never admits (counted in the amounts all the same). */
  readonly neverAdmitted: number;
}

export interface Plan {
  /** Training jobs, sorted by namespace, name, kind. */
  readonly jobs: readonly JobPlan[];
  /** Notebook workspaces, sorted by namespace, name. */
  readonly workspaces: readonly JobPlan[];
  readonly byQueue: readonly Total[];
  readonly byNamespace: readonly Total[];
  /** Per ClusterQueue and flavor, when the input or the queue documents hold ClusterQueues. */
  readonly queues?: QueuePlan;
}

/**
 * What a training job document asks for; undefined for other documents. A TrainJob is resolved
 * against the runtimes of the same input.
 */
export function jobPlan(doc: any, runtimes: RuntimeIndex = runtimeIndex([]), kinds: WorkspaceKindIndex = new Map()): JobPlan | undefined {
  if (isTrainJob(doc)) return trainJobPlan(doc, runtimes);
  if (isWorkspace(doc)) return workspacePlan(doc, kinds);
  const facts = trainingKindOf(doc);
  if (facts === undefined) return undefined;
  // The replica types as Kueue's podsets (rules/kueue/capacity-podsets.ts), so both count alike.
  const podSets = trainingJobPodSets(doc);
  const roles: Array<[string, number]> = podSets.map(p => [p.name, p.count]);
  const pods = podSets.reduce((n, p) => n + p.count, 0);
  const amounts = podSets.reduce((a, p) => add(a, times(podAmounts(p.podSpec), p.count)), NO_AMOUNTS);
  const max = doc.spec?.elasticPolicy?.maxReplicas;
  const workers = roles.find(([t]) => t === 'Worker')?.[1];
  const elasticMaxWorkers = typeof max === 'number' && workers !== undefined && max > workers ? max : undefined;
  return {
    ...identity(facts.kind, doc),
    roles,
    ...(elasticMaxWorkers === undefined ? {} : { elasticMaxWorkers }),
    pods,
    amounts,
  };
}

function trainJobPlan(doc: any, runtimes: RuntimeIndex): JobPlan {
  const demand = trainJobDemand(doc, runtimes);
  return {
    ...identity(TRAIN_JOB.kind, doc),
    roles: demand.roles,
    pods: demand.pods,
    amounts: demand.amounts,
    ...(demand.note === undefined ? {} : { note: demand.note }),
  };
}

function workspacePlan(doc: any, kinds: WorkspaceKindIndex): JobPlan {
  const demand = workspaceDemand(doc, kinds);
  return {
    ...identity(WORKSPACE.kind, doc),
    // A workspace's queue may sit on its pod template rather than on the Workspace.
    queue: demand.queue,
    roles: [['workspace', demand.pods]],
    pods: demand.pods,
    amounts: demand.amounts,
    ...(demand.note === undefined ? {} : { note: demand.note }),
    workspace: { kind: demand.workspaceKind, podConfig: demand.podConfig, paused: demand.paused },
  };
}

/** What every plan row takes from its document's metadata, and the document itself for `--against`. */
function identity(kind: string, doc: any): Pick<JobPlan, 'kind' | 'namespace' | 'name' | 'queue' | 'canonical'> {
  return {
    kind,
    namespace: text(doc.metadata?.namespace),
    name: text(doc.metadata?.name),
    queue: text(doc.metadata?.labels?.[KUEUE_QUEUE_LABEL]),
    canonical: canonicalJson(doc),
  };
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The plan of the documents of one input; the Kueue objects of `queueInputs` (`--queues`) join
 * those of the input for the quota view.
 */
export function plan(inputs: readonly InputDocument[], queueInputs: readonly InputDocument[] = []): Plan {
  const docs = inputs.map(i => i.doc).filter(d => d !== undefined);
  // One runtime index for the job table and the quota view: each TrainJob's runtime is resolved once.
  const runtimes = runtimeIndex(docs);
  const queues = queuePlan(docs, kueueObjects([...docs, ...queueInputs.map(i => i.doc).filter(d => d !== undefined)]), runtimes);
  const kinds = workspaceKindIndex(docs);
  // A job its ClusterQueue never admits keeps its row and its amounts, and carries the reason.
  const never = new Map((queues?.notes ?? []).filter(n => n.neverAdmitted).map(n => [jobKey(n), n.reason!]));
  const all = docs.map(d => jobPlan(d, runtimes, kinds)).filter((j): j is JobPlan => j !== undefined)
    .map(j => (never.has(jobKey(j)) ? { ...j, neverAdmitted: never.get(jobKey(j))! } : j));
  all.sort((a, b) => compare(a.namespace, b.namespace) || compare(a.name, b.name) || compare(a.kind, b.kind));
  return {
    jobs: all.filter(j => j.workspace === undefined),
    workspaces: all.filter(j => j.workspace !== undefined),
    byQueue: totals(all, j => j.queue),
    byNamespace: totals(all, j => j.namespace),
    ...(queues === undefined ? {} : { queues }),
  };
}

/** The training jobs, then the workspaces. */
export const workloads = (p: Plan): readonly JobPlan[] => [...p.jobs, ...p.workspaces];

/** Totals per group, sorted by the group's key. */
export function totals(jobs: readonly JobPlan[], keyOf: (j: JobPlan) => string): Total[] {
  const groups = new Map<string, Total>();
  for (const j of jobs) {
    const key = keyOf(j);
    const t = groups.get(key) ?? { key, jobs: 0, workspaces: 0, pods: 0, amounts: NO_AMOUNTS, neverAdmitted: 0 };
    const isWorkspaceRow = j.workspace !== undefined;
    groups.set(key, {
      key,
      jobs: t.jobs + (isWorkspaceRow ? 0 : 1),
      workspaces: t.workspaces + (isWorkspaceRow ? 1 : 0),
      pods: t.pods + j.pods,
      amounts: add(t.amounts, j.amounts),
      neverAdmitted: t.neverAdmitted + (j.neverAdmitted === undefined ? 0 : 1),
    });
  }
  return [...groups.values()].sort((a, b) => compare(a.key, b.key));
}

/** What changed between two plans. */
export interface PlanChange {
  readonly added: readonly JobPlan[];
  readonly removed: readonly JobPlan[];
  readonly changed: ReadonlyArray<{ readonly before: JobPlan; readonly after: JobPlan }>;
  /** Per queue of either plan whose totals changed: after − before, sorted by queue. */
  readonly byQueue: ReadonlyArray<{
    readonly key: string;
    readonly pods: number;
    readonly before: Amounts;
    readonly after: Amounts;
    /** The queue's jobs Kueue never admits after the change. */
    readonly neverAdmitted: number;
  }>;
  /** Per ClusterQueue, flavor and resource whose demand moved (when either plan has ClusterQueues). */
  readonly byClusterQueue: readonly QueueChange[];
}

/** The difference from `before` to `after`. */
export function planChange(before: Plan, after: Plan): PlanChange {
  const old = new Map(workloads(before).map(j => [jobKey(j), j]));
  const now = new Map(workloads(after).map(j => [jobKey(j), j]));
  const added = workloads(after).filter(j => !old.has(jobKey(j)));
  const removed = workloads(before).filter(j => !now.has(jobKey(j)));
  const changed = workloads(after)
    .filter(j => old.has(jobKey(j)) && fingerprint(old.get(jobKey(j))!) !== fingerprint(j))
    .map(j => ({ before: old.get(jobKey(j))!, after: j }));
  const oldQueues = new Map(before.byQueue.map(t => [t.key, t]));
  const newQueues = new Map(after.byQueue.map(t => [t.key, t]));
  const byQueue = [...new Set([...oldQueues.keys(), ...newQueues.keys()])].sort(compare)
    .map(key => {
      const b = oldQueues.get(key);
      const a = newQueues.get(key);
      const amounts = { before: b?.amounts ?? NO_AMOUNTS, after: a?.amounts ?? NO_AMOUNTS };
      return { key, pods: (a?.pods ?? 0) - (b?.pods ?? 0), ...amounts, neverAdmitted: a?.neverAdmitted ?? 0 };
    })
    .filter(q => q.pods !== 0 || fingerprintAmounts(q.before) !== fingerprintAmounts(q.after));
  return { added, removed, changed, byQueue, byClusterQueue: queueChanges(before.queues, after.queues) };
}

/** The job's document, what it asks for and whether it is ever admitted: a TrainJob changes when its runtime does, a job when its queue does. */
function fingerprint(j: JobPlan): string {
  return `${j.canonical} ${JSON.stringify(j.roles)} ${fingerprintAmounts(j.amounts)} ${j.neverAdmitted ?? ''}`;
}

/** Whether Kueue never admits some job of the plan (`plan` then exits 1). */
export const hasNeverAdmitted = (p: Plan) => workloads(p).some(j => j.neverAdmitted !== undefined);

function fingerprintAmounts(a: Amounts): string {
  return [a.milliCpu, a.memoryBytes, ...[...a.accelerators.entries()].filter(([, n]) => n !== BigInt(0)).map(([k, n]) => `${k}=${n}`)].join(' ');
}
