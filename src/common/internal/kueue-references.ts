/**
 * The Kueue objects a job names by construct (`localQueue`, `workloadPriority`) instead of by name
 * (`queue`, `workloadPriorityClass`): resolved to the names the labels carry, checked against the
 * job's namespace, and ordered before the job's document.
 */
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { fail } from '../../synth/report';
import { ILocalQueue, IWorkloadPriorityClass } from '../kueue-references';

/** The props of a job that name Kueue objects, both ways. */
export interface KueueReferenceProps {
  readonly queue?: string;
  readonly localQueue?: ILocalQueue;
  readonly workloadPriorityClass?: string;
  readonly workloadPriority?: IWorkloadPriorityClass;
  readonly metadata?: { readonly namespace?: string };
}

/**
 * The props with `queue` and `workloadPriorityClass` set from the constructs, so that the rest of
 * the job reads one prop each. Refuses a job that names a Kueue object both ways, and a LocalQueue
 * in another namespace than the job's.
 */
export function resolveKueueReferences<P extends KueueReferenceProps>(job: IConstruct, props: P): P {
  const { localQueue, workloadPriority } = props;
  if (localQueue === undefined && workloadPriority === undefined) return props;
  if (localQueue !== undefined && props.queue !== undefined) {
    fail(job, 'localQueue', localQueue.apiObject.name, `expected either localQueue or queue, not both (queue is "${props.queue}")`);
  }
  if (workloadPriority !== undefined && props.workloadPriorityClass !== undefined) {
    fail(job, 'workloadPriority', workloadPriority.apiObject.name,
      `expected either workloadPriority or workloadPriorityClass, not both (workloadPriorityClass is "${props.workloadPriorityClass}")`);
  }
  if (localQueue !== undefined) {
    const jobNamespace = props.metadata?.namespace ?? Chart.of(job).namespace;
    const queueNamespace = localQueue.apiObject.metadata.namespace;
    // Kueue finds a job's LocalQueue in the job's namespace only. A side without a namespace is
    // applied to whatever namespace the apply names, which may well be the other's.
    if (jobNamespace !== undefined && queueNamespace !== undefined && jobNamespace !== queueNamespace) {
      fail(job, 'localQueue.namespace', queueNamespace,
        `expected the job's namespace "${jobNamespace}": Kueue looks a job's LocalQueue (${localQueue.node.path}) up in the job's namespace only`);
    }
  }
  return {
    ...props,
    queue: localQueue?.apiObject.name ?? props.queue,
    workloadPriorityClass: workloadPriority?.apiObject.name ?? props.workloadPriorityClass,
  };
}

/** Orders the job's document after the Kueue objects it names by construct (GitOps tools apply in file order). */
export function orderAfterKueueObjects(apiObject: ApiObject, props: KueueReferenceProps): void {
  for (const target of [props.localQueue, props.workloadPriority]) {
    if (target !== undefined) apiObject.node.addDependency(target.apiObject);
  }
}
