/** Labels Kueue reads on a job (Kueue's `constants.QueueLabel` and `WorkloadPriorityClassLabel`). */
export const KUEUE_QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';
export const KUEUE_PRIORITY_LABEL = 'kueue.x-k8s.io/priority-class';
