/**
 * A job handed to MultiKueue (`managedBy: kueue.x-k8s.io/multikueue`) is ignored by the local
 * operator and dispatched only by Kueue from a LocalQueue; without the queue-name label no
 * controller ever runs it.
 */
import { AppDocument, AppFinding } from '../app-document';
import { Rule } from '../rule';

export const MULTIKUEUE_QUEUE = new Rule('kueue', 'app/multikueue-queue', 'app',
  'kueue MultiKueue: a job managed by kueue.x-k8s.io/multikueue is dispatched only from the LocalQueue in its kueue.x-k8s.io/queue-name label');

const MULTIKUEUE = 'kueue.x-k8s.io/multikueue';
const QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';

export function multiKueueWithoutQueue(docs: readonly AppDocument[], out: AppFinding[]): void {
  for (const d of docs) {
    const spec = d.doc?.spec;
    // Kubeflow v1 jobs say it in runPolicy, Trainer v2 TrainJobs in spec.
    const field = spec?.runPolicy?.managedBy === MULTIKUEUE ? 'spec.runPolicy.managedBy' : spec?.managedBy === MULTIKUEUE ? 'spec.managedBy' : undefined;
    if (field === undefined) continue;
    const queue = d.doc.metadata?.labels?.[QUEUE_LABEL];
    if (typeof queue === 'string' && queue !== '') continue;
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
