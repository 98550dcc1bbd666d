/** The table of broken documents: one input per case, named by the rule it breaks. */
import { STATIC_PYTORCH, job, mpi, pytorch, replica, stream } from './broken-documents';

const xgboost = (master: any) => job('XGBoostJob', 'xgbReplicaSpecs', {
  Master: master, Worker: { replicas: 1, template: { spec: { containers: [{ name: 'xgboost', image: 'x' }] } } },
});
const elastic = (policy: { [field: string]: unknown }, workers = 2, spec: { [field: string]: unknown } = {}, name?: string) =>
  pytorch({ Worker: replica(workers) }, { ...spec, elasticPolicy: policy }, name);
/** A replica spec with one init container of the name given. */
const withInitContainer = (spec: any, name: string) =>
  ({ ...spec, template: { spec: { ...spec.template.spec, initContainers: [{ name, image: 'registry.example/wait:1.0' }] } } });

export const CASES: { [rule: string]: string } = {
  'training-operator/replica-type': stream(job('TFJob', 'tfReplicaSpecs', {
    Workers: { replicas: 2, template: { spec: { containers: [{ name: 'tensorflow', image: 'tf' }] } } },
  })),
  'training-operator/replica-count (XGBoost Master)': stream(xgboost({ replicas: 2, template: { spec: { containers: [{ name: 'xgboost', image: 'x' }] } } })),
  'training-operator/replica-count (MPI Launcher)': stream(job('MPIJob', 'mpiReplicaSpecs', {
    Worker: { replicas: 2, template: { spec: { containers: [{ name: 'mpi', image: 'm' }] } } },
  })),
  'training-operator/replica-count (PyTorch Master without replicas)': stream(pytorch({ Master: { template: replica(1).template }, Worker: replica(2) })),
  'training-operator/replica-count (TF Chief and Master)': stream(job('TFJob', 'tfReplicaSpecs', {
    Chief: { replicas: 1, template: { spec: { containers: [{ name: 'tensorflow', image: 'tf' }] } } },
    Master: { replicas: 1, template: { spec: { containers: [{ name: 'tensorflow', image: 'tf' }] } } },
  })),
  'training-operator/replica-count (JAX without workers)': stream(job('JAXJob', 'jaxReplicaSpecs', {
    Worker: { replicas: 0, template: { spec: { containers: [{ name: 'jax', image: 'jax' }] } } },
  })),
  'training-operator/pytorch-master (elastic)': stream(pytorch({ Master: replica(1), Worker: replica(2) }, { elasticPolicy: { minReplicas: 1, maxReplicas: 4 } })),
  'training-operator/pytorch-master (static)': stream(pytorch({ Worker: replica(2) })),
  'training-operator/framework-container': stream(pytorch({ Master: replica(1), Worker: replica(2, { name: 'trainer' }) })),
  'training-operator/framework-container (MXJob)': stream(job('MXJob', 'mxReplicaSpecs', {
    Scheduler: { replicas: 1, template: { spec: { containers: [{ name: 'mx', image: 'mx' }] } } },
  }, { jobMode: 'MXTrain' })),
  'training-operator/mpi-main-container': stream(mpi({}, 2, { mainContainer: 'worker' })),
  'training-operator/pod-name-length': stream(pytorch({ Master: replica(1), Worker: replica(12) }, {}, 'resnet50-imagenet-full-precision-sweep-learning-rate-0001')),
  'training-operator/pod-name-length (elastic, counted to maxReplicas)': stream(elastic({ minReplicas: 1, maxReplicas: 100 }, 2, {}, 'llama-70b-sft-elastic-rendezvous-c10d-nodes-sweep-0001')),
  'training-operator/injected-env': stream(pytorch({ Master: replica(1), Worker: replica(2, { env: [{ name: 'WORLD_SIZE', value: '3' }] }) })),
  'training-operator/mpi-launcher-gpu-env': stream(mpi({ env: [{ name: 'NVIDIA_VISIBLE_DEVICES', value: 'all' }] }, 2)),
  'training-operator/reserved-names (MPI launcher)': stream(mpi({ volumeMounts: [{ name: 'hostfile', mountPath: '/etc/mpi' }] }, 2, {}, undefined, {
    initContainers: [{ name: 'kubectl-delivery', image: 'registry.example/kubectl:1.0' }], volumes: [{ name: 'hostfile', emptyDir: {} }, { name: 'mpi-job-config', emptyDir: {} }],
  })),
  'training-operator/reserved-names (PyTorch worker)': stream(pytorch({ Master: replica(1), Worker: withInitContainer(replica(2), 'init-pytorch') })),
  'training-operator/service-ports (an unnamed port beside a named one)': stream(pytorch({
    Master: replica(1, { ports: [{ name: 'pytorchjob-port', containerPort: 23456 }, { containerPort: 8080 }] }), Worker: replica(2),
  })),
  // The defaults add jaxjob-port beside the one unnamed port: the Service has two (found by the leaf fuzzer).
  'training-operator/service-ports (one unnamed port, beside the port the operator adds)': stream(job('JAXJob', 'jaxReplicaSpecs', {
    Worker: { replicas: 2, template: { spec: { containers: [{ name: 'jax', image: 'jax', ports: [{ containerPort: 8080 }] }] } } },
  })),
  'training-operator/service-ports (the added port\'s number under another name)': stream(job('JAXJob', 'jaxReplicaSpecs', {
    Worker: { replicas: 2, template: { spec: { containers: [{ name: 'jax', image: 'jax', ports: [{ name: 'coordinator', containerPort: 6666 }] }] } } },
  })),
  'training-operator/service-ports (one number twice)': stream(job('TFJob', 'tfReplicaSpecs', {
    Worker: {
      replicas: 2,
      template: {
        spec: {
          containers: [{
            name: 'tensorflow', image: 'tf', ports: [{ name: 'tfjob-port', containerPort: 2222 }, { name: 'tfjob-udp', containerPort: 2222, protocol: 'UDP' }],
          }],
        },
      },
    },
  })),
  'training-operator/mpi-np': stream(mpi({ command: ['mpirun', '-np', '8', 'python', 'train.py'] }, 2, { slotsPerWorker: 2 })),
  'training-operator/elastic-bounds (min above max)': stream(elastic({ minReplicas: 4, maxReplicas: 2 })),
  'training-operator/elastic-bounds (workers outside)': stream(elastic({ minReplicas: 3, maxReplicas: 8 })),
  'training-operator/elastic-nproc': stream(elastic({ minReplicas: 1, maxReplicas: 4, nProcPerNode: 4 }, 2, { nprocPerNode: '4' })),
  'training-operator/rdzv-conf': stream(elastic({ minReplicas: 1, maxReplicas: 4, rdzvConf: [{ key: 'timeout', value: '900,1800' }] })),
  'training-operator/rdzv-endpoint': stream(elastic({ minReplicas: 1, maxReplicas: 4, rdzvHost: 'etcd.ml.svc', rdzvPort: 65536 })),
  'training-operator/elastic-standalone': stream(elastic({ minReplicas: 1, maxReplicas: 1, standalone: true }, 1)),
  'training-operator/operator-pod-labels': stream(pytorch({
    Master: replica(1),
    Worker: { ...replica(2), template: { metadata: { labels: { 'training.kubeflow.org/replica-type': 'worker' } }, spec: replica(2).template.spec } },
  })),
  'library/schema': stream(pytorch({ Master: replica(1), Worker: { ...replica(2), replica: 2 } })),
  'k8s (a label value)': stream({ ...STATIC_PYTORCH(), metadata: { name: 'train', namespace: 'ml', labels: { team: 'vision team' } } }),
  'kubernetes/duplicate-object': stream(STATIC_PYTORCH(), STATIC_PYTORCH()),
  'library/yaml-syntax': `${stream(STATIC_PYTORCH())}---\nkind: [unclosed\n`,
  'pod security (namespace enforcing restricted)': stream(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } },
    pytorch({ Master: replica(1), Worker: replica(1) }),
    mpi({}, 1, {}, 'hvd'),
  ),
};

/** Documents that look close to a rule but are valid: each passes. */
export const VALID: { [what: string]: string } = {
  'an MPIJob whose launcher container has a name of its own (mainContainer names the workers\' container)': stream(mpi({ name: 'launcher' }, 2)),
  'elastic job without a Master, workers within the bounds': stream(elastic({ minReplicas: 1, maxReplicas: 4 })),
  'mpirun -np exactly workers x slots': stream(mpi({ command: ['mpirun', '-np', '4', 'python', 'train.py'] }, 2, { slotsPerWorker: 2 })),
  'mpirun -np above the slots with --oversubscribe': stream(mpi({ command: ['mpirun', '--oversubscribe', '-np', '8', 'python', 'train.py'] }, 2)),
  'mpirun -np counting a launcher with GPUs': stream(mpi({
    command: ['sh', '-c', 'mpirun -np 3 python train.py'],
    resources: { limits: { 'nvidia.com/gpu': 1 } },
    env: [{ name: 'NVIDIA_VISIBLE_DEVICES', value: 'all' }],
  }, 2)),
  'mpirun -np of the program mpirun starts is not mpirun\'s': stream(mpi({ command: ['mpirun', 'python', 'train.py', '-np', '64'] }, 1)),
  'TF_CONFIG in a sidecar, not the tensorflow container': stream(job('TFJob', 'tfReplicaSpecs', {
    Worker: { replicas: 2, template: { spec: { containers: [{ name: 'tensorflow', image: 'tf' }, { name: 'exporter', image: 'e', env: [{ name: 'TF_CONFIG', value: '{}' }] }] } } },
  })),
  'an MPIJob without mainContainer, containers of any name': stream(job('MPIJob', 'mpiReplicaSpecs', {
    Launcher: { replicas: 1, template: { spec: { containers: [{ name: 'mpi-launcher', image: 'm' }] } } },
  })),
  'an MPI launcher without replicas (the default 1)': stream((() => {
    const doc = mpi({}, 1);
    delete doc.spec.mpiReplicaSpecs.Launcher.replicas;
    return doc;
  })()),
  'init-pytorch as a worker\'s init container in an elastic PyTorchJob (no Master: the operator adds no init container)': stream(
    pytorch({ Worker: withInitContainer(replica(2), 'init-pytorch') }, { elasticPolicy: { minReplicas: 1, maxReplicas: 4 } })),
  '/etc/mpi mounted in an MPI launcher\'s second container (the operator mounts its volume in the first only)': stream((() => {
    const doc = mpi({}, 2, {}, 'hvd', { volumes: [{ name: 'config', emptyDir: {} }] });
    doc.spec.mpiReplicaSpecs.Launcher.template.spec.containers.push({
      name: 'sidecar', image: 'registry.example/sidecar:1.0', volumeMounts: [{ name: 'config', mountPath: '/etc/mpi' }],
    });
    return doc;
  })()),
  // Two unnamed ports are one Service port, but the defaults add pytorchjob-port beside it: refused
  // (the derived-object oracle's Service, spec.ports[0].name: Required value). Named, both are fine.
  'a second named port beside the framework port (the Service gets both, named)': stream(pytorch({
    Master: replica(1, { ports: [{ name: 'pytorchjob-port', containerPort: 23456 }, { name: 'metrics', containerPort: 8080 }] }), Worker: replica(2),
  })),
  'a name of exactly 63 characters for the last worker': stream(pytorch({ Master: replica(1), Worker: replica(10) }, {}, 'a'.repeat(54))),
  'a namespace enforcing only baseline': stream(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } },
    STATIC_PYTORCH(),
  ),
};

/**
 * A real input the command cannot handle: YAML nested deeper than the parser's recursion allows
 * (the `yaml` package cdk8s bundles overflows the stack). It is what the tests use to see an
 * internal error (exit status 3) without a hook in the command.
 */
export const TOO_DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}\n`;
