/**
 * A job handed to MultiKueue (`managedBy: kueue.x-k8s.io/multikueue`) is ignored by the local
 * operator and dispatched only by Kueue from a LocalQueue; without the queue-name label no
 * controller ever runs it. Kueue dispatches it only through the MultiKueue AdmissionCheck of the
 * queue's ClusterQueue: where the input defines the LocalQueue and its ClusterQueue and that queue
 * has no admission check (or only checks the input defines with another controller), Kueue admits
 * the job here, reserves its quota and lifts its suspension, and still nothing runs it (seen on
 * Kueue v0.15.2 with the Trainer v2.3.0 in the control-plane tier).
 */
import { AppFinding, namespaceOf } from '../app-document';
import type { DocumentIndex } from '../document-index';
import { Rule } from '../rule';
import { admissionCheckNamesOf, isKueueGroup } from './api';
import { QueueIndex, clusterQueueOf } from './capacity-queues';
import { KUEUE_QUEUE_LABEL } from './labels';

export const MULTIKUEUE_QUEUE = new Rule('kueue', 'kueue/multikueue-queue', 'app',
  'kueue MultiKueue: a job managed by kueue.x-k8s.io/multikueue is dispatched only from the LocalQueue in its kueue.x-k8s.io/queue-name label',
  'a job handed to MultiKueue also carries the queue-name label of a LocalQueue whose ClusterQueue uses the MultiKueue admission check, else no one runs it');

const MULTIKUEUE = 'kueue.x-k8s.io/multikueue';

export function multiKueueWithoutQueue(documents: DocumentIndex, out: AppFinding[]): void {
  const docs = documents.documents;
  const index = documents.queues;
  const checks = documents.docs.filter(doc => isKueueGroup(doc) && doc.kind === 'AdmissionCheck');
  for (const d of docs) {
    const spec = d.doc?.spec;
    // Kubeflow v1 jobs say it in runPolicy, Trainer v2 TrainJobs in spec.
    const field = spec?.runPolicy?.managedBy === MULTIKUEUE ? 'spec.runPolicy.managedBy' : spec?.managedBy === MULTIKUEUE ? 'spec.managedBy' : undefined;
    if (field === undefined) continue;
    const queue = d.doc.metadata?.labels?.[KUEUE_QUEUE_LABEL];
    const report = (allowed: string) => out.push({
      path: d.path,
      finding: { field: `metadata.labels["${KUEUE_QUEUE_LABEL}"]`, value: queue, rule: MULTIKUEUE_QUEUE.id, allowed },
    });
    if (typeof queue !== 'string' || queue === '') {
      report(`expected the name of a Kueue LocalQueue when ${field} is "${MULTIKUEUE}" (without it no controller runs the job)`);
      continue;
    }
    const missingCheck = withoutMultiKueueCheck(index, checks, namespaceOf(d.doc), queue);
    if (missingCheck !== undefined) {
      report(`expected a LocalQueue whose ClusterQueue has MultiKueue's AdmissionCheck (controllerName "${MULTIKUEUE}"): ${missingCheck}, `
        + 'so Kueue admits the job in this cluster, reserves its quota and lifts its suspension, and nothing runs it (its own controller leaves a job managed by MultiKueue alone)');
    }
  }
}

/**
 * What the ClusterQueue behind the job's LocalQueue lacks, when the input defines both and the
 * queue has no MultiKueue check; undefined otherwise. A check the input does not define may be
 * MultiKueue's: only the input's own AdmissionChecks are judged.
 */
function withoutMultiKueueCheck(index: QueueIndex, checks: readonly any[], namespace: string, queue: string): string | undefined {
  const { clusterQueue } = clusterQueueOf(index, namespace, queue);
  if (clusterQueue === undefined) return undefined;
  const named = admissionCheckNamesOf(index.clusterQueues.get(clusterQueue));
  const controllerOf = (name: string) => checks.find(c => c.metadata?.name === name)?.spec?.controllerName;
  if (named.some(n => controllerOf(n) === undefined || controllerOf(n) === MULTIKUEUE)) return undefined;
  return `ClusterQueue "${clusterQueue}" ${named.length === 0 ? 'has no admission check' : `has only admission checks of other controllers (${named.map(n => `"${n}"`).join(', ')})`}`;
}
