import { IConstruct } from 'constructs';
import { ReplicaCountRule } from '../../common/internal/pod-render';
import { checkCount, fail } from '../../synth/report';
import type { ElasticBounds } from '../elastic';

/** Throws for bounds that can never work: counts below 1, or a minimum above the maximum. */
export function checkElasticBounds(scope: IConstruct, elastic: ElasticBounds): void {
  checkCount(scope, 'elastic.minWorkers', elastic.minWorkers, 1);
  checkCount(scope, 'elastic.maxWorkers', elastic.maxWorkers, 1);
  checkCount(scope, 'elastic.maxRestarts', elastic.maxRestarts, 0);
  if (elastic.minWorkers > elastic.maxWorkers) {
    fail(scope, 'elastic.minWorkers', elastic.minWorkers, `expected at most elastic.maxWorkers (${elastic.maxWorkers})`);
  }
}

/** The count rule of an elastic job's workers: within the bounds. */
export function elasticWorkerCount(elastic: ElasticBounds): ReplicaCountRule {
  return {
    min: elastic.minWorkers,
    max: elastic.maxWorkers,
    expected: `a count between elastic.minWorkers (${elastic.minWorkers}) and elastic.maxWorkers (${elastic.maxWorkers})`,
  };
}

/** Throws when the initial worker count is outside the bounds. */
export function checkWorkersWithinBounds(scope: IConstruct, workers: number, elastic: ElasticBounds): void {
  const rule = elasticWorkerCount(elastic);
  if (workers < rule.min || workers > rule.max!) fail(scope, 'workers', workers, `expected ${rule.expected}`);
}

/** The `elasticPolicy` fields the bounds set, for both kinds' L1 types. */
export function renderElasticBounds(elastic: ElasticBounds) {
  return { minReplicas: elastic.minWorkers, maxReplicas: elastic.maxWorkers, maxRestarts: elastic.maxRestarts, metrics: elastic.metrics };
}
