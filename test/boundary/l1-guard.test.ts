/**
 * The generated L1 classes (the kubeflow, trainer, notebooks and kueue submodules) are guarded like
 * the constructs (src/boundary/l1-guard.ts): a value of the wrong JavaScript type on an L1 field
 * gets the boundary's message, naming the object's path, the field, the value and what is allowed,
 * instead of reaching the YAML as it is (a number for a string), or vanishing from it (a string for
 * a quantity, which the typed serializer reads `.value` of). What cdk8s itself renders is taken as
 * cdk8s takes it: tokens, and null for a field left out.
 */
import { App, Chart, IResolver, Lazy, ResolutionContext, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { DistributedPyTorch, kubeflow, kueue, notebooks, trainer } from '../../src';
import { CLASSES, STRUCTS } from '../../src/boundary/schema-l1.generated';

const chart = (app: App = Testing.app()) => new Chart(app, 'test');

function refusal(make: (c: Chart) => unknown): string {
  try {
    make(chart());
  } catch (e) {
    return (e as Error).message;
  }
  return 'accepted';
}

const POD = { spec: { containers: [{ name: 'pytorch', image: 'train:1' }] } };
const RUNTIME_REF = { name: 'torch-distributed' };

describe('a value of the wrong JavaScript type on an L1 field gets the boundary\'s message', () => {
  test.each<[string, (c: Chart) => unknown, string]>([
    ['a number for a string (Kueue)', c => new kueue.ClusterQueue(c, 'cq', { spec: { cohortName: 5 as any, resourceGroups: [] } }),
      'test/cq: spec.cohortName is 5; expected a string'],
    ['a string for a quantity, which the serializer dropped (Kueue)', c => new kueue.ClusterQueue(c, 'cq', {
      spec: { resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'f', resources: [{ name: 'cpu', nominalQuota: '4' as any }] }] }] },
    }), 'test/cq: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota is "4"; expected a Quantity from cdk8s-plus-28: Quantity.fromString(value) or Quantity.fromNumber(value)'],
    ['an object for a list (Kueue)', c => new kueue.ClusterQueue(c, 'cq', { spec: { resourceGroups: { cpu: 4 } as any } }),
      'test/cq: spec.resourceGroups is {"cpu":4}; expected a list of values each a ResourceGroup (an object of its fields)'],
    ['a string outside an enum (Kueue)', c => new kueue.ClusterQueue(c, 'cq', { spec: { queueingStrategy: 'FIFO' as any, resourceGroups: [] } }),
      'test/cq: spec.queueingStrategy is "FIFO"; expected a ClusterQueueSpecQueueingStrategy: "StrictFIFO" or "BestEffortFIFO"'],
    ['a misspelt field (Kueue)', c => new kueue.LocalQueue(c, 'lq', { spec: { clusterQueu: 'cq' } as any }),
      'test/lq: spec.clusterQueu is "cq"; expected no such field in LocalQueueSpec: did you mean "clusterQueue"?'],
    ['a string for an integer (v1 job)', c => new kubeflow.PyTorchJob(c, 'job', { spec: { pytorchReplicaSpecs: { Master: { replicas: '1' as any, template: POD } } } }),
      'test/job: spec.pytorchReplicaSpecs.Master.replicas is "1"; expected a finite number'],
    ['a number for a string deep in a pod template (v1 job)', c => new kubeflow.PyTorchJob(c, 'job', {
      spec: { pytorchReplicaSpecs: { Master: { replicas: 1, template: { spec: { containers: [{ name: 'pytorch', image: 7 as any }] } } } } },
    }), 'test/job: spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image is 7; expected a string'],
    ['a string for a list of strings (Trainer)', c => new trainer.TrainJob(c, 'tj', { spec: { runtimeRef: RUNTIME_REF, trainer: { command: 'torchrun train.py' as any } } }),
      'test/tj: spec.trainer.command is "torchrun train.py"; expected a list of strings such as ["torchrun", "train.py"]'],
    ['a string for a boolean (Trainer)', c => new trainer.TrainJob(c, 'tj', { spec: { runtimeRef: RUNTIME_REF, suspend: 'true' as any } }),
      'test/tj: spec.suspend is "true"; expected true or false'],
    ['a required field left out (Trainer)', c => new trainer.TrainJob(c, 'tj', { spec: {} as any }),
      'test/tj: spec.runtimeRef is not set; expected a TrainJobSpecRuntimeRef (an object of its fields)'],
    ['a number for a string (notebooks)', c => new notebooks.Workspace(c, 'ws', {
      spec: { kind: 'jupyterlab', podTemplate: { options: { imageConfig: 1 as any, podConfig: 'small' }, volumes: { home: 'home' } } },
    }), 'test/ws: spec.podTemplate.options.imageConfig is 1; expected a string'],
    ['props that are not an object', c => new notebooks.Workspace(c, 'ws', 'jupyterlab' as any),
      'test/ws: props is "jupyterlab"; expected a WorkspaceProps (an object of its fields)'],
    ['a null item of a list, which cdk8s would write as null', c => new kueue.ClusterQueue(c, 'cq', { spec: { resourceGroups: [null as any] } }),
      'test/cq: spec.resourceGroups[0] is null; expected a ResourceGroup (an object of its fields)'],
  ])('%s', (_name, make, message) => {
    expect(refusal(make)).toBe(message);
  });

  test('the refused call\'s stack starts at the program\'s `new`', () => {
    let error: Error | undefined;
    try {
      new kueue.LocalQueue(chart(), 'lq', { spec: { clusterQueue: 1 as any } }); // the-new
    } catch (e) {
      error = e as Error;
    }
    const first = error!.stack!.split('\n').find(l => /^\s+at /.test(l))!;
    expect(first).toContain('l1-guard.test.ts');
  });
});

describe('what cdk8s renders is taken as cdk8s takes it', () => {
  test('tokens pass unchecked, and a null field is left out of the manifest', () => {
    const c = chart();
    const queue = new kueue.ClusterQueue(c, 'cq', {
      spec: {
        cohortName: Lazy.any({ produce: () => 'team' }),
        stopPolicy: null as any,
        namespaceSelector: {},
        resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'f', resources: [{ name: 'cpu', nominalQuota: k8s.Quantity.fromString('4') }] }] }],
      },
    });
    expect(queue.toJson().spec).toEqual({
      cohortName: 'team',
      namespaceSelector: {},
      resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'f', resources: [{ name: 'cpu', nominalQuota: '4' }] }] }],
    });
  });

  test('an app with its own resolvers is not judged before they run (they may turn any value into another)', () => {
    class Quantities implements IResolver {
      public resolve(context: ResolutionContext): void {
        if (context.value === 'four') context.replaceValue(k8s.Quantity.fromString('4'));
      }
    }
    const c = chart(new App({ resolvers: [new Quantities()] }));
    expect(() => new kueue.ResourceFlavor(c, 'f', { spec: { nodeLabels: { gpu: 1 as any } } })).not.toThrow();
  });
});

describe('the library\'s own L1s are left to their constructs', () => {
  test('a construct\'s object is neither checked nor registered again: its finding is reported once', () => {
    const app = Testing.app();
    new DistributedPyTorch(new Chart(app, 'test'), 'job', { image: 'train:1', workers: 1, metadata: { labels: { team: 'no spaces' } } });
    let message = '';
    try {
      app.synth();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n').filter(l => l.includes('metadata.labels.team'))).toEqual([
      '  [test/job] metadata.labels.team is "no spaces"; expected a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit',
    ]);
  });
});

test('the L1 table covers every L1 class\'s constructor and every struct of the submodules', () => {
  const own = (fqn: string) => /^(kubeflow|trainer|notebooks|kueue|core)\./.test(fqn);
  const classes = Object.keys(CLASSES).filter(own);
  const structs = Object.keys(STRUCTS).filter(own);
  expect(classes).toEqual([
    'kubeflow.JaxJob', 'kubeflow.MpiJob', 'kubeflow.MxJob', 'kubeflow.PaddleJob', 'kubeflow.PyTorchJob', 'kubeflow.TfJob', 'kubeflow.XgBoostJob',
    'kueue.ClusterQueue', 'kueue.Cohort', 'kueue.LocalQueue', 'kueue.ResourceFlavor', 'kueue.Topology', 'kueue.WorkloadPriorityClass',
    'notebooks.Workspace', 'notebooks.WorkspaceKind',
    'trainer.ClusterTrainingRuntime', 'trainer.TrainJob', 'trainer.TrainingRuntime',
  ]);
  for (const fqn of classes) expect(CLASSES[fqn].init).toEqual(['scope:constructs.Construct', 'id:string', expect.stringMatching(/^props:\??[a-z]+\.\w+Props$/)]);
  expect(structs.length).toBeGreaterThanOrEqual(200);
});
