/**
 * What a Trainer v2 TrainJob asks of the cluster: the pods of the JobSet the Trainer makes of it
 * through its runtime, as Kueue counts them too (rules/kueue/capacity-podsets.ts resolves the
 * runtime: counts per replicated job, the job's node count and resources per node laid over the
 * runtime's). Kueue admits a JobSet with the quota of all its replicated jobs, initializers
 * included, so the plan sums them all. A runtime that is not in the input (a built-in one
 * installed on the cluster) leaves only the job's own fields to count, and the plan says so.
 */
import { Amounts, NO_AMOUNTS, add, podAmounts, times } from './amounts';
import { RuntimeIndex, runtimeIndex, trainJobPodSets } from '../../rules/kueue/capacity-podsets';

export { RuntimeIndex, runtimeIndex };

/** What a TrainJob asks for: its pods per replicated job and their amounts. */
export interface TrainJobDemand {
  readonly roles: ReadonlyArray<readonly [string, number]>;
  readonly pods: number;
  readonly amounts: Amounts;
  /** Set when the runtime is not in the input, so only the job's own fields are counted. */
  readonly note?: string;
}

/** The demand of one TrainJob, resolved against the runtimes of the same input. */
export function trainJobDemand(job: any, runtimes: RuntimeIndex): TrainJobDemand {
  const { podSets, note } = trainJobPodSets(job, runtimes);
  return {
    roles: podSets.map(p => [p.name, p.count] as const),
    pods: podSets.reduce((n, p) => n + p.count, 0),
    amounts: podSets.reduce((a, p) => add(a, times(podAmounts(p.podSpec), p.count)), NO_AMOUNTS),
    ...(note === undefined ? {} : { note }),
  };
}
