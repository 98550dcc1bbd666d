/** The table of broken documents: one input per case, named by the rule it breaks. */
import { STATIC_PYTORCH, job, mpi, pytorch, replica, stream } from './broken-documents';

const xgboost = (master: any) => job('XGBoostJob', 'xgbReplicaSpecs', {
  Master: master, Worker: { replicas: 1, template: { spec: { containers: [{ name: 'xgboost', image: 'x' }] } } },
});
const elastic = (policy: { [field: string]: unknown }, workers = 2, spec: { [field: string]: unknown } = {}) =>
  pytorch({ Worker: replica(workers) }, { ...spec, elasticPolicy: policy });

export const CASES: { [rule: string]: string } = {
  'kubeflow/replica-type': stream(job('TFJob', 'tfReplicaSpecs', {
    Workers: { replicas: 2, template: { spec: { containers: [{ name: 'tensorflow', image: 'tf' }] } } },
  })),
  'kubeflow/replica-count (XGBoost Master)': stream(xgboost({ replicas: 2, template: { spec: { containers: [{ name: 'xgboost', image: 'x' }] } } })),
  'kubeflow/replica-count (MPI Launcher)': stream(job('MPIJob', 'mpiReplicaSpecs', {
    Worker: { replicas: 2, template: { spec: { containers: [{ name: 'mpi', image: 'm' }] } } },
  })),
  'kubeflow/pytorch-master (elastic)': stream(pytorch({ Master: replica(1), Worker: replica(2) }, { elasticPolicy: { minReplicas: 1, maxReplicas: 4 } })),
  'kubeflow/pytorch-master (static)': stream(pytorch({ Worker: replica(2) })),
  'kubeflow/framework-container': stream(pytorch({ Master: replica(1), Worker: replica(2, { name: 'trainer' }) })),
  'kubeflow/mpi-main-container': stream(mpi({ name: 'launcher' }, 2)),
  'kubeflow/pod-name-length': stream(pytorch({ Master: replica(1), Worker: replica(12) }, {}, 'resnet50-imagenet-full-precision-sweep-learning-rate-0001')),
  'kubeflow/injected-env': stream(pytorch({ Master: replica(1), Worker: replica(2, { env: [{ name: 'WORLD_SIZE', value: '3' }] }) })),
  'kubeflow/mpi-launcher-gpu-env': stream(mpi({ env: [{ name: 'NVIDIA_VISIBLE_DEVICES', value: 'all' }] }, 2)),
  'kubeflow/mpi-np': stream(mpi({ command: ['mpirun', '-np', '8', 'python', 'train.py'] }, 2, { slotsPerWorker: 2 })),
  'kubeflow/elastic-bounds (min above max)': stream(elastic({ minReplicas: 4, maxReplicas: 2 })),
  'kubeflow/elastic-bounds (workers outside)': stream(elastic({ minReplicas: 3, maxReplicas: 8 })),
  'kubeflow/elastic-nproc': stream(elastic({ minReplicas: 1, maxReplicas: 4, nProcPerNode: 4 }, 2, { nprocPerNode: '4' })),
  'crd/schema': stream(pytorch({ Master: replica(1), Worker: { ...replica(2), replica: 2 } })),
  'k8s (a label value)': stream({ ...STATIC_PYTORCH(), metadata: { name: 'train', namespace: 'ml', labels: { team: 'vision team' } } }),
  'app/duplicate-object': stream(STATIC_PYTORCH(), STATIC_PYTORCH()),
  'yaml/syntax': `${stream(STATIC_PYTORCH())}---\nkind: [unclosed\n`,
  'pod security (namespace enforcing restricted)': stream(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } },
    pytorch({ Master: replica(1), Worker: replica(1) }),
    mpi({}, 1, {}, 'hvd'),
  ),
};
