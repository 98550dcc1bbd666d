import { Construct } from 'constructs';
import { ElasticBounds } from './elastic';
import { dropUndefined } from '../util/collections';
import { checkElasticBounds, checkWorkersWithinBounds, elasticWorkerCount, renderElasticBounds } from './internal/elastic-bounds';
import { TrainingKind, trainingKind } from './internal/training-kind';
import { TrainingJob, TrainingJobProps } from './training-job';
import * as kubeflow from '../../imports/kubeflow';
import { parseKnown } from '../common/internal/parse-value';
import { ReplicaGroup } from '../common/replica';
import { RoleOptions } from '../common/replica-options';
import { PADDLE_JOB } from '../kinds/training-operator';
import { Finding } from '../rules/finding';
import { PADDLE_PARAMETER_SERVERS, PADDLE_WORKERS } from '../rules/training-operator/replica-count-texts';
import { checkCount, fail } from '../synth/report';

/**
 * How a PaddleJob trains. The operator tells the modes apart by the replica types: a job with a
 * `Master` runs in parameter-server mode, a job of workers only in collective mode.
 */
export class PaddleMode {
  /**
   * Collective training (all-reduce between equal trainers): workers only. Worker 0 is the
   * rendezvous endpoint (PADDLE_MASTER).
   */
  public static readonly COLLECTIVE = new PaddleMode('Collective');
  /**
   * Parameter-server training: parameter servers (replica type `Master`) plus trainers (`Worker`).
   * Master 0 is the rendezvous endpoint, and the job succeeds when the parameter servers do.
   */
  public static readonly PARAMETER_SERVER = new PaddleMode('ParameterServer');
  /**
   * The PaddleMode a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the mode: `Collective` or `ParameterServer`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): PaddleMode {
    return parseKnown('PaddleMode.parse', value, key, [['Collective', PaddleMode.COLLECTIVE], ['ParameterServer', PaddleMode.PARAMETER_SERVER]], 'the PaddlePaddle modes');
  }

  /** @param name the mode's name, as messages show it */
  private constructor(public readonly name: string) {}
}

/** A distributed PaddlePaddle job, collective or with parameter servers. */
export interface DistributedPaddleProps extends TrainingJobProps {
  /**
   * Collective (workers only) or parameter-server (parameter servers plus workers) training.
   * @default - PaddleMode.PARAMETER_SERVER when `parameterServers` or `parameterServer` is given, else PaddleMode.COLLECTIVE
   */
  readonly mode?: PaddleMode;
  /**
   * Worker pods (trainers).
   * @default 1
   */
  readonly workers?: number;
  /**
   * Parameter-server pods (replica type `Master`), in parameter-server mode only.
   * @default 1 in parameter-server mode
   */
  readonly parameterServers?: number;
  /**
   * Options of the workers only.
   * @default - the job's options
   */
  readonly worker?: RoleOptions;
  /**
   * Options of the parameter servers only, in parameter-server mode only.
   * @default - the job's options
   */
  readonly parameterServer?: RoleOptions;
  /**
   * Lets the number of workers change between bounds.
   * @default - a fixed number of workers
   */
  readonly elastic?: ElasticBounds;
}

/**
 * A PaddleJob for `python -m paddle.distributed.launch`. In collective mode it has workers only;
 * in parameter-server mode it adds parameter servers under the replica type `Master`. The
 * container is named `paddle` with the port `master` (36543 unless `port` says otherwise); pods
 * restart OnFailure by default. The operator sets PADDLE_MASTER, PADDLE_NNODES, PADDLE_JOB_ID and,
 * with parameter servers, PADDLE_SERVER_NUM and PADDLE_TRAINER_NUM; users must not set them, nor PYTHONUNBUFFERED, which the operator sets too.
 */
export class DistributedPaddle extends TrainingJob {
  /** Collective or parameter-server training. */
  public readonly mode: PaddleMode;
  /** The parameter servers (replica type `Master`), in parameter-server mode only. */
  public readonly parameterServer?: ReplicaGroup;
  /** The workers (trainers). */
  public readonly worker: ReplicaGroup;

  private readonly elastic?: ElasticBounds;

  /**
   * @param scope the construct this job belongs to
   * @param id the job's construct id, unique within `scope`
   * @param props the mode, the workers and parameter servers, elastic bounds and the options of every pod
   */
  public constructor(scope: Construct, id: string, props: DistributedPaddleProps) {
    super(scope, id, props);
    const psGiven = props.parameterServers !== undefined || props.parameterServer !== undefined;
    this.mode = props.mode ?? (psGiven ? PaddleMode.PARAMETER_SERVER : PaddleMode.COLLECTIVE);
    checkCount(this, 'workers', props.workers, 1);
    checkCount(this, 'parameterServers', props.parameterServers, 1);
    if (this.mode === PaddleMode.COLLECTIVE) {
      if (props.parameterServers !== undefined) {
        fail(this, 'parameterServers', props.parameterServers, 'expected none in collective mode; use mode PaddleMode.PARAMETER_SERVER for a job with parameter servers');
      }
      if (props.parameterServer !== undefined) {
        fail(this, 'parameterServer', 'set', 'expected no parameter-server options in collective mode; use mode PaddleMode.PARAMETER_SERVER for a job with parameter servers');
      }
    }
    const elastic = props.elastic;
    if (elastic) {
      checkElasticBounds(this, elastic);
      checkWorkersWithinBounds(this, props.workers ?? 1, elastic);
    }
    this.elastic = elastic;
    if (this.mode === PaddleMode.PARAMETER_SERVER) {
      this.parameterServer = this._addReplicaGroup('Master', { ...props.parameterServer, replicas: props.parameterServers ?? 1 },
        { min: 1, expected: PADDLE_PARAMETER_SERVERS });
    }
    this.worker = this._addReplicaGroup('Worker', { ...props.worker, replicas: props.workers ?? 1 },
      elastic ? elasticWorkerCount(elastic) : { min: 1, expected: PADDLE_WORKERS });
  }

  /** @internal */
  protected _kind(): TrainingKind {
    return trainingKind(PADDLE_JOB);
  }

  /** @internal */
  protected _renderKindSpec(): { [field: string]: any } {
    const elastic = this.elastic;
    const elasticPolicy: kubeflow.PaddleJobSpecElasticPolicy | undefined = elastic ? renderElasticBounds(elastic) : undefined;
    return {
      elasticPolicy: elasticPolicy && dropUndefined(elasticPolicy),
    };
  }

  /** @internal */
  protected _validateKind(): Finding[] {
    return [];
  }

}
