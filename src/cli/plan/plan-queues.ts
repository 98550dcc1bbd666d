/**
 * The quota side of `plan`: when the input (or `--queues DIR`) holds Kueue's ClusterQueues, what
 * the jobs on each ClusterQueue request per flavor and resource against its nominal quota,
 * borrowing limit and the most it can get (rules/kueue/capacity-queues.ts), and the jobs it can
 * never admit (the rule kueue/never-admitted, same reasons and words).
 *
 * A job the queue never admits stays in the demand it asks for, in the flavors Kueue would look at
 * first for it (askedUsage), and every row it is counted on says so: a job that grows past its
 * quota then shows as more demand on its ClusterQueue, never as quota given back.
 *
 * A job's requests go where Kueue's flavor assigner puts them on an idle queue: each job is placed
 * on its own, and the jobs' placements are summed per flavor. The sum is the demand a queue has to
 * serve, not an admission order: what is above nominal quota is borrowed from the cohort or waits.
 * Notebook workspaces are left out (Kueue queues a Workspace's pod through its StatefulSet
 * integration, which the plan does not model), and so are jobs of kinds Kueue does not queue.
 */
import { isKueueGroup } from '../../rules/kueue/api';
import { neverAdmittedReason } from '../../rules/kueue/capacity';
import { formatResource } from '../../rules/kueue/capacity-amounts';
import { PodSet, kueuePodSets, runtimeIndex, trainingJobPodSets, RuntimeIndex } from '../../rules/kueue/capacity-podsets';
import { ClusterQueueCapacity, clusterQueueCapacity, clusterQueueOf, placeWorkload, queueIndex, queueRequests, rejection } from '../../rules/kueue/capacity-queues';
import { KUEUE_QUEUE_LABEL } from '../../rules/kueue/labels';

/** One resource of one flavor of a ClusterQueue, with what the jobs on it request there. */
export interface FlavorRow {
  readonly flavor: string;
  readonly resource: string;
  readonly requested: bigint;
  readonly nominal: bigint;
  readonly borrowingLimit?: bigint;
  readonly limit?: bigint;
  /** The part of `requested` that jobs the ClusterQueue never admits ask for (0 when none). */
  readonly neverAdmitted: bigint;
}

export interface ClusterQueuePlan {
  readonly name: string;
  readonly cohort: string;
  readonly cohortNote?: string;
  /** The jobs placed on it (`Kind namespace/name`), sorted. */
  readonly jobs: readonly string[];
  /** The jobs it never admits, whose requests its rows count all the same (`Kind namespace/name`), sorted. */
  readonly neverAdmitted: readonly string[];
  readonly rows: readonly FlavorRow[];
}

/** A job the quota view could not count, and why (never admitted, or outside the queues). */
export interface QueueNote {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly queue: string;
  /** The ClusterQueue the job's LocalQueue leads to, `''` when the input does not say. */
  readonly clusterQueue: string;
  readonly neverAdmitted: boolean;
  readonly note: string;
  /** Why Kueue never admits the job, when it never does (the note says it after "never admitted: "). */
  readonly reason?: string;
}

export interface QueuePlan {
  readonly clusterQueues: readonly ClusterQueuePlan[];
  /** Never-admitted jobs first, then the others, each sorted by job. */
  readonly notes: readonly QueueNote[];
}

/** Orders strings by code unit, as the plan's tables are sorted. */
export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A job's identity in the plan: `Kind namespace/name`. */
export function jobKey(j: { readonly kind: string; readonly namespace: string; readonly name: string }): string {
  return `${j.kind} ${j.namespace === '' ? '' : `${j.namespace}/`}${j.name}`;
}
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Whether an input holds a ClusterQueue. */
export const hasClusterQueue = (inputs: ReadonlyArray<{ readonly doc?: any }>) =>
  queueIndex(kueueObjects(inputs.map(i => i.doc))).clusterQueues.size > 0;

/** The Kueue objects among documents. */
export const kueueObjects = (docs: readonly any[]) => docs.filter(isKueueGroup);

/** The quota view of the jobs among `docs` against the Kueue objects among `queues`; undefined without ClusterQueues. */
export function queuePlan(docs: readonly any[], queues: readonly any[], runtimes: RuntimeIndex = runtimeIndex(docs)): QueuePlan | undefined {
  const index = queueIndex(queues);
  if (index.clusterQueues.size === 0) return undefined;
  // Worked out once per ClusterQueue of the index (clusterQueueCapacity keeps it).
  const capacity = (name: string) => clusterQueueCapacity(index, name)!;
  const usage = new Map<string, Map<string, bigint>>();
  const neverUsage = new Map<string, Map<string, bigint>>();
  const jobs = new Map<string, string[]>();
  const neverJobs = new Map<string, string[]>();
  const addUsage = (into: Map<string, Map<string, bigint>>, clusterQueue: string, more: ReadonlyMap<string, bigint>) => {
    const sums = into.get(clusterQueue) ?? new Map<string, bigint>();
    for (const [key, v] of more) sums.set(key, (sums.get(key) ?? BigInt(0)) + v);
    into.set(clusterQueue, sums);
  };
  const notes: QueueNote[] = [];
  for (const doc of docs) {
    const queue = text(doc?.metadata?.labels?.[KUEUE_QUEUE_LABEL]);
    if (queue === '' || isKueueGroup(doc)) continue;
    const identity = { kind: text(doc.kind), namespace: text(doc.metadata?.namespace), name: text(doc.metadata?.name), queue };
    const note = (what: string, neverAdmitted = false, clusterQueue = '', reason?: string) =>
      notes.push({ ...identity, clusterQueue, neverAdmitted, note: what, ...(reason === undefined ? {} : { reason }) });
    const podSets = kueuePodSets(doc, runtimes);
    if (podSets === undefined) {
      if (trainingJobPodSets(doc).length > 0) note(`Kueue does not queue a ${doc.apiVersion} ${doc.kind}: not counted against a ClusterQueue`);
      continue;
    }
    const { clusterQueue, missing } = clusterQueueOf(index, identity.namespace, queue);
    if (clusterQueue === undefined) {
      note(`${missing}: not counted against a ClusterQueue`);
      continue;
    }
    const never = neverAdmittedReason(index, identity.namespace, queue, podSets.podSets);
    if (never !== undefined) {
      note(`never admitted: ${never}`, true, clusterQueue, never);
      const asked = askedUsage(podSets.podSets, capacity(clusterQueue)!);
      addUsage(usage, clusterQueue, asked);
      addUsage(neverUsage, clusterQueue, asked);
      neverJobs.set(clusterQueue, [...neverJobs.get(clusterQueue) ?? [], jobKey(identity)]);
      continue;
    }
    const placement = placeWorkload(podSets.podSets, capacity(clusterQueue)!);
    if (placement.failure !== undefined) {
      // Still demand: the podsets placed where they went, the others where their pods ask first.
      const placed = new Set(placement.placed.map(p => p.podSet));
      // Only whole podsets: the failing one may have taken a flavor of an earlier resource group.
      for (const p of placement.placed) addUsage(usage, clusterQueue, new Map([...p.requests].map(([r, v]) => [`${p.flavors.get(r)} ${r}`, v])));
      addUsage(usage, clusterQueue, askedUsage(podSets.podSets.filter(p => !placed.has(p.name)), capacity(clusterQueue)!));
      note(`on an idle ClusterQueue "${clusterQueue}", Kueue's first choice of flavors leaves no room for podset "${placement.failure.podSet}"; `
        + 'it may still be admitted in other flavors: counted, that podset and those after it in the first flavor their pods may use', false, clusterQueue);
    } else {
      addUsage(usage, clusterQueue, placement.usage);
    }
    jobs.set(clusterQueue, [...jobs.get(clusterQueue) ?? [], jobKey(identity)]);
  }
  const clusterQueues = [...index.clusterQueues.keys()].sort(compare).map(name => {
    const cq = capacity(name)!;
    const sums = usage.get(name) ?? new Map<string, bigint>();
    const neverSums = neverUsage.get(name) ?? new Map<string, bigint>();
    const rows: FlavorRow[] = cq.groups.flatMap(g => g.flavors.flatMap(f => [...f.quotas].map(([resource, q]) => ({
      flavor: f.flavor,
      resource,
      requested: sums.get(`${f.flavor} ${resource}`) ?? BigInt(0),
      nominal: q.nominal,
      ...(q.borrowingLimit === undefined ? {} : { borrowingLimit: q.borrowingLimit }),
      ...(q.limit === undefined ? {} : { limit: q.limit }),
      neverAdmitted: neverSums.get(`${f.flavor} ${resource}`) ?? BigInt(0),
    }))));
    // What never-admitted jobs ask of a resource no group covers: a row of its own, with no quota.
    for (const [key, v] of neverSums) {
      if (!key.startsWith(`${UNCOVERED} `)) continue;
      const resource = key.slice(UNCOVERED.length + 1);
      rows.push({ flavor: UNCOVERED, resource, requested: v, nominal: BigInt(0), limit: BigInt(0), neverAdmitted: v });
    }
    const cohortNote = cq.cohortNote === undefined ? {} : { cohortNote: cq.cohortNote };
    const neverAdmitted = (neverJobs.get(name) ?? []).sort(compare);
    return { name, cohort: cq.cohort, ...cohortNote, jobs: (jobs.get(name) ?? []).sort(compare), neverAdmitted, rows };
  });
  const key = (n: QueueNote) => jobKey(n);
  notes.sort((a, b) => Number(b.neverAdmitted) - Number(a.neverAdmitted) || compare(key(a), key(b)));
  return { clusterQueues, notes };
}

/** The flavor of the rows of a resource no resource group covers. */
export const UNCOVERED = '(not covered)';

/**
 * Where a job the ClusterQueue never admits asks for its requests, per `flavor resource`: for each
 * podset and resource group, the first flavor Kueue would give its pods at all (node labels,
 * taints, topology), else the group's first; a resource no group covers goes to UNCOVERED.
 */
export function askedUsage(podSets: readonly PodSet[], cq: ClusterQueueCapacity): Map<string, bigint> {
  const usage = new Map<string, bigint>();
  for (const podSet of podSets) {
    for (const [resource, v] of queueRequests(podSet, cq)) {
      const group = cq.groups.find(g => g.covered.includes(resource));
      const flavor = group === undefined ? undefined : group.flavors.find(f => rejection(podSet, group, f, cq) === undefined) ?? group.flavors[0];
      const key = `${flavor?.flavor ?? UNCOVERED} ${resource}`;
      usage.set(key, (usage.get(key) ?? BigInt(0)) + v);
    }
  }
  return usage;
}

/**
 * What a row's demand means against the quota: the demand of the jobs it may admit within nominal,
 * borrowed, or more than the queue can get at once; then what jobs never admitted ask on top.
 */
export function rowState(row: FlavorRow): string {
  const show = (v: bigint) => formatResource(row.resource, v);
  const admitted = row.requested - row.neverAdmitted;
  const never = row.neverAdmitted > BigInt(0) ? `, and ${show(row.neverAdmitted)} asked by jobs never admitted` : '';
  // "Within nominal quota" would read as if the row fitted when only jobs never admitted ask.
  if (admitted === BigInt(0) && row.neverAdmitted > BigInt(0)) return `${show(row.neverAdmitted)} asked by jobs never admitted, nothing by the others`;
  if (admitted <= row.nominal) return `within nominal quota${never}`;
  if (row.limit === undefined || admitted <= row.limit) return `borrows ${show(admitted - row.nominal)}${never}`;
  return `${show(admitted - row.limit)} above what it can get: jobs wait${never}`;
}

/** The change of one ClusterQueue's demand in one flavor and resource. */
export interface QueueChange {
  readonly clusterQueue: string;
  readonly flavor: string;
  readonly resource: string;
  readonly before: bigint;
  readonly after: bigint;
  readonly limit?: bigint;
  /** The part of `after` asked by jobs the ClusterQueue never admits (0 when none). */
  readonly neverAdmitted: bigint;
}

/** The (ClusterQueue, flavor, resource) whose demand moved from `before` to `after`, in the after plan's order. */
export function queueChanges(before: QueuePlan | undefined, after: QueuePlan | undefined): QueueChange[] {
  const rowsOf = (p: QueuePlan | undefined) => (p?.clusterQueues ?? []).flatMap(cq => cq.rows.map(r => ({ clusterQueue: cq.name, ...r })));
  const old = new Map(rowsOf(before).map(r => [`${r.clusterQueue} ${r.flavor} ${r.resource}`, r]));
  const now = rowsOf(after);
  const seen = new Set(now.map(r => `${r.clusterQueue} ${r.flavor} ${r.resource}`));
  const changes: QueueChange[] = now.map(r => ({
    clusterQueue: r.clusterQueue,
    flavor: r.flavor,
    resource: r.resource,
    before: old.get(`${r.clusterQueue} ${r.flavor} ${r.resource}`)?.requested ?? BigInt(0),
    after: r.requested,
    ...(r.limit === undefined ? {} : { limit: r.limit }),
    neverAdmitted: r.neverAdmitted,
  }));
  for (const [k, r] of old) {
    if (seen.has(k)) continue;
    const gone = { before: r.requested, after: BigInt(0), neverAdmitted: BigInt(0) };
    changes.push({ clusterQueue: r.clusterQueue, flavor: r.flavor, resource: r.resource, ...gone });
  }
  return changes.filter(c => c.before !== c.after);
}
