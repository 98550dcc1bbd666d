/**
 * The logic gaps found by trying the constructs as a new user would (issue "Robust at the
 * boundary"), and the presets that must not contradict what a user asked for (issue
 * "Kubernetes-valid output"). Each test asserts the exact message or the manifest field.
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, DistributedPyTorch, MpiAllReduce, NprocPerNode, PlatformDefaults, PodSecurity } from '../../src';
import { REPORT, synthErrors, synthKind } from '../harness';

const IMAGE = 'registry.example.com/train:1.0';
const chart = () => new Chart(Testing.app(), 'test');

describe('DistributedPyTorch', () => {
  test('the Master of a static job stays one pod: scale() refuses any other count', () => {
    const job = new DistributedPyTorch(chart(), 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0 });
    const message = (n: number) => `test/job/Master: replicas is ${n}; expected 1: a static PyTorchJob has exactly one Master, which the operator makes rank 0 and the rendezvous address`;
    expect(() => job.master!.scale(2)).toThrow(new Error(message(2)));
    expect(() => job.master!.scale(0)).toThrow(new Error(message(0)));
    job.master!.scale(1);
    expect(job.master!.replicas).toBe(1);
  });

  test('elastic workers stay within their bounds when scaled', () => {
    const job = new DistributedPyTorch(chart(), 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 2, elastic: { minWorkers: 2, maxWorkers: 4 } });
    expect(() => job.worker!.scale(1)).toThrow(new Error('test/job/Worker: replicas is 1; expected a count between elastic.minWorkers (2) and elastic.maxWorkers (4)'));
    job.worker!.scale(4);
  });

  test('nprocPerNode derived from the workers\' GPUs is checked against a Master with fewer', () => {
    expect(synthErrors(c => new DistributedPyTorch(c, 'job', {
      metadata: { name: 'train' },
      image: IMAGE,
      workers: 2,
      resources: { accelerator: Accelerator.nvidia(4) },
      master: { resources: { accelerator: Accelerator.nvidia(2) } },
    }))).toBe(`${REPORT}  [test/job] nprocPerNode is "4 (one per accelerator of a Worker pod)"; expected at most the 2 accelerators per Master pod: `
      + 'the operator starts nprocPerNode processes in every pod; give the Master as many accelerators or set nprocPerNode');
    // Said explicitly, nprocPerNode is the user's choice for the pods that have accelerators.
    expect(synthKind('PyTorchJob', c => new DistributedPyTorch(c, 'job', {
      metadata: { name: 'train' },
      image: IMAGE,
      workers: 2,
      nprocPerNode: NprocPerNode.of(2),
      resources: { accelerator: Accelerator.nvidia(4) },
      master: { resources: { accelerator: Accelerator.nvidia(2) } },
    })).spec.nprocPerNode).toBe('2');
  });
});

describe('MpiAllReduce', () => {
  const train = ['python', '/workspace/train.py'];

  test('a -np in mpirunArgs is refused: the generated command sets it from the slots', () => {
    expect(() => new MpiAllReduce(chart(), 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 2, trainingCommand: train, mpirunArgs: ['-np', '16'] }))
      .toThrow(new Error('test/job: mpirunArgs is ["-np", "16"]; expected no -np: with trainingCommand the launcher runs mpirun -np <workers x slotsPerWorker>, which follows scale(); a second -np would contradict it'));
    expect(() => new MpiAllReduce(chart(), 'job', { metadata: { name: 'train' }, image: IMAGE, trainingCommand: train, mpirunArgs: ['--np=4'] }))
      .toThrow(/mpirunArgs is \["--np=4"\]; expected no --np:/);
  });

  test('the launcher does not take the job-wide shared memory, which describes a worker', () => {
    const job = synthKind('MPIJob', c => new MpiAllReduce(c, 'job', {
      metadata: { name: 'train' },
      image: IMAGE,
      workers: 2,
      trainingCommand: train,
      sharedMemory: Size.gibibytes(8),
      resources: { accelerator: Accelerator.nvidia(1) },
    }));
    expect(job.spec.mpiReplicaSpecs.Launcher.template.spec.volumes).toBeUndefined();
    expect(job.spec.mpiReplicaSpecs.Worker.template.spec.volumes).toEqual([{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '8192Mi' } }]);
    const own = synthKind('MPIJob', c => new MpiAllReduce(c, 'job', {
      metadata: { name: 'train' }, image: IMAGE, trainingCommand: train, launcher: { sharedMemory: Size.gibibytes(1) },
    }));
    expect(own.spec.mpiReplicaSpecs.Launcher.template.spec.volumes).toEqual([{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '1024Mi' } }]);
  });

  test('the launcher pod is <name>-launcher, so names up to 54 characters fit with fewer than 10 workers', () => {
    const name = 'a'.repeat(54);
    expect(synthKind('MPIJob', c => new MpiAllReduce(c, 'job', { metadata: { name }, image: IMAGE, workers: 9, trainingCommand: train })).metadata.name).toBe(name);
    expect(synthErrors(c => new MpiAllReduce(c, 'job', { metadata: { name: `${name}a` }, image: IMAGE, workers: 9, trainingCommand: train }))).toBe(
      `${REPORT}  [test/job] metadata.name is "${name}a"; expected a name of at most 54 characters, so that the pod and service name "${name}a-launcher" fits in 63`);
  });

  test('a Kueue queue is refused: Kueue does not serve the v1 MPIJob', () => {
    const why = 'expected no Kueue queue: Kueue\'s kubeflow.org/mpijob integration serves the MPI Operator\'s v2beta1 MPIJob, not the Training Operator\'s v1 MPIJob, '
      + 'so this job would run unqueued; for a queued MPI job use Trainer v2\'s MPI runtime (a TrainJob) or the MPI Operator';
    expect(() => new MpiAllReduce(chart(), 'job', { metadata: { name: 'train' }, image: IMAGE, trainingCommand: train, queue: 'research' }))
      .toThrow(new Error(`test/job: queue is "research"; ${why}`));
    expect(synthErrors(c => {
      PlatformDefaults.set(c, { queue: 'research' });
      new MpiAllReduce(c, 'job', { metadata: { name: 'train' }, image: IMAGE, trainingCommand: train });
    })).toBe(`${REPORT}  [test/job] queue (platform default) is "research"; ${why}`);
  });
});

describe('presets never contradict the user', () => {
  const restricted = (props: object, after?: (job: DistributedPyTorch, c: Chart) => void) => synthErrors(c => {
    const job = new DistributedPyTorch(c, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0, security: PodSecurity.RESTRICTED, ...props });
    after?.(job, c);
  });
  const STANDARD = 'under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)';

  test('RESTRICTED with host namespaces or a hostPath volume is an error, not a pod the namespace refuses', () => {
    expect(restricted({ hostNetwork: true, hostIpc: true })).toBe(REPORT
      + `  [test/job] Master.hostNetwork is true; expected false or not set ${STANDARD}\n`
      + `  [test/job] Master.hostIpc is true; expected false or not set ${STANDARD}`);
    expect(restricted({}, (job, c) => job.mount('/host', kplus.Volume.fromHostPath(c, 'Host', 'host', { path: '/var/data' })))).toBe(REPORT
      + `  [test/job] Master.volumes[host] is "hostPath"; expected one of the volume types configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret ${STANDARD}`);
  });

  test('RESTRICTED with an explicit security context that breaks the standard is an error', () => {
    expect(restricted({ securityContext: { privileged: true, allowPrivilegeEscalation: true, ensureNonRoot: false } })).toBe(REPORT
      + `  [test/job] Master.containers[pytorch].securityContext.privileged is true; expected false or not set ${STANDARD}\n`
      + `  [test/job] Master.containers[pytorch].securityContext.allowPrivilegeEscalation is true; expected false ${STANDARD}\n`
      + `  [test/job] Master.containers[pytorch].securityContext.ensureNonRoot is false; expected true ${STANDARD}`);
    // User 0 under the preset's runAsNonRoot: the kubelet's refusal, found on the rendered document.
    expect(restricted({ securityContext: { user: 0 } })).toBe(REPORT
      + '  [test/job] spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].securityContext.runAsUser (securityContext) is 0; expected a non-zero uid when runAsNonRoot is true (the kubelet refuses to start the container)');
    expect(restricted({ securityContext: { user: 1000, group: 1000 } })).toBeUndefined();
  });

  test('DEFAULT never writes privileged next to allowPrivilegeEscalation: false, which the API server refuses', () => {
    const job = synthKind('PyTorchJob', c => new DistributedPyTorch(c, 'job', {
      metadata: { name: 'train' }, image: IMAGE, workers: 0, securityContext: { privileged: true, ensureNonRoot: false, readOnlyRootFilesystem: false },
    }));
    const context = job.spec.pytorchReplicaSpecs.Master.template.spec.containers[0].securityContext;
    expect(context.privileged).toBe(true);
    expect(context).not.toHaveProperty('allowPrivilegeEscalation');
  });
});

describe('add* sets a key once', () => {
  test('a second value for a key is reported at synth, naming both, every such mistake in one report; the same value again is accepted', () => {
    expect(synthErrors(c => {
      const j = new DistributedPyTorch(c, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 1 });
      j.worker!.addNodeSelector('pool', 'a100');
      j.worker!.addNodeSelector('pool', 'a100');
      j.worker!.addNodeSelector('pool', 'h100');
      j.worker!.addPodLabel('team', 'vision');
      j.worker!.addPodLabel('team', 'nlp');
      j.worker!.addPodAnnotation('note', 'x');
      j.worker!.addPodAnnotation('note', 'y');
      j.addEnv('DATA', kplus.EnvValue.fromValue('/data'));
      j.addEnv('DATA', kplus.EnvValue.fromValue('/data'));
      // Job-wide: reported once, for the job, not once per replica type.
      j.addEnv('DATA', kplus.EnvValue.fromValue('/other'));
      j.addPodLabel('team', 'speech');
    })).toBe(`${REPORT}`
      + '  [test/job] env[DATA] is "/other"; expected one value per variable; it is already "/data"\n'
      + '  [test/job] podLabels["team"] is "speech"; expected one value per key; it is already "vision"\n'
      + '  [test/job/Worker] nodeSelector["pool"] is "h100"; expected one value per key; it is already "a100"\n'
      + '  [test/job/Worker] podLabels["team"] is "nlp"; expected one value per key; it is already "vision"\n'
      + '  [test/job/Worker] podAnnotations["note"] is "y"; expected one value per key; it is already "x"');
  });

  test('identical tolerations and pull secrets are added once, whatever order their fields are in', () => {
    const pod = synthKind('PyTorchJob', c => {
      const j = new DistributedPyTorch(c, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0 });
      j.addToleration({ key: 'spot', operator: 'Exists', effect: 'NoSchedule' });
      j.addToleration({ effect: 'NoSchedule', operator: 'Exists', key: 'spot' });
      j.master!.addImagePullSecret('registry');
      j.master!.addImagePullSecret('registry');
    }).spec.pytorchReplicaSpecs.Master.template.spec;
    expect(pod.tolerations).toEqual([{ key: 'spot', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(pod.imagePullSecrets).toEqual([{ name: 'registry' }]);
  });
});
