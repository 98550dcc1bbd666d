import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { FrameworkContainer } from './pod-render';

/** What a concrete job construct tells the shared base about its kind. */
export interface TrainingKind {
  /** The kind (`PyTorchJob`), as written in messages; it names the replica-spec field too. */
  readonly kindName: string;
  /** The framework's container. */
  readonly framework: FrameworkContainer;
  /** Creates the L1 with the lazily rendered spec. */
  readonly createResource: (scope: Construct, id: string, metadata: ApiObjectMetadata | undefined, spec: any) => ApiObject;
  /** Why Kueue cannot queue this kind, when it cannot. */
  readonly notQueueable?: string;
  /** Why `PodSecurity.RESTRICTED` cannot hold for this kind on the cluster, when it cannot. */
  readonly notRestrictable?: string;
}
