/**
 * The plan as JSON (`plan --format json`), for scripts and dashboards. The shape is documented in
 * docs/cli.md and fixed by test/cli/plan.test.ts; fields are only ever added to it.
 *
 *   { jobs: [Row], workspaces: [Row], queues: [Total], namespaces: [Total], notes: [Note] }
 *   with --against, also change: { added: [Row], removed: [Row], changed: [{ before, after, difference }],
 *                                  queues: [{ queue, pods, difference }] }
 *
 * Row: { kind, namespace, name, queue, roles: [{ role, pods }], pods, demand, elasticMaxWorkers?,
 * workspace?: { kind, podConfig, paused } }; Total: { queue | namespace, jobs, workspaces, pods,
 * demand }; Note: { kind, namespace, name, note }; demand and difference: { accelerators: { name:
 * count }, cpu, milliCpu, memory, memoryBytes }, with cpu and memory written as in the tables.
 * `''` is no queue or no namespace.
 */
import { Amounts, formatBytes, formatCpu, subtract } from './amounts';
import { JobPlan, Plan, PlanChange, Total, workloads } from './plan';

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
  };
}

const total = (what: 'queue' | 'namespace') => (t: Total) =>
  ({ [what]: t.key, jobs: t.jobs, workspaces: t.workspaces, pods: t.pods, demand: demand(t.amounts) });

function planObject(plan: Plan): object {
  return {
    jobs: plan.jobs.map(row),
    workspaces: plan.workspaces.map(row),
    queues: plan.byQueue.map(total('queue')),
    namespaces: plan.byNamespace.map(total('namespace')),
    notes: workloads(plan).filter(j => j.note !== undefined).map(j => ({ kind: j.kind, namespace: j.namespace, name: j.name, note: j.note })),
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
      queues: change.byQueue.map(q => ({ queue: q.key, pods: q.pods, difference: demand(subtract(q.after, q.before)) })),
    },
    ...planObject(after),
  };
  return `${JSON.stringify(object, undefined, 2)}\n`;
}
