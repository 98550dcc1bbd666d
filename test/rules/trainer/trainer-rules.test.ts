import { describe as describeFinding } from '../../../src/rules/finding';
import { kubernetesFindings } from '../../../src/rules/kubernetes';
import { appFindings } from '../../../src/rules/rule-sets';
import { BUILTIN_RUNTIMES } from '../../../src/rules/trainer/builtin-runtimes.generated';

/** The Trainer v2.3.0 webhook rules that need one document, and those across a TrainJob and its runtime. */
const API = 'trainer.kubeflow.org/v1alpha1';

function runtime(name: string, jobs: any[], extra: any = {}, kind = 'ClusterTrainingRuntime', namespace?: string): any {
  return {
    apiVersion: API,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}) },
    spec: { mlPolicy: { numNodes: 1, torch: {} }, ...extra, template: { spec: { replicatedJobs: jobs } } },
  };
}

function rjob(name: string, step: string | undefined, containers: any[], replicas?: number): any {
  return {
    name,
    ...(replicas === undefined ? {} : { replicas }),
    template: { ...(step ? { metadata: { labels: { 'trainer.kubeflow.org/trainjob-ancestor-step': step } } } : {}), spec: { template: { spec: { containers } } } },
  };
}

function trainJob(spec: any, namespace = 'ml'): any {
  return { apiVersion: API, kind: 'TrainJob', metadata: { name: 'job', namespace }, spec: { runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'rt' }, ...spec } };
}

const rules = (doc: any) => kubernetesFindings(doc).map(f => `${f.rule} ${describeFinding(f)}`);
const appRules = (...docs: any[]) => appFindings(docs.map((doc, i) => ({ path: `chart/${i}`, doc }))).map(f => `${f.path} ${f.finding.rule} ${describeFinding(f.finding)}`);

describe('runtimes', () => {
  test('trainer/runtime-step: a step runs once, with its container', () => {
    expect(rules(runtime('rt', [
      rjob('dataset-initializer', 'dataset-initializer', [{ name: 'init', image: 'i' }], 2),
      rjob('node', 'trainer', [{ name: 'node', image: 'i' }], 3),
      rjob('extra', undefined, [{ name: 'x', image: 'i' }], 4),
    ]))).toEqual([
      'trainer/runtime-step spec.template.spec.replicatedJobs[0].replicas is 2; expected 1: the "dataset-initializer" step of a runtime runs once',
      'trainer/runtime-step spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers is ["init"]; expected a container named "dataset-initializer", which the controller configures for the "dataset-initializer" step',
      'trainer/runtime-step spec.template.spec.replicatedJobs[1].replicas is 3; expected 1: the "trainer" step of a runtime runs once',
    ]);
  });

  test('trainer/replicated-job-name-length: at most 20 characters (Trainer v2.4.0)', () => {
    expect(rules(runtime('rt', [rjob('twenty-characters-ok', undefined, [{ name: 'a', image: 'i' }]), rjob('twenty-one-characters', undefined, [{ name: 'a', image: 'i' }])]))).toEqual([
      'trainer/replicated-job-name-length spec.template.spec.replicatedJobs[1].name is "twenty-one-characters"; expected at most 20 characters: Trainer v2.4.0 and later refuse a runtime with a longer replicated-job name (the JobSet\'s pod names grow with it); shorten it, or set a target of Trainer before v2.4.0 (trainer=v2.3)',
    ]);
  });

  test('trainer/replicated-job-name: lower-case letters, digits and "-" (the JobSet names Jobs and pods after it)', () => {
    const allowed = 'expected only lower-case letters, digits and "-" (the JobSet webhook refuses the Job and pod names made from it otherwise, so no TrainJob of this runtime starts)';
    expect(rules(runtime('rt', [rjob('Node', undefined, [{ name: 'a', image: 'i' }]), rjob('data_init', undefined, [{ name: 'a', image: 'i' }]), rjob('node-2', undefined, [{ name: 'a', image: 'i' }])]))).toEqual([
      `${'trainer/replicated-job-name'} spec.template.spec.replicatedJobs[0].name is "Node"; ${allowed}`,
      `${'trainer/replicated-job-name'} spec.template.spec.replicatedJobs[1].name is "data_init"; ${allowed}`,
    ]);
  });
});

describe('the Job template metadata the JobSet controller copies onto its Jobs (found by the leaf fuzzer\'s derived-jobset source)', () => {
  const LABEL_VALUE_TEXT = 'expected a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
  test('a runtime\'s replicated job: label values and keys, the annotations\' size', () => {
    const job = rjob('node', 'trainer', [{ name: 'node', image: 'i' }]);
    job.template.metadata.labels.team = 'a/b';
    job.template.metadata.labels['Not_Valid.io/a'] = 'x';
    job.template.metadata.annotations = { note: 'a'.repeat(256 * 1024) };
    expect(kubernetesFindings(runtime('rt', [job])).map(f => `${f.rule} ${f.field}`)).toEqual([
      'kubernetes/label-value spec.template.spec.replicatedJobs[0].template.metadata.labels.team',
      'kubernetes/label-key spec.template.spec.replicatedJobs[0].template.metadata.labels["Not_Valid.io/a"]',
      'kubernetes/annotation-size spec.template.spec.replicatedJobs[0].template.metadata.annotations',
    ]);
    expect(rules(runtime('rt', [rjob('node', 'Not_Valid-', [{ name: 'node', image: 'i' }])]))).toEqual([
      `kubernetes/label-value spec.template.spec.replicatedJobs[0].template.metadata.labels["trainer.kubeflow.org/trainjob-ancestor-step"] is "Not_Valid-"; ${LABEL_VALUE_TEXT}`,
    ]);
  });

  test('a TrainJob\'s runtime patch of a replicated job', () => {
    const doc = trainJob({ runtimePatches: [{ manager: 'example.io/p', trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { metadata: { labels: { team: 'a'.repeat(64) } } } }] } } } }] });
    expect(kubernetesFindings(doc).map(f => `${f.rule} ${f.field}`)).toEqual([
      'kubernetes/label-value spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.metadata.labels.team',
    ]);
  });
});

describe('TrainJob patches', () => {
  const patch = (manager: string, containers: any[]) => ({
    manager, trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: { containers } } } } }] } } },
  });

  test('trainer/patch-manager: a domain-prefixed path', () => {
    expect(rules(trainJob({ runtimePatches: [patch('example.io/platform-team', []), patch('Platform', []), patch('example.io/', [])] }))).toEqual([
      'trainer/patch-manager spec.runtimePatches[1].manager is "Platform"; expected a domain-prefixed path such as "example.io/platform-team"',
      'trainer/patch-manager spec.runtimePatches[2].manager is "example.io/"; expected a domain-prefixed path such as "example.io/platform-team"',
    ]);
  });

  test('trainer/patch-env: no env on the node or initializer containers; a sidecar may get some', () => {
    expect(rules(trainJob({ runtimePatches: [patch('example.io/p', [{ name: 'node', env: [{ name: 'A', value: '1' }] }, { name: 'sidecar', env: [{ name: 'B', value: '2' }] }])] }))).toEqual([
      'trainer/patch-env spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].env is ["A"]; expected no env on the "node" container in a patch (set the trainer\'s in spec.trainer.env, an initializer\'s in spec.initializer)',
    ]);
  });
});

describe('TrainJob patches: the Kubernetes pieces of the patched pod', () => {
  const POD = 'spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec';
  const patched = (spec: any) => trainJob({ runtimePatches: [{ manager: 'example.io/p', trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { spec } } } }] } } } }] });

  test('a service account name that is not a DNS subdomain, and a bad sysctl', () => {
    const doc = patched({ serviceAccountName: 'Trainer SA', securityContext: { sysctls: [{ name: 'Net.Core', value: '1' }] } });
    expect(kubernetesFindings(doc).map(f => f.rule)).toEqual(['kubernetes/service-account-name', 'kubernetes/sysctl']);
    expect(rules(doc)).toEqual([
      `kubernetes/service-account-name ${POD}.serviceAccountName is "Trainer SA"; expected a service account name: a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit`,
      `kubernetes/sysctl ${POD}.securityContext.sysctls[0].name is "Net.Core"; expected a sysctl name such as net.core.somaxconn: at most 253 lower-case letters, digits, "-" or "_", in parts joined by "." or "/"`,
    ]);
  });

  test('a patched container\'s security context and mounts (its volumes may be the runtime\'s)', () => {
    const doc = patched({
      securityContext: { runAsNonRoot: true },
      containers: [{ name: 'node', securityContext: { runAsUser: 0, capabilities: { add: ['CAP_NET_ADMIN'] } }, volumeMounts: [{ name: 'runtime-volume', mountPath: '' }] }],
    });
    expect(kubernetesFindings(doc).map(f => f.rule)).toEqual(['kubernetes/mount-path', 'kubernetes/run-as-non-root', 'kubernetes/capability-name']);
    expect(rules(doc)).toEqual([
      `kubernetes/mount-path ${POD}.containers[node].volumeMounts[0].mountPath is ""; expected a path in the container such as /data`,
      `kubernetes/run-as-non-root ${POD}.containers[node].securityContext.runAsUser is 0; expected a non-zero uid when runAsNonRoot is true (the kubelet refuses to start the container)`,
      `kubernetes/capability-name ${POD}.containers[node].securityContext.capabilities.add[0] is "CAP_NET_ADMIN"; expected the name without "CAP_", such as NET_ADMIN (the runtime adds the prefix: CAP_NET_ADMIN becomes CAP_CAP_NET_ADMIN, which runc ignores and CRI-O refuses)`,
    ]);
  });

  test('a valid patch has no findings', () => {
    expect(rules(patched({ serviceAccountName: 'trainer', securityContext: { fsGroup: 1000 }, containers: [{ name: 'node', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] }))).toEqual([]);
  });
});

describe('trainer/trainjob-runtime', () => {
  const node = rjob('node', 'trainer', [{ name: 'node', image: 'i' }]);

  test('upstream jobs/05-multi-step.yaml: the dataset initializer does not mount the workspace', () => {
    const rt = runtime('rt', [rjob('dataset-initializer', 'dataset-initializer', [{ name: 'dataset-initializer', image: 'i' }], 1), node]);
    expect(appRules(rt, trainJob({ initializer: { dataset: { storageUri: 'hf://tatsu-lab/alpaca' } } }))).toEqual([
      'chart/1 trainer/trainjob-runtime spec.initializer.dataset is {"storageUri":"hf://tatsu-lab/alpaca"}; expected the runtime "rt" to mount the "initializer" volume in its "dataset-initializer" container, where the initializer writes (the Trainer webhook refuses the job otherwise)',
    ]);
  });

  test('a step or container the runtime lacks, a patched job or container it lacks, a reserved variable', () => {
    const rt = runtime('rt', [rjob('model-initializer', 'model-initializer', [{ name: 'fetch', image: 'i' }], 1), node]);
    const patch = {
      manager: 'example.io/p',
      trainingRuntimeSpec: {
        template: {
          spec: {
            replicatedJobs: [
              { name: 'launcher' }, { name: 'node', template: { spec: { template: { spec: { containers: [{ name: 'sidecar' }] } } } } },
            ],
          },
        },
      },
    };
    expect(appRules(rt, trainJob({
      initializer: { dataset: { storageUri: 'hf://d' }, model: { storageUri: 'hf://m' } },
      runtimePatches: [patch],
      trainer: { env: [{ name: 'PET_MASTER_PORT', value: '1' }] },
    }))).toEqual([
      'chart/1 trainer/trainjob-runtime spec.initializer.dataset is {"storageUri":"hf://d"}; expected a runtime with a "dataset-initializer" step; the runtime "rt" has only "model-initializer", "node"',
      'chart/1 trainer/trainjob-runtime spec.initializer.model is {"storageUri":"hf://m"}; expected the "model-initializer" step of the runtime "rt" to have a container named "model-initializer"',
      'chart/1 trainer/trainjob-runtime spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].name is "launcher"; expected a replicated job of the runtime "rt": "model-initializer", "node"',
      'chart/1 trainer/trainjob-runtime spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[1].template.spec.template.spec.containers[0].name is "sidecar"; expected a container of the "node" job of the runtime "rt": "node"',
      'chart/1 trainer/trainjob-runtime spec.trainer.env[0].name is "PET_MASTER_PORT"; expected a variable the torch runtime "rt" does not set itself (it sets PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR, PET_MASTER_PORT)',
    ]);
  });

  test('MPI with the launcher as a node needs both jobs for more than one node', () => {
    const rt = runtime('rt', [rjob('launcher', 'trainer', [{ name: 'node', image: 'i' }])], { mlPolicy: { numNodes: 1, mpi: { runLauncherAsNode: true } } });
    expect(appRules(rt, trainJob({ trainer: { numNodes: 2 } }))).toEqual([
      'chart/1 trainer/trainjob-runtime spec.trainer.numNodes is 2; expected 1: the MPI runtime "rt" runs the launcher as a node but lacks a "launcher" or "node" job',
    ]);
  });

  test('a TrainingRuntime in another namespace; a runtime outside the app is not checked', () => {
    const rt = runtime('rt', [node], {}, 'TrainingRuntime', 'team-b');
    const job = trainJob({ runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'TrainingRuntime', name: 'rt' }, initializer: { dataset: {} } }, 'team-a');
    expect(appRules(rt, job)).toEqual([
      'chart/1 trainer/trainjob-runtime spec.runtimeRef.name is "rt"; expected a TrainingRuntime in the job\'s namespace "team-a"; the app\'s "rt" is in namespace "team-b", where the controller does not look',
    ]);
    expect(appRules(job)).toEqual([]);
  });

  describe('a runtime the app does not define, when it defines some', () => {
    const named = (name: string, kind = 'ClusterTrainingRuntime', annotations?: any) => {
      const job = trainJob({ runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind, name } }, 'team-a');
      return annotations ? { ...job, metadata: { ...job.metadata, annotations } } : job;
    };
    const gpus = runtime('torch-8gpus', [node]);

    test('a near name: did you mean', () => {
      expect(appRules(gpus, named('torch-8gpu'))).toEqual([
        'chart/1 trainer/trainjob-runtime spec.runtimeRef.name is "torch-8gpu"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; did you mean "torch-8gpus"? A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("torch-8gpu") (the annotation cdk8s-kubeflow/runtime-provided: "true")',
      ]);
    });

    test('a near name among the built-in runtimes', () => {
      expect(appRules(gpus, named('torch-distributd'))).toEqual([
        'chart/1 trainer/trainjob-runtime spec.runtimeRef.name is "torch-distributd"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; did you mean "torch-distributed" (built into Trainer v2.3.0)? A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("torch-distributd") (the annotation cdk8s-kubeflow/runtime-provided: "true")',
      ]);
    });

    test('no near name: the app\'s runtimes are listed', () => {
      expect(appRules(gpus, named('llama-special'))).toEqual([
        'chart/1 trainer/trainjob-runtime spec.runtimeRef.name is "llama-special"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; the app defines "torch-8gpus". A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("llama-special") (the annotation cdk8s-kubeflow/runtime-provided: "true")',
      ]);
      expect(appRules(gpus, named('llama-special', 'TrainingRuntime'))).toEqual([
        'chart/1 trainer/trainjob-runtime spec.runtimeRef.name is "llama-special"; expected a TrainingRuntime of the app in the job\'s namespace "team-a"; the app defines none. A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedInNamespace("llama-special") (the annotation cdk8s-kubeflow/runtime-provided: "true")',
      ]);
    });

    test('the wrong kind: a ClusterTrainingRuntime named as namespaced, and the reverse', () => {
      expect(appRules(gpus, named('torch-8gpus', 'TrainingRuntime'))).toEqual([
        'chart/1 trainer/trainjob-runtime spec.runtimeRef.kind is "TrainingRuntime"; expected ClusterTrainingRuntime: the app\'s "torch-8gpus" is a ClusterTrainingRuntime, and the app defines no TrainingRuntime of that name (TrainingRuntimeRef.cluster("torch-8gpus"), or the runtime\'s ref)',
      ]);
      const local = runtime('local', [node], {}, 'TrainingRuntime', 'team-a');
      expect(appRules(local, named('local'))).toEqual([
        'chart/1 trainer/trainjob-runtime spec.runtimeRef.kind is "ClusterTrainingRuntime"; expected TrainingRuntime: the app\'s "local" is a TrainingRuntime in namespace "team-a", and the app defines no ClusterTrainingRuntime of that name (TrainingRuntimeRef.namespaced("local"), or the runtime\'s ref)',
      ]);
    });

    test('accepted: a runtime the job says the cluster provides, a built-in runtime, any name when the app defines no runtime', () => {
      expect(appRules(gpus, named('torch-8gpu', 'ClusterTrainingRuntime', { 'cdk8s-kubeflow/runtime-provided': 'true' }))).toEqual([]);
      expect(appRules(gpus, named('team-runtime', 'TrainingRuntime', { 'cdk8s-kubeflow/runtime-provided': 'true' }))).toEqual([]);
      expect(appRules(gpus, named('torch-distributed'))).toEqual([]);
      expect(appRules(named('torch-8gpu'))).toEqual([]);
    });
  });
});

test('each single-document Trainer rule is found by its id', () => {
  const doc = runtime('rt', [rjob('a-name-of-twenty-one-', 'trainer', [{ name: 'x', image: 'i' }], 2)]);
  const job = trainJob({ runtimePatches: [{ manager: 'p', trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: { containers: [{ name: 'node', env: [{ name: 'A' }] }] } } } } }] } } } }] });
  // The trainer step's name is not "node", where the torch plugin's master address points (trainer/rendezvous-address).
  expect([...new Set([...kubernetesFindings(doc), ...kubernetesFindings(job)].map(f => f.rule))]).toEqual([
    'trainer/rendezvous-address', 'trainer/replicated-job-name-length', 'trainer/runtime-step', 'trainer/patch-manager', 'trainer/patch-env',
  ]);
});

test('a runtime patch\'s node selector, tolerations, volumes and pod labels get the pod template\'s rules', () => {
  const job = trainJob({
    runtimePatches: [{
      manager: 'example.io/p',
      trainingRuntimeSpec: {
        template: {
          spec: {
            replicatedJobs: [{
              name: 'node',
              template: {
                spec: {
                  template: {
                    metadata: { labels: { 'bad key!': 'v' } },
                    spec: { nodeSelector: { pool: 'a b' }, tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }], volumes: [{ name: 'Data', emptyDir: {} }] },
                  },
                },
              },
            }],
          },
        },
      },
    }],
  });
  expect(rules(job).map(r => r.split(' ')[0])).toEqual(['kubernetes/label-key', 'kubernetes/label-value', 'kubernetes/toleration-value', 'kubernetes/volume-name']);
});

describe('trainer/trainjob-reach: what a TrainJob asks that never reaches the pods that train', () => {
  const node = (containers: any[] = [{ name: 'node', image: 'i' }]) => rjob('node', 'trainer', containers);
  const patchOf = (jobName: string, pod: any) => ({
    manager: 'example.io/p', trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: jobName, template: { spec: { template: pod } } }] } } },
  });
  const reach = (...docs: any[]) => appRules(...docs).filter(r => !r.includes('trainer/trainjob-runtime '));

  test('MPI: the image and, without runLauncherAsNode, the resources reach only the launcher', () => {
    const rt = runtime('rt', [rjob('node', undefined, [{ name: 'node', image: 'i' }]), rjob('launcher', 'trainer', [{ name: 'node', image: 'i' }])],
      { mlPolicy: { numNodes: 1, mpi: { runLauncherAsNode: false } } });
    const resources = { limits: { 'nvidia.com/gpu': 8 } };
    expect(reach(rt, trainJob({ trainer: { image: 'team/deepspeed:2', command: ['mpirun'], resourcesPerNode: resources, numNodes: 2 } }))).toEqual([
      'chart/1 trainer/mpi-node-image spec.trainer.image is "team/deepspeed:2"; expected none on the mpi runtime "rt": Trainer v2.3.0 sets the TrainJob\'s image only on the "launcher" job (the one with the trainer step label), and the "node" job that runs the ranks keeps the runtime\'s image; give the runtime the image instead (one runtime per image)',
      'chart/1 trainer/trainjob-reach spec.trainer.resourcesPerNode is {"limits":{"nvidia.com/gpu":8}}; expected none on the mpi runtime "rt": without runLauncherAsNode, Trainer v2.3.0 applies resourcesPerNode only to the "launcher" job (the trainer step), and the "node" job that runs the ranks keeps the runtime\'s resources; set them on the runtime\'s nodes instead',
    ]);
    // With the launcher as a node, the resources reach both jobs (core/trainingruntime.go); the command is the launcher's by design.
    expect(reach(BUILTIN_RUNTIMES['deepspeed-distributed'], trainJob({ runtimeRef: { name: 'deepspeed-distributed' }, trainer: { command: ['mpirun'], resourcesPerNode: resources } }))).toEqual([]);
  });

  test('numProcPerNode is ignored on JAX, XGBoost and plain runtimes', () => {
    const jax = runtime('jx', [node()], { mlPolicy: { numNodes: 1, jax: {} } });
    const xgb = runtime('xg', [node()], { mlPolicy: { numNodes: 1, xgboost: {} } });
    const plain = runtime('pl', [node()], { mlPolicy: { numNodes: 1 } });
    const job = (name: string) => trainJob({ runtimeRef: { name }, trainer: { numProcPerNode: 4 } });
    expect([...reach(jax, job('jx')), ...reach(xgb, job('xg')), ...reach(plain, job('pl'))]).toEqual([
      'chart/1 trainer/trainjob-reach spec.trainer.numProcPerNode is 4; expected none on the jax runtime "jx": the jax plugin runs one JAX process per node and never reads it; leave it out (for more workers per node on xgboost, give each node GPUs)',
      'chart/1 trainer/trainjob-reach spec.trainer.numProcPerNode is 4; expected none on the xgboost runtime "xg": the xgboost plugin starts one worker per GPU of resourcesPerNode (else one per node) and never reads it; leave it out (for more workers per node on xgboost, give each node GPUs)',
      'chart/1 trainer/trainjob-reach spec.trainer.numProcPerNode is 4; expected none on the plain runtime "pl": a runtime without an ML policy passes nothing about processes to the pods; leave it out (for more workers per node on xgboost, give each node GPUs)',
    ]);
  });

  test('MPI counts only resources named "gpu" too: a node of Gaudi devices keeps one slot, unless the runtime sets its own', () => {
    const gaudi = { requests: { 'cpu': '64', 'habana.ai/gaudi': 8 }, limits: { 'habana.ai/gaudi': 8 } };
    expect(reach(BUILTIN_RUNTIMES['deepspeed-distributed'], trainJob({ runtimeRef: { name: 'deepspeed-distributed' }, trainer: { resourcesPerNode: gaudi } }))).toEqual([
      'chart/1 trainer/trainjob-reach spec.trainer.numProcPerNode is not set; expected 8 beside 8 "habana.ai/gaudi" per node in resourcesPerNode on the mpi runtime "deepspeed-distributed": the mpi plugin counts devices only in resources whose name contains "gpu", so each node keeps 1 slot in the hostfile instead of one per device; set numProcPerNode to 8',
    ]);
    // A runtime's own slots stand (the plugin replaces only the default 1), and an explicit count is taken as asked.
    const slots = runtime('rt', [node()], { mlPolicy: { numNodes: 1, mpi: { numProcPerNode: 4, runLauncherAsNode: true } } });
    expect(reach(slots, trainJob({ trainer: { resourcesPerNode: gaudi } }))).toEqual([]);
    expect(reach(BUILTIN_RUNTIMES['deepspeed-distributed'], trainJob({ runtimeRef: { name: 'deepspeed-distributed' }, trainer: { resourcesPerNode: gaudi, numProcPerNode: 8 } }))).toEqual([]);
  });

  test('torch counts only resources named "gpu": a node of Gaudi devices gets one process per CPU', () => {
    const gaudi = { requests: { 'cpu': '64', 'habana.ai/gaudi': 8 }, limits: { 'habana.ai/gaudi': 8 } };
    expect(reach(trainJob({ runtimeRef: { name: 'torch-distributed' }, trainer: { resourcesPerNode: gaudi } }), runtime('other', [node()]))).toEqual([
      'chart/0 trainer/trainjob-reach spec.trainer.numProcPerNode is not set; expected 8 beside 8 "habana.ai/gaudi" per node in resourcesPerNode on the torch runtime "torch-distributed" (built into Trainer v2.3.0): the torch plugin counts devices only in resources whose name contains "gpu", so it starts one process per CPU (64) instead of one per device; set numProcPerNode to 8',
    ]);
    // From the runtime's node resources when the job has none; 500m CPUs count as 1.
    const neuron = runtime('rt', [node([{ name: 'node', image: 'i', resources: { limits: { 'cpu': '16500m', 'aws.amazon.com/neuron': 2 } } }])]);
    expect(reach(neuron, trainJob({}))).toEqual([
      'chart/1 trainer/trainjob-reach spec.trainer.numProcPerNode is not set; expected 2 beside 2 "aws.amazon.com/neuron" per node in the runtime\'s node resources on the torch runtime "rt": the torch plugin counts devices only in resources whose name contains "gpu", so it starts one process per CPU (17) instead of one per device; set numProcPerNode to 2',
    ]);
    // Accepted: an explicit count, AMD and Intel GPUs (their names contain "gpu"), as many CPUs as devices.
    expect(reach(neuron, trainJob({ trainer: { numProcPerNode: 2 } }))).toEqual([]);
    expect(reach(neuron, trainJob({ trainer: { resourcesPerNode: { limits: { 'cpu': '64', 'amd.com/gpu': 8 } } } }))).toEqual([]);
    expect(reach(neuron, trainJob({ trainer: { resourcesPerNode: { limits: { 'cpu': '64', 'gpu.intel.com/i915': 8 } } } }))).toEqual([]);
    expect(reach(neuron, trainJob({ trainer: { resourcesPerNode: { limits: { 'cpu': '8', 'habana.ai/gaudi': 8 } } } }))).toEqual([]);
  });

  test('a patch mount at the initializer workspace replaces it; at another mount of the runtime, replaces that', () => {
    const job = trainJob({
      runtimeRef: { name: 'torchtune-llama3.2-1b' },
      runtimePatches: [patchOf('node', { spec: { volumes: [{ name: 'data', emptyDir: {} }], containers: [{ name: 'node', volumeMounts: [{ name: 'data', mountPath: '/workspace/' }, { name: 'data', mountPath: '/data' }] }] } })],
    });
    expect(reach(job, runtime('other', [node()]))).toEqual([
      'chart/0 trainer/trainjob-reach spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].volumeMounts[0].mountPath is "/workspace/"; expected a path other than "/workspace/", where the "node" container of the torch runtime "torchtune-llama3.2-1b" (built into Trainer v2.3.0) mounts the initializer workspace: a patch mount at the same path replaces it (the Trainer merges mounts by path), so the dataset and model the initializers wrote are not there; mount this volume elsewhere',
    ]);
    const rt = runtime('rt', [node([{ name: 'node', image: 'i', volumeMounts: [{ name: 'dshm', mountPath: '/dev/shm' }] }])]);
    expect(reach(rt, trainJob({ runtimePatches: [patchOf('node', { spec: { containers: [{ name: 'node', volumeMounts: [{ name: 'big-shm', mountPath: '/dev/shm' }] }] } })] }))).toEqual([
      'chart/1 trainer/trainjob-reach spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].volumeMounts[0].mountPath is "/dev/shm"; expected a path other than "/dev/shm", where the "node" container of the torch runtime "rt" mounts the volume "dshm": a patch mount at the same path replaces it (the Trainer merges mounts by path); mount this volume elsewhere',
    ]);
  });

  test('what the mpi, flux, coscheduling and volcano plugins write over a patch, and the jax plugin\'s variables', () => {
    const mpiJob = trainJob({
      runtimeRef: { name: 'mlx-distributed' },
      runtimePatches: [patchOf('launcher', {
        spec: {
          volumes: [{ name: 'mpi-hostfile', emptyDir: {} }, { name: 'keys', emptyDir: {} }],
          containers: [{ name: 'node', volumeMounts: [{ name: 'keys', mountPath: '/home/mpiuser/.ssh' }, { name: 'keys', mountPath: '/etc/mpi' }] }],
        },
      })],
    });
    const at = 'spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec';
    const rt = 'the mpi runtime "mlx-distributed" (built into Trainer v2.3.0)';
    expect(reach(mpiJob, runtime('other', [node()]))).toEqual([
      `chart/0 trainer/trainjob-reach ${at}.volumes[0].name is "mpi-hostfile"; expected another volume name on ${rt}: its mpi plugin writes a volume of this name on the "launcher" pods, which replaces this one; rename the volume`,
      `chart/0 trainer/trainjob-reach ${at}.containers[0].volumeMounts[0].mountPath is "/home/mpiuser/.ssh"; expected a path other than "/home/mpiuser/.ssh" on ${rt}: its mpi plugin mounts the SSH keys there on the "launcher" pods, which replaces this mount; mount this volume elsewhere`,
      `chart/0 trainer/trainjob-reach ${at}.containers[0].volumeMounts[1].mountPath is "/etc/mpi"; expected a path other than "/etc/mpi" on ${rt}: its mpi plugin mounts the hostfile there on the "launcher" pods, which replaces this mount; mount this volume elsewhere`,
    ]);
    const flux = runtime('fx', [node()], { mlPolicy: { numNodes: 1, flux: {} }, podGroupPolicy: { coscheduling: {} } });
    const fluxJob = trainJob({
      runtimeRef: { name: 'fx' },
      runtimePatches: [patchOf('node', {
        metadata: { labels: { 'scheduling.x-k8s.io/pod-group': 'mine' } },
        spec: { volumes: [{ name: 'shm', emptyDir: {} }], containers: [{ name: 'node', volumeMounts: [{ name: 'shm', mountPath: '/dev/shm' }] }] },
      })],
    });
    expect(reach(flux, fluxJob)).toEqual([
      'chart/1 trainer/trainjob-reach spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.metadata.labels.scheduling.x-k8s.io/pod-group is "mine"; expected no "scheduling.x-k8s.io/pod-group" label on the flux runtime "fx": its coscheduling plugin sets it to the TrainJob\'s name on every pod, over this value',
      `chart/1 trainer/trainjob-reach ${at}.containers[0].volumeMounts[0].mountPath is "/dev/shm"; expected a path other than "/dev/shm" on the flux runtime "fx": its flux plugin mounts its own volume there on the "node" pods, which replaces this mount; mount this volume elsewhere`,
    ]);
    const volcano = runtime('vc', [node()], { podGroupPolicy: { volcano: {} } });
    expect(reach(volcano, trainJob({ runtimeRef: { name: 'vc' }, runtimePatches: [patchOf('node', { metadata: { annotations: { 'scheduling.k8s.io/group-name': 'g' } } })] }))).toEqual([
      'chart/1 trainer/trainjob-reach spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.metadata.annotations.scheduling.k8s.io/group-name is "g"; expected no "scheduling.k8s.io/group-name" annotation on the torch runtime "vc": its volcano plugin sets it to the TrainJob\'s name on every pod, over this value',
    ]);
    expect(appRules(trainJob({ runtimeRef: { name: 'jax-distributed' }, trainer: { env: [{ name: 'JAX_PROCESS_ID', value: '0' }] } }), volcano)).toEqual([
      'chart/0 trainer/trainjob-runtime spec.trainer.env[0].name is "JAX_PROCESS_ID"; expected a variable the jax runtime "jax-distributed" (built into Trainer v2.3.0) does not set itself (it sets JAX_NUM_PROCESSES, JAX_PROCESS_ID, JAX_COORDINATOR_ADDRESS)',
    ]);
  });

  test('a TrainJob env value that refers to a later entry or to a plugin\'s variable stays unexpanded', () => {
    const job = trainJob({
      runtimeRef: { name: 'torch-distributed' },
      trainer: { env: [{ name: 'OUT', value: '$(DATA_ROOT)/out-$(PET_NODE_RANK)' }, { name: 'DATA_ROOT', value: '/data' }, { name: 'LOG', value: '$(DATA_ROOT)/log $$(PET_NNODES)' }] },
    });
    expect(reach(job, runtime('other', [node()]))).toEqual([
      'chart/0 trainer/trainjob-reach spec.trainer.env[0].value is "$(DATA_ROOT)/out-$(PET_NODE_RANK)"; expected references only to variables defined before this entry on the torch runtime "torch-distributed" (built into Trainer v2.3.0): "DATA_ROOT" is set at spec.trainer.env[1], which lands after it in the trainer container, so the kubelet leaves "$(DATA_ROOT)" unexpanded; move "DATA_ROOT" before it, or write "$$(DATA_ROOT)" to keep the text literal',
      'chart/0 trainer/trainjob-reach spec.trainer.env[0].value is "$(DATA_ROOT)/out-$(PET_NODE_RANK)"; expected references only to variables defined before this entry on the torch runtime "torch-distributed" (built into Trainer v2.3.0): "PET_NODE_RANK" is set by the torch plugin after the TrainJob\'s env, so the kubelet leaves "$(PET_NODE_RANK)" unexpanded; read it in the program instead, or write "$$(PET_NODE_RANK)" to keep the text literal',
    ]);
    // A name the runtime's container defines keeps the runtime's (earlier) place when the job sets it.
    const rt = runtime('rt', [node([{ name: 'node', image: 'i', env: [{ name: 'DATA_ROOT', value: '/x' }] }])]);
    expect(reach(rt, trainJob({ trainer: { env: [{ name: 'OUT', value: '$(DATA_ROOT)/out' }, { name: 'DATA_ROOT', value: '/data' }] } }))).toEqual([]);
  });
});

describe('jobset/pod-name: the JobSet webhook refuses pod names over 63 characters', () => {
  const named = (name: string, spec: any) => ({ ...trainJob(spec), metadata: { name, namespace: 'ml' } });

  test('the longest pod of each replicated job, as jobset_webhook.go counts it', () => {
    // 42 + "-node-0-9-abcde" (15) = 57 characters: fits. 42 + "-dataset-initializer-0-0-abcde" = 72: refused.
    const name = 'a'.repeat(42);
    expect(appRules(named(name, { runtimeRef: { name: 'torch-distributed' }, trainer: { numNodes: 10 } }))).toEqual([]);
    expect(appRules(named(name, { runtimeRef: { name: 'torch-distributed-with-cache' }, trainer: { numNodes: 10 } }))).toEqual([
      `chart/0 jobset/pod-name metadata.name is "${name}"; expected at most 33 characters: JobSet v0.12.0 names the pods "<TrainJob name>-<replicated job>-<job index>-<pod index>-<5 random characters>", and the longest of the "dataset-initializer" job (1 pod), "${name}-dataset-initializer-0-0-abcde", is 72 characters; its webhook refuses a JobSet whose pod names exceed 63, so the TrainJob is admitted and never runs; shorten the name`,
    ]);
    // 48 + "-node-0-9-abcde" = 63 fits; 100 nodes make "-node-0-99-abcde" one more.
    const edge = 'b'.repeat(48);
    expect(appRules(named(edge, { runtimeRef: { name: 'jax-distributed' }, trainer: { numNodes: 10 } }))).toEqual([]);
    expect(appRules(named(edge, { runtimeRef: { name: 'jax-distributed' }, trainer: { numNodes: 100 } }))).toEqual([
      `chart/0 jobset/pod-name metadata.name is "${edge}"; expected at most 47 characters: JobSet v0.12.0 names the pods "<TrainJob name>-<replicated job>-<job index>-<pod index>-<5 random characters>", and the longest of the "node" job (100 pods), "${edge}-node-0-99-abcde", is 64 characters; its webhook refuses a JobSet whose pod names exceed 63, so the TrainJob is admitted and never runs; shorten the name`,
    ]);
    // XGBoost (the plainml plugin sets the nodes) counts the same way.
    expect(appRules(named(edge, { runtimeRef: { name: 'xgboost-distributed' }, trainer: { numNodes: 100 } })).map(r => r.split(', "')[1]?.split('"')[0])).toEqual([`${edge}-node-0-99-abcde`]);
    // MPI: the launcher's name is the longest: 44 + "-launcher-0-0-abcde" (19) = 63 fits, 45 does not.
    expect(appRules(named('c'.repeat(44), { runtimeRef: { name: 'deepspeed-distributed' }, trainer: { numNodes: 11 } }))).toEqual([]);
    expect(appRules(named('c'.repeat(45), { runtimeRef: { name: 'deepspeed-distributed' }, trainer: { numNodes: 11 } })).map(r => r.split(';')[0])).toEqual([
      `chart/0 jobset/pod-name metadata.name is "${'c'.repeat(45)}"`,
    ]);
  });
});

describe('jobset/coordinator-index and jobset/claim-name: what the JobSet webhook refuses in the JobSet built from a TrainJob and its runtime', () => {
  const NEVER = 'the JobSet webhook refuses the JobSet, so the TrainJob is admitted and never runs';
  const node = (mount?: string) => rjob('node', 'trainer', [{ name: 'node', image: 'i', ...(mount ? { volumeMounts: [{ name: mount, mountPath: '/ckpt' }] } : {}) }]);
  const withSpec = (spec: any, mount?: string) => {
    const rt = runtime('rt', [rjob('launcher', undefined, [{ name: 'l', image: 'i' }], 2), node(mount)]);
    Object.assign(rt.spec.template.spec, spec);
    return rt;
  };
  const named = (name: string, spec: any) => ({ ...trainJob(spec), metadata: { name, namespace: 'ml' } });

  test('the coordinator\'s pod index against the nodes the TrainJob asks for', () => {
    const rt = withSpec({ coordinator: { replicatedJob: 'node', podIndex: 3 } });
    expect(appRules(rt, trainJob({ trainer: { numNodes: 4 } }))).toEqual([]);
    expect(appRules(rt, trainJob({ trainer: { numNodes: 3 } }))).toEqual([
      `chart/1 jobset/coordinator-index spec.trainer.numNodes is 3; expected the coordinator.podIndex (3) of the runtime "rt" to be below the 3 pods per Job that the "node" job gets for this TrainJob (Trainer sets completions to that count); ${NEVER}`,
    ]);
    // Without numNodes the runtime's mlPolicy.numNodes (1) counts.
    expect(appRules(rt, trainJob({}))).toEqual([
      `chart/1 jobset/coordinator-index spec.runtimeRef.name is "rt"; expected the coordinator.podIndex (3) of the runtime "rt" to be below the 1 pod per Job that the "node" job gets for this TrainJob (Trainer sets completions to that count); ${NEVER}`,
    ]);
  });

  test('the coordinator\'s job index against the replicas of its job', () => {
    const rt = withSpec({ coordinator: { replicatedJob: 'launcher', jobIndex: 2 } });
    expect(appRules(rt, trainJob({}))).toEqual([
      `chart/1 jobset/coordinator-index spec.runtimeRef.name is "rt"; expected a runtime whose coordinator.jobIndex (2) is below the 2 Jobs of its "launcher" replicated job in the JobSet built for this TrainJob: the runtime "rt" names a coordinator that does not exist; ${NEVER}`,
    ]);
    expect(appRules(withSpec({ coordinator: { replicatedJob: 'launcher', jobIndex: 1 } }), trainJob({}))).toEqual([]);
    const findings = appFindings([{ path: 'rt', doc: rt }, { path: 'job', doc: trainJob({}) }]);
    expect(findings.map(f => [f.path, f.finding.rule])).toEqual([['job', 'jobset/coordinator-index']]);
  });

  test('the coordinator endpoint, a label value of at most 63 characters', () => {
    const rt = withSpec({ coordinator: { replicatedJob: 'node' } });
    // "<name>-node-0-0.<name>": 2 x 26 + 10 = 62 fits; 27 gives 64.
    expect(appRules(rt, named('a'.repeat(26), {}))).toEqual([]);
    const long = 'a'.repeat(27);
    expect(appRules(rt, named(long, {}))).toEqual([
      `chart/1 jobset/coordinator-index metadata.name is "${long}"; expected a name that keeps the coordinator endpoint "<TrainJob name>-<job>-<job index>-<pod index>.<subdomain>" of the runtime "rt" a label value of at most 63 characters: `
      + `here "${long}-node-0-0.${long}" (64 characters), which the JobSet writes as a label; ${NEVER}; shorten the name (the subdomain is the name too, unless the runtime sets network.subdomain)`,
    ]);
    expect(appRules(withSpec({ coordinator: { replicatedJob: 'node' }, network: { subdomain: 'train' } }), named(long, {}))).toEqual([]);
  });

  test('the claim "<template>-<TrainJob name>" of at most 63 characters', () => {
    // A long template name, so that the claim outgrows 63 before the pod names do (at 45).
    const template = 'checkpoint-storage-for-training';
    const rt = withSpec({ volumeClaimPolicies: [{ templates: [{ metadata: { name: template }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } } }] }] }, template);
    expect(rules(rt)).toEqual([]);
    expect(appRules(rt, named('c'.repeat(31), {}))).toEqual([]);
    expect(appFindings([{ path: 'rt', doc: rt }, { path: 'job', doc: named('c'.repeat(32), {}) }]).map(f => [f.path, f.finding.rule])).toEqual([['job', 'jobset/claim-name']]);
    const long = 'c'.repeat(32);
    expect(appRules(rt, named(long, {}))).toEqual([
      `chart/1 jobset/claim-name metadata.name is "${long}"; expected at most 31 characters: JobSet v0.12.0 names the claim of the volume claim template "${template}" of the runtime "rt" "<template>-<TrainJob name>", here "${template}-${long}" (64 characters, over 63); ${NEVER}; shorten the name`,
    ]);
  });

  test('jobset/coordinator: the coordinator\'s job in a completion mode other than Indexed, on the runtime alone', () => {
    const rt = withSpec({ coordinator: { replicatedJob: 'launcher' } });
    rt.spec.template.spec.replicatedJobs[0].template.spec.completionMode = 'NonIndexed';
    expect(rules(rt)).toEqual([
      'jobset/coordinator spec.template.spec.replicatedJobs[0].template.spec.completionMode is "NonIndexed"; expected "Indexed" or not set: the coordinator\'s job names its pods by index; the JobSet webhook refuses it, so every TrainJob of this runtime is admitted and never starts',
    ]);
  });
});

describe('trainer/trainjob-runtime: plugins/volcano Validate, the queue annotation of the runtime and the job\'s patches merged', () => {
  const KEY = 'scheduling.volcano.sh/queue-name';
  const volcano = (queue?: string) => {
    const rt = runtime('rt', [rjob('node', 'trainer', [{ name: 'node', image: 'i' }])], { podGroupPolicy: { volcano: {} } });
    if (queue !== undefined) rt.spec.template.metadata = { annotations: { [KEY]: queue } };
    return rt;
  };
  const patched = (queue: string) => trainJob({ runtimePatches: [{ manager: 'example.io/team', trainingRuntimeSpec: { template: { metadata: { annotations: { [KEY]: queue } } } } }] });

  test('an empty queue from the runtime, unless a patch names one', () => {
    expect(appRules(volcano('gpu-queue'), trainJob({}))).toEqual([]);
    expect(appRules(volcano(), trainJob({}))).toEqual([]);
    expect(appRules(volcano(''), trainJob({}))).toEqual([
      `chart/1 trainer/trainjob-runtime spec.runtimeRef.name is "rt"; expected a runtime whose "${KEY}" annotation is a queue name or absent: the volcano runtime "rt" sets it empty, and the Trainer webhook refuses the job (or patch it with a queue name)`,
    ]);
    expect(appRules(volcano(''), patched('gpu-queue'))).toEqual([]);
    // Without a volcano pod-group policy the plugin does not look.
    const plain = volcano('');
    delete plain.spec.podGroupPolicy;
    expect(appRules(plain, trainJob({}))).toEqual([]);
  });

  test('an empty queue from a patch, over the runtime\'s', () => {
    expect(appRules(volcano('gpu-queue'), patched(''))).toEqual([
      `chart/1 trainer/trainjob-runtime spec.runtimePatches[0].trainingRuntimeSpec.template.metadata.annotations.${KEY} is ""; expected a queue name, or no "${KEY}" annotation (the queue then is Volcano's default): the volcano runtime "rt" refuses an empty one`,
    ]);
  });
});

test('each app rule of issue 22 is found by its id', () => {
  const long = { ...trainJob({ runtimeRef: { name: 'jax-distributed' }, trainer: { numProcPerNode: 2 } }), metadata: { name: 'x'.repeat(60), namespace: 'ml' } };
  expect([...new Set(appFindings([{ path: 'p', doc: long }]).map(f => f.finding.rule))]).toEqual(['trainer/trainjob-reach', 'jobset/pod-name']);
});

describe('trainer/kueue-patch-metadata', () => {
  test('pod labels or annotations in the patch of a queued job; node selectors are fine, and an unqueued job may', () => {
    const patch = (pod: any) => ({ manager: 'example.io/p', trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: pod } } }] } } } });
    const queued = (pod: any) => ({ ...trainJob({ runtimePatches: [patch(pod)] }), metadata: { name: 'job', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'team-a' } } });
    expect(rules(queued({ metadata: { annotations: { 'kueue.x-k8s.io/podset-required-topology': 'rack' } } }))).toEqual([
      'trainer/kueue-patch-metadata spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.metadata is {"annotations":{"kueue.x-k8s.io/podset-required-topology":"rack"}}; expected no pod labels or annotations in a runtime patch of a job queued by Kueue (queue "team-a"): Trainer v2.3.0 cannot resume the JobSet of such a patch when Kueue admits the job (spec.replicatedJobs[0].template.spec.template.metadata: Invalid value: "null"), so it never runs; put them on the runtime\'s pod templates (a runtime of the app, with podLabels, podAnnotations or a Kueue topology), or leave the job unqueued; node selectors and tolerations in the patch are fine',
    ]);
    expect(rules(queued({ spec: { nodeSelector: { pool: 'a100' } } }))).toEqual([]);
    expect(rules(trainJob({ runtimePatches: [patch({ metadata: { labels: { team: 'a' } } })] }))).toEqual([]);
  });
});
