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
import { PYTORCH_JOB } from '../kinds/training-operator';
import { Finding, finding } from '../rules/finding';
import { ELASTIC_WORKERS } from '../rules/training-operator/replica-count-texts';
import { checkCount, fail } from '../synth/report';

/** Processes per node for torchrun (`spec.nprocPerNode`). */
export class NprocPerNode {
  /** One process per GPU if the node has GPUs, else per CPU. */
  public static readonly AUTO = new NprocPerNode('auto');
  /** One process per CPU. */
  public static readonly CPU = new NprocPerNode('cpu');
  /** One process per GPU. */
  public static readonly GPU = new NprocPerNode('gpu');
  /**
   * A fixed number of processes.
   *
   * @param processes how many processes torchrun starts in each pod
   */
  public static of(processes: number): NprocPerNode {
    return new NprocPerNode(String(processes), processes);
  }
  /**
   * The NprocPerNode a configuration file names: `auto`, `cpu`, `gpu` or a whole number of
   * processes above 0 (as text, such as `8`), refused at once otherwise (the error lists them, and
   * the closest to the value given).
   *
   * @param value `auto`, `cpu`, `gpu` or a whole number above 0
   * @param key the configuration key the value came from, named in the error (such as `nprocPerNode`)
   */
  public static parse(value: string, key?: string): NprocPerNode {
    if (/^[1-9][0-9]*$/.test(value)) return NprocPerNode.of(Number(value));
    return parseKnown('NprocPerNode.parse', value, key, [['auto', NprocPerNode.AUTO], ['cpu', NprocPerNode.CPU], ['gpu', NprocPerNode.GPU]],
      'the values torchrun knows, or a whole number of processes above 0 such as "8"');
  }

  /**
   * @param value the value of `spec.nprocPerNode`: `auto`, `cpu`, `gpu` or a number as text
   * @param processes the fixed number of processes of a value made by `of` (undefined for the others)
   */
  private constructor(public readonly value: string, public readonly processes?: number) {}
}

/** The rendezvous backend of an elastic job. */
export class RendezvousBackend {
  /** PyTorch's built-in TCP store (needs no extra service). */
  public static readonly C10D = new RendezvousBackend('c10d');
  /** An etcd server. */
  public static readonly ETCD = new RendezvousBackend('etcd');
  /** An etcd server through the v2 API. */
  public static readonly ETCD_V2 = new RendezvousBackend('etcd-v2');
  /**
   * The RendezvousBackend a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the backend as torchrun spells it: `c10d`, `etcd` or `etcd-v2`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): RendezvousBackend {
    return parseKnown('RendezvousBackend.parse', value, key, [['c10d', RendezvousBackend.C10D], ['etcd', RendezvousBackend.ETCD], ['etcd-v2', RendezvousBackend.ETCD_V2]], 'the values training-operator v1.9.4 knows');
  }

  /** @param value the backend as `spec.elasticPolicy.rdzvBackend` spells it */
  private constructor(public readonly value: string) {}
}

/** Elastic PyTorch training: worker bounds plus how torchrun's workers find each other. */
export interface ElasticOptions extends ElasticBounds {
  /**
   * Rendezvous backend.
   * @default RendezvousBackend.C10D
   */
  readonly rendezvousBackend?: RendezvousBackend;
  /**
   * Rendezvous host.
   * @default - chosen by the operator
   */
  readonly rendezvousHost?: string;
  /**
   * Rendezvous port.
   * @default - chosen by the operator
   */
  readonly rendezvousPort?: number;
  /**
   * Rendezvous id shared by the workers.
   * @default - the job's name
   */
  readonly rendezvousId?: string;
  /**
   * Extra rendezvous settings, such as `{ timeout: '900' }`.
   * @default - none
   */
  readonly rendezvousConf?: { [key: string]: string };
}

/** A distributed PyTorch job: one Master plus workers, or elastic workers alone. */
export interface DistributedPyTorchProps extends TrainingJobProps {
  /**
   * Worker pods, besides the Master (static jobs) or the initial count (elastic jobs). 0 makes a
   * single-node job.
   * @default 1
   */
  readonly workers?: number;
  /**
   * Options of the Master only.
   * @default - the job's options
   */
  readonly master?: RoleOptions;
  /**
   * Options of the workers only.
   * @default - the job's options
   */
  readonly worker?: RoleOptions;
  /**
   * torchrun processes per pod.
   * @default - the accelerators per pod when they are set, else the operator's default (auto)
   */
  readonly nprocPerNode?: NprocPerNode;
  /**
   * Makes the job elastic: workers only, no Master, peers found through the rendezvous.
   * @default - a static job with a Master
   */
  readonly elastic?: ElasticOptions;
}

/** The operator makes the Master rank 0 and the rendezvous address; a static job has exactly one. */
const ONE_MASTER = { min: 1, max: 1, expected: '1: a static PyTorchJob has exactly one Master, which the operator makes rank 0 and the rendezvous address' };


/**
 * A PyTorchJob for `torchrun`. A static job has exactly one Master (written with `replicas: 1`,
 * which the operator needs to set RANK and WORLD_SIZE) and any number of workers; an elastic job
 * runs workers only. The container is named `pytorch` with the port `pytorchjob-port` 23456.
 * The operator sets MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK, the PET_* variables of torchrun and
 * PYTHONUNBUFFERED; users must not set them.
 */
export class DistributedPyTorch extends TrainingJob {
  /** The Master, absent in elastic jobs. */
  public readonly master?: ReplicaGroup;
  /** The workers, absent when a static job has none. */
  public readonly worker?: ReplicaGroup;

  private readonly props: DistributedPyTorchProps;

  /**
   * @param scope the construct this job belongs to
   * @param id the job's construct id, unique within `scope`
   * @param props the workers, the Master (static jobs only), elastic bounds and the options of every pod
   */
  public constructor(scope: Construct, id: string, props: DistributedPyTorchProps) {
    super(scope, id, props);
    this.props = props;
    checkCount(this, 'workers', props.workers, 0);
    const workers = props.workers ?? 1;
    const elastic = props.elastic;
    if (elastic) {
      checkElasticBounds(this, elastic);
      if (workers < 1) fail(this, 'workers', workers, `expected ${ELASTIC_WORKERS}`);
      if (props.master) fail(this, 'master', 'set', 'expected no master options for an elastic job, which has no Master');
      checkWorkersWithinBounds(this, workers, elastic);
    } else {
      this.master = this._addReplicaGroup('Master', { ...props.master, replicas: 1 }, ONE_MASTER);
    }
    if (workers > 0) this.worker = this._addReplicaGroup('Worker', { ...props.worker, replicas: workers }, elastic ? elasticWorkerCount(elastic) : undefined);
    const nproc = props.nprocPerNode?.processes;
    if (nproc !== undefined) checkCount(this, 'nprocPerNode', nproc, 1);
  }

  /** @internal */
  protected _kind(): TrainingKind {
    return trainingKind(PYTORCH_JOB);
  }

  /** @internal */
  protected _renderKindSpec(): { [field: string]: any } {
    const elastic = this.props.elastic;
    const elasticPolicy: kubeflow.PyTorchJobSpecElasticPolicy | undefined = elastic ? {
      ...renderElasticBounds(elastic),
      rdzvBackend: elastic.rendezvousBackend?.value,
      rdzvHost: elastic.rendezvousHost,
      rdzvPort: elastic.rendezvousPort,
      rdzvId: elastic.rendezvousId,
      // An empty map is no settings: the operator fails on an empty rdzvConf list (training-operator/rdzv-conf).
      rdzvConf: elastic.rendezvousConf && Object.keys(elastic.rendezvousConf).length > 0
        ? Object.keys(elastic.rendezvousConf).sort().map(key => ({ key, value: elastic.rendezvousConf![key] }))
        : undefined,
    } : undefined;
    return {
      nprocPerNode: this.nprocPerNode()?.value,
      elasticPolicy: elasticPolicy && dropUndefined(elasticPolicy),
    };
  }

  /** @internal */
  protected _validateKind(): Finding[] {
    const errors: Finding[] = [];
    const explicit = this.props.nprocPerNode?.processes;
    const nproc = explicit ?? this.nprocPerNode()?.processes;
    for (const group of this.replicaGroups) {
      const devices = group.accelerator?.count ?? 0;
      if (nproc === undefined || nproc <= devices) continue;
      if (explicit !== undefined && group.accelerator !== undefined) {
        errors.push(finding('nprocPerNode', nproc, `expected at most the ${devices} accelerators per ${group.replicaType} pod; more processes than devices oversubscribe them`));
      } else if (explicit === undefined) {
        // Derived from another role's accelerators: the operator gives every pod the same count.
        const source = (this.worker ?? this.master)!.replicaType;
        errors.push(finding('nprocPerNode', `${nproc} (one per accelerator of a ${source} pod)`,
          `expected at most the ${devices} accelerators per ${group.replicaType} pod: the operator starts nprocPerNode processes in every pod; give the ${group.replicaType} as many accelerators or set nprocPerNode`));
      }
    }
    return errors;
  }


  /** Explicit value, else one process per accelerator of a pod. */
  private nprocPerNode(): NprocPerNode | undefined {
    if (this.props.nprocPerNode) return this.props.nprocPerNode;
    const devices = (this.worker ?? this.master)?.accelerator?.count;
    return devices ? NprocPerNode.of(devices) : undefined;
  }
}
