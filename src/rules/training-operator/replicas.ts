/**
 * Replica types and counts per kind, as the operator's webhooks and controllers reject or
 * misbehave on them (kubeflow/training-operator release-1.9, pkg/webhooks/<kind>/*_webhook.go and
 * pkg/controller.v1/mpi validateMPIJob). Map keys are exact: `master` is not `Master`.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { ELASTIC_WORKERS, NON_NEGATIVE, PADDLE_PARAMETER_SERVERS, PADDLE_WORKERS, PYTORCH_WORKERS, TF_WORKERS } from './replica-count-texts';
import { TrainingKindFacts, replicaSpecs, replicasOf } from './training-kinds';

const F = 'replicas';

export const REPLICA_TYPE = new Rule('training-operator', 'training-operator/replica-type', F,
  'training-operator pkg/webhooks/*/validate<Kind>ReplicaSpecs (replica type keys) and pkg/controller.v1/mpi validateMPIJob',
  'every replica type is one the framework knows (PyTorch Master/Worker, XGBoost and Paddle Master/Worker, JAX Worker)');
export const REPLICA_COUNT = new Rule('training-operator', 'training-operator/replica-count', F,
  'training-operator pkg/webhooks: PyTorch and XGBoost Master replicas 1, PyTorch Worker replicas at least 1 and required with elasticPolicy, TF Chief/Master at most 1; '
  + 'pkg/controller.v1/mpi: Launcher replicas 1; pkg/controller.v1/tensorflow and paddlepaddle UpdateJobStatus: the replicas that decide success; JAX: Worker 0 is the coordinator; any replica type: no negative count (the CRDs set no minimum)',
  'a PyTorchJob Master has replicas written and equal to 1');

export const STATIC_MASTER = new Rule('training-operator', 'training-operator/pytorch-master', F,
  'training-operator pkg/controller.v1/pytorch envvar.go: RANK and WORLD_SIZE are set only when a Master exists; elastic jobs run Workers only',
  'RANK and WORLD_SIZE are set only when the job has a Master (a static job without one gets no rendezvous)');

export const REPLICA_RULES = [REPLICA_TYPE, REPLICA_COUNT, STATIC_MASTER];

/** Checks the replica map's keys and the counts each kind allows. */
export function checkReplicas(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const at = child('spec', facts.replicaKey);
  const specs = replicaSpecs(doc, facts);
  const byType = new Map(specs);
  // One finding per count: a negative count is not also reported as too small for its kind.
  const counted = new Set<string>();
  const report = (field: string, value: unknown, allowed: string) => {
    if (counted.has(field)) return;
    counted.add(field);
    REPLICA_COUNT.report(out, field, value, allowed);
  };
  // A misspelt type (`Workers`) is reported as such; the counts of the type meant are not judged.
  let misspelt = false;
  for (const [type, spec] of specs) {
    if (!facts.replicaTypes.includes(type)) {
      misspelt = true;
      REPLICA_TYPE.report(out, child(at, type), type, `expected a replica type of ${facts.kind}: ${facts.replicaTypes.map(t => `"${t}"`).join(', ')} (spelled exactly)`);
    } else if (typeof spec.replicas === 'number' && spec.replicas < 0) {
      // The CRDs set no minimum, and the controllers create no pods for a negative count.
      report(child(child(at, type), 'replicas'), spec.replicas, `expected ${NON_NEGATIVE}`);
    }
  }
  // `written`: the count must be written out (the PyTorch webhook rejects a Master without
  // replicas); elsewhere an unset count is the default 1.
  const exactlyOne = (type: string, why: string, required: boolean, written: boolean) => {
    const spec = byType.get(type);
    if (spec === undefined) {
      if (required) report(child(at, type), undefined, `expected a ${type} with replicas: 1; ${why}`);
      return;
    }
    const count = written ? spec.replicas : spec.replicas ?? 1;
    if (count !== 1) report(child(child(at, type), 'replicas'), spec.replicas, `expected 1; ${why}`);
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
      // The webhook: a Worker is required with elasticPolicy, and a written count must be 1 or more.
      const worker = byType.get('Worker');
      if (elastic && worker === undefined && !misspelt) report(child(at, 'Worker'), undefined, `expected ${ELASTIC_WORKERS}`);
      const written = worker?.replicas;
      if (typeof written === 'number' && written < 1) {
        report(child(child(at, 'Worker'), 'replicas'), written, elastic ? `expected ${ELASTIC_WORKERS}` : `expected ${PYTORCH_WORKERS}`);
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
        if (n > 1) report(child(child(at, type), 'replicas'), n, `expected at most 1: a TFJob has at most one ${type}`);
      }
      if (leaders.length > 1) report(child(at, 'Master'), byType.get('Master'), 'expected no Master together with a Chief: a TFJob has at most one Chief or Master');
      // The controller decides success by the Chief (or Master), else by the workers: without
      // either, a job of parameter servers never succeeds, and a Worker of 0 replicas succeeds at once.
      const worker = byType.get('Worker');
      if (leaders.length === 0 && byType.size > 0 && !misspelt && (worker === undefined || replicasOf(worker) < 1)) {
        report(worker === undefined ? child(at, 'Worker') : child(child(at, 'Worker'), 'replicas'), worker?.replicas, `expected ${TF_WORKERS}`);
      }
      break;
    }
    case 'PaddleJob': {
      // The Worker replicas are the trainers (the Master is the parameter server): without them a
      // parameter-server job never finishes, and a collective Worker of 0 replicas succeeds at once.
      const worker = byType.get('Worker');
      if (byType.size > 0 && !misspelt && (worker === undefined || replicasOf(worker) < 1)) {
        report(worker === undefined ? child(at, 'Worker') : child(child(at, 'Worker'), 'replicas'), worker?.replicas, `expected ${PADDLE_WORKERS}`);
      }
      // A Master makes the job parameter-server mode, and the Master's success ends it.
      const master = byType.get('Master');
      if (master !== undefined && replicasOf(master) < 1) report(child(child(at, 'Master'), 'replicas'), master.replicas, `expected ${PADDLE_PARAMETER_SERVERS}`);
      break;
    }
    case 'JAXJob': {
      const worker = byType.get('Worker');
      if (worker === undefined || replicasOf(worker) < 1) {
        report(worker === undefined ? child(at, 'Worker') : child(child(at, 'Worker'), 'replicas'), worker?.replicas,
          'expected at least 1 Worker: worker 0 is the JAX coordinator');
      }
      break;
    }
    default:
      break;
  }
}
