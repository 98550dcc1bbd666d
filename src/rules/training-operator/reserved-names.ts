/**
 * Names the operator adds to the pods it creates. It appends its own pieces to the replica's
 * template without looking at what is there (training-operator pkg/controller.v1/mpi newLauncher
 * and newWorker: the `kubectl-delivery` init container, the `mpi-job-kubectl` and `mpi-job-config`
 * volumes mounted at /opt/kube and /etc/mpi in the first container; pkg/controller.v1/pytorch
 * initcontainer.go: the `init-pytorch` init container of every Worker of a job with a Master). A
 * template that already uses one of those names is valid as a template, and the job is accepted,
 * but every pod the operator builds from it has two containers, volumes or mounts of one name or
 * path, which the API server refuses: the job sits with no pods. Found by the derived-object oracle
 * (conformance/kubeflow BuildDerived, validated by conformance/kube TestDerived).
 */
import { Finding } from '../finding';
import { child, indexed, named } from '../kubernetes/field-path';
import { mountPointOf } from '../kubernetes/mount-point';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

export const RESERVED_NAMES = new Rule('training-operator', 'training-operator/reserved-names', 'containers',
  'training-operator pkg/controller.v1/mpi newLauncher and newWorker (kubectl-delivery, mpi-job-kubectl, mpi-job-config, /opt/kube, /etc/mpi) and pkg/controller.v1/pytorch initcontainer.go (init-pytorch)',
  'a replica template does not use a container name, volume name or first-container mount path the operator adds to its pods');

export const RESERVED_NAME_RULES = [RESERVED_NAMES];

/** What the operator adds to the pods of one replica type. */
interface AddedPieces {
  /** Init containers it appends: no container of the pod (init or regular) may share the name. */
  readonly containers: readonly string[];
  readonly volumes: readonly string[];
  /** Mount paths it appends to the first container. */
  readonly mountPaths: readonly string[];
  /** The pod the pieces go to, as the message names it. */
  readonly pod: string;
}

const MPI_LAUNCHER: AddedPieces = {
  containers: ['kubectl-delivery'], volumes: ['mpi-job-kubectl', 'mpi-job-config'], mountPaths: ['/opt/kube', '/etc/mpi'], pod: 'launcher pod',
};
const MPI_WORKER: AddedPieces = { containers: [], volumes: ['mpi-job-config'], mountPaths: ['/etc/mpi'], pod: 'worker pod' };
const PYTORCH_WORKER: AddedPieces = { containers: ['init-pytorch'], volumes: [], mountPaths: [], pod: 'worker pod of a job with a Master' };

/** The pieces the operator adds to the pods of a replica type, or undefined. */
function addedPieces(doc: any, facts: TrainingKindFacts, type: string): AddedPieces | undefined {
  if (facts.kind === 'MPIJob') return type === 'Launcher' ? MPI_LAUNCHER : type === 'Worker' ? MPI_WORKER : undefined;
  if (facts.kind === 'PyTorchJob' && type === 'Worker' && doc.spec?.[facts.replicaKey]?.Master !== undefined) return PYTORCH_WORKER;
  return undefined;
}

const REFUSED = 'and the API server refuses a pod';

/** Checks each replica template against the names the operator adds to its pods. */
export function checkReservedNames(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const at = child('spec', facts.replicaKey);
  for (const [type, spec] of replicaSpecs(doc, facts)) {
    const added = addedPieces(doc, facts, type);
    const pod = spec.template?.spec;
    if (added === undefined || typeof pod !== 'object' || pod === null) continue;
    const podAt = child(child(child(at, type), 'template'), 'spec');
    for (const list of ['initContainers', 'containers']) {
      const containers = Array.isArray(pod[list]) ? pod[list] : [];
      containers.forEach((c: any, i: number) => {
        if (added.containers.includes(c?.name)) {
          RESERVED_NAMES.report(out, child(named(child(podAt, list), c, i), 'name'), c.name,
            `expected a container name the operator does not use: it adds its own "${c.name}" init container to every ${added.pod}, ${REFUSED} with two containers of one name`);
        }
      });
    }
    const volumes = Array.isArray(pod.volumes) ? pod.volumes : [];
    volumes.forEach((v: any, i: number) => {
      if (added.volumes.includes(v?.name)) {
        RESERVED_NAMES.report(out, child(named(child(podAt, 'volumes'), v, i), 'name'), v.name,
          `expected a volume name the operator does not use: it adds its own "${v.name}" volume to every ${added.pod}, ${REFUSED} with two volumes of one name`);
      }
    });
    const first = Array.isArray(pod.containers) ? pod.containers[0] : undefined;
    const mounts = Array.isArray(first?.volumeMounts) ? first.volumeMounts : [];
    const mountsAt = child(named(child(podAt, 'containers'), first, 0), 'volumeMounts');
    mounts.forEach((m: any, i: number) => {
      // The kubelet mounts "/etc/mpi", "/etc/mpi/" and "etc/mpi" on one place.
      if (typeof m?.mountPath === 'string' && added.mountPaths.includes(mountPointOf(m.mountPath))) {
        RESERVED_NAMES.report(out, child(indexed(mountsAt, i), 'mountPath'), m.mountPath,
          `expected a mount path the operator does not use in the first container: it mounts its own volume at "${m.mountPath}" there in every ${added.pod}, ${REFUSED} with two mounts at one path`);
      }
    });
  }
}
