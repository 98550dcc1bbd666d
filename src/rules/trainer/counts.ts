/**
 * The numbers and the SSH path a Trainer v2 document gives its nodes. The CRDs set no minimum on
 * a TrainJob's numNodes and numProcPerNode, nor on a runtime's numNodes and MPI numProcPerNode, and
 * no webhook checks them; the plugins copy them into the JobSet (a node count becomes the node
 * job's parallelism, processes per node become PET_NPROC_PER_NODE or the hostfile's slots). Below
 * 1 no node, or no process on a node, is started: the job trains nothing. The MPI plugin mounts the
 * SSH keys at sshAuthMountPath in the containers named node: an empty path is a mount Kubernetes
 * refuses, so no pod starts; a relative one is mounted under "/" by the kubelet (makeMounts), which
 * may be where the image's user looks, so it is not refused. The constructs refuse the same values
 * from their props, with the same texts (the allowed part of synth/report.ts's countFinding).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { SSH_PATH_TEXT } from './names';

export const TRAINER_COUNTS = new Rule('trainer', 'trainer/counts', 'numbers',
  'kubeflow/trainer v2.3.0 plugins (torch, mpi, plainml, jax, xgboost) copy numNodes into the node job\'s count and numProcPerNode into PET_NPROC_PER_NODE or the MPI hostfile\'s slots; no webhook checks either',
  'the processes per node of a Flux job (the job\'s, else the runtime\'s) are at least 1 (the runtime\'s own value is also bound by its CRD\'s rule, a crd-schema row)');
export const SSH_AUTH_MOUNT_PATH = new Rule('trainer', 'trainer/ssh-auth-mount-path', 'runtimes',
  'kubeflow/trainer v2.3.0 plugins/mpi Build (mounts the SSH keys at mlPolicy.mpi.sshAuthMountPath in the containers named node) and k8s.io/kubernetes ValidateVolumeMounts (a mount path is required)',
  'an MPI runtime\'s sshAuthMountPath is not empty');

export const TRAINER_COUNT_RULES = [TRAINER_COUNTS, SSH_AUTH_MOUNT_PATH];

/** A count below `min`, as the constructs word it. */
function checkCount(value: unknown, field: string, min: number, out: Finding[]): void {
  if (value === undefined || value === null) return;
  // A value that is no integer at all is the CRD schema's (library/schema); only a whole number too small is this rule's.
  if (typeof value === 'number' && Number.isInteger(value) && value < min) {
    TRAINER_COUNTS.report(out, field, value, `expected a whole number of ${min} or more`);
  }
}

/** A TrainJob's node count and processes per node. */
export function checkTrainJobCounts(doc: any, out: Finding[]): void {
  const trainer = doc?.spec?.trainer;
  if (typeof trainer !== 'object' || trainer === null) return;
  checkCount(trainer.numNodes, 'spec.trainer.numNodes', 1, out);
  checkCount(trainer.numProcPerNode, 'spec.trainer.numProcPerNode', 1, out);
}

/** A runtime's node count, and its MPI policy's slots and SSH path (Flux's and Torch's counts are CEL rules of the CRD). */
export function checkRuntimeCounts(doc: any, out: Finding[]): void {
  const policy = doc?.spec?.mlPolicy;
  if (typeof policy !== 'object' || policy === null) return;
  checkCount(policy.numNodes, 'spec.mlPolicy.numNodes', 1, out);
  const mpi = policy.mpi;
  if (typeof mpi !== 'object' || mpi === null) return;
  checkCount(mpi.numProcPerNode, 'spec.mlPolicy.mpi.numProcPerNode', 1, out);
  const path = mpi.sshAuthMountPath;
  if (path === '') SSH_AUTH_MOUNT_PATH.report(out, 'spec.mlPolicy.mpi.sshAuthMountPath', path, SSH_PATH_TEXT);
}
