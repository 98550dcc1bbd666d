import { appFindings, documentFindings } from '../../../src/rules/rule-sets';

/**
 * What Trainer v2.3.0's plugins write over a runtime's pods (trainer/runtime-plugin-env), the
 * address the torch, jax and xgboost plugins give the pods (trainer/rendezvous-address), the MPI
 * implementation the mpi plugin handles (trainer/mpi-implementation), and the storage URI
 * Kubeflow's initializer images receive (trainer/initializer-storage-uri). Found by the inventory
 * of issue 41.
 */
const API = 'trainer.kubeflow.org/v1alpha1';
const ANCESTOR = 'trainer.kubeflow.org/trainjob-ancestor-step';
const step = (name: string, ancestor: string | undefined, containers: any[]) => ({
  name, template: { ...(ancestor ? { metadata: { labels: { [ANCESTOR]: ancestor } } } : {}), spec: { template: { spec: { containers } } } },
});
const runtime = (mlPolicy: Record<string, unknown>, jobs: any[], network?: Record<string, unknown>) => ({
  apiVersion: API,
  kind: 'ClusterTrainingRuntime',
  metadata: { name: 'rt' },
  spec: { mlPolicy: { numNodes: 1, ...mlPolicy }, template: { spec: { ...(network ? { network } : {}), replicatedJobs: jobs } } },
});
const node = (env?: any[]) => step('node', 'trainer', [{ name: 'node', image: 'registry.example/train:1.0', ...(env ? { env } : {}) }]);
const of = (rule: string) => (doc: unknown) => documentFindings(doc).filter(f => f.rule === rule);

describe('what the plugins write over a runtime', () => {
  const pluginEnv = of('trainer/runtime-plugin-env');
  const address = of('trainer/rendezvous-address');

  test('trainer/runtime-plugin-env: the plugin\'s variables in the container it writes them into', () => {
    expect(pluginEnv(runtime({ torch: {} }, [node([{ name: 'PET_NNODES', value: '4' }, { name: 'NCCL_DEBUG', value: 'INFO' }])]))).toEqual([{
      field: 'spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].env[0]',
      value: { name: 'PET_NNODES', value: '4' },
      rule: 'trainer/runtime-plugin-env',
      allowed: 'expected no "PET_NNODES" in the "node" container: the torch plugin writes PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR, PET_MASTER_PORT there for every TrainJob, over the runtime\'s value',
    }]);
    expect(pluginEnv(runtime({ xgboost: {} }, [node([{ name: 'DMLC_NUM_WORKER', value: '8' }])])).map(f => f.value)).toEqual([{ name: 'DMLC_NUM_WORKER', value: '8' }]);
    // The torch plugin writes into its envInjection targets too.
    const injected = runtime({ torch: { envInjection: { targets: [{ jobName: 'eval', containerNames: ['evaluator'] }] } } },
      [node(), step('eval', undefined, [{ name: 'evaluator', image: 'e', env: [{ name: 'PET_MASTER_ADDR', value: 'x' }] }])]);
    expect(pluginEnv(injected).map(f => f.field)).toEqual(['spec.template.spec.replicatedJobs[1].template.spec.template.spec.containers[0].env[0]']);
    // The mpi plugin writes its Open MPI variables into the launcher's node container only.
    const mpi = runtime({ mpi: { mpiImplementation: 'OpenMPI' } }, [
      step('launcher', 'trainer', [{ name: 'node', image: 'l', env: [{ name: 'OMPI_MCA_orte_set_default_slots', value: '2' }] }]),
      step('node', undefined, [{ name: 'node', image: 'n', env: [{ name: 'OMPI_MCA_orte_set_default_slots', value: '2' }] }]),
    ]);
    expect(pluginEnv(mpi).map(f => f.field)).toEqual(['spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].env[0]']);
    expect(pluginEnv(runtime({ jax: {} }, [node([{ name: 'PET_NNODES', value: '4' }])]))).toEqual([]);
  });

  test('trainer/trainjob-runtime: the job\'s env of the same names, which the plugin writes over (jax\'s are not refused by its webhook)', () => {
    const job = (env: any[]) => ({
      apiVersion: API,
      kind: 'TrainJob',
      metadata: { name: 'job', namespace: 'ml' },
      spec: { runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'rt' }, trainer: { env } },
    });
    const found = (...docs: any[]) => appFindings(docs.map((doc, i) => ({ path: `chart/${i}`, doc }))).filter(f => f.finding.rule === 'trainer/trainjob-runtime').map(f => f.finding);
    expect(found(runtime({ jax: {} }, [node()]), job([{ name: 'JAX_PROCESS_ID', value: '0' }]))).toEqual([{
      field: 'spec.trainer.env[0].name',
      value: 'JAX_PROCESS_ID',
      rule: 'trainer/trainjob-runtime',
      allowed: 'expected a variable the jax runtime "rt" does not set itself (it sets JAX_NUM_PROCESSES, JAX_PROCESS_ID, JAX_COORDINATOR_ADDRESS)',
    }]);
    expect(found(runtime({ xgboost: {} }, [node()]), job([{ name: 'DMLC_TASK_ID', value: '0' }])).map(f => f.value)).toEqual(['DMLC_TASK_ID']);
    expect(found(runtime({ torch: {} }, [node()]), job([{ name: 'PET_NODE_RANK', value: '0' }])).map(f => f.value)).toEqual(['PET_NODE_RANK']);
    expect(found(runtime({ mpi: {} }, [node()]), job([{ name: 'OMPI_MCA_orte_default_hostfile', value: '/h' }])).map(f => f.value)).toEqual(['OMPI_MCA_orte_default_hostfile']);
  });

  test('trainer/rendezvous-address: the trainer step is "node", under the default subdomain, with DNS hostnames', () => {
    expect(address(runtime({ torch: {} }, [node()]))).toEqual([]);
    expect(address(runtime({ torch: {} }, [step('trainer', 'trainer', [{ name: 'node', image: 'i' }])], { subdomain: 'train', enableDNSHostnames: false }))).toEqual([
      {
        field: 'spec.template.spec.replicatedJobs[0].name',
        value: 'trainer',
        rule: 'trainer/rendezvous-address',
        allowed: 'expected "node" for the trainer step: the torch plugin gives every pod PET_MASTER_ADDR="<TrainJob>-node-0-0.<TrainJob>", the first pod of a job named "node", whatever this job is called, so no TrainJob of this runtime finds the first node and none trains',
      },
      {
        field: 'spec.template.spec.network.subdomain',
        value: 'train',
        rule: 'trainer/rendezvous-address',
        allowed: 'expected none on a torch runtime: the torch plugin gives every pod PET_MASTER_ADDR="<TrainJob>-node-0-0.<TrainJob>" under the subdomain the JobSet defaults to the TrainJob\'s name, and this one replaces it, so the address resolves only for a TrainJob of that very name',
      },
      {
        field: 'spec.template.spec.network.enableDNSHostnames',
        value: false,
        rule: 'trainer/rendezvous-address',
        allowed: 'expected true or none: the torch plugin gives every pod PET_MASTER_ADDR="<TrainJob>-node-0-0.<TrainJob>", a DNS name that exists only with the JobSet\'s pod hostnames, so no TrainJob of this runtime finds the first node and none trains',
      },
    ]);
    expect(address(runtime({ jax: {} }, [step('workers', 'trainer', [{ name: 'node', image: 'i' }])])).map(f => f.allowed))
      .toEqual(['expected "node" for the trainer step: the jax plugin gives every pod JAX_COORDINATOR_ADDRESS="<TrainJob>-node-0-0.<TrainJob>", the first pod of a job named "node", whatever this job is called, so no TrainJob of this runtime finds the first node and none trains']);
    // The mpi plugin's hostfile follows the JobSet's own names and subdomain.
    expect(address(runtime({ mpi: {} }, [step('launcher', 'trainer', [{ name: 'node', image: 'i' }])], { subdomain: 'hosts' }))).toEqual([]);
  });

  test('trainer/runtime-plugin-port: the plugin\'s unnamed port 29400 replaces a port of the same number, or else the first unnamed one', () => {
    const withPorts = (policy: string, ports: any[]) => runtime({ [policy]: {} }, [step('node', 'trainer', [{ name: 'node', image: 'i', ports }])]);
    const ports = of('trainer/runtime-plugin-port');
    expect(ports(withPorts('torch', [{ name: 'metrics', containerPort: 8080 }]))).toEqual([]);
    expect(ports(withPorts('torch', [{ name: 'metrics', containerPort: 8080 }, { containerPort: 6006 }]))).toEqual([{
      field: 'spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].ports[1]',
      value: { containerPort: 6006 },
      rule: 'trainer/runtime-plugin-port',
      allowed: 'expected a name on this port: the torch plugin puts its unnamed port 29400 in place of the first unnamed port of the node container, so port 6006 is gone from the pods',
    }]);
    expect(ports(withPorts('jax', [{ name: 'c10d', containerPort: 29400 }]))).toEqual([{
      field: 'spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].ports[0]',
      value: { name: 'c10d', containerPort: 29400 },
      rule: 'trainer/runtime-plugin-port',
      allowed: 'expected no port 29400 of its own: the jax plugin replaces it with an unnamed port 29400, so the name "c10d" is gone from the pods',
    }]);
    expect(ports(withPorts('mpi', [{ containerPort: 6006 }]))).toEqual([]);
  });

  test('jobset/controller-keys: the JobSet controller\'s own labels and annotations on a replicated job\'s Job and pod templates', () => {
    const doc = runtime({ torch: {} }, [{
      name: 'node',
      template: {
        metadata: { labels: { [ANCESTOR]: 'trainer', 'jobset.sigs.k8s.io/job-index': '0' } },
        spec: { template: { metadata: { annotations: { 'jobset.sigs.k8s.io/jobset-name': 'train', 'jobset.sigs.k8s.io/exclusive-topology': 'rack' } }, spec: { subdomain: 'workers', containers: [{ name: 'node', image: 'i' }] } } },
      },
    }]);
    expect(of('jobset/controller-keys')(doc)).toEqual([
      {
        field: 'spec.template.spec.replicatedJobs[0].template.spec.template.spec.subdomain',
        value: 'workers',
        rule: 'jobset/controller-keys',
        allowed: 'expected none in the pod template: the JobSet controller sets every pod\'s subdomain to the JobSet\'s name, over this one; leave it out',
      },
      {
        field: 'spec.template.spec.replicatedJobs[0].template.metadata.labels["jobset.sigs.k8s.io/job-index"]',
        value: '0',
        rule: 'jobset/controller-keys',
        allowed: 'expected no "jobset.sigs.k8s.io/job-index" label: the JobSet controller writes its own value under this key on every Job of the replicated job, over this one',
      },
      {
        field: 'spec.template.spec.replicatedJobs[0].template.spec.template.metadata.annotations["jobset.sigs.k8s.io/jobset-name"]',
        value: 'train',
        rule: 'jobset/controller-keys',
        allowed: 'expected no "jobset.sigs.k8s.io/jobset-name" annotation: the JobSet controller writes its own value under this key on every pod of the replicated job, over this one',
      },
    ]);
  });

  test('trainer/runtime-plugin-volume: a runtime volume or node mount the mpi or flux plugin writes over', () => {
    const pod = (volumes: any[], mounts: any[]) => ({ volumes, containers: [{ name: 'node', image: 'i', volumeMounts: mounts }] });
    const job = (name: string, ancestor: string | undefined, spec: any) => ({
      name,
      template: { ...(ancestor ? { metadata: { labels: { [ANCESTOR]: ancestor } } } : {}), spec: { template: { spec } } },
    });
    const mpi = runtime({ mpi: { sshAuthMountPath: '/home/mpiuser/.ssh' } }, [
      job('launcher', 'trainer', pod([{ name: 'mpi-hostfile', emptyDir: {} }], [{ name: 'mpi-hostfile', mountPath: '/etc/mpi/' }])),
      job('node', undefined, pod([{ name: 'keys', emptyDir: {} }], [{ name: 'keys', mountPath: '/home/mpiuser/.ssh' }, { name: 'keys', mountPath: '/root/.ssh' }])),
    ]);
    expect(of('trainer/runtime-plugin-volume')(mpi)).toEqual([
      {
        field: 'spec.template.spec.replicatedJobs[0].template.spec.template.spec.volumes[0].name',
        value: 'mpi-hostfile',
        rule: 'trainer/runtime-plugin-volume',
        allowed: 'expected another volume name: the mpi plugin writes its own "mpi-hostfile" volume on the "launcher" pods of every TrainJob, which replaces this one',
      },
      {
        field: 'spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].volumeMounts[0].mountPath',
        value: '/etc/mpi/',
        rule: 'trainer/runtime-plugin-volume',
        allowed: 'expected another path: the mpi plugin mounts its own volume at "/etc/mpi" in the "node" container of the "launcher" pods, which replaces this mount',
      },
      {
        field: 'spec.template.spec.replicatedJobs[1].template.spec.template.spec.containers[0].volumeMounts[0].mountPath',
        value: '/home/mpiuser/.ssh',
        rule: 'trainer/runtime-plugin-volume',
        allowed: 'expected another path: the mpi plugin mounts its own volume at "/home/mpiuser/.ssh" in the "node" container of the "node" pods, which replaces this mount',
      },
    ]);
    const flux = runtime({ flux: {} }, [job('node', 'trainer', pod([{ name: 'shared-memory', emptyDir: { medium: 'Memory' } }], [{ name: 'shared-memory', mountPath: '/dev/shm' }]))]);
    expect(of('trainer/runtime-plugin-volume')(flux).map(f => f.value)).toEqual(['shared-memory', '/dev/shm']);
    expect(of('trainer/runtime-plugin-volume')(runtime({ torch: {} }, [job('node', 'trainer', pod([{ name: 'shared-memory', emptyDir: {} }], [{ name: 'shared-memory', mountPath: '/dev/shm' }]))]))).toEqual([]);
  });

  test('jobset/controller-keys: the same keys in a TrainJob\'s runtime patch, which lands on those templates', () => {
    const job = {
      apiVersion: API,
      kind: 'TrainJob',
      metadata: { name: 'job', namespace: 'ml' },
      spec: {
        runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'rt' },
        runtimePatches: [{
          manager: 'example.io/p',
          trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { metadata: { labels: { 'jobset.sigs.k8s.io/group-name': 'a' } } } } } }] } } },
        }],
      },
    };
    expect(of('jobset/controller-keys')(job)).toEqual([{
      field: 'spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.metadata.labels["jobset.sigs.k8s.io/group-name"]',
      value: 'a',
      rule: 'jobset/controller-keys',
      allowed: 'expected no "jobset.sigs.k8s.io/group-name" label: the JobSet controller writes its own value under this key on every pod of the replicated job, over this one',
    }]);
  });

  test('trainer/mpi-implementation: OpenMPI, the only one the mpi plugin handles', () => {
    const mpi = (mpiImplementation: string) => runtime({ mpi: { mpiImplementation } }, [step('launcher', 'trainer', [{ name: 'node', image: 'i' }])]);
    expect(of('trainer/mpi-implementation')(mpi('OpenMPI'))).toEqual([]);
    expect(of('trainer/mpi-implementation')(mpi(''))).toEqual([{
      field: 'spec.mlPolicy.mpi.mpiImplementation',
      value: '',
      rule: 'trainer/mpi-implementation',
      allowed: 'expected "OpenMPI" (or none, its default): the mpi plugin handles no other, and building the JobSet of every TrainJob of this runtime fails, so none runs',
    }]);
  });
});

describe('trainer/initializer-storage-uri: the URI Kubeflow\'s initializer images receive', () => {
  const initializer = (step_: 'dataset' | 'model', image: string, env?: any[]) => step(`${step_}-initializer`, `${step_}-initializer`, [{
    name: `${step_}-initializer`, image, ...(env ? { env } : {}), volumeMounts: [{ name: 'initializer', mountPath: '/workspace' }],
  }]);
  const rt = (...jobs: any[]) => runtime({ torch: {} }, [...jobs, node()]);
  const job = (init: Record<string, unknown>) => ({
    apiVersion: API,
    kind: 'TrainJob',
    metadata: { name: 'job', namespace: 'ml' },
    spec: { runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'rt' }, initializer: init },
  });
  const findings = (...docs: any[]) => appFindings(docs.map((doc, i) => ({ path: `chart/${i}`, doc })))
    .filter(f => f.finding.rule === 'trainer/initializer-storage-uri').map(f => ({ path: f.path, ...f.finding }));
  const dataset = initializer('dataset', 'registry.example/kubeflow/trainer/dataset-initializer:v2.3.0');
  const model = initializer('model', 'registry.example/kubeflow/trainer/model-initializer@sha256:00');
  const rtName = 'the runtime "rt"';

  test('a scheme each image knows, in the form it reads', () => {
    expect(findings(rt(dataset, model), job({ dataset: { storageUri: 'hf://tatsu-lab/alpaca' }, model: { storageUri: 's3://bucket/llama' } }))).toEqual([]);
    expect(findings(rt(dataset, model), job({ dataset: { storageUri: 'gs://bucket/data' }, model: { storageUri: 'cache://schema/table' } }))).toEqual([
      {
        path: 'chart/1',
        field: 'spec.initializer.dataset.storageUri',
        value: 'gs://bucket/data',
        rule: 'trainer/initializer-storage-uri',
        allowed: `expected a URI of the form hf://..., s3://..., cache://...: Kubeflow's dataset initializer in the dataset-initializer container of ${rtName} knows only hf://, s3://, cache:// and ends the step with an error otherwise, so the trainer never starts`,
      },
      {
        path: 'chart/1',
        field: 'spec.initializer.model.storageUri',
        value: 'cache://schema/table',
        rule: 'trainer/initializer-storage-uri',
        allowed: `expected a URI of the form hf://..., s3://...: Kubeflow's model initializer in the model-initializer container of ${rtName} knows only hf://, s3:// and ends the step with an error otherwise, so the trainer never starts`,
      },
    ]);
    expect(findings(rt(dataset), job({ dataset: { storageUri: 'hf://alpaca' } }))).toEqual([{
      path: 'chart/1',
      field: 'spec.initializer.dataset.storageUri',
      value: 'hf://alpaca',
      rule: 'trainer/initializer-storage-uri',
      allowed: `expected hf://<owner>/<dataset>, such as hf://tatsu-lab/alpaca: the dataset-initializer container of ${rtName} reads the part after the first "/" and fails without it`,
    }]);
    // Another image is the runtime's own business.
    expect(findings(rt(initializer('dataset', 'registry.example/own-loader:1'), model), job({ dataset: { storageUri: 'gs://bucket/data' } }))).toEqual([]);
  });

  test('a URI at all, and the cache initializer\'s variables', () => {
    expect(findings(rt(dataset), job({ dataset: {} }))).toEqual([{
      path: 'chart/1',
      field: 'spec.initializer.dataset.storageUri',
      value: undefined,
      rule: 'trainer/initializer-storage-uri',
      allowed: `expected a storage URI such as "hf://tatsu-lab/alpaca": the dataset-initializer container of ${rtName} runs Kubeflow's dataset initializer, which exits without STORAGE_URI, and neither the job nor the runtime sets it`,
    }]);
    // The runtime's default is judged when the job gives none; a secret may carry it.
    expect(findings(rt(initializer('dataset', 'kubeflow/trainer/dataset-initializer', [{ name: 'STORAGE_URI', value: 'hf://tatsu-lab/alpaca' }])), job({ dataset: {} }))).toEqual([]);
    expect(findings(rt(dataset), job({ dataset: { secretRef: { name: 'creds' } } }))).toEqual([]);
    expect(findings(rt(dataset), job({ dataset: { storageUri: 'cache://schema/table', env: [{ name: 'IAM_ROLE', value: 'arn' }] } }))).toEqual([{
      path: 'chart/1',
      field: 'spec.initializer.dataset.env',
      value: [{ name: 'IAM_ROLE', value: 'arn' }],
      rule: 'trainer/initializer-storage-uri',
      allowed: `expected TRAIN_JOB_NAME, CACHE_IMAGE, METADATA_LOC in the env (or in the runtime's dataset-initializer container): the cache initializer of ${rtName} cannot start without them`,
    }]);
  });

  test('a STORAGE_URI in the job\'s env replaces its storageUri (judged on the job alone)', () => {
    const shadowed = job({ dataset: { storageUri: 'hf://tatsu-lab/alpaca', env: [{ name: 'STORAGE_URI', value: 's3://bucket/data' }] } });
    expect(documentFindings(shadowed).filter(f => f.rule === 'trainer/initializer-storage-uri')).toEqual([{
      field: 'spec.initializer.dataset.env[0]',
      value: { name: 'STORAGE_URI', value: 's3://bucket/data' },
      rule: 'trainer/initializer-storage-uri',
      allowed: 'expected no STORAGE_URI beside spec.initializer.dataset.storageUri ("hf://tatsu-lab/alpaca"): the Trainer sets STORAGE_URI from storageUri and then lays the env over it, so this entry replaces the storageUri; write the URI in storageUri only',
    }]);
    // Against the runtime, the env's value is the one judged.
    expect(findings(rt(dataset), job({ dataset: { storageUri: 'hf://tatsu-lab/alpaca', env: [{ name: 'STORAGE_URI', value: 'gs://b/d' }] } })).map(f => [f.field, f.value]))
      .toEqual([['spec.initializer.dataset.env[0].value', 'gs://b/d']]);
  });

  test('a built-in runtime\'s initializers are judged too (their images and defaults are in the generated table)', () => {
    const onBuiltin = (init: Record<string, unknown>) => ({ ...job(init), spec: { ...job(init).spec, runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'torchtune-llama3.2-1b' } } });
    expect(findings(onBuiltin({ dataset: {}, model: {} }))).toEqual([]);
    expect(findings(onBuiltin({ model: { storageUri: 'gs://bucket/llama' } })).map(f => f.allowed)).toEqual([
      'expected a URI of the form hf://..., s3://...: Kubeflow\'s model initializer in the model-initializer container of the runtime "torchtune-llama3.2-1b" (built into Trainer v2.3.0) '
      + 'knows only hf://, s3:// and ends the step with an error otherwise, so the trainer never starts',
    ]);
  });
});

describe('trainer/patch-replaces-list: a runtime patch\'s list without a merge key replaces the runtime\'s whole', () => {
  const gpu = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' };
  const spot = { key: 'spot', operator: 'Exists' };
  const rt = runtime({ torch: {} }, [{ name: 'node', template: { metadata: { labels: { [ANCESTOR]: 'trainer' } }, spec: { template: { spec: { tolerations: [gpu], containers: [{ name: 'node', image: 'i' }] } } } } }]);
  const job = (...tolerationLists: any[][]) => ({
    apiVersion: API,
    kind: 'TrainJob',
    metadata: { name: 'job', namespace: 'ml' },
    spec: {
      runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'rt' },
      runtimePatches: tolerationLists.map((tolerations, i) => ({
        manager: `example.io/p${i}`,
        trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: { tolerations } } } } }] } } },
      })),
    },
  });
  const found = (...docs: any[]) => appFindings(docs.map((doc, i) => ({ path: `chart/${i}`, doc }))).filter(f => f.finding.rule === 'trainer/patch-replaces-list').map(f => f.finding);

  test('a patch that keeps the runtime\'s entries (in any key order) is fine; one that drops them is found', () => {
    expect(found(rt, job([{ effect: 'NoSchedule', operator: 'Exists', key: 'nvidia.com/gpu' }, spot]))).toEqual([]);
    expect(found(rt, job([spot]))).toEqual([{
      field: 'spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.tolerations',
      value: [spot],
      rule: 'trainer/patch-replaces-list',
      allowed: 'expected {"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"} of the runtime "rt" in this list too: the Trainer merges a runtime patch strategically, and tolerations has no merge key, '
        + 'so the patch\'s list replaces the one before it whole and the "node" pods lose that entry',
    }]);
  });

  test('a later patch replaces an earlier one\'s list the same way', () => {
    expect(found(rt, job([gpu, spot], [gpu])).map(f => [f.field, f.allowed])).toEqual([[
      'spec.runtimePatches[1].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.tolerations',
      'expected {"key":"spot","operator":"Exists"} of spec.runtimePatches[0] in this list too: the Trainer merges a runtime patch strategically, and tolerations has no merge key, '
        + 'so the patch\'s list replaces the one before it whole and the "node" pods lose that entry',
    ]]);
  });
});
