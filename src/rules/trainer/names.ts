/*
 * The names the Trainer v2 controller looks for in a runtime (v2.3.0 pkg/constants/constants.go),
 * and the limits it and its successors put on them.
 */

import { TRAINING_RUNTIME } from '../../kinds/trainer';

/** The label that marks a replicated job as a step of the TrainJob (`LabelTrainJobAncestor`). */
export const ANCESTOR_LABEL = 'trainer.kubeflow.org/trainjob-ancestor-step';

/** The steps (`AncestorTrainer`, `DatasetInitializer`, `ModelInitializer`) and their container names. */
export const STEP_CONTAINERS: Readonly<Record<string, string>> = {
  'trainer': 'node',
  'dataset-initializer': 'dataset-initializer',
  'model-initializer': 'model-initializer',
};

/** Replicated-job names the controller uses (`Node`, `Launcher`, `DatasetInitializer`, `ModelInitializer`). */
export const NODE_JOB = 'node';
export const LAUNCHER_JOB = 'launcher';
export const DATASET_INITIALIZER = 'dataset-initializer';
export const MODEL_INITIALIZER = 'model-initializer';

/** The volume initializers write into and the trainer reads from (jobset plugin `VolumeNameInitializer`). */
export const INITIALIZER_VOLUME = 'initializer';
/** Where the built-in runtimes mount it. */
export const INITIALIZER_MOUNT_PATH = '/workspace';

/** Trainer v2.4 refuses replicated-job names longer than this (JobSet pod and service names must fit). */
export const MAX_REPLICATED_JOB_NAME = 20;

/** The API group of the runtimes a TrainJob refers to (the kind table's). */
export const TRAINER_GROUP = TRAINING_RUNTIME.group;

/** Environment variables each policy's plugin sets itself (`TorchRunReservedEnvNames`, ...). */
export const RESERVED_ENV: Readonly<Record<string, readonly string[]>> = {
  torch: ['PET_NNODES', 'PET_NPROC_PER_NODE', 'PET_NODE_RANK', 'PET_MASTER_ADDR', 'PET_MASTER_PORT'],
  mpi: ['OMPI_MCA_orte_default_hostfile', 'OMPI_MCA_plm_rsh_args', 'OMPI_MCA_orte_keep_fqdn_hostnames', 'OMPI_MCA_orte_set_default_slots'],
  // The jax plugin's own (jax.go EnforceMLPolicy): not refused by its webhook, overwritten silently.
  jax: ['JAX_NUM_PROCESSES', 'JAX_PROCESS_ID', 'JAX_COORDINATOR_ADDRESS'],
  xgboost: ['DMLC_TRACKER_URI', 'DMLC_TRACKER_PORT', 'DMLC_TASK_ID', 'DMLC_NUM_WORKER'],
};

/** Names and paths the MPI plugin writes on the node and launcher pods (pkg/constants MPISSHAuthVolumeName...). */
export const MPI_SSH_VOLUME = 'mpi-ssh-auth';
export const MPI_HOSTFILE_VOLUME = 'mpi-hostfile';
export const MPI_HOSTFILE_DIR = '/etc/mpi';
export const MPI_DEFAULT_SSH_PATH = '/root/.ssh';

/** Volumes and mount paths the flux plugin writes on the trainer pods (pkg/constants Flux*). */
export const FLUX_VOLUMES = ['flux-install', 'spack-install', 'flux-curve', 'shared-memory'];
export const FLUX_MOUNTS = ['/mnt/flux', '/opt/software', '/etc/flux-config', '/curve', '/dev/shm'];

/** The label the Kubeflow SDK lists runtimes by: the construct writes it, `convert` reads it back. */
export const FRAMEWORK_LABEL = 'trainer.kubeflow.org/framework';

/** The manager the library writes its runtime patch under. */
export const LIBRARY_PATCH_MANAGER = 'cdk8s-kubeflow/train-job';

/**
 * The annotation a TrainJob carries when its runtime is provided by the cluster apart from the app
 * (`TrainingRuntimeRef.providedByCluster`): the runtime is then not looked for among the app's.
 */
export const RUNTIME_PROVIDED_ANNOTATION = 'cdk8s-kubeflow/runtime-provided';

/** What an SSH key path must be: a mount path at all (a relative one runs under "/"). */
export const SSH_PATH_TEXT = 'expected a directory for the SSH keys such as /home/mpiuser/.ssh (the Trainer mounts them there, and Kubernetes refuses an empty mount path)';
