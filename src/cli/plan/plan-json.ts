/**
 * The plan as JSON (`plan --format json`), for scripts and dashboards. The shape is documented in
 * docs/cli.md and fixed by test/cli/plan/plan.test.ts; fields are only ever added to it.
 *
 *   { jobs: [Row], workspaces: [Row], queues: [Total], namespaces: [Total], notes: [Note] }
 *   with --against, also change: { added: [Row], removed: [Row], changed: [{ before, after, difference }],
 *                                  queues: [{ queue, pods, difference }] }
 *
 * Row: { kind, namespace, name, queue, roles: [{ role, pods }], pods, demand, elasticMaxWorkers?,
 * workspace?: { kind, podConfig, paused }, neverAdmitted?: reason }; Total: { queue | namespace,
 * jobs, workspaces, pods, demand, neverAdmitted?: count }; a job Kueue never admits keeps its
 * demand in every total, and `neverAdmitted` says so where it is counted. Note: { kind, namespace, name, note }; demand and difference: { accelerators: { name:
 * count }, cpu, milliCpu, memory, memoryBytes }, with cpu and memory written as in the tables.
 * `''` is no queue or no namespace.
 *
 * With ClusterQueues in the input (or `--queues`), also clusterQueues: [{ clusterQueue, cohort,
 * cohortNote?, jobs: ['Kind namespace/name'], neverAdmitted: ['Kind namespace/name'], flavors:
 * [{ flavor, resource, requested, nominalQuota, borrowingLimit, atMost, state, neverAdmitted? }] }]
 * (requested counts the jobs never admitted too, neverAdmitted the part they ask for), neverAdmitted: [{ kind, namespace, name,
 * queue, clusterQueue, reason }] and queueNotes: [{ kind, namespace, name, queue, note }] (jobs the quota view
 * does not count); amounts there are strings written as in the tables, borrowingLimit and atMost
 * null when there is none; and under change, clusterQueues: [{ clusterQueue, flavor, resource,
 * before, after, difference, atMost, neverAdmitted? }].
 */
import { Amounts, formatBytes, formatCpu, subtract } from './amounts';
import { JobPlan, Plan, PlanChange, Total, workloads } from './plan';
import { QueuePlan, rowState } from './plan-queues';
import { formatResource } from '../../rules/kueue/capacity-amounts';

const quantity = (resource: string, v: bigint | undefined) => (v === undefined ? null : formatResource(resource, v));

function queueObject(q: QueuePlan): object {
  const job = (n: QueuePlan['notes'][number]) => ({ kind: n.kind, namespace: n.namespace, name: n.name, queue: n.queue });
  return {
    clusterQueues: q.clusterQueues.map(cq => ({
      clusterQueue: cq.name,
      cohort: cq.cohort,
      ...(cq.cohortNote === undefined ? {} : { cohortNote: cq.cohortNote }),
      jobs: cq.jobs,
      neverAdmitted: cq.neverAdmitted,
      flavors: cq.rows.map(r => ({
        flavor: r.flavor,
        resource: r.resource,
        requested: quantity(r.resource, r.requested),
        nominalQuota: quantity(r.resource, r.nominal),
        borrowingLimit: quantity(r.resource, r.borrowingLimit),
        atMost: quantity(r.resource, r.limit),
        state: rowState(r),
        ...(r.neverAdmitted === BigInt(0) ? {} : { neverAdmitted: quantity(r.resource, r.neverAdmitted) }),
      })),
    })),
    neverAdmitted: q.notes.filter(n => n.neverAdmitted).map(n => ({ ...job(n), clusterQueue: n.clusterQueue, reason: n.reason })),
    queueNotes: q.notes.filter(n => !n.neverAdmitted).map(n => ({ ...job(n), note: n.note })),
  };
}

function demand(a: Amounts): object {
  const accelerators: { [name: string]: number } = {};
  for (const [name, n] of a.accelerators) if (n !== BigInt(0)) accelerators[name] = Number(n);
  return {
    accelerators,
    cpu: formatCpu(a.milliCpu),
    milliCpu: Number(a.milliCpu),
    memory: formatBytes(a.memoryBytes),
    memoryBytes: Number(a.memoryBytes),
  };
}

function row(j: JobPlan): object {
  return {
    kind: j.kind,
    namespace: j.namespace,
    name: j.name,
    queue: j.queue,
    roles: j.roles.map(([role, pods]) => ({ role, pods })),
    pods: j.pods,
    demand: demand(j.amounts),
    ...(j.elasticMaxWorkers === undefined ? {} : { elasticMaxWorkers: j.elasticMaxWorkers }),
    ...(j.workspace === undefined ? {} : { workspace: { kind: j.workspace.kind, podConfig: j.workspace.podConfig, paused: j.workspace.paused } }),
    ...(j.neverAdmitted === undefined ? {} : { neverAdmitted: j.neverAdmitted }),
  };
}

const total = (what: 'queue' | 'namespace') => (t: Total) =>
  ({ [what]: t.key, jobs: t.jobs, workspaces: t.workspaces, pods: t.pods, demand: demand(t.amounts), ...neverCount(t.neverAdmitted) });

/** `neverAdmitted: n` when some job is never admitted; nothing otherwise, so a plan without one reads as it always did. */
const neverCount = (n: number) => (n === 0 ? {} : { neverAdmitted: n });

function planObject(plan: Plan): object {
  return {
    jobs: plan.jobs.map(row),
    workspaces: plan.workspaces.map(row),
    queues: plan.byQueue.map(total('queue')),
    namespaces: plan.byNamespace.map(total('namespace')),
    notes: workloads(plan).filter(j => j.note !== undefined).map(j => ({ kind: j.kind, namespace: j.namespace, name: j.name, note: j.note })),
    ...(plan.queues === undefined ? {} : queueObject(plan.queues)),
  };
}

/** The plan of one input. */
export function planJson(plan: Plan): string {
  return `${JSON.stringify(planObject(plan), undefined, 2)}\n`;
}

/** What changed from one input to another, then the plan after the change. */
export function changeJson(change: PlanChange, after: Plan): string {
  const object = {
    change: {
      added: change.added.map(row),
      removed: change.removed.map(row),
      changed: change.changed.map(c => ({
        before: row(c.before),
        after: row(c.after),
        difference: demand(subtract(c.after.amounts, c.before.amounts)),
      })),
      queues: change.byQueue.map(q => ({
        queue: q.key, pods: q.pods, difference: demand(subtract(q.after, q.before)), ...neverCount(q.neverAdmitted),
      })),
      ...(after.queues === undefined && change.byClusterQueue.length === 0 ? {} : {
        clusterQueues: change.byClusterQueue.map(c => ({
          clusterQueue: c.clusterQueue,
          flavor: c.flavor,
          resource: c.resource,
          before: quantity(c.resource, c.before),
          after: quantity(c.resource, c.after),
          difference: quantity(c.resource, c.after - c.before),
          atMost: quantity(c.resource, c.limit),
          ...(c.neverAdmitted === BigInt(0) ? {} : { neverAdmitted: quantity(c.resource, c.neverAdmitted) }),
        })),
      }),
    },
    ...planObject(after),
  };
  return `${JSON.stringify(object, undefined, 2)}\n`;
}
