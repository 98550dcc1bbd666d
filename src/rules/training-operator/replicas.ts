/**
 * Replica types and counts per kind, as the operator's webhooks and controllers reject or
 * misbehave on them (kubeflow/training-operator release-1.9, pkg/webhooks/<kind>/*_webhook.go and
 * pkg/controller.v1/mpi validateMPIJob). Map keys are exact: `master` is not `Master`.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs, replicasOf } from './training-kinds';

const F = 'replicas';

export const REPLICA_TYPE = new Rule('training-operator', 'kubeflow/replica-type', F,
  'training-operator pkg/webhooks/*/validate<Kind>ReplicaSpecs (replica type keys) and pkg/controller.v1/mpi validateMPIJob');
export const REPLICA_COUNT = new Rule('training-operator', 'kubeflow/replica-count', F,
  'training-operator pkg/webhooks: PyTorch and XGBoost Master replicas 1, PyTorch other types at least 1 and a Worker when elastic, TF Chief/Master at most 1; pkg/controller.v1/mpi: Launcher replicas 1; JAX: Worker 0 is the coordinator');
export const STATIC_MASTER = new Rule('training-operator', 'kubeflow/pytorch-master', F,
  'training-operator pkg/controller.v1/pytorch envvar.go: RANK and WORLD_SIZE are set only when a Master exists; elastic jobs run Workers only');

export const REPLICA_RULES = [REPLICA_TYPE, REPLICA_COUNT, STATIC_MASTER];

/** Checks the replica map's keys and the counts each kind allows. */
export function checkReplicas(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const at = child('spec', facts.replicaKey);
  const specs = replicaSpecs(doc, facts);
  const byType = new Map(specs);
  for (const [type] of specs) {
    if (!facts.replicaTypes.includes(type)) {
      REPLICA_TYPE.report(out, child(at, type), type, `expected a replica type of ${facts.kind}: ${facts.replicaTypes.map(t => `"${t}"`).join(', ')} (spelled exactly)`);
    }
  }
  // `written`: the count must be written out (the PyTorch webhook rejects a Master without
  // replicas); elsewhere an unset count is the default 1.
  const exactlyOne = (type: string, why: string, required: boolean, written: boolean) => {
    const spec = byType.get(type);
    if (spec === undefined) {
      if (required) REPLICA_COUNT.report(out, child(at, type), undefined, `expected a ${type} with replicas: 1; ${why}`);
      return;
    }
    const count = written ? spec.replicas : spec.replicas ?? 1;
    if (count !== 1) REPLICA_COUNT.report(out, child(child(at, type), 'replicas'), spec.replicas, `expected 1; ${why}`);
  };
  switch (facts.kind) {
    case 'PyTorchJob': {
      const elastic = doc.spec?.elasticPolicy !== undefined && doc.spec?.elasticPolicy !== null;
      if (elastic && byType.has('Master')) {
        STATIC_MASTER.report(out, child(at, 'Master'), byType.get('Master'), 'expected no Master in an elastic job (elasticPolicy): its Workers find each other through the rendezvous backend, and a Master gets contradictory environment');
      } else if (!elastic && !byType.has('Master') && byType.size > 0) {
        STATIC_MASTER.report(out, child(at, 'Master'), undefined, 'expected a Master in a job without elasticPolicy: the operator sets RANK and WORLD_SIZE only when one exists');
      }
      if (!elastic) exactlyOne('Master', 'a PyTorchJob has one Master, written with replicas: 1, which the operator makes rank 0', false, true);
      // validatePyTorchJob: an elastic job needs its Workers, and a written count below 1 is refused
      // for every type but the Master (whose count is checked above).
      if (elastic && !byType.has('Worker')) {
        REPLICA_COUNT.report(out, child(at, 'Worker'), undefined, 'expected a Worker: the operator\'s webhook refuses an elastic PyTorchJob (elasticPolicy) without one');
      }
      for (const [type, spec] of specs) {
        const n = spec?.replicas;
        if (type !== 'Master' && typeof n === 'number' && n < 1) {
          REPLICA_COUNT.report(out, child(child(at, type), 'replicas'), n, `expected at least 1: the operator's webhook refuses a PyTorchJob ${type} with fewer replicas`);
        }
      }
      break;
    }
    case 'XGBoostJob':
      exactlyOne('Master', 'the operator rejects an XGBoostJob whose Master does not have one replica', true, false);
      break;
    case 'MPIJob':
      exactlyOne('Launcher', 'an MPIJob has exactly one launcher (the controller refuses it otherwise, with only a warning event)', true, false);
      break;
    case 'TFJob': {
      const leaders = ['Chief', 'Master'].filter(t => byType.has(t));
      for (const type of leaders) {
        const n = replicasOf(byType.get(type));
        if (n > 1) REPLICA_COUNT.report(out, child(child(at, type), 'replicas'), n, `expected at most 1: a TFJob has at most one ${type}`);
      }
      if (leaders.length > 1) REPLICA_COUNT.report(out, child(at, 'Master'), byType.get('Master'), 'expected no Master together with a Chief: a TFJob has at most one Chief or Master');
      break;
    }
    case 'JAXJob': {
      const worker = byType.get('Worker');
      if (worker === undefined || replicasOf(worker) < 1) {
        REPLICA_COUNT.report(out, worker === undefined ? child(at, 'Worker') : child(child(at, 'Worker'), 'replicas'), worker?.replicas,
          'expected at least 1 Worker: worker 0 is the JAX coordinator');
      }
      break;
    }
    default:
      break;
  }
}
