/**
 * A job handed to MultiKueue (`managedBy: kueue.x-k8s.io/multikueue`) is ignored by the local
 * operator and dispatched only by Kueue from a LocalQueue; without the queue-name label no
 * controller ever runs it. Kueue dispatches it only through the MultiKueue AdmissionCheck of the
 * queue's ClusterQueue: where the input defines the LocalQueue and its ClusterQueue and that queue
 * has no admission check (or only checks the input defines with another controller), Kueue admits
 * the job here, reserves its quota and lifts its suspension, and still nothing runs it (seen on
 * Kueue v0.15.2 with the Trainer v2.3.0 in the control-plane tier).
 */
import { AppDocument, AppFinding } from '../app-document';
import { Rule } from '../rule';

export const MULTIKUEUE_QUEUE = new Rule('kueue', 'app/multikueue-queue', 'app',
  'kueue MultiKueue: a job managed by kueue.x-k8s.io/multikueue is dispatched only from the LocalQueue in its kueue.x-k8s.io/queue-name label');

const MULTIKUEUE = 'kueue.x-k8s.io/multikueue';
const QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';
const KUEUE_GROUP = 'kueue.x-k8s.io/';

const kueueObjects = (docs: readonly AppDocument[], kind: string) =>
  docs.filter(d => typeof d.doc?.apiVersion === 'string' && d.doc.apiVersion.startsWith(KUEUE_GROUP) && d.doc.kind === kind);

export function multiKueueWithoutQueue(docs: readonly AppDocument[], out: AppFinding[]): void {
  for (const d of docs) {
    const spec = d.doc?.spec;
    // Kubeflow v1 jobs say it in runPolicy, Trainer v2 TrainJobs in spec.
    const field = spec?.runPolicy?.managedBy === MULTIKUEUE ? 'spec.runPolicy.managedBy' : spec?.managedBy === MULTIKUEUE ? 'spec.managedBy' : undefined;
    if (field === undefined) continue;
    const queue = d.doc.metadata?.labels?.[QUEUE_LABEL];
    if (typeof queue === 'string' && queue !== '') {
      withoutMultiKueueCheck(docs, d, queue, out);
      continue;
    }
    out.push({
      path: d.path,
      finding: {
        field: `metadata.labels["${QUEUE_LABEL}"]`,
        value: queue,
        rule: MULTIKUEUE_QUEUE.id,
        allowed: `expected the name of a Kueue LocalQueue when ${field} is "${MULTIKUEUE}" (without it no controller runs the job)`,
      },
    });
  }
}

/** The ClusterQueue behind the job's LocalQueue, when the input defines both, and it has no MultiKueue check. */
function withoutMultiKueueCheck(docs: readonly AppDocument[], d: AppDocument, queue: string, out: AppFinding[]): void {
  const namespace = d.doc.metadata?.namespace ?? 'default';
  const local = kueueObjects(docs, 'LocalQueue').find(l => l.doc.metadata?.name === queue && (l.doc.metadata?.namespace ?? 'default') === namespace);
  const clusterQueueName = local?.doc.spec?.clusterQueue;
  const clusterQueue = kueueObjects(docs, 'ClusterQueue').find(c => c.doc.metadata?.name === clusterQueueName);
  if (clusterQueue === undefined) return;
  const spec = clusterQueue.doc.spec ?? {};
  const named: string[] = [
    ...(Array.isArray(spec.admissionChecks) ? spec.admissionChecks : []),
    ...(Array.isArray(spec.admissionChecksStrategy?.admissionChecks) ? spec.admissionChecksStrategy.admissionChecks.map((c: any) => c?.name) : []),
  ].filter((n): n is string => typeof n === 'string');
  const checks = kueueObjects(docs, 'AdmissionCheck');
  // A check the input does not define may be MultiKueue's: only the input's own checks are judged.
  const judged = named.every(n => checks.some(c => c.doc.metadata?.name === n));
  if (named.length > 0 && (!judged || named.some(n => checks.find(c => c.doc.metadata?.name === n)?.doc.spec?.controllerName === MULTIKUEUE))) return;
  const why = named.length === 0 ? 'has no admission check' : `has only admission checks of other controllers (${named.map(n => `"${n}"`).join(', ')})`;
  out.push({
    path: d.path,
    finding: {
      field: `metadata.labels["${QUEUE_LABEL}"]`,
      value: queue,
      rule: MULTIKUEUE_QUEUE.id,
      allowed: `expected a LocalQueue whose ClusterQueue has MultiKueue's AdmissionCheck (controllerName "${MULTIKUEUE}"): ClusterQueue "${clusterQueueName}" ${why}, `
        + 'so Kueue admits the job in this cluster, reserves its quota and lifts its suspension, and nothing runs it (its own controller leaves a job managed by MultiKueue alone)',
    },
  });
}
