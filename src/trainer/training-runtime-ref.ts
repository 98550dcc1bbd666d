import { CLUSTER_TRAINING_RUNTIME, TRAINING_RUNTIME } from '../kinds/trainer';
import { RuntimeFacts } from './internal/trainer-runtime';

/**
 * The runtime a TrainJob runs on (`spec.runtimeRef`): a built-in or platform runtime by name, or a
 * runtime construct of the same app (`runtime.ref`), which lets the library check the job against
 * the runtime and write the runtime first.
 *
 * When the app defines runtimes, a name must be one of them or a runtime built into the pinned
 * Trainer release; a runtime that a platform applies to the cluster apart from the app is named
 * with `providedByCluster` or `providedInNamespace`, which say so.
 */
export class TrainingRuntimeRef {
  /**
   * A ClusterTrainingRuntime by name: a runtime of the app, or one built into Trainer (such as
   * `torch-distributed`).
   *
   * @param name the runtime's name
   */
  public static cluster(name: string): TrainingRuntimeRef {
    return new TrainingRuntimeRef(CLUSTER_TRAINING_RUNTIME.kind, name, false);
  }

  /**
   * A TrainingRuntime by name, in the TrainJob's own namespace (the controller looks nowhere else).
   *
   * @param name the runtime's name
   */
  public static namespaced(name: string): TrainingRuntimeRef {
    return new TrainingRuntimeRef(TRAINING_RUNTIME.kind, name, false);
  }

  /**
   * A ClusterTrainingRuntime that the cluster provides apart from this app (a platform team applies
   * it): the job names it although the app defines other runtimes and none of this name. The job
   * carries the annotation `cdk8s-kubeflow/runtime-provided: "true"`, so `cdk8s-kubeflow lint`
   * accepts it too.
   *
   * @param name the runtime's name
   */
  public static providedByCluster(name: string): TrainingRuntimeRef {
    return new TrainingRuntimeRef(CLUSTER_TRAINING_RUNTIME.kind, name, true);
  }

  /**
   * A TrainingRuntime in the TrainJob's namespace that the cluster provides apart from this app;
   * as `providedByCluster`, for a namespaced runtime.
   *
   * @param name the runtime's name
   */
  public static providedInNamespace(name: string): TrainingRuntimeRef {
    return new TrainingRuntimeRef(TRAINING_RUNTIME.kind, name, true);
  }

  /** @internal */
  public static _of(facts: RuntimeFacts): TrainingRuntimeRef {
    return new TrainingRuntimeRef(facts.kind, undefined, false, facts);
  }

  /**
   * Whether the reference says the runtime is provided by the cluster apart from the app
   * (`providedByCluster`, `providedInNamespace`).
   */
  public readonly provided: boolean;

  private constructor(
    /** `ClusterTrainingRuntime` or `TrainingRuntime`. */
    public readonly kind: string,
    private readonly fixedName: string | undefined,
    provided: boolean,
    /** @internal */
    public readonly _facts?: RuntimeFacts) {
    this.provided = provided;
  }

  /** The runtime's name (for a runtime construct, its API object's name). */
  public get name(): string {
    return this._facts ? this._facts.apiObject.name : this.fixedName!;
  }
}
