import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';

/**
 * A Kueue LocalQueue of this app that a job names (the `localQueue` prop of the v1 jobs and of
 * TrainJob): the job writes its name as the `kueue.x-k8s.io/queue-name` label, is written after it,
 * and must be in its namespace (Kueue looks the queue up in the job's namespace only).
 * The `LocalQueue` construct implements it.
 */
export interface ILocalQueue extends IConstruct {
  /** The LocalQueue's API object, which the job's document is ordered after. */
  readonly apiObject: ApiObject;
}

/**
 * A Kueue WorkloadPriorityClass of this app that a job names (the `workloadPriority` prop): the
 * job writes its name as the `kueue.x-k8s.io/priority-class` label and is written after it (Kueue
 * creates no Workload for a job whose class does not exist). The `WorkloadPriorityClass` construct
 * implements it.
 */
export interface IWorkloadPriorityClass extends IConstruct {
  /** The class's API object, which the job's document is ordered after. */
  readonly apiObject: ApiObject;
}
