/**
 * The plan as Markdown for a pull-request comment (`--format markdown`, the default) or as plain
 * text for a terminal (`--format text`, the same content with aligned columns): one row per job and
 * per workspace, totals per Kueue queue and per namespace, with ClusterQueues in the input the
 * demand per ClusterQueue and flavor against quota and the jobs never admitted, and with
 * `--against`, the jobs and workspaces added, removed and changed and the change per queue (and per
 * ClusterQueue and flavor).
 */
import { Amounts, formatAccelerators, formatBytes, formatCpu, subtract } from './amounts';
import { JobPlan, Plan, PlanChange, Total } from './plan';
import { QueuePlan, jobKey, rowState } from './plan-queues';
import { formatResource } from '../../rules/kueue/capacity-amounts';

const NONE = '(none)';

/** How headings and tables are written. */
interface Style {
  readonly heading: (level: 2 | 3, title: string) => string[];
  readonly table: (header: readonly string[], rows: ReadonlyArray<readonly string[]>) => string[];
}

const MARKDOWN: Style = {
  heading: (level, title) => [`${'#'.repeat(level)} ${title}`],
  table: (header, rows) => {
    const escape = (s: string) => s.replace(/\|/g, '\\|');
    return [
      `| ${header.join(' | ')} |`,
      `|${header.map(() => '---').join('|')}|`,
      ...rows.map(r => `| ${r.map(escape).join(' | ')} |`),
    ];
  },
};

const TEXT: Style = {
  heading: (level, title) => [title, (level === 2 ? '=' : '-').repeat(title.length)],
  table: (header, rows) => {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)));
    const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
    return [line(header), line(widths.map(w => '-'.repeat(w))), ...rows.map(line)];
  },
};

const name = (j: JobPlan) => (j.namespace === '' ? j.name : `${j.namespace}/${j.name}`);
const queue = (q: string) => (q === '' ? NONE : q);
const roles = (j: JobPlan) => j.roles
  .map(([t, n]) => (t === 'Worker' && j.elasticMaxWorkers !== undefined ? `${t} ${n} (elastic, up to ${j.elasticMaxWorkers})` : `${t} ${n}`))
  .join(', ') || '-';
const amountCells = (a: Amounts) => [formatAccelerators(a.accelerators), formatCpu(a.milliCpu), formatBytes(a.memoryBytes)];

/** A job's queue, and that Kueue never admits the job (its amounts count all the same). */
const jobQueue = (j: JobPlan) => `${queue(j.queue)}${j.neverAdmitted === undefined ? '' : ' (never admitted)'}`;

/** A queue's or ClusterQueue's name, with how many of its jobs Kueue never admits. */
const withNever = (label: string, n: number) => (n === 0 ? label : `${label} (${n} never admitted)`);

/** The jobs' rows; a job Kueue never admits says so next to its queue. */
function jobRows(jobs: readonly JobPlan[]): string[][] {
  return jobs.map(j => [name(j), j.kind, jobQueue(j), roles(j), ...amountCells(j.amounts)]);
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** A ClusterQueue's label: the jobs its rows count, and how many of them it never admits. */
const clusterQueueLabel = (cq: { readonly name: string; readonly jobs: readonly string[]; readonly neverAdmitted: readonly string[] }) =>
  `${cq.name} (${plural(cq.jobs.length + cq.neverAdmitted.length, 'job')}${cq.neverAdmitted.length === 0 ? '' : `, ${cq.neverAdmitted.length} never admitted`})`;
const quantity = (resource: string, v: bigint | undefined) => (v === undefined ? '-' : formatResource(resource, v));

/** Demand per ClusterQueue and flavor against quota, the cohorts, and the jobs it leaves out. */
function queueSection(style: Style, q: QueuePlan): string[] {
  const rows = q.clusterQueues.flatMap(cq => cq.rows.map(r => [
    clusterQueueLabel(cq), r.flavor, r.resource, quantity(r.resource, r.requested),
    quantity(r.resource, r.nominal), quantity(r.resource, r.borrowingLimit), r.limit === undefined ? 'not bounded by the input' : quantity(r.resource, r.limit), rowState(r),
  ]));
  const lines = [
    ...style.heading(3, 'Per ClusterQueue and flavor'), '',
    ...style.table(['ClusterQueue', 'Flavor', 'Resource', 'Requested', 'Nominal quota', 'Borrowing limit', 'At most', 'State'], rows), '',
    'Each job is placed as Kueue places it on an idle queue (its first flavor with room); "At most" is nominal quota plus what the queue may borrow.',
    ...(q.clusterQueues.some(cq => cq.neverAdmitted.length > 0)
      ? ['A job a ClusterQueue never admits is counted where it asks (the first flavor its pods may use) and named under "Never admitted".'] : []),
    '',
  ];
  const cohorts = q.clusterQueues.filter(cq => cq.cohortNote !== undefined).map(cq => `- ClusterQueue ${cq.name}: ${cq.cohortNote}`);
  if (cohorts.length > 0) lines.push(...cohorts, '');
  const never = q.notes.filter(n => n.neverAdmitted);
  if (never.length > 0) {
    lines.push(...style.heading(3, `Never admitted: ${never.length}`), '', ...never.map(n => `- ${jobKey(n)}: ${n.note.replace(/^never admitted: /, '')}`), '');
  }
  const others = q.notes.filter(n => !n.neverAdmitted).map(n => `- ${jobKey(n)}: ${n.note}`);
  if (others.length > 0) lines.push(...others, '');
  return lines;
}

const JOB_HEADER = ['Job', 'Kind', 'Queue', 'Pods', 'Accelerators', 'CPU', 'Memory'];
const WORKSPACE_HEADER = ['Workspace', 'Kind', 'Queue', 'Pod config', 'Accelerators', 'CPU', 'Memory'];

function workspaceRows(workspaces: readonly JobPlan[]): string[][] {
  return workspaces.map(w => [
    name(w), w.workspace!.kind, queue(w.queue), `${w.workspace!.podConfig}${w.workspace!.paused ? ' (paused)' : ''}`, ...amountCells(w.amounts),
  ]);
}

/** The totals' columns; a Workspaces column when the plan has workspaces. */
function totalTable(style: Style, what: string, totals: readonly Total[], label: (k: string) => string, withWorkspaces: boolean): string[] {
  const header = [what, 'Jobs', ...(withWorkspaces ? ['Workspaces'] : []), 'Pods', 'Accelerators', 'CPU', 'Memory'];
  return style.table(header, totals.map(t => [
    withNever(label(t.key), t.neverAdmitted), String(t.jobs), ...(withWorkspaces ? [String(t.workspaces)] : []), String(t.pods),
    ...amountCells(t.amounts),
  ]));
}

const noteLines = (rows: readonly JobPlan[]) => rows.filter(j => j.note !== undefined).map(j => `- ${j.kind} ${name(j)}: ${j.note}`);

/** The plan of one input. */
export function planMarkdown(plan: Plan, style: Style = MARKDOWN): string {
  const lines = [...style.heading(2, `Training jobs: ${plan.jobs.length}`), ''];
  if (plan.jobs.length === 0) lines.push('No training jobs.', '');
  else lines.push(...style.table(JOB_HEADER, jobRows(plan.jobs)), '');
  const jobNotes = noteLines(plan.jobs);
  if (jobNotes.length > 0) lines.push(...jobNotes, '');
  const withWorkspaces = plan.workspaces.length > 0;
  if (withWorkspaces) {
    lines.push(...style.heading(2, `Notebook workspaces: ${plan.workspaces.length}`), '', ...style.table(WORKSPACE_HEADER, workspaceRows(plan.workspaces)), '');
    const workspaceNotes = noteLines(plan.workspaces);
    if (workspaceNotes.length > 0) lines.push(...workspaceNotes, '');
  }
  if (plan.jobs.length === 0 && !withWorkspaces) return lines.join('\n');
  lines.push(...style.heading(3, 'Per queue'), '', ...totalTable(style, 'Queue', plan.byQueue, queue, withWorkspaces), '');
  lines.push(...style.heading(3, 'Per namespace'), '', ...totalTable(style, 'Namespace', plan.byNamespace, n => (n === '' ? '(not set)' : n), withWorkspaces), '');
  if (plan.queues !== undefined) lines.push(...queueSection(style, plan.queues));
  return lines.join('\n');
}

/** The plan of one input as plain text. */
export function planText(plan: Plan): string {
  return planMarkdown(plan, TEXT);
}

const signedInt = (n: number | bigint) => (n > 0 ? `+${n}` : `${n}`);
const signedCpu = (m: bigint) => (m > BigInt(0) ? `+${formatCpu(m)}` : formatCpu(m));
const signedBytes = (b: bigint) => (b > BigInt(0) ? `+${formatBytes(b)}` : formatBytes(b));

/** What changed from one input to another. */
export function changeMarkdown(change: PlanChange, after: Plan, style: Style = MARKDOWN): string {
  const lines = [
    ...style.heading(2, `Change: ${change.added.length} added, ${change.removed.length} removed, ${change.changed.length} changed`), '',
  ];
  const rows: string[][] = [
    ...change.added.map(j => ['added', name(j), j.kind, jobQueue(j), roles(j), ...amountCells(j.amounts)]),
    ...change.removed.map(j => ['removed', name(j), j.kind, jobQueue(j), roles(j), ...amountCells(j.amounts)]),
    ...change.changed.map(({ before, after: now }) => {
      const d = subtract(now.amounts, before.amounts);
      const q = jobQueue(before) === jobQueue(now) ? jobQueue(now) : `${jobQueue(before)} -> ${jobQueue(now)}`;
      const r = roles(before) === roles(now) ? roles(now) : `${roles(before)} -> ${roles(now)}`;
      return ['changed', name(now), now.kind, q, r, formatAccelerators(d.accelerators, true), signedCpu(d.milliCpu), signedBytes(d.memoryBytes)];
    }),
  ];
  if (rows.length === 0) {
    lines.push('No training job changed.', '');
  } else {
    lines.push(...style.table(['Change', 'Job', 'Kind', 'Queue', 'Pods', 'Accelerators', 'CPU', 'Memory'], rows), '');
    lines.push('Changed jobs show the difference in accelerators, CPU and memory.', '');
  }
  if (change.byQueue.length > 0) {
    lines.push(...style.heading(3, 'Change per queue'), '', ...style.table(['Queue', 'Pods', 'Accelerators', 'CPU', 'Memory'], change.byQueue.map(q => {
      const d = subtract(q.after, q.before);
      return [withNever(queue(q.key), q.neverAdmitted), signedInt(q.pods), formatAccelerators(d.accelerators, true), signedCpu(d.milliCpu),
        signedBytes(d.memoryBytes)];
    })), '');
  }
  if (change.byClusterQueue.length > 0) {
    const signed = (resource: string, v: bigint) => (v > BigInt(0) ? `+${formatResource(resource, v)}` : formatResource(resource, v));
    const never = new Map((after.queues?.clusterQueues ?? []).map(cq => [cq.name, cq.neverAdmitted.length]));
    // A row that jobs never admitted ask for names how many there are on its ClusterQueue.
    const label = (c: PlanChange['byClusterQueue'][number]) => withNever(c.clusterQueue, c.neverAdmitted > BigInt(0) ? never.get(c.clusterQueue) ?? 0 : 0);
    lines.push(...style.heading(3, 'Change per ClusterQueue and flavor'), '', ...style.table(
      ['ClusterQueue', 'Flavor', 'Resource', 'Before', 'After', 'Change', 'At most'],
      change.byClusterQueue.map(c => [label(c), c.flavor, c.resource,
        quantity(c.resource, c.before), quantity(c.resource, c.after),
        signed(c.resource, c.after - c.before), c.limit === undefined ? 'not bounded by the input' : quantity(c.resource, c.limit)]),
    ), '');
  }
  const title = `Training jobs: ${after.jobs.length}`;
  const afterTitle = `Training jobs after the change: ${after.jobs.length}`;
  const heading = style.heading(2, title).join('\n');
  lines.push(`${style.heading(2, afterTitle).join('\n')}${planMarkdown(after, style).slice(heading.length)}`);
  return lines.join('\n');
}

/** What changed from one input to another, as plain text. */
export function changeText(change: PlanChange, after: Plan): string {
  return changeMarkdown(change, after, TEXT);
}
