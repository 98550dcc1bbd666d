import { ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { checkCount, fail, problem } from './errors';
import { ReplicaGroup, RoleOptions } from './replica';
import { RestartPolicy } from './run-policy';
import { TrainingJob, TrainingJobProps, TrainingKind } from './training-job';
import * as kubeflow from '../imports/kubeflow';

/** A distributed JAX job: workers only, one JAX process each. */
export interface DistributedJaxProps extends TrainingJobProps {
  /**
   * Worker pods, one JAX process each (NUM_PROCESSES).
   * @default 1
   */
  readonly workers?: number;
  /**
   * Options of the workers, such as their restart policy.
   * @default - the job's options
   */
  readonly worker?: RoleOptions;
  /**
   * Container port of every pod, named `jaxjob-port`: the coordinator port of worker 0.
   * @default 6666
   */
  readonly port?: number;
}

const DEFAULT_PORT = 6666;
const PORT_NAME = 'jaxjob-port';
const INJECTED_ENV = /^(COORDINATOR_ADDRESS|COORDINATOR_PORT|NUM_PROCESSES|PROCESS_ID)$/;

/**
 * A JAXJob for `jax.distributed.initialize()`. It has workers only; worker 0 is the coordinator.
 * The container is named `jax` with the port `jaxjob-port` (6666 unless `port` says otherwise),
 * which the operator needs to find; pods restart Never by default. The operator sets
 * COORDINATOR_ADDRESS, COORDINATOR_PORT, NUM_PROCESSES and PROCESS_ID; users must not set them.
 */
export class DistributedJax extends TrainingJob {
  /** The workers. */
  public readonly worker: ReplicaGroup;
  /** The container port of every pod. */
  public readonly port: number;

  public constructor(scope: Construct, id: string, props: DistributedJaxProps) {
    super(scope, id, props);
    checkCount(this, 'workers', props.workers, 1);
    this.port = props.port ?? DEFAULT_PORT;
    if (!Number.isInteger(this.port) || this.port < 1 || this.port > 65535) {
      fail(this, 'port', this.port, 'expected a whole number from 1 to 65535');
    }
    this.worker = this.addReplicaGroup('Worker', { ...props.worker, replicas: props.workers ?? 1 });
    this.worker.mainContainer.addPort({ number: this.port, name: PORT_NAME });
  }

  /** @internal */
  protected _kind(): TrainingKind {
    return {
      replicaSpecsField: 'jaxReplicaSpecs',
      // The port is added by the constructor, which knows the props.
      framework: { containerName: 'jax', defaultRestartPolicy: RestartPolicy.NEVER },
      injectedEnv: INJECTED_ENV,
      createResource: (scope, id, metadata: ApiObjectMetadata | undefined, spec) => new kubeflow.JaxJob(scope, id, { metadata, spec }),
    };
  }

  /** @internal */
  protected _renderKindSpec(): { [field: string]: any } {
    return {};
  }

  /** @internal */
  protected _validateKind(): string[] {
    const errors: string[] = [];
    if (this.worker.replicas < 1) {
      errors.push(problem('Worker.replicas', this.worker.replicas, 'expected at least 1; worker 0 is the JAX coordinator'));
    }
    return errors;
  }
}
