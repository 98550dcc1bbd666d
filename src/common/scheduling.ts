import { Duration } from 'cdk8s';
import { parseKnown } from './internal/parse-value';

/**
 * The gang scheduler the cluster's Training Operator was started with
 * (`--gang-scheduler-name`). The operator then creates a PodGroup per job; the pods must name the
 * same scheduler.
 */
export class GangScheduler {
  /** Volcano (`schedulerName: volcano`). */
  public static readonly VOLCANO = new GangScheduler('volcano');
  /** The coscheduling plugin of kubernetes-sigs/scheduler-plugins. */
  public static readonly SCHEDULER_PLUGINS = new GangScheduler('scheduler-plugins-scheduler');
  /**
   * Another scheduler name, as the cluster runs it.
   *
   * @param schedulerName the name the operator was given in `--gang-scheduler-name`
   */
  public static of(schedulerName: string): GangScheduler {
    return new GangScheduler(schedulerName);
  }
  /**
   * The GangScheduler a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the scheduler name: `volcano` or `scheduler-plugins-scheduler`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): GangScheduler {
    return parseKnown('GangScheduler.parse', value, key, [['volcano', GangScheduler.VOLCANO], ['scheduler-plugins-scheduler', GangScheduler.SCHEDULER_PLUGINS]], 'the gang schedulers training-operator v1.9.4 supports (--gang-scheduler-name)', 'another scheduler name is GangScheduler.of(schedulerName)');
  }

  /** @param schedulerName the scheduler's name, written as the pods' `schedulerName` */
  private constructor(public readonly schedulerName: string) {}
}

/** All-or-nothing scheduling of a job's pods. */
export interface GangScheduling {
  /** The scheduler that places the pod group. */
  readonly scheduler: GangScheduler;
  /**
   * Pods that must be placeable together before any starts.
   * @default - every replica of the job
   */
  readonly minAvailable?: number;
  /**
   * The scheduler's queue (a Volcano queue).
   * @default - the scheduler's default queue
   */
  readonly queue?: string;
  /**
   * Resources the whole group needs, such as `{ cpu: '32', 'nvidia.com/gpu': '8' }`.
   * @default - derived by the scheduler
   */
  readonly minResources?: { [resource: string]: string };
  /**
   * Priority class of the pod group.
   * @default - none
   */
  readonly priorityClass?: string;
  /**
   * How long the group may wait to be scheduled.
   * @default - the scheduler's default
   */
  readonly scheduleTimeout?: Duration;
}
