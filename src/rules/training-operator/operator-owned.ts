/**
 * What the training operator v1.9.4 writes into each pod it makes from a replica's template, over
 * or beside what the template has. Labels: createNewPod (pkg/controller.v1/common/pod.go) and the
 * MPI controller's newLauncher and newWorker set GenLabels' keys and the replica's type, index and
 * role on the pod, replacing a template label of the same key. Names: the PyTorch controller
 * appends the `init-pytorch` init container to every Worker of a job with a Master
 * (pytorch/initcontainer.go setInitContainer, its default template); the MPI controller appends the
 * `kubectl-delivery` init container, the volumes `mpi-job-kubectl` and `mpi-job-config`, and their
 * mounts at /opt/kube and /etc/mpi in the first container to the launcher, and `mpi-job-config` at
 * /etc/mpi to each worker. A template that already has such a name or mount path gives pods the API
 * server refuses (duplicate name, mount path not unique): the job stays with no pods and an event.
 */
import { Finding } from '../finding';
import { child, named } from '../kubernetes/field-path';
import { mountPointOf } from '../kubernetes/mount-point';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

export const OPERATOR_POD_LABELS = new Rule('training-operator', 'training-operator/operator-pod-labels', 'replicas',
  'training-operator pkg/controller.v1/common/pod.go createNewPod and mpi newLauncher/newWorker (GenLabels, SetReplicaType, SetReplicaIndex, SetJobRole over the template\'s labels)',
  'a replica\'s pod template carries none of the training.kubeflow.org/ labels the operator sets on every pod (job-name, operator-name, replica-type, replica-index, job-role)');
export const OPERATOR_NAMES = new Rule('training-operator', 'training-operator/operator-names', 'replicas',
  'training-operator pkg/controller.v1/pytorch/initcontainer.go setInitContainer (init-pytorch) and mpi newLauncher/newWorker (kubectl-delivery, mpi-job-kubectl, mpi-job-config at /opt/kube and /etc/mpi)',
  'a replica\'s pod template uses none of the container names, volume names and mount paths the operator adds to its pods');

export const OPERATOR_OWNED_RULES = [OPERATOR_POD_LABELS, OPERATOR_NAMES];

/** The labels the operator writes on the pods it creates, and what it writes (pkg/apis/kubeflow.org/v1 common_types.go). */
const OPERATOR_LABELS: Readonly<Record<string, string>> = {
  'training.kubeflow.org/job-name': 'writes the job\'s name under this key on every pod it creates',
  'training.kubeflow.org/operator-name': 'writes its controller\'s name under this key on every pod it creates',
  'training.kubeflow.org/replica-type': 'writes the replica type under this key on every pod it creates',
  'training.kubeflow.org/replica-index': 'writes the pod\'s index under this key on every pod it creates',
  'training.kubeflow.org/job-role': 'writes "master" under this key on the master replica\'s pods, which tools select the master by',
};

interface Additions {
  readonly containers: readonly string[];
  readonly volumes: readonly string[];
  /** Mount paths added to the first container. */
  readonly mountPaths: readonly string[];
}

/** What the operator adds to the pods of one replica type, by kind (none for the kinds it adds nothing to). */
function additionsOf(kind: string, type: string, doc: any, facts: TrainingKindFacts): Additions | undefined {
  if (kind === 'PyTorchJob' && type === 'Worker' && new Map(replicaSpecs(doc, facts)).has('Master')) {
    return { containers: ['init-pytorch'], volumes: [], mountPaths: [] };
  }
  if (kind === 'MPIJob' && type === 'Launcher') return { containers: ['kubectl-delivery'], volumes: ['mpi-job-kubectl', 'mpi-job-config'], mountPaths: ['/opt/kube', '/etc/mpi'] };
  if (kind === 'MPIJob' && type === 'Worker') return { containers: [], volumes: ['mpi-job-config'], mountPaths: ['/etc/mpi'] };
  return undefined;
}

/** Checks each replica's pod template against the labels, names and paths the operator writes. */
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
    const adds = additionsOf(facts.kind, type, doc, facts);
    const pod = spec.template?.spec;
    if (adds === undefined || typeof pod !== 'object' || pod === null) continue;
    const podAt = child(templateAt, 'spec');
    const refused = `the operator adds its own to every ${type} pod, and the API server refuses the pod with both, so the job gets no ${type} pods`;
    for (const list of ['initContainers', 'containers']) {
      const items = Array.isArray(pod[list]) ? pod[list] : [];
      items.forEach((c: any, i: number) => {
        if (adds.containers.includes(c?.name)) {
          OPERATOR_NAMES.report(out, `${named(child(podAt, list), c, i)}.name`, c.name, `expected another container name: ${refused}`);
        }
      });
    }
    const volumes = Array.isArray(pod.volumes) ? pod.volumes : [];
    volumes.forEach((v: any, i: number) => {
      if (adds.volumes.includes(v?.name)) OPERATOR_NAMES.report(out, `${named(child(podAt, 'volumes'), v, i)}.name`, v.name, `expected another volume name: ${refused}`);
    });
    const first = Array.isArray(pod.containers) ? pod.containers[0] : undefined;
    const mounts = Array.isArray(first?.volumeMounts) ? first.volumeMounts : [];
    mounts.forEach((m: any, i: number) => {
      // The kubelet mounts "/etc/mpi", "/etc/mpi/" and "etc/mpi" on one place.
      if (typeof m?.mountPath === 'string' && adds.mountPaths.includes(mountPointOf(m.mountPath))) {
        OPERATOR_NAMES.report(out, `${named(child(podAt, 'containers'), first, 0)}.volumeMounts[${i}].mountPath`, m.mountPath,
          `expected another mount path in the first container: the operator mounts its own volume there in every ${type} pod, and the API server refuses a pod with two mounts at one path, so the job gets no ${type} pods`);
      }
    });
  }
}
