/**
 * Fields the v1 CRDs declare as plain strings although the operator knows a fixed set of values:
 * the API server stores any string, and the controller then switches on the value, so a value it
 * does not know is not refused but acts as something else (an unknown clean-pod policy deletes
 * every pod; an unknown replica restart policy is copied onto the pods, which the API server then
 * refuses, so the job never starts). The sets are training-operator v1.9.4's constants in
 * pkg/apis/kubeflow.org/v1 and the files that switch on them are named per rule.
 *
 * A newer operator may know more values: a cdk8s app accepts them with the context key
 * ACCEPT_UNKNOWN_VALUES_CONTEXT (see the engine), so these findings carry the value as given.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

const F = 'values';

export const CLEAN_POD_POLICY_VALUE = new Rule('training-operator', 'training-operator/clean-pod-policy', F,
  'training-operator pkg/controller.v1/common/job.go DeletePodsAndServices: None keeps the pods, Running deletes the running ones, any other value deletes every pod',
  'runPolicy.cleanPodPolicy is None, Running or All (any other value deletes every pod)');
export const REPLICA_RESTART_POLICY_VALUE = new Rule('training-operator', 'training-operator/replica-restart-policy', F,
  'training-operator pkg/core/pod.go SetRestartPolicy copies the replica restart policy onto the pod template (ExitCode as Never), and pkg/core/job.go PastBackoffLimit counts OnFailure, Always and ExitCode only',
  'a replica\'s restartPolicy is Always, OnFailure, Never or ExitCode (the value is copied onto the pods)');
export const MANAGED_BY_VALUE = new Rule('training-operator', 'training-operator/managed-by', F,
  'training-operator pkg/common/util/webhooks.go ValidateRunPolicy: runPolicy.managedBy is one of supportedJobControllers',
  'runPolicy.managedBy, when set, is the training operator or Kueue\'s MultiKueue');
export const RDZV_BACKEND_VALUE = new Rule('training-operator', 'training-operator/rdzv-backend', F,
  'training-operator pkg/apis/kubeflow.org/v1/pytorch_types.go RDZVBackend constants, passed to torchrun as PET_RDZV_BACKEND by pkg/controller.v1/pytorch/elastic.go',
  'elasticPolicy.rdzvBackend is c10d, etcd or etcd-v2');
export const TF_SUCCESS_POLICY_VALUE = new Rule('training-operator', 'training-operator/tf-success-policy', F,
  'training-operator pkg/controller.v1/tensorflow/tfjob_controller.go UpdateJobStatus: AllWorkers waits for every worker; any other value ends the job when worker 0 succeeds',
  'successPolicy is empty or AllWorkers (any other value ends the job when worker 0 succeeds)');

export const KNOWN_VALUE_RULES = [
  CLEAN_POD_POLICY_VALUE, REPLICA_RESTART_POLICY_VALUE, MANAGED_BY_VALUE, RDZV_BACKEND_VALUE, TF_SUCCESS_POLICY_VALUE,
];

/** The values training-operator v1.9.4 knows, per rule id. */
export const KNOWN_VALUES: { readonly [ruleId: string]: readonly string[] } = {
  [CLEAN_POD_POLICY_VALUE.id]: ['None', 'Running', 'All'],
  [REPLICA_RESTART_POLICY_VALUE.id]: ['Always', 'OnFailure', 'Never', 'ExitCode'],
  [MANAGED_BY_VALUE.id]: ['kubeflow.org/training-operator', 'kueue.x-k8s.io/multikueue'],
  [RDZV_BACKEND_VALUE.id]: ['c10d', 'etcd', 'etcd-v2'],
  [TF_SUCCESS_POLICY_VALUE.id]: ['', 'AllWorkers'],
};

/** What an unknown value does, for the message. */
const EFFECT: { readonly [ruleId: string]: string } = {
  [CLEAN_POD_POLICY_VALUE.id]: 'the operator deletes every pod on any other value',
  [REPLICA_RESTART_POLICY_VALUE.id]: 'the operator copies the value onto the pods, which the API server refuses',
  [MANAGED_BY_VALUE.id]: 'the operator\'s webhook refuses any other value',
  [RDZV_BACKEND_VALUE.id]: 'torchrun refuses any other backend',
  [TF_SUCCESS_POLICY_VALUE.id]: 'any other value ends the job when worker 0 succeeds',
};

/** The `expected ...` text of a rule of this file. */
export function knownValuesAllowed(rule: Rule): string {
  const values = KNOWN_VALUES[rule.id].map(v => JSON.stringify(v));
  const list = values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
  return `expected ${list}, the values training-operator v1.9.4 knows (${EFFECT[rule.id]})`;
}

function check(rule: Rule, out: Finding[], field: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string' && KNOWN_VALUES[rule.id].includes(value)) return;
  rule.report(out, field, value, knownValuesAllowed(rule));
}

/** Checks the string fields with a known set of values of a v1 job. */
export function checkKnownValues(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const spec = doc?.spec;
  if (typeof spec !== 'object' || spec === null) return;
  const runPolicy = spec.runPolicy;
  if (typeof runPolicy === 'object' && runPolicy !== null) {
    check(CLEAN_POD_POLICY_VALUE, out, 'spec.runPolicy.cleanPodPolicy', runPolicy.cleanPodPolicy);
    check(MANAGED_BY_VALUE, out, 'spec.runPolicy.managedBy', runPolicy.managedBy);
  }
  // MPIJob's deprecated spec.cleanPodPolicy, which the operator still reads when runPolicy's is unset.
  if (facts.kind === 'MPIJob') check(CLEAN_POD_POLICY_VALUE, out, 'spec.cleanPodPolicy', spec.cleanPodPolicy);
  for (const [type, replica] of replicaSpecs(doc, facts)) {
    // An empty policy is the unset one: the controller applies the kind's default (setDefaultRestartPolicy).
    if (typeof replica === 'object' && replica !== null && replica.restartPolicy !== '') {
      check(REPLICA_RESTART_POLICY_VALUE, out, child(child(child('spec', facts.replicaKey), type), 'restartPolicy'), replica.restartPolicy);
    }
  }
  const elastic = spec.elasticPolicy;
  if (facts.kind === 'PyTorchJob' && typeof elastic === 'object' && elastic !== null) {
    check(RDZV_BACKEND_VALUE, out, 'spec.elasticPolicy.rdzvBackend', elastic.rdzvBackend);
  }
  if (facts.kind === 'TFJob') check(TF_SUCCESS_POLICY_VALUE, out, 'spec.successPolicy', spec.successPolicy);
}
