/**
 * Kueue's webhook (sigs.k8s.io/kueue v0.15.2 pkg/controller/jobframework/validation.go
 * ValidateQueueName) refuses a job of a kind it manages whose queue-name label is not a DNS-1123
 * subdomain (it names a LocalQueue). A label value allows more (capitals, "_"), so the label rule
 * alone lets such a name through; Kueue then refuses the whole job.
 */
import { apiVersionOf } from '../../kinds/kind';
import { KUEUE_QUEUED_KINDS } from '../../kinds/kind-table';
import { AppDocument, AppFinding } from '../app-document';
import { DNS1123_SUBDOMAIN_TEXT, isDns1123Subdomain } from '../kubernetes/names';
import { Rule } from '../rule';
import { KUEUE_QUEUE_LABEL } from './labels';

export const KUEUE_QUEUE_NAME = new Rule('kueue', 'kueue/queue-name', 'app',
  'kueue v0.15.2 pkg/controller/jobframework/validation.go ValidateQueueName (the kueue.x-k8s.io/queue-name label of a job Kueue manages: IsDNS1123Subdomain)',
  'on a PyTorchJob, TFJob, XGBoostJob, PaddleJob, JAXJob or TrainJob, the queue-name label is a DNS-1123 subdomain (it names a LocalQueue)');

/**
 * The kinds whose Kueue webhook runs ValidateJobOnCreate (jobframework BaseWebhook,
 * trainjob_webhook.go): the kinds Kueue queues, from the kind table.
 */
const KUEUE_KINDS = new Set(KUEUE_QUEUED_KINDS.map(k => `${apiVersionOf(k)} ${k.kind}`));

export function kueueQueueNames(docs: readonly AppDocument[], out: AppFinding[]): void {
  for (const d of docs) {
    if (!KUEUE_KINDS.has(`${d.doc?.apiVersion} ${d.doc?.kind}`)) continue;
    const queue = d.doc.metadata?.labels?.[KUEUE_QUEUE_LABEL];
    if (queue === undefined || isDns1123Subdomain(queue)) continue;
    out.push({
      path: d.path,
      finding: {
        field: `metadata.labels["${KUEUE_QUEUE_LABEL}"]`,
        value: queue,
        rule: KUEUE_QUEUE_NAME.id,
        allowed: `expected ${DNS1123_SUBDOMAIN_TEXT}: it names a LocalQueue, and Kueue's webhook refuses the job otherwise`,
      },
    });
  }
}
