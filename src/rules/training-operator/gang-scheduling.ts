/**
 * The gang of a v1 job: with gang scheduling on, the operator writes a PodGroup whose minMember is
 * runPolicy.schedulingPolicy.minAvailable (the job's pods when unset), and the gang scheduler
 * binds none of the pods until that many can run together. A minAvailable above the job's pods can
 * never be met, so the job waits for ever; with gang scheduling off the field has no effect at all.
 * Nothing upstream checks it (no CRD maximum, no webhook rule).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs, replicasOf } from './training-kinds';

export const GANG_MIN_AVAILABLE = new Rule('training-operator', 'training-operator/gang-min-available', 'scheduling',
  'training-operator pkg/controller.v1/common job.go ReconcileJobs (PodGroup minMember = schedulingPolicy.minAvailable, else the job\'s pods); nothing checks it against the pods',
  'runPolicy.schedulingPolicy.minAvailable is at most the pods the replica specs ask for');

export const GANG_RULES = [GANG_MIN_AVAILABLE];

/** Checks minAvailable against the pods the job's replica specs ask for. */
export function checkGangScheduling(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const min = doc.spec?.runPolicy?.schedulingPolicy?.minAvailable;
  if (typeof min !== 'number' || !Number.isInteger(min)) return;
  const total = replicaSpecs(doc, facts).reduce((n, [, spec]) => n + Math.max(replicasOf(spec), 0), 0);
  if (min > total) {
    // The construct's gangScheduling.minAvailable reaches the user through this rule, at synth.
    GANG_MIN_AVAILABLE.report(out, 'spec.runPolicy.schedulingPolicy.minAvailable', min, `expected at most the job's ${total} pods, or the group can never be scheduled`);
  }
}
