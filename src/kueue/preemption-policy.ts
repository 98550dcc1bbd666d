import { parseKnown } from '../common/internal/parse-value';

/**
 * Which workloads an admitted job may preempt to get its quota back or to fit (a ClusterQueue's
 * `preemption` fields). Each field takes a subset: `reclaimWithinCohort` NEVER, LOWER_PRIORITY or
 * ANY; `withinClusterQueue` NEVER, LOWER_PRIORITY or LOWER_OR_NEWER_EQUAL_PRIORITY;
 * `borrowWithinCohort` NEVER or LOWER_PRIORITY. The CRD's schema refuses any other at synth.
 */
export class PreemptionPolicy {
  /** Never preempt. */
  public static readonly NEVER = new PreemptionPolicy('Never');
  /** Preempt workloads of lower priority. */
  public static readonly LOWER_PRIORITY = new PreemptionPolicy('LowerPriority');
  /** Preempt workloads of lower priority, and newer ones of equal priority (within a ClusterQueue). */
  public static readonly LOWER_OR_NEWER_EQUAL_PRIORITY = new PreemptionPolicy('LowerOrNewerEqualPriority');
  /** Preempt any workload of the cohort that uses borrowed quota (reclaim within a cohort). */
  public static readonly ANY = new PreemptionPolicy('Any');

  /**
   * The PreemptionPolicy a configuration file names, as Kueue writes it (`Never`, `LowerPriority`,
   * `LowerOrNewerEqualPriority`, `Any`), refused at once otherwise.
   *
   * @param value the policy's name
   * @param key the configuration key the value came from, named in the error (such as `preemption.withinClusterQueue`)
   */
  public static parse(value: string, key?: string): PreemptionPolicy {
    return parseKnown('PreemptionPolicy.parse', value, key, [
      ['Never', PreemptionPolicy.NEVER], ['LowerPriority', PreemptionPolicy.LOWER_PRIORITY],
      ['LowerOrNewerEqualPriority', PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY], ['Any', PreemptionPolicy.ANY],
    ], 'the preemption policies Kueue v0.15.2 knows');
  }

  private constructor(
    /** The value Kueue reads. */
    public readonly value: string) {}
}

/** What a ClusterQueue's admitted jobs may preempt (Kueue's defaults: none). */
export interface ClusterQueuePreemption {
  /**
   * Whether a job of this queue may preempt workloads of other queues of the cohort that borrow
   * this queue's nominal quota: NEVER, LOWER_PRIORITY or ANY.
   * @default PreemptionPolicy.NEVER
   */
  readonly reclaimWithinCohort?: PreemptionPolicy;
  /**
   * Whether a job that does not fit the queue's quota may preempt workloads of the same queue:
   * NEVER, LOWER_PRIORITY or LOWER_OR_NEWER_EQUAL_PRIORITY.
   * @default PreemptionPolicy.NEVER
   */
  readonly withinClusterQueue?: PreemptionPolicy;
  /**
   * Whether a job that borrows may preempt workloads of other queues of the cohort: NEVER or
   * LOWER_PRIORITY (only with a reclaimWithinCohort other than NEVER).
   * @default PreemptionPolicy.NEVER
   */
  readonly borrowWithinCohort?: PreemptionPolicy;
  /**
   * With borrowWithinCohort LOWER_PRIORITY: only workloads of at most this priority are preempted.
   * Refused without borrowWithinCohort (the threshold is a field of that policy).
   * @default - any lower priority
   */
  readonly borrowWithinCohortMaxPriorityThreshold?: number;
}
