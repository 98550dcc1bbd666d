import { Construct } from 'constructs';
import { TrainingKind, trainingKind } from './internal/training-kind';
import { TrainingJob, TrainingJobProps } from './training-job';
import { ReplicaGroup } from '../common/replica';
import { RoleOptions } from '../common/replica-options';
import { XGBOOST_JOB } from '../kinds/training-operator';
import { Finding } from '../rules/finding';
import { checkCount } from '../synth/report';

const EXACTLY_ONE_MASTER = { min: 1, max: 1, expected: 'exactly 1; the operator rejects an XGBoostJob whose Master does not have one replica' };

/** A distributed XGBoost (or LightGBM) job: exactly one Master plus workers. */
export interface DistributedXGBoostProps extends TrainingJobProps {
  /**
   * Worker pods, besides the single Master. 0 makes a single-node job.
   * @default 1
   */
  readonly workers?: number;
  /**
   * Options of the Master only (the Rabit tracker, or LightGBM's first machine).
   * @default - the job's options
   */
  readonly master?: RoleOptions;
  /**
   * Options of the workers only.
   * @default - the job's options
   */
  readonly worker?: RoleOptions;
}

/**
 * An XGBoostJob. It always has exactly one Master (written with `replicas: 1`, which the operator's
 * webhook requires) and any number of workers. The container is named `xgboost` with the port
 * `xgboostjob-port` (9999 unless `port` says otherwise); pods restart Never by default. The
 * operator sets MASTER_ADDR, MASTER_PORT, WORLD_SIZE and RANK, plus WORKER_PORT and WORKER_ADDRS
 * (for LightGBM) when there is more than one pod; users must not set them, nor PYTHONUNBUFFERED, which the operator sets too.
 */
export class DistributedXGBoost extends TrainingJob {
  /** The Master: the Rabit tracker and rank 0. */
  public readonly master: ReplicaGroup;
  /** The workers, absent when the job has none. */
  public readonly worker?: ReplicaGroup;

  /**
   * @param scope the construct this job belongs to
   * @param id the job's construct id, unique within `scope`
   * @param props the number of workers, the Master's and workers' own options and those of every pod
   */
  public constructor(scope: Construct, id: string, props: DistributedXGBoostProps) {
    super(scope, id, props);
    checkCount(this, 'workers', props.workers, 0);
    const workers = props.workers ?? 1;
    this.master = this._addReplicaGroup('Master', { ...props.master, replicas: 1 }, EXACTLY_ONE_MASTER);
    if (workers > 0) this.worker = this._addReplicaGroup('Worker', { ...props.worker, replicas: workers });
  }

  /** @internal */
  protected _kind(): TrainingKind {
    return trainingKind(XGBOOST_JOB);
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
