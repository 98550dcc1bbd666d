import { mergeMaps } from '../../util/collections';

/** Labels Kueue reads on a job (Kueue's `constants.QueueLabel` and `WorkloadPriorityClassLabel`). */
export const KUEUE_QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';
export const KUEUE_PRIORITY_LABEL = 'kueue.x-k8s.io/priority-class';

/**
 * The labels Kueue reads on a job of any API (v1 training jobs, TrainJobs), under the platform's
 * own labels: the queue, then the workload priority class.
 */
export function kueueJobLabels(platformLabels: { [key: string]: string } | undefined, queue: string | undefined,
  priorityClass: string | undefined): { [key: string]: string } | undefined {
  return mergeMaps(
    platformLabels,
    queue ? { [KUEUE_QUEUE_LABEL]: queue } : undefined,
    priorityClass ? { [KUEUE_PRIORITY_LABEL]: priorityClass } : undefined);
}
