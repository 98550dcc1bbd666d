/**
 * The Training Operator v1 jobs (kubeflow.org/v1, release-1.9): one row per kind, in the order
 * the document rules list them. A new v1 job kind is a row here and its construct in
 * src/training/; the rules, `convert`, `plan` and the Kueue lists read the row. MXJob's row is
 * v1.8.1's (the kind was removed in v1.9); the package has only its L1.
 */
import { ReplicaRole, V1JobFacts } from './kind';

const workers = (min: number): ReplicaRole => ({ type: 'Worker', options: 'worker', count: { prop: 'workers', default: 1, min } });
const one = (type: string, options: string, required = false): ReplicaRole => ({ type, options, required });
const optional = (type: string, options: string): ReplicaRole => ({ type, options, madeByOptions: true });

/** What every v1 job row shares. */
const V1 = { family: 'training-operator', group: 'kubeflow.org', versions: ['v1'], namespaced: true } as const;
/** Kueue v0.15.2's kubeflow integration (pkg/controller/jobs/kubeflow/jobs): one pod set per replica type. */
const QUEUED = { podSets: 'replica-types' } as const;

export const PYTORCH_JOB: V1JobFacts = {
  ...V1,
  kind: 'PyTorchJob',
  l1: { module: 'kubeflow', className: 'PyTorchJob' },
  l2: 'DistributedPyTorch',
  kueue: QUEUED,
  replicaKey: 'pytorchReplicaSpecs',
  replicaTypes: ['Master', 'Worker'],
  container: 'pytorch',
  port: { name: 'pytorchjob-port', number: 23456 },
  restartPolicy: 'OnFailure',
  injectedEnv: /^(MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|PET_.*|PYTHONUNBUFFERED)$/,
  envTarget: 'all',
  // A static job has its Master; an elastic one has none (convert checks which).
  roles: [one('Master', 'master'), workers(0)],
};

export const TF_JOB: V1JobFacts = {
  ...V1,
  kind: 'TFJob',
  l1: { module: 'kubeflow', className: 'TfJob' },
  l2: 'ParameterServerTF',
  kueue: QUEUED,
  replicaKey: 'tfReplicaSpecs',
  replicaTypes: ['Chief', 'Master', 'PS', 'Worker', 'Evaluator'],
  container: 'tensorflow',
  port: { name: 'tfjob-port', number: 2222 },
  restartPolicy: 'Never',
  injectedEnv: /^TF_CONFIG$/,
  envTarget: 'framework',
  roles: [
    optional('Chief', 'chief'),
    optional('Master', 'master'),
    { type: 'PS', options: 'parameterServer', count: { prop: 'parameterServers', default: 0, min: 0 } },
    workers(0),
    optional('Evaluator', 'evaluator'),
  ],
  cleansRunningPods: ['PS', 'Evaluator'],
};

export const MPI_JOB: V1JobFacts = {
  ...V1,
  kind: 'MPIJob',
  l1: { module: 'kubeflow', className: 'MpiJob' },
  l2: 'MpiAllReduce',
  kueue: {
    notQueued: 'Kueue\'s kubeflow.org/mpijob integration serves the MPI Operator\'s v2beta1 MPIJob, not the Training Operator\'s v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2\'s MPI runtime (a TrainJob) or the MPI Operator',
  },
  replicaKey: 'mpiReplicaSpecs',
  replicaTypes: ['Launcher', 'Worker'],
  container: 'mpi',
  containerField: 'mainContainer',
  restartPolicy: 'Never',
  // SetDefaults_MPIJob adds no port, and defaults the Worker's replicas to 0.
  defaultReplicas: { Worker: 0 },
  injectedEnv: /^(OMPI_MCA_plm_rsh_agent|OMPI_MCA_orte_default_hostfile|I_MPI_HYDRA_BOOTSTRAP(_EXEC(_EXTRA_ARGS)?)?)$/,
  envTarget: 'launcher',
  roles: [one('Launcher', 'launcher', true), workers(0)],
  cleansRunningPods: 'always',
};

export const XGBOOST_JOB: V1JobFacts = {
  ...V1,
  kind: 'XGBoostJob',
  l1: { module: 'kubeflow', className: 'XgBoostJob' },
  l2: 'DistributedXGBoost',
  kueue: QUEUED,
  replicaKey: 'xgbReplicaSpecs',
  replicaTypes: ['Master', 'Worker'],
  container: 'xgboost',
  port: { name: 'xgboostjob-port', number: 9999 },
  restartPolicy: 'Never',
  injectedEnv: /^(MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|WORKER_PORT|WORKER_ADDRS|PYTHONUNBUFFERED)$/,
  envTarget: 'all',
  roles: [one('Master', 'master', true), workers(0)],
};

export const PADDLE_JOB: V1JobFacts = {
  ...V1,
  kind: 'PaddleJob',
  l1: { module: 'kubeflow', className: 'PaddleJob' },
  l2: 'DistributedPaddle',
  kueue: QUEUED,
  replicaKey: 'paddleReplicaSpecs',
  replicaTypes: ['Master', 'Worker'],
  container: 'paddle',
  port: { name: 'master', number: 36543 },
  restartPolicy: 'OnFailure',
  injectedEnv: /^(PADDLE_MASTER|PADDLE_NNODES|PADDLE_JOB_ID|PADDLE_SERVER_NUM|PADDLE_TRAINER_NUM|POD_IP_DUMMY|PYTHONUNBUFFERED)$/,
  envTarget: 'all',
  // A job with a Master (the parameter servers) is in parameter-server mode, which the count implies.
  roles: [{ type: 'Master', options: 'parameterServer', count: { prop: 'parameterServers', default: 0, min: 1 } }, { ...workers(1), required: true }],
};

export const JAX_JOB: V1JobFacts = {
  ...V1,
  kind: 'JAXJob',
  l1: { module: 'kubeflow', className: 'JaxJob' },
  l2: 'DistributedJax',
  kueue: QUEUED,
  replicaKey: 'jaxReplicaSpecs',
  replicaTypes: ['Worker'],
  container: 'jax',
  port: { name: 'jaxjob-port', number: 6666 },
  restartPolicy: 'Never',
  injectedEnv: /^(COORDINATOR_ADDRESS|COORDINATOR_PORT|NUM_PROCESSES|PROCESS_ID|PYTHONUNBUFFERED)$/,
  envTarget: 'all',
  roles: [{ ...workers(1), required: true }],
};

export const MX_JOB: V1JobFacts = {
  ...V1,
  kind: 'MXJob',
  l1: { module: 'kubeflow', className: 'MxJob' },
  kueue: { notQueued: 'Kueue v0.15.2\'s kubeflow integration does not serve the MXJob' },
  replicaKey: 'mxReplicaSpecs',
  replicaTypes: ['Scheduler', 'Server', 'Worker', 'TunerTracker', 'TunerServer', 'Tuner'],
  container: 'mxnet',
  port: { name: 'mxjob-port', number: 9091 },
  restartPolicy: 'Never',
  injectedEnv: /^MX_CONFIG$/,
  envTarget: 'framework',
  roles: [],
};

/** Every v1 job kind, in the order the document rules list them. */
export const V1_JOBS: readonly V1JobFacts[] = [PYTORCH_JOB, TF_JOB, MPI_JOB, XGBOOST_JOB, PADDLE_JOB, JAX_JOB, MX_JOB];
