import { appFindings } from '../../src/rules/across-documents';
import { describe as describeFinding } from '../../src/rules/finding';
import { kubernetesFindings } from '../../src/rules/kubernetes';

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

  test('trainer/replicated-job-name: at most 20 characters', () => {
    expect(rules(runtime('rt', [rjob('twenty-characters-ok', undefined, [{ name: 'a', image: 'i' }]), rjob('twenty-one-characters', undefined, [{ name: 'a', image: 'i' }])]))).toEqual([
      'trainer/replicated-job-name spec.template.spec.replicatedJobs[1].name is "twenty-one-characters"; expected at most 20 characters (Trainer v2.4 refuses longer names; the JobSet\'s pod names grow with them)',
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

describe('app/trainjob-runtime', () => {
  const node = rjob('node', 'trainer', [{ name: 'node', image: 'i' }]);

  test('upstream jobs/05-multi-step.yaml: the dataset initializer does not mount the workspace', () => {
    const rt = runtime('rt', [rjob('dataset-initializer', 'dataset-initializer', [{ name: 'dataset-initializer', image: 'i' }], 1), node]);
    expect(appRules(rt, trainJob({ initializer: { dataset: { storageUri: 'hf://tatsu-lab/alpaca' } } }))).toEqual([
      'chart/1 app/trainjob-runtime spec.initializer.dataset is {"storageUri":"hf://tatsu-lab/alpaca"}; expected the runtime "rt" to mount the "initializer" volume in its "dataset-initializer" container, where the initializer writes (the Trainer webhook refuses the job otherwise)',
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
      'chart/1 app/trainjob-runtime spec.initializer.dataset is {"storageUri":"hf://d"}; expected a runtime with a "dataset-initializer" step; the runtime "rt" has only "model-initializer", "node"',
      'chart/1 app/trainjob-runtime spec.initializer.model is {"storageUri":"hf://m"}; expected the "model-initializer" step of the runtime "rt" to have a container named "model-initializer"',
      'chart/1 app/trainjob-runtime spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].name is "launcher"; expected a replicated job of the runtime "rt": "model-initializer", "node"',
      'chart/1 app/trainjob-runtime spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[1].template.spec.template.spec.containers[0].name is "sidecar"; expected a container of the "node" job of the runtime "rt": "node"',
      'chart/1 app/trainjob-runtime spec.trainer.env[0].name is "PET_MASTER_PORT"; expected a variable the torch runtime "rt" does not set itself (it sets PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR, PET_MASTER_PORT)',
    ]);
  });

  test('MPI with the launcher as a node needs both jobs for more than one node', () => {
    const rt = runtime('rt', [rjob('launcher', 'trainer', [{ name: 'node', image: 'i' }])], { mlPolicy: { numNodes: 1, mpi: { runLauncherAsNode: true } } });
    expect(appRules(rt, trainJob({ trainer: { numNodes: 2 } }))).toEqual([
      'chart/1 app/trainjob-runtime spec.trainer.numNodes is 2; expected 1: the MPI runtime "rt" runs the launcher as a node but lacks a "launcher" or "node" job',
    ]);
  });

  test('a TrainingRuntime in another namespace; a runtime outside the app is not checked', () => {
    const rt = runtime('rt', [node], {}, 'TrainingRuntime', 'team-b');
    const job = trainJob({ runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'TrainingRuntime', name: 'rt' }, initializer: { dataset: {} } }, 'team-a');
    expect(appRules(rt, job)).toEqual([
      'chart/1 app/trainjob-runtime spec.runtimeRef.name is "rt"; expected a TrainingRuntime in the job\'s namespace "team-a"; the app\'s "rt" is in namespace "team-b", where the controller does not look',
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
        'chart/1 app/trainjob-runtime spec.runtimeRef.name is "torch-8gpu"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; did you mean "torch-8gpus"? A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("torch-8gpu") (the annotation cdk8s-kubeflow/runtime-provided: "true")',
      ]);
    });

    test('a near name among the built-in runtimes', () => {
      expect(appRules(gpus, named('torch-distributd'))).toEqual([
        'chart/1 app/trainjob-runtime spec.runtimeRef.name is "torch-distributd"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; did you mean "torch-distributed" (built into Trainer v2.3.0)? A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("torch-distributd") (the annotation cdk8s-kubeflow/runtime-provided: "true")',
      ]);
    });

    test('no near name: the app\'s runtimes are listed', () => {
      expect(appRules(gpus, named('llama-special'))).toEqual([
        'chart/1 app/trainjob-runtime spec.runtimeRef.name is "llama-special"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; the app defines "torch-8gpus". A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("llama-special") (the annotation cdk8s-kubeflow/runtime-provided: "true")',
      ]);
      expect(appRules(gpus, named('llama-special', 'TrainingRuntime'))).toEqual([
        'chart/1 app/trainjob-runtime spec.runtimeRef.name is "llama-special"; expected a TrainingRuntime of the app in the job\'s namespace "team-a"; the app defines none. A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedInNamespace("llama-special") (the annotation cdk8s-kubeflow/runtime-provided: "true")',
      ]);
    });

    test('the wrong kind: a ClusterTrainingRuntime named as namespaced, and the reverse', () => {
      expect(appRules(gpus, named('torch-8gpus', 'TrainingRuntime'))).toEqual([
        'chart/1 app/trainjob-runtime spec.runtimeRef.kind is "TrainingRuntime"; expected ClusterTrainingRuntime: the app\'s "torch-8gpus" is a ClusterTrainingRuntime, and the app defines no TrainingRuntime of that name (TrainingRuntimeRef.cluster("torch-8gpus"), or the runtime\'s ref)',
      ]);
      const local = runtime('local', [node], {}, 'TrainingRuntime', 'team-a');
      expect(appRules(local, named('local'))).toEqual([
        'chart/1 app/trainjob-runtime spec.runtimeRef.kind is "ClusterTrainingRuntime"; expected TrainingRuntime: the app\'s "local" is a TrainingRuntime in namespace "team-a", and the app defines no ClusterTrainingRuntime of that name (TrainingRuntimeRef.namespaced("local"), or the runtime\'s ref)',
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
  expect([...new Set([...kubernetesFindings(doc), ...kubernetesFindings(job)].map(f => f.rule))]).toEqual([
    'trainer/replicated-job-name', 'trainer/runtime-step', 'trainer/patch-manager', 'trainer/patch-env',
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
  expect(rules(job).map(r => r.split(' ')[0])).toEqual(['k8s/label-key', 'k8s/label-value', 'k8s/toleration-value', 'k8s/volume-name']);
});
