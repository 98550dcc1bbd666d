import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { FrameworkContainer } from '../../common/internal/pod-render';

/** What a concrete job construct tells the shared base about its kind. */
export interface TrainingKind {
  /** The kind (`PyTorchJob`), as written in messages; it names the replica-spec field too. */
  readonly kindName: string;
  /** The framework's container. */
  readonly framework: FrameworkContainer;
  /** Creates the L1 with the lazily rendered spec. */
  readonly createResource: (scope: Construct, id: string, metadata: ApiObjectMetadata | undefined, spec: any) => ApiObject;
  /**
   * Why Kueue cannot queue this kind, when it cannot: the reason alone, which each message leads
   * with what it expects (no queue, no topology), so that no message is derived from another's text.
   */
  readonly notQueueable?: string;
  /** Why `PodSecurity.RESTRICTED` cannot hold for this kind on the cluster, when it cannot. */
  readonly notRestrictable?: string;
}

/** What a prop that asks Kueue for a queue expects of a kind Kueue cannot queue. */
export function noQueueExpected(reason: string): string {
  return `expected no Kueue queue: ${reason}`;
}

/** What a Kueue topology expects of a kind Kueue cannot queue (asking for a queue would be the wrong advice). */
export function noTopologyExpected(reason: string): string {
  return `expected no Kueue topology (Kueue cannot admit this kind): ${reason}`;
}
