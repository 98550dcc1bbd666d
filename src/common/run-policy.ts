import { Duration } from 'cdk8s';
import { parseKnown } from './internal/parse-value';

/** Which pods the operator deletes when a job finishes. */
export class CleanPodPolicy {
  /** Keep every pod (the operator's own default): logs stay readable, pods hold no resources. */
  public static readonly NONE = new CleanPodPolicy('None');
  /** Delete pods that are still running, such as parameter servers, when the job ends. */
  public static readonly RUNNING = new CleanPodPolicy('Running');
  /** Delete every pod when the job ends. */
  public static readonly ALL = new CleanPodPolicy('All');
  /**
   * A value this library does not know yet.
   *
   * @param value the policy as the CRD spells it, such as `Running`
   */
  public static of(value: string): CleanPodPolicy {
    return new CleanPodPolicy(value);
  }
  /**
   * The CleanPodPolicy a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the policy as the CRD spells it: `None`, `Running` or `All`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): CleanPodPolicy {
    return parseKnown('CleanPodPolicy.parse', value, key, [['None', CleanPodPolicy.NONE], ['Running', CleanPodPolicy.RUNNING], ['All', CleanPodPolicy.ALL]], 'the values training-operator v1.9.4 knows', 'for a newer operator\'s value, use CleanPodPolicy.of(value) and list the value in the cdk8s context key "cdk8s-kubeflow/accept-unknown-values"');
  }

  /** @param value the policy as the CRD spells it */
  private constructor(public readonly value: string) {}
}

/**
 * What happens when a replica's pod exits. The replica's restart policy overrides whatever the pod
 * template says, so the constructs set it here and never on the pod.
 */
export class RestartPolicy {
  /** Restart the container whenever it exits, even after it succeeded. */
  public static readonly ALWAYS = new RestartPolicy('Always');
  /** Restart the container when it exits with a non-zero code. */
  public static readonly ON_FAILURE = new RestartPolicy('OnFailure');
  /** Never restart the container, so a pod that fails stays failed. */
  public static readonly NEVER = new RestartPolicy('Never');
  /** Exit codes 1-127 are permanent failures; 128-255 (signals, OOM kills) are retried. */
  public static readonly EXIT_CODE = new RestartPolicy('ExitCode');
  /**
   * A value this library does not know yet.
   *
   * @param value the policy as the CRD spells it, such as `OnFailure`
   */
  public static of(value: string): RestartPolicy {
    return new RestartPolicy(value);
  }
  /**
   * The RestartPolicy a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the policy as the CRD spells it: `Always`, `OnFailure`, `Never` or `ExitCode`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): RestartPolicy {
    return parseKnown('RestartPolicy.parse', value, key, [['Always', RestartPolicy.ALWAYS], ['OnFailure', RestartPolicy.ON_FAILURE], ['Never', RestartPolicy.NEVER], ['ExitCode', RestartPolicy.EXIT_CODE]], 'the values training-operator v1.9.4 knows', 'for a newer operator\'s value, use RestartPolicy.of(value) and list the value in the cdk8s context key "cdk8s-kubeflow/accept-unknown-values"');
  }

  /** @param value the policy as the CRD spells it */
  private constructor(public readonly value: string) {}
}

/** The controller that reconciles a job. */
export class ManagedBy {
  /** The Training Operator itself (what an unset field means). */
  public static readonly TRAINING_OPERATOR = new ManagedBy('kubeflow.org/training-operator');
  /** Kueue's MultiKueue dispatches the job to a worker cluster. */
  public static readonly MULTI_KUEUE = new ManagedBy('kueue.x-k8s.io/multikueue');
  /**
   * The ManagedBy a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the controller as `runPolicy.managedBy` spells it: `kubeflow.org/training-operator` or `kueue.x-k8s.io/multikueue`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): ManagedBy {
    return parseKnown('ManagedBy.parse', value, key, [['kubeflow.org/training-operator', ManagedBy.TRAINING_OPERATOR], ['kueue.x-k8s.io/multikueue', ManagedBy.MULTI_KUEUE]], 'the controllers the webhook of training-operator v1.9.4 accepts');
  }

  /** @param value the controller's name as written in the job's `runPolicy.managedBy` */
  private constructor(public readonly value: string) {}
}

/** How the operator runs, retries and cleans up a job. Shared by every training kind. */
export interface RunPolicy {
  /**
   * Which pods to delete when the job ends.
   * @default - the operator's default, None
   */
  readonly cleanPodPolicy?: CleanPodPolicy;
  /**
   * Delete the job this long after it finishes. In a GitOps repository a deleted job is
   * re-applied (and run again) by Argo CD or Flux unless they are told to ignore it, so this stays
   * off unless set.
   * @default - the job is kept
   */
  readonly ttlAfterFinished?: Duration;
  /**
   * Fail the job when it has been active this long.
   * @default - no deadline
   */
  readonly activeDeadline?: Duration;
  /**
   * Retries before the job is marked failed.
   * @default - the operator's default
   */
  readonly backoffLimit?: number;
  /**
   * Create the job suspended. Kueue sets and clears this itself for queued jobs.
   * @default false
   */
  readonly suspend?: boolean;
  /**
   * The controller that reconciles the job; immutable once created.
   * @default - the Training Operator
   */
  readonly managedBy?: ManagedBy;
}
