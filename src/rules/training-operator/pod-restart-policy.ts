/**
 * The restart policy of a v1 job's pods is the replica's: the operator writes the replica spec's
 * `restartPolicy` over the pod template's (Never for ExitCode, which pods do not know) before it
 * creates the pods (training-operator v1.9.4 pkg/core/pod.go SetRestartPolicy). A different
 * policy in the template is dropped without a word, so the pods do not restart as it says.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

export const POD_RESTART_POLICY = new Rule('training-operator', 'training-operator/pod-restart-policy', 'replicas',
  'training-operator pkg/core/pod.go SetRestartPolicy: the replica restartPolicy (Never for ExitCode) is written over the pod template\'s',
  'the pod template\'s own restartPolicy is replaced by the replica\'s (Never for ExitCode), so a different one written on the pod never applies');

export const POD_RESTART_POLICY_RULES = [POD_RESTART_POLICY];

/** What the operator writes on the pods for each replica restartPolicy it knows. */
const WRITTEN: { readonly [replica: string]: string } = { Always: 'Always', OnFailure: 'OnFailure', Never: 'Never', ExitCode: 'Never' };

/** The text after `expected ` for a pod template policy the operator overwrites (the constructs' too). */
export function podRestartPolicyExpected(replicaPolicy: string): string {
  return replicaPolicy === 'ExitCode'
    ? 'Never or none with restartPolicy ExitCode: the operator decides restarts by exit code and writes Never on the pods'
    : `${replicaPolicy} (the replica's restartPolicy, which the operator applies over it) or none`;
}

/** Checks each replica's pod template policy against the one the operator writes over it. */
export function checkPodRestartPolicy(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  for (const [type, replica] of replicaSpecs(doc, facts)) {
    const policy = replica.restartPolicy;
    const pod = replica.template?.spec?.restartPolicy;
    // An unwritten replica policy is the kind's default; an unknown one is training-operator/replica-restart-policy's.
    // An empty pod policy is Go's unset one: the operator writes its own over it, as over none.
    if (typeof policy !== 'string' || !(policy in WRITTEN) || pod === undefined || pod === null || pod === '' || pod === WRITTEN[policy]) continue;
    const at = child(child(child(child(child('spec', facts.replicaKey), type), 'template'), 'spec'), 'restartPolicy');
    POD_RESTART_POLICY.report(out, at, pod, `expected ${podRestartPolicyExpected(policy)}`);
  }
}
