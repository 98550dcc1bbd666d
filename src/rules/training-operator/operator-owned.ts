/**
 * What the training operator v1.9.4 writes into each pod it makes from a replica's template, over
 * or beside what the template has. Labels: createNewPod (pkg/controller.v1/common/pod.go) and the
 * MPI controller's newLauncher and newWorker set GenLabels' keys and the replica's type, index and
 * role on the pod, replacing a template label of the same key. (The names and mount paths it adds
 * are reserved-names.ts.)
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

export const OPERATOR_POD_LABELS = new Rule('training-operator', 'training-operator/operator-pod-labels', 'replicas',
  'training-operator pkg/controller.v1/common/pod.go createNewPod and mpi newLauncher/newWorker (GenLabels, SetReplicaType, SetReplicaIndex, SetJobRole over the template\'s labels)',
  'a replica\'s pod template carries none of the training.kubeflow.org/ labels the operator sets on every pod (job-name, operator-name, replica-type, replica-index, job-role)');

export const OPERATOR_OWNED_RULES = [OPERATOR_POD_LABELS];

/** The labels the operator writes on the pods it creates, and what it writes (pkg/apis/kubeflow.org/v1 common_types.go). */
const OPERATOR_LABELS: Readonly<Record<string, string>> = {
  'training.kubeflow.org/job-name': 'writes the job\'s name under this key on every pod it creates',
  'training.kubeflow.org/operator-name': 'writes its controller\'s name under this key on every pod it creates',
  'training.kubeflow.org/replica-type': 'writes the replica type under this key on every pod it creates',
  'training.kubeflow.org/replica-index': 'writes the pod\'s index under this key on every pod it creates',
  'training.kubeflow.org/job-role': 'writes "master" under this key on the master replica\'s pods, which tools select the master by',
};

/** Checks each replica's pod template against the labels the operator writes (its names and paths: reserved-names.ts). */
export function checkOperatorOwned(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const at = child('spec', facts.replicaKey);
  for (const [type, spec] of replicaSpecs(doc, facts)) {
    const templateAt = child(child(at, type), 'template');
    const labels = spec.template?.metadata?.labels;
    if (typeof labels === 'object' && labels !== null) {
      for (const key of Object.keys(labels)) {
        const what = OPERATOR_LABELS[key];
        if (what === undefined) continue;
        OPERATOR_POD_LABELS.report(out, child(child(child(templateAt, 'metadata'), 'labels'), key), labels[key],
          `expected no "${key}" label on the pod template: the operator ${what}, over this value`);
      }
    }
  }
}
