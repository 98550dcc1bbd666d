/**
 * Regression tests for the bugs the property tests (test/properties/) found: each one a random
 * input that ended in a manifest, a TypeError or an error from inside cdk8s instead of the
 * construct's own message.
 */
import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, ActivityProbe, DistributedJax, DistributedPaddle, DistributedPyTorch, DistributedXGBoost, GangScheduler,
  MpiAllReduce, ParameterServerTF, Workspace, WorkspaceClaim, WorkspaceKind, WorkspaceKindProps,
} from '../../src';
import { REPORT, synthErrors } from '../harness';
import { INJECTED_ENV, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';
import { JUPYTERLAB_KIND as KIND } from '../harness/notebook-fixtures';

const IMAGE = 'registry.example.com/train:1.0';
const chart = () => new Chart(Testing.app(), 'test');

const synthError = synthErrors;

describe('gang scheduling is checked without a run policy', () => {
  // Found by the XGBoost and JAX property tests: minAvailable was checked only inside the run-policy
  // check, which returned early when no runPolicy was given, so 0, -1 or 1.5 reached the manifest.
  test.each([0, -1, 1.5])('minAvailable %p', n => {
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, gangScheduling: { scheduler: GangScheduler.VOLCANO, minAvailable: n } }))
      .toThrow(`test/job: gangScheduling.minAvailable is ${n}; ${WHOLE_NUMBER_1_OR_MORE}`);
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, gangScheduling: { scheduler: GangScheduler.VOLCANO, minAvailable: n } }))
      .toThrow(`test/job: gangScheduling.minAvailable is ${n}; ${WHOLE_NUMBER_1_OR_MORE}`);
  });
});

describe('durations that are not whole seconds', () => {
  // Found by every training-job property test: a Duration such as Duration.millis(1500) ended in
  // cdk8s's "'1500 millis' cannot be converted into a whole number of seconds", thrown from inside
  // cdk8s (activeDeadline at construction, ttlAfterFinished and scheduleTimeout only at synth).
  test('runPolicy.activeDeadline', () => {
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, runPolicy: { activeDeadline: Duration.millis(1500) } }))
      .toThrow('test/job: runPolicy.activeDeadline is "1.5s"; expected a whole number of seconds, which the manifest counts in');
  });
  test('runPolicy.ttlAfterFinished', () => {
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, runPolicy: { ttlAfterFinished: Duration.millis(12) } }))
      .toThrow('test/job: runPolicy.ttlAfterFinished is "0.012s"; expected a whole number of seconds, which the manifest counts in');
  });
  test('gangScheduling.scheduleTimeout', () => {
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, gangScheduling: { scheduler: GangScheduler.VOLCANO, scheduleTimeout: Duration.millis(90_500) } }))
      .toThrow('test/job: gangScheduling.scheduleTimeout is "90.5s"; expected a whole number of seconds, which the manifest counts in');
  });
  test('whole seconds, however given, still pass', () => {
    const c = chart();
    new DistributedJax(c, 'job', { image: IMAGE, runPolicy: { activeDeadline: Duration.millis(2000), ttlAfterFinished: Duration.minutes(1) } });
    expect(Testing.synth(c)[0].spec.runPolicy).toEqual({ activeDeadlineSeconds: 2, ttlSecondsAfterFinished: 60 });
  });
});

describe('CPU amounts and sizes the manifest cannot hold', () => {
  // Found by every training-job property test: a negative, NaN or infinite CPU reached the manifest
  // (cpu: "-1", which the API server rejects), and a size that is not whole mebibytes ended in
  // cdk8s's "'3025 kibibytes' cannot be converted into a whole number of mebibytes", thrown from
  // inside cdk8s-plus (sharedMemory) or at synth (memory, ephemeralStorage).
  test.each([
    [kplus.Cpu.units(-1), '"-1"'], [kplus.Cpu.millis(-500), '"-500m"'], [kplus.Cpu.units(Number.NaN), '"NaN"'], [kplus.Cpu.units(Number.POSITIVE_INFINITY), '"Infinity"'],
  ])('resources.cpu %#', (cpu, shown) => {
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, resources: { cpu } }))
      .toThrow(`test/job: resources.cpu is ${shown}; expected a finite amount of CPU, 0 or more`);
  });
  test('memory, ephemeral storage and shared memory in whole mebibytes', () => {
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, resources: { memory: Size.kibibytes(3025) } }))
      .toThrow('test/job: resources.memory is "3025Ki"; expected a whole number of mebibytes, as the manifest writes sizes in Mi or Gi');
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, worker: { resources: { ephemeralStorage: Size.kibibytes(1536) } } }))
      .toThrow('test/job/Worker: resources.ephemeralStorage (worker.resources.ephemeralStorage) is "1536Ki"; expected a whole number of mebibytes, as the manifest writes sizes in Mi or Gi');
    expect(() => new ParameterServerTF(chart(), 'job', { image: IMAGE, sharedMemory: Size.kibibytes(100) }))
      .toThrow('test/job: sharedMemory is "100Ki"; expected a whole number of mebibytes, as the manifest writes sizes in Mi or Gi');
  });
  test('CPU 0, millicores and whole-mebibyte sizes from any unit still pass', () => {
    const c = chart();
    new DistributedJax(c, 'job', { image: IMAGE, resources: { cpu: kplus.Cpu.millis(250), memory: Size.kibibytes(2048), ephemeralStorage: Size.gibibytes(1.5) }, sharedMemory: Size.kibibytes(65536) });
    const pod = Testing.synth(c)[0].spec.jaxReplicaSpecs.Worker.template.spec;
    expect(pod.containers[0].resources.limits).toEqual({ 'cpu': '250m', 'memory': '2Mi', 'ephemeral-storage': '1536Mi' });
    expect(pod.volumes).toEqual([{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } }]);
  });
});

describe('two containers of a pod with one name', () => {
  // Found by every training-job property test: a sidecar or init container named like another
  // container of the pod (or like the main container) reached the manifest, which the API server
  // rejects ("Duplicate value").
  test('a sidecar named like the main container', () => {
    expect(synthError(c => new DistributedJax(c, 'job', { image: IMAGE }).worker.addContainer({ name: 'jax', image: 'busybox:1.36' })))
      .toBe(`${REPORT}  [test/job] spec.jaxReplicaSpecs.Worker.template.spec.containers[jax].name is "jax"; expected a name no other container or init container of the pod has`);
  });
  test('an init container named like a sidecar', () => {
    expect(synthError(c => {
      const job = new DistributedXGBoost(c, 'job', { image: IMAGE, workers: 0 });
      job.master.addContainer({ name: 'helper', image: 'busybox:1.36' });
      job.master.addInitContainer({ name: 'helper', image: 'busybox:1.36' });
    })).toBe(`${REPORT}  [test/job] spec.xgbReplicaSpecs.Master.template.spec.containers[helper].name is "helper"; expected a name no other container or init container of the pod has`);
  });
  test('distinct names pass', () => {
    expect(synthError(c => {
      const job = new DistributedJax(c, 'job', { image: IMAGE });
      job.worker.addContainer({ name: 'helper', image: 'busybox:1.36' });
      job.worker.addInitContainer({ name: 'prepare', image: 'busybox:1.36' });
    })).toBeUndefined();
  });
});

describe('job-wide resources that every role replaces', () => {
  // Found by every training-job property test: a wrong job-wide accelerator, CPU or size was checked
  // only by the replica groups that use it, so when every role had resources of its own (or an MPI
  // job had no workers, since the launcher does not take the job's resources) it vanished without a
  // word and the manifest was written. They are now checked once, by the job, before any role.
  test('an accelerator no group uses', () => {
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, resources: { accelerator: Accelerator.nvidia(0) }, worker: { resources: {} } }))
      .toThrow(new Error('test/job: resources.accelerator is "nvidia.com/gpu x 0"; expected a whole number of devices greater than 0 (got 0)'));
    expect(() => new MpiAllReduce(chart(), 'job', { image: IMAGE, workers: 0, resources: { accelerator: Accelerator.custom('gpu', 1) }, launcherCommand: ['mpirun', 'hostname'] }))
      .toThrow(new Error('test/job: resources.accelerator is "gpu x 1"; expected a qualified extended resource name such as "vendor.com/device" (got "gpu")'));
  });
  test('CPU and sizes no group uses', () => {
    expect(() => new DistributedXGBoost(chart(), 'job', {
      image: IMAGE,
      workers: 0,
      resources: { cpu: kplus.Cpu.units(-2) },
      sharedMemory: Size.kibibytes(10),
      master: { resources: {}, sharedMemory: Size.gibibytes(1) },
    })).toThrow(new Error('test/job: resources.cpu is "-2"; expected a finite amount of CPU, 0 or more'));
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, workers: 0, sharedMemory: Size.kibibytes(10), master: { sharedMemory: Size.gibibytes(1) } }))
      .toThrow(new Error('test/job: sharedMemory is "10Ki"; expected a whole number of mebibytes, as the manifest writes sizes in Mi or Gi'));
  });
});

describe('PYTHONUNBUFFERED, which the operator sets in every container', () => {
  // Found by the XGBoost, Paddle and JAX property tests, whose injected-variable lists follow the
  // upstream controllers: the PyTorch, XGBoost, Paddle and JAX controllers append PYTHONUNBUFFERED
  // to every container (KUBEFLOW-FACTS.md lists it for PyTorch), so a user value is silently
  // replaced; the constructs let it through.
  const message = (at: string) => `${REPORT}  [test/job] spec.${at}.env[PYTHONUNBUFFERED] (env) is {"name":"PYTHONUNBUFFERED","value":"1"}; ${INJECTED_ENV}`;
  const env = { PYTHONUNBUFFERED: kplus.EnvValue.fromValue('1') };
  test.each([
    ['PyTorch', (c: Chart) => new DistributedPyTorch(c, 'job', { image: IMAGE, workers: 0, env }), 'pytorchReplicaSpecs.Master.template.spec.containers[pytorch]'],
    ['XGBoost', (c: Chart) => new DistributedXGBoost(c, 'job', { image: IMAGE, workers: 0, env }), 'xgbReplicaSpecs.Master.template.spec.containers[xgboost]'],
    ['Paddle', (c: Chart) => new DistributedPaddle(c, 'job', { image: IMAGE, env }), 'paddleReplicaSpecs.Worker.template.spec.containers[paddle]'],
    ['JAX', (c: Chart) => new DistributedJax(c, 'job', { image: IMAGE, env }), 'jaxReplicaSpecs.Worker.template.spec.containers[jax]'],
  ])('%s', (_kind, build, at) => {
    expect(synthError(build)).toBe(message(at));
  });
  test('TF and MPI controllers do not set it, so it stays allowed there', () => {
    expect(synthError(c => new ParameterServerTF(c, 'job', { image: IMAGE, env }))).toBeUndefined();
    expect(synthError(c => new MpiAllReduce(c, 'job', { image: IMAGE, env, launcherCommand: ['mpirun', 'hostname'] }))).toBeUndefined();
  });
});

describe('GPU variables on an MPI launcher without GPUs', () => {
  // Found by the MPI property test: the operator appends NVIDIA_VISIBLE_DEVICES="" (and, upstream,
  // NVIDIA_DRIVER_CAPABILITIES="") to the launcher's container when it has no GPU limit
  // (KUBEFLOW-FACTS.md), so a user value there is lost; the construct let it through.
  const value = kplus.EnvValue.fromValue('all');
  test.each(['NVIDIA_VISIBLE_DEVICES', 'NVIDIA_DRIVER_CAPABILITIES'])('%s on the launcher, given for the launcher or for the whole job', name => {
    // The message names the prop that set the variable: the launcher's own env, or the job's.
    const message = (prop: string) => `${REPORT}  [test/job] spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].env[${name}] (${prop}) is {"name":"${name}","value":"all"}; expected a variable the operator does not set itself; it sets this one to "" in a launcher without GPUs, so a user value would be lost`;
    expect(synthError(c => new MpiAllReduce(c, 'job', { image: IMAGE, launcherCommand: ['mpirun', 'hostname'], launcher: { env: { [name]: value } } }))).toBe(message('launcher.env'));
    expect(synthError(c => new MpiAllReduce(c, 'job', { image: IMAGE, launcherCommand: ['mpirun', 'hostname'], env: { [name]: value } }))).toBe(message('env'));
  });
  test('a launcher with GPUs, and the workers, may set them', () => {
    expect(synthError(c => new MpiAllReduce(c, 'job', {
      image: IMAGE,
      launcherCommand: ['mpirun', 'hostname'],
      launcher: { env: { NVIDIA_VISIBLE_DEVICES: value }, resources: { accelerator: Accelerator.nvidia(1) } },
      worker: { env: { NVIDIA_DRIVER_CAPABILITIES: value } },
    }))).toBeUndefined();
  });
});


describe('WorkspaceKind durations that are not whole seconds', () => {
  // Found by the WorkspaceKind property test: ActivityProbe's factories and addActivityRule called
  // cdk8s's toSeconds, which throws "'1500 millis' cannot be converted into a whole number of
  // seconds" from inside cdk8s (for a probe, before any construct exists to name).
  const kind = (props: Partial<WorkspaceKindProps>) => () => new WorkspaceKind(chart(), 'kind', { ...KIND, ...props });
  const whole = 'expected a whole number of seconds, which the manifest counts in';
  test('the probe interval, minimum interval and script timeout', () => {
    expect(kind({ activityProbe: ActivityProbe.jupyter('jupyterlab', { interval: Duration.millis(90_500) }) }))
      .toThrow(`test/kind: activityProbe.interval is "90.5s"; ${whole}`);
    expect(kind({ activityProbe: ActivityProbe.jupyter('jupyterlab', { minInterval: Duration.millis(1500) }) }))
      .toThrow(`test/kind: activityProbe.minInterval is "1.5s"; ${whole}`);
    expect(kind({ activityProbe: ActivityProbe.script('#!/bin/sh\ntrue', { timeout: Duration.millis(2500) }) }))
      .toThrow(`test/kind: activityProbe.timeout is "2.5s"; ${whole}`);
  });
  test('an activity rule\'s inactiveFor and minRunning', () => {
    expect(kind({ activityRules: [{ inactiveFor: Duration.millis(60_001), pauseWorkspace: false }] }))
      .toThrow(`test/kind: activityRules[0].inactiveFor is "60.001s"; ${whole}`);
    expect(kind({ activityRules: [{ inactiveFor: Duration.hours(1), minRunning: Duration.millis(100), pauseWorkspace: false }] }))
      .toThrow(`test/kind: activityRules[0].minRunning is "0.1s"; ${whole}`);
  });
});

describe('WorkspaceKind pod-config amounts and shared memory', () => {
  // Found by the WorkspaceKind property test: pod-config requests and limits went unchecked, so a
  // negative or NaN CPU reached the manifest and a size that is not whole mebibytes ended in cdk8s's
  // "'1500 kibibytes' cannot be converted into a whole number of mebibytes", thrown from inside
  // cdk8s (at addPodConfig when a limit was compared with its request, else at synth); a shared
  // memory size of a few KiB failed the same way inside cdk8s-plus.
  const withKind = (f: (k: WorkspaceKind) => void) => () => f(new WorkspaceKind(chart(), 'kind', KIND));
  const mebibytes = 'expected a whole number of mebibytes, as the manifest writes sizes in Mi or Gi';
  test('CPU', () => {
    expect(withKind(k => k.addPodConfig('odd', { requests: { cpu: kplus.Cpu.units(-1) } })))
      .toThrow('test/kind: podConfig[odd].requests.cpu is "-1"; expected a finite amount of CPU, 0 or more');
    expect(withKind(k => k.addPodConfig('odd', { limits: { cpu: kplus.Cpu.units(Number.NaN) } })))
      .toThrow('test/kind: podConfig[odd].limits.cpu is "NaN"; expected a finite amount of CPU, 0 or more');
  });
  test('sizes', () => {
    expect(withKind(k => k.addPodConfig('odd', { requests: { memory: Size.kibibytes(3000) }, limits: { memory: Size.kibibytes(5000) } })))
      .toThrow(`test/kind: podConfig[odd].requests.memory is "3000Ki"; ${mebibytes}`);
    expect(withKind(k => k.addPodConfig('odd', { limits: { ephemeralStorage: Size.kibibytes(100) } })))
      .toThrow(`test/kind: podConfig[odd].limits.ephemeralStorage is "100Ki"; ${mebibytes}`);
    expect(() => new WorkspaceKind(chart(), 'kind', { ...KIND, sharedMemory: Size.kibibytes(2348) }))
      .toThrow(`test/kind: sharedMemory is "2348Ki"; ${mebibytes}`);
  });
});

describe('a new workspace claim whose size cdk8s-plus cannot write', () => {
  // Found by the Workspace property test: cdk8s-plus writes a claim's storage in whole gibibytes,
  // so WorkspaceClaim.newClaim({ storage: Size.mebibytes(500) }) ended at synth in "'500 mebibytes'
  // cannot be converted into a whole number of gibibytes", from inside cdk8s-plus; and a claim of
  // 0 GiB, which the API server rejects, reached the manifest.
  const kind = WorkspaceKind.fromName('jupyterlab');
  const ws = (props: object) => () => new Workspace(chart(), 'ws', { metadata: { name: 'alice' }, kind, imageConfig: 'scipy', podConfig: 'small', ...props });
  const allowed = 'expected a whole number of gibibytes, 1 or more (the claim is written in Gi)';
  test('the home claim', () => {
    expect(ws({ home: WorkspaceClaim.newClaim({ storage: Size.mebibytes(500) }) })).toThrow(`test/ws: home.storage is "500Mi"; ${allowed}`);
    expect(ws({ home: WorkspaceClaim.newClaim({ storage: Size.gibibytes(0) }) })).toThrow(`test/ws: home.storage is "0Gi"; ${allowed}`);
  });
  test('a data claim', () => {
    expect(ws({ data: [{ mountPath: '/data', claim: WorkspaceClaim.newClaim({ storage: Size.kibibytes(100) }) }] })).toThrow(`test/ws: data[0].storage is "100Ki"; ${allowed}`);
  });
  test('whole gibibytes, however given, pass', () => {
    const c = chart();
    new Workspace(c, 'ws', { metadata: { name: 'alice' }, kind, imageConfig: 'scipy', podConfig: 'small', home: WorkspaceClaim.newClaim({ storage: Size.mebibytes(2048) }) });
    expect(Testing.synth(c).find(d => d.kind === 'PersistentVolumeClaim').spec.resources.requests.storage).toBe('2Gi');
  });
});

describe('an activity probe with a short interval and no minInterval', () => {
  test('takes the interval as its minimum instead of failing on the 5-minute default', () => {
    const probe = ActivityProbe.jupyter('jupyterlab', { interval: Duration.minutes(1) });
    expect(probe._toL1()).toEqual(expect.objectContaining({ minProbeIntervalSeconds: 60, probeIntervalSeconds: 60 }));
  });
});
