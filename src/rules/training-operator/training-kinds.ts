/**
 * What the training operator (kubeflow/training-operator release-1.9, kubeflow.org/v1) expects of
 * each job kind, as a table the document rules read: the replica map, the replica types it knows,
 * the container it looks for, and the environment it injects. One row per kind; MXJob's row is
 * v1.8.1's (the kind was removed in v1.9).
 */
import { TRAINING_JOB_REPLICA_KEYS } from '../kubernetes/replica-keys';

export interface TrainingKindFacts {
  readonly kind: string;
  /** The spec field that maps replica types to replica specs. */
  readonly replicaKey: string;
  /** The replica types the operator knows, spelled exactly (pkg/apis/kubeflow.org/v1 *_types.go). */
  readonly replicaTypes: readonly string[];
  /**
   * The container the operator looks for (DefaultContainerName); MPI's is `spec.mainContainer` and
   * is not required, so it is undefined here.
   */
  readonly container?: string;
  /** Environment the operator sets in the pods (pkg/controller.v1/<kind>/envvar.go and friends). */
  readonly injectedEnv: RegExp;
  /**
   * Which containers receive the injected environment: every container of every replica, only the
   * framework container (TF_CONFIG), or every container of the launcher (MPI).
   */
  readonly envTarget: 'all' | 'framework' | 'launcher';
}

const PYTORCH_ENV = /^(MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|PET_.*|PYTHONUNBUFFERED)$/;

export const TRAINING_KINDS: Readonly<Record<string, TrainingKindFacts>> = {
  PyTorchJob: {
    kind: 'PyTorchJob',
    replicaKey: TRAINING_JOB_REPLICA_KEYS.PyTorchJob,
    replicaTypes: ['Master', 'Worker'],
    container: 'pytorch',
    injectedEnv: PYTORCH_ENV,
    envTarget: 'all',
  },
  TFJob: {
    kind: 'TFJob',
    replicaKey: TRAINING_JOB_REPLICA_KEYS.TFJob,
    replicaTypes: ['Chief', 'Master', 'PS', 'Worker', 'Evaluator'],
    container: 'tensorflow',
    injectedEnv: /^TF_CONFIG$/,
    envTarget: 'framework',
  },
  MPIJob: {
    kind: 'MPIJob',
    replicaKey: TRAINING_JOB_REPLICA_KEYS.MPIJob,
    replicaTypes: ['Launcher', 'Worker'],
    injectedEnv: /^(OMPI_MCA_plm_rsh_agent|OMPI_MCA_orte_default_hostfile|I_MPI_HYDRA_BOOTSTRAP(_EXEC(_EXTRA_ARGS)?)?)$/,
    envTarget: 'launcher',
  },
  XGBoostJob: {
    kind: 'XGBoostJob',
    replicaKey: TRAINING_JOB_REPLICA_KEYS.XGBoostJob,
    replicaTypes: ['Master', 'Worker'],
    container: 'xgboost',
    injectedEnv: /^(MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|WORKER_PORT|WORKER_ADDRS|PYTHONUNBUFFERED)$/,
    envTarget: 'all',
  },
  PaddleJob: {
    kind: 'PaddleJob',
    replicaKey: TRAINING_JOB_REPLICA_KEYS.PaddleJob,
    replicaTypes: ['Master', 'Worker'],
    container: 'paddle',
    injectedEnv: /^(PADDLE_MASTER|PADDLE_NNODES|PADDLE_JOB_ID|PADDLE_SERVER_NUM|PADDLE_TRAINER_NUM|POD_IP_DUMMY|PYTHONUNBUFFERED)$/,
    envTarget: 'all',
  },
  JAXJob: {
    kind: 'JAXJob',
    replicaKey: TRAINING_JOB_REPLICA_KEYS.JAXJob,
    replicaTypes: ['Worker'],
    container: 'jax',
    injectedEnv: /^(COORDINATOR_ADDRESS|COORDINATOR_PORT|NUM_PROCESSES|PROCESS_ID|PYTHONUNBUFFERED)$/,
    envTarget: 'all',
  },
  MXJob: {
    kind: 'MXJob',
    replicaKey: TRAINING_JOB_REPLICA_KEYS.MXJob,
    replicaTypes: ['Scheduler', 'Server', 'Worker', 'TunerTracker', 'TunerServer', 'Tuner'],
    container: 'mxnet',
    injectedEnv: /^MX_CONFIG$/,
    envTarget: 'framework',
  },
};

/** The facts of a kubeflow.org/v1 training job document, or undefined for any other document. */
export function trainingKindOf(doc: any): TrainingKindFacts | undefined {
  if (doc?.apiVersion !== 'kubeflow.org/v1' || typeof doc.kind !== 'string') return undefined;
  return Object.prototype.hasOwnProperty.call(TRAINING_KINDS, doc.kind) ? TRAINING_KINDS[doc.kind] : undefined;
}

/** The replica count as the operator reads it: `replicas`, 1 when unset (SetDefaults_*). */
export function replicasOf(spec: any): number {
  const r = spec?.replicas;
  return typeof r === 'number' && Number.isInteger(r) ? r : 1;
}

/** The replica specs of a job that are objects, in document order. */
export function replicaSpecs(doc: any, facts: TrainingKindFacts): Array<[string, any]> {
  const specs = doc?.spec?.[facts.replicaKey];
  if (typeof specs !== 'object' || specs === null || Array.isArray(specs)) return [];
  return Object.entries(specs).filter(([, s]) => typeof s === 'object' && s !== null && !Array.isArray(s));
}
