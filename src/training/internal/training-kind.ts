import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import * as kubeflow from '../../../imports/kubeflow';
import { FrameworkContainer } from '../../common/internal/pod-render';
import { RestartPolicy } from '../../common/run-policy';
import { V1JobFacts } from '../../kinds/kind';

/** What a concrete job construct tells the shared base about its kind. */
export interface TrainingKind {
  /** The kind (`PyTorchJob`), as written in messages; it names the replica-spec field too. */
  readonly kindName: string;
  /** The kind table's row (src/kinds/training-operator.ts). */
  readonly facts: V1JobFacts;
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

/** What a construct adds to its kind's row: what only the construct knows. */
export interface TrainingKindOptions {
  /** Why `PodSecurity.RESTRICTED` cannot hold for the construct's jobs, when it cannot. */
  readonly notRestrictable?: string;
}

/** The L1 classes of the v1 jobs, by class name (the kind table names each kind's). */
type L1Class = new (scope: Construct, id: string, props: { metadata?: ApiObjectMetadata; spec: any }) => ApiObject;
const L1_CLASSES: { readonly [className: string]: L1Class } = kubeflow as any;

/** The restart policies a kind's row may name as its default. */
const RESTART_POLICIES: { readonly [policy in V1JobFacts['restartPolicy']]: RestartPolicy } = {
  Never: RestartPolicy.NEVER,
  OnFailure: RestartPolicy.ON_FAILURE,
};

/** A v1 job construct's kind, from its row of the kind table. */
export function trainingKind(facts: V1JobFacts, options: TrainingKindOptions = {}): TrainingKind {
  const l1 = L1_CLASSES[facts.l1!.className];
  return {
    kindName: facts.kind,
    facts,
    framework: {
      containerName: facts.container,
      ...(facts.port === undefined ? {} : { port: facts.port.number, portName: facts.port.name }),
      defaultRestartPolicy: RESTART_POLICIES[facts.restartPolicy],
    },
    createResource: (scope, id, metadata, spec) => new l1(scope, id, { metadata, spec }),
    ...(facts.kueue !== undefined && 'notQueued' in facts.kueue ? { notQueueable: facts.kueue.notQueued } : {}),
    ...(options.notRestrictable === undefined ? {} : { notRestrictable: options.notRestrictable }),
  };
}

/** What a prop that asks Kueue for a queue expects of a kind Kueue cannot queue. */
export function noQueueExpected(reason: string): string {
  return `expected no Kueue queue: ${reason}`;
}

/** What a Kueue topology expects of a kind Kueue cannot queue (asking for a queue would be the wrong advice). */
export function noTopologyExpected(reason: string): string {
  return `expected no Kueue topology (Kueue cannot admit this kind): ${reason}`;
}
