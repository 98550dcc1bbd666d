import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { TrainingRuntimeBase, TrainingRuntimeProps } from './training-runtime-base';
import * as trainer from '../../imports/trainer';
import { CLUSTER_TRAINING_RUNTIME } from '../kinds/trainer';
import { omitNamespace } from '../synth/render-hook';

/**
 * A ClusterTrainingRuntime: a runtime every namespace's TrainJobs can use, which is how platform
 * teams publish theirs. It is cluster-scoped, so a namespace from the chart is left out.
 */
export class ClusterTrainingRuntime extends TrainingRuntimeBase {
  /**
   * @param scope the construct this runtime belongs to
   * @param id the runtime's construct id, unique within `scope`
   * @param props the policy, the node pod options and the steps
   */
  public constructor(scope: Construct, id: string, props: TrainingRuntimeProps) {
    super(scope, id, props);
  }

  /** @internal */
  protected _kindName(): string {
    return CLUSTER_TRAINING_RUNTIME.kind;
  }

  /** @internal */
  protected _createResource(metadata: ApiObjectMetadata | undefined, spec: any): ApiObject {
    const resource = new trainer.ClusterTrainingRuntime(this, 'Resource', { metadata, spec });
    omitNamespace(resource);
    return resource;
  }
}
