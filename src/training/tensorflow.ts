import { Construct } from 'constructs';
import { TrainingKind, trainingKind } from './internal/training-kind';
import { TrainingJob, TrainingJobProps } from './training-job';
import * as kubeflow from '../../imports/kubeflow';
import { parseKnown } from '../common/internal/parse-value';
import { ReplicaGroup } from '../common/replica';
import { RoleOptions } from '../common/replica-options';
import { CleanPodPolicy } from '../common/run-policy';
import { TF_JOB } from '../kinds/training-operator';
import { Finding, finding } from '../rules/finding';
import { TF_WORKERS } from '../rules/training-operator/replica-count-texts';
import { checkCount, fail } from '../synth/report';

/** When a TFJob counts as succeeded (`spec.successPolicy`). */
export class SuccessPolicy {
  /**
   * The operator's default: the job succeeds when the Chief (or Master) succeeds, or worker 0 when
   * there is neither. Written by leaving the field out.
   */
  public static readonly DEFAULT = new SuccessPolicy('');
  /** The job succeeds only when every worker has succeeded. */
  public static readonly ALL_WORKERS = new SuccessPolicy('AllWorkers');
  /**
   * The SuccessPolicy a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the policy as the CRD spells it: `` (empty, the default) or `AllWorkers`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): SuccessPolicy {
    return parseKnown('SuccessPolicy.parse', value, key, [['', SuccessPolicy.DEFAULT], ['AllWorkers', SuccessPolicy.ALL_WORKERS]], 'the values training-operator v1.9.4 knows');
  }

  /**
   * @param value the value of `spec.successPolicy`; empty for the default
   */
  private constructor(public readonly value: string) {}
}

/**
 * A TensorFlow job: parameter servers and workers, with an optional Chief (coordinator) and
 * Evaluator. The same kind runs MultiWorkerMirroredStrategy jobs (workers only, or a Chief plus
 * workers).
 */
export interface ParameterServerTFProps extends TrainingJobProps {
  /**
   * Adds the Chief, one pod that coordinates the job and whose success ends it, with these options
   * over the job's. Pass `{}` for a Chief with the job's options.
   * @default - no Chief; worker 0 decides when the job succeeds
   */
  readonly chief?: RoleOptions;
  /**
   * Adds a `Master` in place of the Chief, for TensorFlow 1.x estimator code that expects the task
   * type "master" in TF_CONFIG. A job has at most one of `chief` and `master`.
   * @default - no Master
   */
  readonly master?: RoleOptions;
  /**
   * Parameter-server pods (`PS`). They never exit on their own, so a job with parameter servers
   * defaults to `cleanPodPolicy: Running`.
   * @default 0
   */
  readonly parameterServers?: number;
  /**
   * Options of the parameter servers only.
   * @default - the job's options
   */
  readonly parameterServer?: RoleOptions;
  /**
   * Worker pods. 0 is allowed when there is a Chief or a Master.
   * @default 1
   */
  readonly workers?: number;
  /**
   * Options of the workers only.
   * @default - the job's options
   */
  readonly worker?: RoleOptions;
  /**
   * Adds the Evaluator, one pod that evaluates checkpoints beside training, with these options over
   * the job's. Pass `{}` for an Evaluator with the job's options.
   * @default - no Evaluator
   */
  readonly evaluator?: RoleOptions;
  /**
   * When the job counts as succeeded.
   * @default SuccessPolicy.DEFAULT
   */
  readonly successPolicy?: SuccessPolicy;
  /**
   * Give each worker a sparse TF_CONFIG that lists only itself and the parameter servers, so workers
   * can be added or removed while the job runs (`spec.enableDynamicWorker`).
   * @default false
   */
  readonly enableDynamicWorker?: boolean;
}


/**
 * A TFJob. The replica types are `Chief` (or the legacy `Master`), `PS`, `Worker` and `Evaluator`,
 * each with the container `tensorflow` and its port `tfjob-port` 2222; the operator writes TF_CONFIG
 * into that container, so users must not. Every role restarts `Never` unless told otherwise.
 *
 * A job with parameter servers or an Evaluator, whose pods do not exit on their own, gets
 * `cleanPodPolicy: Running` unless the run policy says otherwise, so they stop when the job ends.
 */
export class ParameterServerTF extends TrainingJob {
  /** The Chief, when the job has one. */
  public readonly chief?: ReplicaGroup;
  /** The legacy Master, when the job has one. */
  public readonly master?: ReplicaGroup;
  /** The parameter servers (`PS`), when the job has any. */
  public readonly parameterServer?: ReplicaGroup;
  /** The workers, when the job has any. */
  public readonly worker?: ReplicaGroup;
  /** The Evaluator, when the job has one. */
  public readonly evaluator?: ReplicaGroup;

  private readonly props: ParameterServerTFProps;

  /**
   * @param scope the construct this job belongs to
   * @param id the job's construct id, unique within `scope`
   * @param props which replica types the job has and how many pods of each, the success policy and the options of every pod
   */
  public constructor(scope: Construct, id: string, props: ParameterServerTFProps) {
    super(scope, id, props);
    this.props = props;
    checkCount(this, 'parameterServers', props.parameterServers, 0);
    checkCount(this, 'workers', props.workers, 0);
    const parameterServers = props.parameterServers ?? 0;
    const workers = props.workers ?? 1;
    if (props.chief && props.master) {
      fail(this, 'master', 'set', 'expected no master together with chief: a TFJob has at most one Chief or Master');
    }
    if (workers === 0 && !props.chief && !props.master) {
      fail(this, 'workers', workers, `expected ${TF_WORKERS}`);
    }
    if (workers === 0 && props.worker) {
      fail(this, 'worker', 'set', 'expected no worker options when workers is 0');
    }
    if (parameterServers === 0 && props.parameterServer) {
      fail(this, 'parameterServer', 'set', 'expected no parameter server options when parameterServers is 0');
    }
    if (workers === 0 && props.successPolicy === SuccessPolicy.ALL_WORKERS) {
      fail(this, 'successPolicy', SuccessPolicy.ALL_WORKERS.value, 'expected SuccessPolicy.DEFAULT when workers is 0; AllWorkers waits for workers the job does not have');
    }

    // The order the operator documents them in (the manifest itself lists them sorted).
    const one = (type: string, field: string) => ({ min: 1, max: 1, expected: `1: a TFJob has exactly one ${type} when ${field} is set` });
    if (props.chief) this.chief = this._addReplicaGroup('Chief', { ...props.chief, replicas: 1 }, one('Chief', 'chief'));
    if (props.master) this.master = this._addReplicaGroup('Master', { ...props.master, replicas: 1 }, one('Master', 'master'));
    if (parameterServers > 0) this.parameterServer = this._addReplicaGroup('PS', { ...props.parameterServer, replicas: parameterServers });
    const coordinated = props.chief !== undefined || props.master !== undefined;
    if (workers > 0) {
      this.worker = this._addReplicaGroup('Worker', { ...props.worker, replicas: workers }, coordinated ? undefined
        : { min: 1, expected: TF_WORKERS });
    }
    if (props.evaluator) this.evaluator = this._addReplicaGroup('Evaluator', { ...props.evaluator, replicas: 1 }, one('Evaluator', 'evaluator'));
  }

  /** @internal */
  protected _withKindDefaults(props: TrainingJobProps): TrainingJobProps {
    return withCleanPodDefault(props as ParameterServerTFProps);
  }

  /** @internal */
  protected _kind(): TrainingKind {
    return trainingKind(TF_JOB);
  }

  /** @internal */
  protected _renderKindSpec(): { [field: string]: any } {
    const spec: Omit<kubeflow.TfJobSpec, 'tfReplicaSpecs'> = {
      successPolicy: this.props.successPolicy?.value || undefined,
      enableDynamicWorker: this.props.enableDynamicWorker || undefined,
    };
    return spec;
  }

  /** @internal */
  protected _validateKind(): Finding[] {
    // ReplicaGroup.scale() may take the workers to 0 after construction.
    const workers = this.worker?.replicas ?? 0;
    if (workers === 0 && this.props.successPolicy === SuccessPolicy.ALL_WORKERS) {
      return [finding('successPolicy', SuccessPolicy.ALL_WORKERS.value, 'expected SuccessPolicy.DEFAULT when workers is 0; AllWorkers waits for workers the job does not have')];
    }
    return [];
  }
}

/** Parameter servers and evaluators never exit by themselves: clean them up unless told otherwise. */
function withCleanPodDefault(props: ParameterServerTFProps): ParameterServerTFProps {
  const lingering = (props.parameterServers ?? 0) > 0 || props.evaluator !== undefined;
  if (!lingering || props.runPolicy?.cleanPodPolicy) return props;
  return { ...props, runPolicy: { ...props.runPolicy, cleanPodPolicy: CleanPodPolicy.RUNNING } };
}
