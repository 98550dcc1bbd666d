import { k8s } from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { checkCount, fail, problem } from './errors';

/**
 * Bounds of an elastic job's workers (`spec.elasticPolicy`): the number of workers may change
 * between a minimum and a maximum. PyTorch adds rendezvous settings (`ElasticOptions`).
 */
export interface ElasticBounds {
  /** Fewest workers the job runs with (`elasticPolicy.minReplicas`). */
  readonly minWorkers: number;
  /** Most workers the job scales to (`elasticPolicy.maxReplicas`). */
  readonly maxWorkers: number;
  /**
   * Restarts of the workers before the job fails.
   * @default - the operator's default
   */
  readonly maxRestarts?: number;
  /**
   * Metrics for a HorizontalPodAutoscaler that scales the workers (autoscaling/v2 metric specs).
   * @default - no autoscaler
   */
  readonly metrics?: k8s.MetricSpecV2[];
}

/** Throws for bounds that can never work: counts below 1, or a minimum above the maximum. */
export function checkElasticBounds(scope: IConstruct, elastic: ElasticBounds): void {
  checkCount(scope, 'elastic.minWorkers', elastic.minWorkers, 1);
  checkCount(scope, 'elastic.maxWorkers', elastic.maxWorkers, 1);
  checkCount(scope, 'elastic.maxRestarts', elastic.maxRestarts, 0);
  if (elastic.minWorkers > elastic.maxWorkers) {
    fail(scope, 'elastic.minWorkers', elastic.minWorkers, `expected at most elastic.maxWorkers (${elastic.maxWorkers})`);
  }
}

/** The synth-time problem of a worker count outside the bounds, if any. */
export function workersOutsideBounds(workers: number, elastic: ElasticBounds): string | undefined {
  if (workers >= elastic.minWorkers && workers <= elastic.maxWorkers) return undefined;
  return problem('workers', workers, `expected a count between elastic.minWorkers (${elastic.minWorkers}) and elastic.maxWorkers (${elastic.maxWorkers})`);
}

/** The `elasticPolicy` fields the bounds set, for both kinds' L1 types. */
export function renderElasticBounds(elastic: ElasticBounds) {
  return { minReplicas: elastic.minWorkers, maxReplicas: elastic.maxWorkers, maxRestarts: elastic.maxRestarts, metrics: elastic.metrics };
}
