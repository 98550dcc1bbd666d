/**
 * Wrong inputs at the jsii boundary, as a JavaScript caller or a template library that builds
 * props from configuration gives them: each ends in the library's own error, with the construct
 * path, the field, the value and what is allowed. Every message is compared in full.
 */
import * as fs from 'fs';
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, CleanPodPolicy, DistributedPyTorch, DistributedPyTorchProps, MpiAllReduce, ParameterServerTF, PlatformDefaults, RestartPolicy,
  Workspace, WorkspaceClaim, WorkspaceKind,
} from '../../src';

const IMAGE = 'registry.example.com/train:1.0';
const RESTART = 'expected a RestartPolicy: RestartPolicy.ALWAYS, RestartPolicy.ON_FAILURE, RestartPolicy.NEVER, RestartPolicy.EXIT_CODE or RestartPolicy.of(value)';
const SIZE = 'expected a Size from cdk8s: Size.kibibytes(amount), Size.mebibytes(amount), Size.gibibytes(amount), Size.tebibytes(amount) or Size.pebibyte(amount)';
const ACCELERATOR = 'expected an Accelerator: Accelerator.nvidia(count), Accelerator.amd(count), Accelerator.intel(count) or Accelerator.custom(resourceName, count)';
const ENV_VALUE = 'expected an EnvValue from cdk8s-plus-28, made by one of its static methods such as EnvValue.fromValue(value)';

function thrown(build: (chart: Chart) => unknown): string {
  const chart = new Chart(Testing.app(), 'test');
  try {
    build(chart);
  } catch (e) {
    if (!(e instanceof Error) || e.constructor !== Error) throw new Error(`not the library's error: ${String(e)}`);
    return e.message;
  }
  return 'no error';
}

/** A PyTorch job with `props` spread over a valid one, as an untyped caller would give them. */
const pytorch = (props: object) => (chart: Chart) =>
  new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props } as DistributedPyTorchProps);

const ISSUE_CASES: Array<[string, object, string]> = [
  ['restartPolicy as a misspelt string', { restartPolicy: 'OnFailre' },
    `test/job: restartPolicy is "OnFailre"; ${RESTART} (did you mean RestartPolicy.ON_FAILURE?)`],
  ['cleanPodPolicy as a string', { runPolicy: { cleanPodPolicy: 'running' } },
    'test/job: runPolicy.cleanPodPolicy is "running"; expected a CleanPodPolicy: CleanPodPolicy.NONE, CleanPodPolicy.RUNNING, CleanPodPolicy.ALL or CleanPodPolicy.of(value) (did you mean CleanPodPolicy.RUNNING?)'],
  ['security as a string', { security: 'restricted' },
    'test/job: security is "restricted"; expected a PodSecurity: PodSecurity.DEFAULT or PodSecurity.RESTRICTED (did you mean PodSecurity.RESTRICTED?)'],
  ['the gang scheduler as a string', { gangScheduling: { scheduler: 'volcano' } },
    'test/job: gangScheduling.scheduler is "volcano"; expected a GangScheduler: GangScheduler.VOLCANO, GangScheduler.SCHEDULER_PLUGINS or GangScheduler.of(schedulerName) (did you mean GangScheduler.VOLCANO?)'],
  ['a GPU count under resources', { resources: { gpu: 8 } },
    'test/job: resources.gpu is 8; expected no such field in Resources: did you mean "accelerator"?'],
  ['shared memory as a string', { sharedMemory: '10Gi' }, `test/job: sharedMemory is "10Gi"; ${SIZE}`],
  ['memory as a string', { resources: { memory: '4Gi' } }, `test/job: resources.memory is "4Gi"; ${SIZE}`],
  ['CPU as a string', { resources: { cpu: '2' } },
    'test/job: resources.cpu is "2"; expected a Cpu from cdk8s-plus-28: Cpu.millis(amount) or Cpu.units(amount)'],
  ['the accelerator as a number', { resources: { accelerator: 8 } }, `test/job: resources.accelerator is 8; ${ACCELERATOR}`],
  ['a plain-object accelerator', { resources: { accelerator: { resourceName: 'nvidia.com/gpu', count: 8 } } },
    `test/job: resources.accelerator is {"resourceName":"nvidia.com/gpu","count":8}; ${ACCELERATOR}`],
  ['an environment variable without a value', { env: { DATA: undefined } }, `test/job: env.DATA is not set; ${ENV_VALUE}`],
  ['the command as one string', { command: 'python train.py' },
    'test/job: command is "python train.py"; expected a list of strings such as ["python", "train.py"]'],
];

const MORE_CASES: Array<[string, object, string]> = [
  ['a misspelt run-policy field', { runPolicy: { cleanpodpolicy: CleanPodPolicy.RUNNING } },
    'test/job: runPolicy.cleanpodpolicy is a CleanPodPolicy; expected no such field in RunPolicy: did you mean "cleanPodPolicy"?'],
  ['a misspelt top-level prop', { wrokers: 2 }, 'test/job: wrokers is 2; expected no such field in DistributedPyTorchProps: did you mean "workers"?'],
  ['an unknown field with no near name', { runPolicy: { retries: 3 } },
    'test/job: runPolicy.retries is 3; expected no such field in RunPolicy, whose fields are activeDeadline, backoffLimit, cleanPodPolicy, managedBy, suspend, ttlAfterFinished'],
  ['a role option as a string', { worker: { restartPolicy: 'never' } },
    `test/job: worker.restartPolicy is "never"; ${RESTART} (did you mean RestartPolicy.NEVER?)`],
  ['a count as a string', { workers: '3' }, 'test/job: workers is "3"; expected a finite number'],
  ['a count that is not a number', { workers: NaN }, 'test/job: workers is NaN; expected a finite number'],
  ['a boolean as a string', { hostIpc: 'true' }, 'test/job: hostIpc is "true"; expected true or false'],
  ['an env value as a plain string', { env: { DATA: '/data' } }, `test/job: env.DATA is "/data"; ${ENV_VALUE}`],
  ['a list with a hole', { args: ['--epochs', , '3'] }, 'test/job: args[1] is not set; expected a string'],
  ['a label value as a number', { podLabels: { team: 7 } }, 'test/job: podLabels.team is 7; expected a string'],
  ['a label key that is not an identifier', { podLabels: { 'app.kubernetes.io/name': true } },
    'test/job: podLabels["app.kubernetes.io/name"] is true; expected a string'],
  ['a misspelt toleration field', { tolerations: [{ key: 'gpu', efect: 'NoSchedule' }] },
    'test/job: tolerations[0].efect is "NoSchedule"; expected no such field in Toleration: did you mean "effect"?'],
  ['an image pull policy as a lower-case string', { imagePullPolicy: 'always' },
    'test/job: imagePullPolicy is "always"; expected an ImagePullPolicy from cdk8s-plus-28: ImagePullPolicy.ALWAYS, ImagePullPolicy.IF_NOT_PRESENT or ImagePullPolicy.NEVER'],
  ['a service account given by name', { serviceAccount: 'trainer' }, 'test/job: serviceAccount is "trainer"; expected an IServiceAccount from cdk8s-plus-28: a ServiceAccount or ServiceAccount.fromServiceAccountName(scope, id, name, options)'],
  ['the gang scheduling without its scheduler', { gangScheduling: { queue: 'research' } },
    'test/job: gangScheduling.scheduler is not set; expected a GangScheduler: GangScheduler.VOLCANO, GangScheduler.SCHEDULER_PLUGINS or GangScheduler.of(schedulerName)'],
  ['a list where a struct is expected', { runPolicy: [] }, 'test/job: runPolicy is []; expected a RunPolicy (an object of its fields)'],
  ['a Size in a boxed string', { sharedMemory: new String('10Gi') }, `test/job: sharedMemory is new String("10Gi"); ${SIZE}`],
];

describe.each([...ISSUE_CASES, ...MORE_CASES])('%s', (_label, props, message) => {
  test('is the library\'s error with the exact message', () => {
    expect(thrown(pytorch(props))).toBe(message);
  });
});

test('a job without props names the props type', () => {
  expect(thrown(c => new DistributedPyTorch(c, 'job', undefined as any)))
    .toBe('test/job: props is not set; expected a DistributedPyTorchProps (an object of its fields)');
});

test('MPI and TF props are checked before their clean-pod default is added', () => {
  expect(thrown(c => new MpiAllReduce(c, 'job', { image: IMAGE, runPolicy: 'Running' } as any)))
    .toBe('test/job: runPolicy is "Running"; expected a RunPolicy (an object of its fields)');
  expect(thrown(c => new ParameterServerTF(c, 'job', null as any)))
    .toBe('test/job: props is null; expected a ParameterServerTFProps (an object of its fields)');
});

test('a user\'s subclass is checked as the library class it extends', () => {
  class MyJob extends DistributedPyTorch {}
  expect(thrown(c => new MyJob(c, 'job', { image: IMAGE, restartPolicy: 'Never' } as any)))
    .toBe(`test/job: restartPolicy is "Never"; ${RESTART} (did you mean RestartPolicy.NEVER?)`);
});

describe('methods and static factories', () => {
  test('a replica group method', () => {
    expect(thrown(c => new DistributedPyTorch(c, 'job', { image: IMAGE }).worker!.scale('4' as any)))
      .toBe('test/job/Worker: replicas is "4"; expected a finite number');
    expect(thrown(c => new DistributedPyTorch(c, 'job', { image: IMAGE }).master!.addEnv('DATA', '/data' as any)))
      .toBe(`test/job/Master: value is "/data"; ${ENV_VALUE}`);
  });
  test('a job method', () => {
    expect(thrown(c => new DistributedPyTorch(c, 'job', { image: IMAGE }).mount('/data', 'datasets' as any)))
      .toBe('test/job: storage is "datasets"; expected an IStorage from cdk8s-plus-28: a PersistentVolume or a Volume');
    expect(thrown(c => new DistributedPyTorch(c, 'job', { image: IMAGE }).addToleration({ key: 'gpu', operatr: 'Exists' } as any)))
      .toBe('test/job: toleration.operatr is "Exists"; expected no such field in Toleration: did you mean "operator"?');
  });
  test('a static factory without a scope names itself', () => {
    expect(thrown(() => Accelerator.nvidia('8' as any))).toBe('Accelerator.nvidia: count is "8"; expected a finite number');
    expect(thrown(() => RestartPolicy.of(undefined as any))).toBe('RestartPolicy.of: value is not set; expected a string');
    expect(thrown(() => WorkspaceClaim.newClaim({ storage: '10Gi' } as any))).toBe(`WorkspaceClaim.newClaim: options.storage is "10Gi"; ${SIZE}`);
  });
  test('a static factory with a scope names the scope', () => {
    expect(thrown(c => PlatformDefaults.set(c, { securty: 'restricted' } as any)))
      .toBe('test: props.securty is "restricted"; expected no such field in PlatformDefaultsProps: did you mean "security"?');
  });
  test('a workspace and a workspace kind', () => {
    expect(thrown(c => new Workspace(c, 'ws', { kind: 'jupyterlab' } as any)))
      .toBe('test/ws: kind is "jupyterlab"; expected an IWorkspaceKind: a WorkspaceKind or WorkspaceKind.fromName(name)');
    expect(thrown(c => new WorkspaceKind(c, 'kind', { displayName: 'JupyterLab', description: 'x', icon: 'https://jupyter.org/favicon.png' } as any)))
      .toBe('test/kind: icon is "https://jupyter.org/favicon.png"; expected a SpawnerImage: SpawnerImage.fromUrl(url) or SpawnerImage.fromConfigMap(name, key, namespace)');
  });
});

describe('objects from another copy or version of cdk8s-plus', () => {
  test('a Volume of cdk8s-plus-33 names the version the library needs', () => {
    // What a cdk8s-plus-33 Volume looks like to this library: another class of the same name,
    // with jsii's runtime type information naming its assembly.
    class Volume {
      public readonly name = 'data';
    }
    Object.defineProperty(Volume, Symbol.for('jsii.rtti'), { value: { fqn: 'cdk8s-plus-33.Volume', version: '2.5.57' } });
    expect(thrown(c => new DistributedPyTorch(c, 'job', { image: IMAGE }).worker!.addVolume(new Volume() as any)))
      .toBe('test/job/Worker: volume is a Volume of cdk8s-plus-33 2.5.57; expected a Volume from cdk8s-plus-28 (this library\'s peer dependency); got one from another copy or version of cdk8s-plus');
  });
  test('a second copy of cdk8s-plus-28 is told apart from ours', () => {
    let other: typeof kplus | undefined;
    jest.isolateModules(() => {
      // A fresh module registry loads a second copy, as a second node_modules folder would.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      other = require('cdk8s-plus-28');
    });
    const version = JSON.parse(fs.readFileSync(require.resolve('cdk8s-plus-28/package.json'), 'utf8')).version;
    expect(thrown(c => new DistributedPyTorch(c, 'job', { image: IMAGE }).addEnv('DATA', other!.EnvValue.fromValue('/data'))))
      .toBe(`test/job: value is an EnvValue of cdk8s-plus-28 ${version}; expected an EnvValue from cdk8s-plus-28 (this library's peer dependency); got one from another copy or version of cdk8s-plus`);
  });
});

test('right values pass, and the job renders them', () => {
  const chart = new Chart(Testing.app(), 'test');
  new DistributedPyTorch(chart, 'job', {
    metadata: { name: 'train', labels: { team: 'research' } },
    image: IMAGE,
    restartPolicy: RestartPolicy.ON_FAILURE,
    runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING },
    sharedMemory: Size.gibibytes(10),
    resources: { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(4), accelerator: Accelerator.nvidia(8) },
    env: { DATA: kplus.EnvValue.fromValue('/data') },
    command: ['python', 'train.py'],
  });
  const spec = Testing.synth(chart)[0].spec;
  expect(spec.runPolicy).toEqual({ cleanPodPolicy: 'Running' });
  expect(spec.pytorchReplicaSpecs.Worker.restartPolicy).toBe('OnFailure');
  expect(spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].command).toEqual(['python', 'train.py']);
});

test('an object that passed as one struct is still checked as another', () => {
  const options = { restartPolicy: RestartPolicy.NEVER };
  expect(thrown(c => {
    new DistributedPyTorch(c, 'job', { image: IMAGE, worker: options });
    PlatformDefaults.set(c, options as any);
  })).toBe('test: props.restartPolicy is a RestartPolicy; expected no such field in PlatformDefaultsProps, whose fields are imagePullSecrets, labels, network, nodeHealth, nodeSelector, podAnnotations, priorityClassName, queue, security, target, tolerations');
});
