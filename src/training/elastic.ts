import { k8s } from 'cdk8s-plus-28';

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
