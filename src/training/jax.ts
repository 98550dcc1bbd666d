import { Construct } from 'constructs';
import { TrainingKind, trainingKind } from './internal/training-kind';
import { TrainingJob, TrainingJobProps } from './training-job';
import { ReplicaGroup } from '../common/replica';
import { RoleOptions } from '../common/replica-options';
import { JAX_JOB } from '../kinds/training-operator';
import { Finding } from '../rules/finding';
import { checkCount } from '../synth/report';

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
}

/**
 * A JAXJob for `jax.distributed.initialize()`. It has workers only; worker 0 is the coordinator.
 * The container is named `jax` with the port `jaxjob-port` (6666 unless `port` says otherwise),
 * which the operator needs to find; pods restart Never by default. The operator sets
 * COORDINATOR_ADDRESS, COORDINATOR_PORT, NUM_PROCESSES and PROCESS_ID; users must not set them, nor PYTHONUNBUFFERED, which the operator sets too.
 */
export class DistributedJax extends TrainingJob {
  /** The workers. */
  public readonly worker: ReplicaGroup;

  /**
   * @param scope the construct this job belongs to
   * @param id the job's construct id, unique within `scope`
   * @param props the number of workers, their own options and those of every pod
   */
  public constructor(scope: Construct, id: string, props: DistributedJaxProps) {
    super(scope, id, props);
    checkCount(this, 'workers', props.workers, 1);
    this.worker = this._addReplicaGroup('Worker', { ...props.worker, replicas: props.workers ?? 1 }, { min: 1, expected: 'at least 1; worker 0 is the JAX coordinator' });
  }

  /** @internal */
  protected _kind(): TrainingKind {
    return trainingKind(JAX_JOB);
  }

  /** @internal */
  protected _renderKindSpec(): { [field: string]: any } {
    return {};
  }

  /** @internal */
  protected _validateKind(): Finding[] {
    return [];
  }
}
