import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import reference from '../../examples/mpi-reference';
import { Accelerator, CleanPodPolicy, MpiAllReduce, MpiAllReduceProps, PodSecurity, RestartPolicy } from '../../src';
import { expectDeterministic, expectValidManifests, synthErrors, synthKind } from '../harness';
import { INJECTED_ENV, REPORT, WHOLE_NUMBER_0_OR_MORE, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';

const IMAGE = 'horovod/horovod:0.28.1';
const TRAIN = ['python', '/workspace/train.py'];
const FLAGS = [
  '--allow-run-as-root', '-bind-to', 'none', '-map-by', 'slot',
  '-x', 'NCCL_DEBUG=INFO', '-x', 'LD_LIBRARY_PATH', '-x', 'PATH',
  '-mca', 'pml', 'ob1', '-mca', 'btl', '^openib',
];

/** Synthesizes twice (asserting identical bytes), validates strictly, returns the MPIJob. */
function synthJob(props: Partial<MpiAllReduceProps> = {}, after?: (job: MpiAllReduce, chart: Chart) => void): any {
  return synthKind('MPIJob', chart => {
    const job = new MpiAllReduce(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
    after?.(job, chart);
  });
}


function bad(props: Partial<MpiAllReduceProps>): () => MpiAllReduce {
  return () => new MpiAllReduce(new Chart(Testing.app(), 'test'), 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
}

/** The only error of a job that otherwise synthesizes. */
function onlyError(props: Partial<MpiAllReduceProps>, after?: (job: MpiAllReduce) => void): string | undefined {
  return synthErrors(chart => {
    const job = new MpiAllReduce(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
    after?.(job);
  });
}

const launcherOf = (job: any) => job.spec.mpiReplicaSpecs.Launcher.template.spec;
const workerOf = (job: any) => job.spec.mpiReplicaSpecs.Worker.template.spec;
/** The launcher's container in the rendered job, where the document rules find what it runs. */
const LAUNCHER = 'spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi]';

describe('the reference example', () => {
  test('two workers with two GPUs each: two slots per worker, mpirun -np 4, a CPU-only launcher', () => {
    const docs = expectDeterministic(app => reference(app));
    expectValidManifests(docs);
    expect(docs).toHaveLength(1);
    const job = docs[0];
    expect(job.spec.slotsPerWorker).toBe(2);
    expect(launcherOf(job).containers[0].args.slice(0, 2)).toEqual(['-np', '4']);
  });
});

describe('replica types and defaults', () => {
  test('exactly one Launcher and the workers, with the container "mpi" named as spec.mainContainer, restarting Never', () => {
    const job = synthJob({ workers: 3, trainingCommand: TRAIN });
    const specs = job.spec.mpiReplicaSpecs;
    expect(Object.keys(specs)).toEqual(['Launcher', 'Worker']);
    expect(specs.Launcher.replicas).toBe(1);
    expect(specs.Worker.replicas).toBe(3);
    expect(job.spec.mainContainer).toBe('mpi');
    for (const role of ['Launcher', 'Worker']) {
      const pod = specs[role].template.spec;
      expect(specs[role].restartPolicy).toBe('Never');
      expect(pod.containers).toHaveLength(1);
      expect(pod.containers[0].name).toBe('mpi');
      expect(pod.containers[0].ports).toBeUndefined();
      expect(pod.restartPolicy).toBeUndefined();
    }
    // The deprecated top-level field is never written; the run policy carries the clean-up.
    expect(job.spec.cleanPodPolicy).toBeUndefined();
    expect(job.spec.runPolicy).toEqual({ cleanPodPolicy: 'Running' });
  });

  test('the launcher builds mpirun from the training command; the workers keep no command, so the operator idles them', () => {
    const job = synthJob({ workers: 2, trainingCommand: TRAIN, mpirunArgs: ['-x', 'NCCL_IB_DISABLE=1'] });
    const launcher = launcherOf(job).containers[0];
    expect(launcher.command).toEqual(['mpirun']);
    expect(launcher.args).toEqual(['-np', '2', ...FLAGS, '-x', 'NCCL_IB_DISABLE=1', ...TRAIN]);
    expect(workerOf(job).containers[0].command).toBeUndefined();
    expect(workerOf(job).containers[0].args).toBeUndefined();
    expect(job.spec.slotsPerWorker).toBe(1);
  });

  test('slotsPerWorker follows the accelerators per worker, and -np is workers x slots', () => {
    const job = synthJob({ workers: 3, resources: { accelerator: Accelerator.nvidia(4) }, trainingCommand: TRAIN });
    expect(job.spec.slotsPerWorker).toBe(4);
    expect(launcherOf(job).containers[0].args.slice(0, 2)).toEqual(['-np', '12']);
    const perRole = synthJob({ workers: 2, worker: { resources: { accelerator: Accelerator.amd(2) } }, trainingCommand: TRAIN });
    expect(perRole.spec.slotsPerWorker).toBe(2);
    expect(launcherOf(perRole).containers[0].args.slice(0, 2)).toEqual(['-np', '4']);
  });

  test('an explicit slotsPerWorker wins over the accelerators', () => {
    const job = synthJob({ workers: 2, resources: { accelerator: Accelerator.nvidia(2) }, slotsPerWorker: 4, trainingCommand: TRAIN });
    expect(job.spec.slotsPerWorker).toBe(4);
    expect(launcherOf(job).containers[0].args.slice(0, 2)).toEqual(['-np', '8']);
  });

  test('-np follows workers scaled after construction', () => {
    const job = synthJob({ workers: 2, resources: { accelerator: Accelerator.nvidia(2) }, trainingCommand: TRAIN }, mpi => mpi.worker!.scale(5));
    expect(job.spec.mpiReplicaSpecs.Worker.replicas).toBe(5);
    expect(launcherOf(job).containers[0].args.slice(0, 2)).toEqual(['-np', '10']);
  });

  test('the launcher takes no accelerator, GPU toleration or resources from the job, and keeps its service-account token', () => {
    const job = synthJob({
      workers: 2,
      resources: { accelerator: Accelerator.nvidia(2), cpu: kplus.Cpu.units(8), memory: Size.gibibytes(32) },
      trainingCommand: TRAIN,
    });
    const launcher = launcherOf(job);
    expect(launcher.containers[0].resources).toBeUndefined();
    expect(launcher.tolerations).toBeUndefined();
    // The operator runs the launcher as "<job>-launcher", which may exec into the workers; a pod
    // without the token could not.
    expect(launcher.serviceAccountName).toBe('train-launcher');
    expect(launcher.automountServiceAccountToken).toBeUndefined();
    const worker = workerOf(job);
    expect(worker.containers[0].resources.limits).toEqual({ 'cpu': '8', 'memory': '32Gi', 'nvidia.com/gpu': 2 });
    expect(worker.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(worker.automountServiceAccountToken).toBe(false);
  });

  test('a launcher given GPUs is in the hostfile too, so -np counts its slots', () => {
    const job = synthJob({
      workers: 2,
      resources: { accelerator: Accelerator.nvidia(2) },
      launcher: { resources: { accelerator: Accelerator.nvidia(2) } },
      trainingCommand: TRAIN,
    });
    expect(launcherOf(job).containers[0].resources.limits).toEqual({ 'nvidia.com/gpu': 2 });
    expect(launcherOf(job).containers[0].args.slice(0, 2)).toEqual(['-np', '6']);
  });

  test('the container names: mainContainer for both roles, launcher.containerName for the launcher alone', () => {
    const job = synthJob({ mainContainer: 'mpi-worker', launcher: { containerName: 'mpi-launcher' }, trainingCommand: TRAIN });
    expect(job.spec.mainContainer).toBe('mpi-worker');
    expect(workerOf(job).containers[0].name).toBe('mpi-worker');
    expect(launcherOf(job).containers[0].name).toBe('mpi-launcher');
    const same = synthJob({ mainContainer: 'horovod', trainingCommand: TRAIN });
    expect(launcherOf(same).containers[0].name).toBe('horovod');
  });

  test('a custom launcher command is written as given, from launcherCommand or from launcher.command and args', () => {
    const horovodrun = ['horovodrun', '-np', '2', '--min-np', '1', '--max-np', '3', '--host-discovery-script', '/etc/mpi/discover_hosts.sh', 'python', 'train.py'];
    const job = synthJob({ workers: 2, launcherCommand: horovodrun });
    expect(launcherOf(job).containers[0].command).toEqual(horovodrun);
    expect(launcherOf(job).containers[0].args).toBeUndefined();
    const split = synthJob({ workers: 2, launcher: { command: ['mpirun'], args: ['-np', '2', 'python', 'train.py'] } });
    expect(launcherOf(split).containers[0].command).toEqual(['mpirun']);
    expect(launcherOf(split).containers[0].args).toEqual(['-np', '2', 'python', 'train.py']);
  });

  test('restart policies, the clean-up policy and workers: 0', () => {
    const job = synthJob({
      workers: 0,
      launcher: { restartPolicy: RestartPolicy.ON_FAILURE },
      runPolicy: { cleanPodPolicy: CleanPodPolicy.ALL },
      launcherCommand: ['mpirun', 'hostname'],
    });
    expect(Object.keys(job.spec.mpiReplicaSpecs)).toEqual(['Launcher']);
    expect(job.spec.mpiReplicaSpecs.Launcher.restartPolicy).toBe('OnFailure');
    expect(job.spec.runPolicy).toEqual({ cleanPodPolicy: 'All' });
  });

  test('the restricted preset is refused: the operator\'s own launcher container cannot meet it', () => {
    expect(synthErrors(c => new MpiAllReduce(c, 'job', { metadata: { name: 'train' }, image: IMAGE, security: PodSecurity.RESTRICTED, trainingCommand: TRAIN })))
      .toMatch(/^Validation failed with the following errors:\n {2}\[test\/job\] security is "PodSecurity.RESTRICTED"; expected PodSecurity.DEFAULT: the training operator adds its kubectl-delivery init container/);
  });
});

describe('validation', () => {
  test('impossible values fail at once, naming the construct, the field, the value and what is allowed', () => {
    expect(bad({ workers: -1 })).toThrow(`test/job: workers is -1; ${WHOLE_NUMBER_0_OR_MORE}`);
    expect(bad({ slotsPerWorker: 0 })).toThrow(`test/job: slotsPerWorker is 0; ${WHOLE_NUMBER_1_OR_MORE}`);
    expect(bad({ slotsPerWorker: 1.5 })).toThrow(`test/job: slotsPerWorker is 1.5; ${WHOLE_NUMBER_1_OR_MORE}`);
    expect(bad({ trainingCommand: TRAIN, launcherCommand: ['mpirun'] }))
      .toThrow('test/job: launcherCommand is ["mpirun"]; expected either trainingCommand or launcherCommand, not both');
    expect(bad({ trainingCommand: [] })).toThrow('test/job: trainingCommand is []; expected the program and its arguments');
    expect(bad({ launcherCommand: [] })).toThrow('test/job: launcherCommand is []; expected the program and its arguments');
    expect(bad({ mpirunArgs: ['-x', 'A'] }))
      .toThrow('test/job: mpirunArgs is ["-x", "A"]; expected only together with trainingCommand; put the flags into launcherCommand instead');
    expect(bad({ trainingCommand: TRAIN, launcher: { args: ['-v'] } }))
      .toThrow('test/job: launcher.args is ["-v"]; expected none when trainingCommand gives the launcher\'s command');
    expect(bad({ launcherCommand: ['mpirun'], launcher: { command: ['sh'] } }))
      .toThrow('test/job: launcher.command is ["sh"]; expected none when launcherCommand gives the launcher\'s command');
    expect(bad({ command: TRAIN })).toThrow(
      'test/job: command is ["python", "/workspace/train.py"]; expected trainingCommand (the program mpirun starts on the workers) or launcherCommand; a job-wide command would also replace the idle process of the workers that the launcher execs into');
    expect(bad({ args: ['--epochs=1'] })).toThrow('test/job: args is ["--epochs=1"]; expected trainingCommand or launcherCommand; job-wide arguments would reach the workers too');
    expect(bad({ mainContainer: 'MPI_Main' })).toThrow(
      'test/job: mainContainer is "MPI_Main"; expected a container name: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit');
    expect(bad({ launcher: { containerName: '-x' } })).toThrow(
      'test/job: launcher.containerName is "-x"; expected a container name: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit');
    expect(bad({ workers: 0, worker: { image: 'x' } })).toThrow('test/job: worker is "set"; expected no worker options when workers is 0');
    expect(bad({ launcher: { serviceAccount: kplus.ServiceAccount.fromServiceAccountName(new Chart(Testing.app(), 'other'), 'sa', 'runner') } }))
      .toThrow('test/job: launcher.serviceAccount is "runner"; expected none: the operator runs the launcher as its own account "train-launcher", which may exec into the workers');
  });

  test('a launcher command whose -np exceeds the slots fails at synth time, in every spelling', () => {
    const gpus = { workers: 2, resources: { accelerator: Accelerator.nvidia(2) } };
    // The document rule training-operator/mpi-np, at the launcher's container, naming the prop that set it.
    const COMMAND = `${LAUNCHER}.command (launcherCommand)`;
    const tooMany = (field: string, value: string, max = 4, hosts = '2 workers', slots = 2) => REPORT +
      `  [test/job] ${field} is "${value}"; expected at most ${max} processes (${hosts} x ${slots} slotsPerWorker); mpirun cannot start more processes than the hostfile has slots (add --oversubscribe if that is meant)`;
    expect(onlyError({ ...gpus, launcherCommand: ['mpirun', '-np', '8', 'python', 'train.py'] })).toBe(tooMany(COMMAND, '-np 8'));
    expect(onlyError({ ...gpus, launcherCommand: ['/usr/local/bin/mpirun', '--np=5', 'python', 'train.py'] })).toBe(tooMany(COMMAND, '--np 5'));
    expect(onlyError({ ...gpus, launcherCommand: ['mpiexec', '-n', '6', './a.out'] })).toBe(tooMany(COMMAND, '-n 6'));
    expect(onlyError({ ...gpus, launcherCommand: ['sh', '-c', 'mpirun -np 16 --allow-run-as-root python train.py'] })).toBe(tooMany(COMMAND, '-np 16'));
    expect(onlyError({ ...gpus, launcher: { command: ['mpirun'], args: ['-np', '5', 'python', 'train.py'] } })).toBe(tooMany(`${LAUNCHER}.args (launcher.args)`, '-np 5'));
    expect(onlyError({ workers: 2, launcherCommand: ['horovodrun', '-np', '3', 'python', 'train.py'] })).toBe(tooMany(COMMAND, '-np 3', 2, '2 workers', 1));
    expect(onlyError({ ...gpus, slotsPerWorker: 1, launcherCommand: ['mpirun', '-np', '4', 'python', 'train.py'] })).toBe(tooMany(COMMAND, '-np 4', 2, '2 workers', 1));
    expect(onlyError({ ...gpus, launcher: { resources: { accelerator: Accelerator.nvidia(2) } }, launcherCommand: ['mpirun', '-np', '8', 'python', 'train.py'] }))
      .toBe(tooMany(COMMAND, '-np 8', 6, '2 workers + the launcher with GPUs'));
    // Scaling the workers down after construction is caught too.
    expect(onlyError({ ...gpus, launcherCommand: ['mpirun', '-np', '4', 'python', 'train.py'] }, job => job.worker!.scale(1))).toBe(tooMany(COMMAND, '-np 4', 2, '1 worker'));
  });

  test('commands that are within the slots, not checkable or deliberately oversubscribed pass', () => {
    const gpus = { workers: 2, resources: { accelerator: Accelerator.nvidia(2) } };
    expect(onlyError({ ...gpus, launcherCommand: ['mpirun', '-np', '4', 'python', 'train.py'] })).toBeUndefined();
    expect(onlyError({ ...gpus, launcherCommand: ['mpirun', '-np', '2', 'python', 'train.py', '-n', '100'] })).toBeUndefined();
    expect(onlyError({ ...gpus, launcherCommand: ['mpirun', 'python', 'train.py', '-n', '100'] })).toBeUndefined();
    expect(onlyError({ ...gpus, launcherCommand: ['sh', '-c', 'mpirun -np $NP python train.py'] })).toBeUndefined();
    expect(onlyError({ ...gpus, launcherCommand: ['mpirun', '--oversubscribe', '-np', '16', 'python', 'train.py'] })).toBeUndefined();
    expect(onlyError({ ...gpus, launcherCommand: ['python', 'launch.py', '-np', '16'] })).toBeUndefined();
  });

  test('a generated command needs at least one process, and the launcher stays single', () => {
    expect(onlyError({ workers: 0, trainingCommand: TRAIN })).toBe(REPORT +
      '  [test/job] workers is 0; expected at least 1 with trainingCommand: mpirun -np would be 0');
    expect(() => onlyError({ trainingCommand: TRAIN }, job => job.launcher.scale(2))).toThrow(
      'test/job/Launcher: replicas is 2; expected 1: an MPIJob has exactly one launcher');
  });

  test('the workers may set them: the operator writes them into the launcher only (newLauncher)', () => {
    expect(onlyError({ trainingCommand: TRAIN, worker: { env: { OMPI_MCA_orte_default_hostfile: kplus.EnvValue.fromValue('/tmp/hosts') } } })).toBeUndefined();
  });

  test('the names and paths the operator adds to its pods are refused at synth: the pods would be invalid', () => {
    expect(onlyError({ trainingCommand: TRAIN }, job => {
      job.launcher.mount('/etc/mpi', kplus.Volume.fromEmptyDir(job, 'hostfile', 'hostfile'));
      job.worker!.addVolume(kplus.Volume.fromEmptyDir(job, 'config', 'mpi-job-config'));
    })).toBe(REPORT
      + `  [test/job] ${LAUNCHER}.volumeMounts[0].mountPath is "/etc/mpi"; expected a mount path the operator does not use in the first container: it mounts its own volume at "/etc/mpi" there in every launcher pod, and the API server refuses a pod with two mounts at one path\n`
      + '  [test/job] spec.mpiReplicaSpecs.Worker.template.spec.volumes[mpi-job-config].name is "mpi-job-config"; expected a volume name the operator does not use: it adds its own "mpi-job-config" volume to every worker pod, and the API server refuses a pod with two volumes of one name');
  });

  test('the variables the operator sets on the launcher belong to it', () => {
    expect(onlyError({ trainingCommand: TRAIN, launcher: { env: { OMPI_MCA_orte_default_hostfile: kplus.EnvValue.fromValue('/tmp/hosts') } } }))
      .toBe(REPORT +
        `  [test/job] ${LAUNCHER}.env[OMPI_MCA_orte_default_hostfile] (launcher.env) is {"name":"OMPI_MCA_orte_default_hostfile","value":"/tmp/hosts"}; ${INJECTED_ENV}`);
  });
});

test('an MPI job has no framework port to move', () => {
  expect(() => new MpiAllReduce(new Chart(Testing.app(), 'test'), 'job', { metadata: { name: 'train' }, image: IMAGE, port: 2222 }))
    .toThrow('test/job: port is 2222; expected none: the MPIJob containers have no port the operator wires up');
});
