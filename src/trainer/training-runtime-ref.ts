import { RuntimeFacts } from './internal/trainer-runtime';

/**
 * The runtime a TrainJob runs on (`spec.runtimeRef`): a built-in or platform runtime by name, or a
 * runtime construct of the same app (`runtime.ref`), which lets the library check the job against
 * the runtime and write the runtime first.
 */
export class TrainingRuntimeRef {
  /**
   * A ClusterTrainingRuntime by name, such as the built-in `torch-distributed`.
   *
   * @param name the runtime's name
   */
  public static cluster(name: string): TrainingRuntimeRef {
    return new TrainingRuntimeRef('ClusterTrainingRuntime', name);
  }

  /**
   * A TrainingRuntime by name, in the TrainJob's own namespace (the controller looks nowhere else).
   *
   * @param name the runtime's name
   */
  public static namespaced(name: string): TrainingRuntimeRef {
    return new TrainingRuntimeRef('TrainingRuntime', name);
  }

  /** @internal */
  public static _of(facts: RuntimeFacts): TrainingRuntimeRef {
    return new TrainingRuntimeRef(facts.kind, undefined, facts);
  }

  private constructor(
    /** `ClusterTrainingRuntime` or `TrainingRuntime`. */
    public readonly kind: string,
    private readonly fixedName: string | undefined,
    /** @internal */
    public readonly _facts?: RuntimeFacts) {}

  /** The runtime's name (for a runtime construct, its API object's name). */
  public get name(): string {
    return this._facts ? this._facts.apiObject.name : this.fixedName!;
  }
}
