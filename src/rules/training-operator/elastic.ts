/**
 * Elastic jobs (PyTorchJob and PaddleJob `elasticPolicy`): the worker count moves between
 * minReplicas and maxReplicas. Upstream does not check that min ≤ max (training-operator
 * pkg/controller.v1/pytorch elastic.go passes PET_NNODES=min:max to torchrun, which then refuses
 * it), and the PyTorch webhook rejects the deprecated elasticPolicy.nProcPerNode together with
 * spec.nprocPerNode (pkg/webhooks/pytorch validateSpec).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs, replicasOf } from './training-kinds';

const F = 'elastic';

export const ELASTIC_BOUNDS = new Rule('training-operator', 'training-operator/elastic-bounds', F,
  'training-operator pkg/controller.v1/pytorch elastic.go (PET_NNODES=minReplicas:maxReplicas) and torchrun --nnodes',
  'elasticPolicy.minReplicas is at most maxReplicas, and the Worker count lies between them');
export const ELASTIC_NPROC = new Rule('training-operator', 'training-operator/elastic-nproc', F,
  'training-operator pkg/webhooks/pytorch: elasticPolicy.nProcPerNode is deprecated and forbidden together with spec.nprocPerNode',
  'elasticPolicy.nProcPerNode (deprecated) is not set together with spec.nprocPerNode');

export const ELASTIC_RULES = [ELASTIC_BOUNDS, ELASTIC_NPROC];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Checks the bounds of an elastic job and the initial worker count within them. */
export function checkElastic(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const policy = doc.spec?.elasticPolicy;
  if (typeof policy !== 'object' || policy === null) return;
  const min = policy.minReplicas;
  const max = policy.maxReplicas;
  // The bounds are node counts (torchrun --nnodes=min:max): below 1 no node would be started.
  const below = [['minReplicas', min], ['maxReplicas', max]].find(([, v]) => isInt(v) && v < 1);
  if (below) {
    ELASTIC_BOUNDS.report(out, `spec.elasticPolicy.${below[0]}`, below[1], 'expected a whole number of 1 or more');
  } else if (isInt(min) && isInt(max) && min > max) {
    ELASTIC_BOUNDS.report(out, 'spec.elasticPolicy.minReplicas', min, `expected at most spec.elasticPolicy.maxReplicas (${max})`);
  } else {
    const worker = new Map(replicaSpecs(doc, facts)).get('Worker');
    if (worker !== undefined) {
      const n = replicasOf(worker);
      const at = `spec.${facts.replicaKey}.Worker.replicas`;
      if (isInt(min) && n < min) ELASTIC_BOUNDS.report(out, at, n, `expected at least spec.elasticPolicy.minReplicas (${min})`);
      else if (isInt(max) && n > max) ELASTIC_BOUNDS.report(out, at, n, `expected at most spec.elasticPolicy.maxReplicas (${max})`);
    }
  }
  if (facts.kind === 'PyTorchJob' && policy.nProcPerNode !== undefined && doc.spec?.nprocPerNode !== undefined) {
    ELASTIC_NPROC.report(out, 'spec.elasticPolicy.nProcPerNode', policy.nProcPerNode, 'expected not set together with spec.nprocPerNode, which replaces it');
  }
}
