import type { ApiObject } from 'cdk8s';
import type { MlPolicy } from '../ml-policy';

/** What a TrainJob needs to know of a runtime defined in the same app. Internal plumbing. */
export interface RuntimeFacts {
  /** `TrainingRuntime` or `ClusterTrainingRuntime`. */
  readonly kind: string;
  /** The runtime's API object (its name and namespace are read at synth). */
  readonly apiObject: ApiObject;
  /** The runtime's ML policy. */
  readonly policy: MlPolicy;
  /** The replicated jobs of the runtime, in order. */
  readonly replicatedJobs: () => string[];
  /** The replicated jobs whose main container trains (`node`, and the MPI `launcher`). */
  readonly trainerJobs: () => string[];
  /** The accelerators per node, if the runtime requests some. */
  readonly acceleratorsPerNode: () => number | undefined;
}
