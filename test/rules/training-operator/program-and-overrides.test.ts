import { documentFindings } from '../../../src/rules/rule-sets';

/**
 * What the pod's program refuses of what training-operator v1.9.4 passes it (torchrun's
 * PET_RDZV_CONF, PET_RDZV_ENDPOINT and PET_NPROC_PER_NODE), and what the operator writes over or
 * beside a replica's template (its pod labels; init-pytorch and the MPI launcher's and workers'
 * volumes, mounts and init container). Found by the inventory of issue 41.
 */
const container = (extra: Record<string, unknown> = {}) => ({ name: 'pytorch', image: 'registry.example/train:1.0', ...extra });
const replica = (replicas: number, pod: Record<string, unknown> = {}, metadata?: Record<string, unknown>) => ({
  replicas, restartPolicy: 'OnFailure', template: { ...(metadata ? { metadata } : {}), spec: { containers: [container()], ...pod } },
});
const pytorch = (specs: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', metadata: { name: 'train', namespace: 'ml' }, spec: { pytorchReplicaSpecs: specs, ...spec },
});
const elastic = (policy: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
  pytorch({ Worker: replica(2) }, { elasticPolicy: { minReplicas: 1, maxReplicas: 4, ...policy }, ...spec });
const of = (rule: string) => (doc: unknown) => documentFindings(doc).filter(f => f.rule === rule);

describe('torchrun refuses what the operator passes it', () => {
  const conf = of('training-operator/rdzv-conf');
  const endpoint = of('training-operator/rdzv-endpoint');
  const nproc = of('training-operator/nproc-per-node');
  const refuses = 'torchrun refuses the PET_RDZV_CONF the operator writes, and every worker exits at start';

  test('training-operator/rdzv-conf: entries with a key and a value, no "," in either, no "=" in the key; never an empty list', () => {
    expect(conf(elastic({ rdzvConf: [{ key: 'timeout', value: '900' }, { key: 'join_timeout', value: 'a=b' }] }))).toEqual([]);
    expect(conf(elastic({ rdzvConf: [] }))).toEqual([{
      field: 'spec.elasticPolicy.rdzvConf',
      value: [],
      rule: 'training-operator/rdzv-conf',
      allowed: 'expected at least one key and value, or no rdzvConf: the operator cuts the last "," of the joined entries, which fails on an empty list, and it creates no pod for the job',
    }]);
    expect(conf(elastic({ rdzvConf: [{ key: ' ', value: '1' }, { key: 'timeout', value: '' }, { key: 'a,b', value: '1' }, { key: 'x', value: '1,2' }, { key: 'k=v', value: '1' }] }))).toEqual([
      { field: 'spec.elasticPolicy.rdzvConf[0].key', value: ' ', rule: 'training-operator/rdzv-conf', allowed: `expected a rendezvous option name such as "timeout": ${refuses}` },
      { field: 'spec.elasticPolicy.rdzvConf[1].value', value: '', rule: 'training-operator/rdzv-conf', allowed: `expected a value for "timeout": ${refuses}` },
      { field: 'spec.elasticPolicy.rdzvConf[2].key', value: 'a,b', rule: 'training-operator/rdzv-conf', allowed: `expected a key without ",": torchrun splits PET_RDZV_CONF at each ",", so it reads a part without a value; ${refuses}` },
      { field: 'spec.elasticPolicy.rdzvConf[3].value', value: '1,2', rule: 'training-operator/rdzv-conf', allowed: `expected a value without ",": torchrun splits PET_RDZV_CONF at each ",", so it reads a part without a value; ${refuses}` },
      { field: 'spec.elasticPolicy.rdzvConf[4].key', value: 'k=v', rule: 'training-operator/rdzv-conf', allowed: 'expected a key without "=": torchrun splits each entry at its first "=", so it reads the option "k" with the rest as its value' },
    ]);
  });

  test('training-operator/rdzv-endpoint: a port of 0 to 65535 and a host torchrun reads', () => {
    expect(endpoint(elastic({ rdzvHost: 'etcd-0.etcd.svc', rdzvPort: 2379 }))).toEqual([]);
    expect(endpoint(elastic({ rdzvHost: '[fd00::1]', rdzvPort: 0 }))).toEqual([]);
    expect(endpoint(elastic({ rdzvHost: 'etcd 0', rdzvPort: 70000 }))).toEqual([
      { field: 'spec.elasticPolicy.rdzvPort', value: 70000, rule: 'training-operator/rdzv-endpoint', allowed: 'expected a port of 0 to 65535: the operator passes it to torchrun in PET_RDZV_ENDPOINT, which refuses any other, and every worker exits at start' },
      { field: 'spec.elasticPolicy.rdzvHost', value: 'etcd 0', rule: 'training-operator/rdzv-endpoint', allowed: 'expected a host name or IP address (letters, digits, "_", ".", ":", "-"; an IPv6 address may be in brackets), or no rdzvHost for the first worker: torchrun refuses the PET_RDZV_ENDPOINT the operator writes, and every worker exits at start' },
    ]);
    expect(endpoint(elastic({ rdzvHost: '', rdzvPort: -1 })).map(f => f.field)).toEqual(['spec.elasticPolicy.rdzvPort', 'spec.elasticPolicy.rdzvHost']);
  });

  test('training-operator/elastic-standalone: never true, which the operator writes as PET_STANDALONE=""', () => {
    expect(of('training-operator/elastic-standalone')(elastic({ standalone: false }))).toEqual([]);
    expect(of('training-operator/elastic-standalone')(elastic({ standalone: true }))).toEqual([{
      field: 'spec.elasticPolicy.standalone',
      value: true,
      rule: 'training-operator/elastic-standalone',
      allowed: 'expected false or none: the operator writes PET_STANDALONE="" for it, torchrun reads that variable as a whole number and fails on "", so every worker exits at start; '
        + 'a one-node rendezvous needs no flag (minReplicas and maxReplicas of 1 with the c10d backend)',
    }]);
  });

  test('training-operator/nproc-per-node: a whole number, or a word torchrun reads', () => {
    const job = (nprocPerNode: string) => pytorch({ Master: replica(1), Worker: replica(1) }, { nprocPerNode });
    for (const ok of ['4', ' 2 ', 'auto', 'cpu', 'gpu', 'xpu', 'npu']) expect(nproc(job(ok))).toEqual([]);
    const refused = 'torchrun refuses any other value, and every pod exits at start';
    expect(nproc(job('GPU'))).toEqual([{ field: 'spec.nprocPerNode', value: 'GPU', rule: 'training-operator/nproc-per-node', allowed: `expected a whole number of 1 or more, or "auto", "cpu", "gpu", "xpu" or a device backend's name in lower case: ${refused}` }]);
    expect(nproc(job('1.5')).map(f => f.value)).toEqual(['1.5']);
    expect(nproc(job('')).map(f => f.value)).toEqual(['']);
    expect(nproc(job('cuda'))).toEqual([{ field: 'spec.nprocPerNode', value: 'cuda', rule: 'training-operator/nproc-per-node', allowed: `expected "gpu" (one process per CUDA device), "auto" or a whole number of 1 or more: ${refused}` }]);
    expect(nproc(elastic({ nProcPerNode: 0 }))).toEqual([{ field: 'spec.elasticPolicy.nProcPerNode', value: 0, rule: 'training-operator/nproc-per-node', allowed: 'expected a whole number of 1 or more (or spec.nprocPerNode instead, which replaces it)' }]);
  });
});

describe('what the operator writes over or beside a replica\'s template', () => {
  const labels = of('training-operator/operator-pod-labels');
  const names = of('training-operator/reserved-names');

  test('training-operator/operator-pod-labels: the operator\'s own label keys are not on a pod template', () => {
    const doc = pytorch({
      Master: replica(1, {}, { labels: { 'training.kubeflow.org/job-role': 'master', 'team': 'vision' } }),
      Worker: replica(2, {}, { labels: { 'training.kubeflow.org/replica-index': '0' } }),
    });
    expect(labels(doc)).toEqual([
      {
        field: 'spec.pytorchReplicaSpecs.Master.template.metadata.labels["training.kubeflow.org/job-role"]',
        value: 'master',
        rule: 'training-operator/operator-pod-labels',
        allowed: 'expected no "training.kubeflow.org/job-role" label on the pod template: the operator writes "master" under this key on the master replica\'s pods, which tools select the master by, over this value',
      },
      {
        field: 'spec.pytorchReplicaSpecs.Worker.template.metadata.labels["training.kubeflow.org/replica-index"]',
        value: '0',
        rule: 'training-operator/operator-pod-labels',
        allowed: 'expected no "training.kubeflow.org/replica-index" label on the pod template: the operator writes the pod\'s index under this key on every pod it creates, over this value',
      },
    ]);
  });

  test('training-operator/reserved-names: the MPI launcher\'s volumes, its init container and a mount at /etc/mpi/ (the same place as /etc/mpi)', () => {
    const mpiContainer = (extra: Record<string, unknown> = {}) => ({ name: 'mpi', image: 'registry.example/hvd:1.0', ...extra });
    const doc = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'MPIJob',
      metadata: { name: 'hvd', namespace: 'ml' },
      spec: {
        mpiReplicaSpecs: {
          Launcher: {
            replicas: 1,
            template: {
              spec: {
                initContainers: [{ name: 'kubectl-delivery', image: 'k' }],
                containers: [mpiContainer({ volumeMounts: [{ name: 'cfg', mountPath: '/etc/mpi/' }] })],
                volumes: [{ name: 'cfg', emptyDir: {} }, { name: 'mpi-job-kubectl', emptyDir: {} }],
              },
            },
          },
          Worker: {
            replicas: 2,
            template: {
              spec: {
                containers: [mpiContainer({ volumeMounts: [{ name: 'data', mountPath: '/data' }] }), mpiContainer({ name: 'side', volumeMounts: [{ name: 'data', mountPath: '/etc/mpi' }] })],
                volumes: [{ name: 'data', emptyDir: {} }],
              },
            },
          },
        },
      },
    };
    const refused = 'and the API server refuses a pod with two';
    expect(names(doc)).toEqual([
      {
        field: 'spec.mpiReplicaSpecs.Launcher.template.spec.initContainers[kubectl-delivery].name',
        value: 'kubectl-delivery',
        rule: 'training-operator/reserved-names',
        allowed: `expected a container name the operator does not use: it adds its own "kubectl-delivery" init container to every launcher pod, ${refused} containers of one name`,
      },
      {
        field: 'spec.mpiReplicaSpecs.Launcher.template.spec.volumes[mpi-job-kubectl].name',
        value: 'mpi-job-kubectl',
        rule: 'training-operator/reserved-names',
        allowed: `expected a volume name the operator does not use: it adds its own "mpi-job-kubectl" volume to every launcher pod, ${refused} volumes of one name`,
      },
      {
        field: 'spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].volumeMounts[0].mountPath',
        value: '/etc/mpi/',
        rule: 'training-operator/reserved-names',
        allowed: `expected a mount path the operator does not use in the first container: it mounts its own volume at "/etc/mpi/" there in every launcher pod, ${refused} mounts at one path`,
      },
    ]);
  });
});
