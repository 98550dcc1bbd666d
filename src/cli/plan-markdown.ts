/**
 * The plan as Markdown for a pull-request comment: one row per job, totals per Kueue queue and per
 * namespace, and with `--against`, the jobs added, removed and changed and the change per queue.
 */
import { Amounts, formatAccelerators, formatBytes, formatCpu, subtract } from './amounts';
import { JobPlan, Plan, PlanChange, Total } from './plan';

const NONE = '(none)';

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const escape = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map(r => `| ${r.map(escape).join(' | ')} |`),
  ];
}

const name = (j: JobPlan) => (j.namespace === '' ? j.name : `${j.namespace}/${j.name}`);
const queue = (q: string) => (q === '' ? NONE : q);
const roles = (j: JobPlan) => j.roles
  .map(([t, n]) => (t === 'Worker' && j.elasticMaxWorkers !== undefined ? `${t} ${n} (elastic, up to ${j.elasticMaxWorkers})` : `${t} ${n}`))
  .join(', ') || '-';
const amountCells = (a: Amounts) => [formatAccelerators(a.accelerators), formatCpu(a.milliCpu), formatBytes(a.memoryBytes)];

function jobRows(jobs: readonly JobPlan[]): string[][] {
  return jobs.map(j => [name(j), j.kind, queue(j.queue), roles(j), ...amountCells(j.amounts)]);
}

const JOB_HEADER = ['Job', 'Kind', 'Queue', 'Pods', 'Accelerators', 'CPU', 'Memory'];
const TOTAL_HEADER = (what: string) => [what, 'Jobs', 'Pods', 'Accelerators', 'CPU', 'Memory'];

function totalRows(totals: readonly Total[], label: (k: string) => string): string[][] {
  return totals.map(t => [label(t.key), String(t.jobs), String(t.pods), ...amountCells(t.amounts)]);
}

/** The plan of one input. */
export function planMarkdown(plan: Plan): string {
  const lines = [`## Training jobs: ${plan.jobs.length}`, ''];
  if (plan.jobs.length === 0) return [...lines, 'No training jobs.', ''].join('\n');
  lines.push(...table(JOB_HEADER, jobRows(plan.jobs)), '');
  const notes = plan.jobs.filter(j => j.note !== undefined);
  if (notes.length > 0) lines.push(...notes.map(j => `- ${j.kind} ${name(j)}: ${j.note}`), '');
  lines.push('### Per queue', '', ...table(TOTAL_HEADER('Queue'), totalRows(plan.byQueue, queue)), '');
  lines.push('### Per namespace', '', ...table(TOTAL_HEADER('Namespace'), totalRows(plan.byNamespace, n => (n === '' ? '(not set)' : n))), '');
  return lines.join('\n');
}

const signedInt = (n: number | bigint) => (n > 0 ? `+${n}` : `${n}`);
const signedCpu = (m: bigint) => (m > BigInt(0) ? `+${formatCpu(m)}` : formatCpu(m));
const signedBytes = (b: bigint) => (b > BigInt(0) ? `+${formatBytes(b)}` : formatBytes(b));

/** What changed from one input to another. */
export function changeMarkdown(change: PlanChange, after: Plan): string {
  const lines = [
    `## Change: ${change.added.length} added, ${change.removed.length} removed, ${change.changed.length} changed`, '',
  ];
  const rows: string[][] = [
    ...change.added.map(j => ['added', name(j), j.kind, queue(j.queue), roles(j), ...amountCells(j.amounts)]),
    ...change.removed.map(j => ['removed', name(j), j.kind, queue(j.queue), roles(j), ...amountCells(j.amounts)]),
    ...change.changed.map(({ before, after: now }) => {
      const d = subtract(now.amounts, before.amounts);
      const q = before.queue === now.queue ? queue(now.queue) : `${queue(before.queue)} -> ${queue(now.queue)}`;
      const r = roles(before) === roles(now) ? roles(now) : `${roles(before)} -> ${roles(now)}`;
      return ['changed', name(now), now.kind, q, r, formatAccelerators(d.accelerators, true), signedCpu(d.milliCpu), signedBytes(d.memoryBytes)];
    }),
  ];
  if (rows.length === 0) {
    lines.push('No training job changed.', '');
  } else {
    lines.push(...table(['Change', 'Job', 'Kind', 'Queue', 'Pods', 'Accelerators', 'CPU', 'Memory'], rows), '');
    lines.push('Changed jobs show the difference in accelerators, CPU and memory.', '');
  }
  if (change.byQueue.length > 0) {
    lines.push('### Change per queue', '', ...table(['Queue', 'Pods', 'Accelerators', 'CPU', 'Memory'], change.byQueue.map(q => {
      const d = subtract(q.after, q.before);
      return [queue(q.key), signedInt(q.pods), formatAccelerators(d.accelerators, true), signedCpu(d.milliCpu), signedBytes(d.memoryBytes)];
    })), '');
  }
  lines.push(planMarkdown(after).replace(/^## Training jobs/, '## Training jobs after the change'));
  return lines.join('\n');
}
