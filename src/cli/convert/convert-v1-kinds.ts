/**
 * The Training Operator v1 kinds and their L2 constructs, as convert reads a job back into props:
 * which prop each replica type's options and count go to, and what each construct writes by
 * itself. The facts are the kind table's (src/kinds/training-operator.ts), for the kinds with a
 * construct (the MXJob has none).
 */
import { ReplicaRole, isKueueQueued } from '../../kinds/kind';
import { V1_JOBS } from '../../kinds/training-operator';

/** A replica type of a kind, and the props that make it. */
export type V1Role = ReplicaRole;

/** A v1 kind's construct. */
export interface V1Kind {
  /** The construct's class, exported by cdk8s-kubeflow. */
  readonly construct: string;
  readonly roles: readonly V1Role[];
  /** Whether Kueue can queue the kind (MPIJob v1: no; its construct refuses a queue). */
  readonly queueable: boolean;
  /**
   * Whether the construct makes `runPolicy.cleanPodPolicy` Running by itself for this job (pods
   * that outlive the job: TF parameter servers and evaluators, idle MPI workers).
   */
  readonly cleansRunningPods: (replicaTypes: readonly string[]) => boolean;
}

export const V1_KINDS: { readonly [kind: string]: V1Kind } = Object.fromEntries(V1_JOBS.filter(k => k.l2 !== undefined).map(k => {
  const cleans = k.cleansRunningPods;
  return [k.kind, {
    construct: k.l2!,
    roles: k.roles,
    queueable: isKueueQueued(k),
    cleansRunningPods: (types: readonly string[]) => cleans === 'always' || (cleans !== undefined && cleans.some(t => types.includes(t))),
  }];
}));
