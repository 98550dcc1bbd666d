import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { TrainingRuntimeBase, TrainingRuntimeProps } from './training-runtime-base';
import * as trainer from '../../imports/trainer';
import { TRAINING_RUNTIME } from '../kinds/trainer';

/**
 * A TrainingRuntime: a runtime in one namespace, for the TrainJobs of that namespace only.
 */
export class TrainingRuntime extends TrainingRuntimeBase {
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
    return TRAINING_RUNTIME.kind;
  }

  /** @internal */
  protected _createResource(metadata: ApiObjectMetadata | undefined, spec: any): ApiObject {
    return new trainer.TrainingRuntime(this, 'Resource', { metadata, spec });
  }
}
