/**
 * The six Training Operator v1 kinds and their L2 constructs, as convert reads a job back into
 * props: which prop each replica type's options and count go to, and what each construct writes
 * by itself (src/training/*.ts). The MXJob has no construct.
 */

/** A replica type of a kind, and the props that make it. */
export interface V1Role {
  /** The replica type, as the operator spells it. */
  readonly type: string;
  /** The prop of its role options (`master`, `worker`, `parameterServer`, ...). */
  readonly options: string;
  /**
   * The prop of its pod count and the construct's default count, for a role of any count; a role
   * without one has exactly one pod and is made by its options prop (`chief: {}`).
   */
  readonly count?: { readonly prop: string; readonly default: number; readonly min: number };
  /** The job cannot be said without this role (the construct always makes it). */
  readonly required?: boolean;
  /** The role exists only when its options prop is given (`chief: {}`); otherwise the construct makes it by itself. */
  readonly madeByOptions?: boolean;
}

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

const workers = (min: number): V1Role => ({ type: 'Worker', options: 'worker', count: { prop: 'workers', default: 1, min } });
const one = (type: string, options: string, required = false): V1Role => ({ type, options, required });
const optional = (type: string, options: string): V1Role => ({ type, options, madeByOptions: true });

export const V1_KINDS: { readonly [kind: string]: V1Kind } = {
  PyTorchJob: {
    construct: 'DistributedPyTorch',
    // A static job has its Master; an elastic one has none (convert-v1-job.ts checks which).
    roles: [one('Master', 'master'), workers(0)],
    queueable: true,
    cleansRunningPods: () => false,
  },
  TFJob: {
    construct: 'ParameterServerTF',
    roles: [
      optional('Chief', 'chief'),
      optional('Master', 'master'),
      { type: 'PS', options: 'parameterServer', count: { prop: 'parameterServers', default: 0, min: 0 } },
      workers(0),
      optional('Evaluator', 'evaluator'),
    ],
    queueable: true,
    cleansRunningPods: types => types.includes('PS') || types.includes('Evaluator'),
  },
  XGBoostJob: {
    construct: 'DistributedXGBoost',
    roles: [one('Master', 'master', true), workers(0)],
    queueable: true,
    cleansRunningPods: () => false,
  },
  PaddleJob: {
    construct: 'DistributedPaddle',
    // A job with a Master (the parameter servers) is in parameter-server mode, which the count implies.
    roles: [{ type: 'Master', options: 'parameterServer', count: { prop: 'parameterServers', default: 0, min: 1 } }, { ...workers(1), required: true }],
    queueable: true,
    cleansRunningPods: () => false,
  },
  JAXJob: {
    construct: 'DistributedJax',
    roles: [{ ...workers(1), required: true }],
    queueable: true,
    cleansRunningPods: () => false,
  },
  MPIJob: {
    construct: 'MpiAllReduce',
    roles: [one('Launcher', 'launcher', true), workers(0)],
    queueable: false,
    cleansRunningPods: () => true,
  },
};
