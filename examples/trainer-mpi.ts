import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, MlPolicy, TrainingRuntime, TrainJob } from '../src';

/**
 * An MPI (DeepSpeed) runtime in a team's namespace and a job on it: the nodes run sshd, the
 * launcher runs the job's `mpirun` command and is a node itself; the controller generates the
 * SSH keys and the hostfile with two slots per node, one per GPU.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'trainer-mpi', { namespace: 'team-hpc' });
  const runtime = new TrainingRuntime(chart, 'deepspeed', {
    metadata: { name: 'deepspeed' },
    frameworkLabel: 'deepspeed',
    mlPolicy: MlPolicy.mpi({ slotsPerWorker: 2, sshAuthMountPath: '/home/mpiuser/.ssh', runLauncherAsNode: true }),
    image: 'ghcr.io/kubeflow/trainer/deepspeed-runtime',
    command: ['/usr/sbin/sshd'],
    args: ['-De', '-f', '/home/mpiuser/.sshd_config'],
    securityContext: { user: 1000, group: 1000 },
    resources: { accelerator: Accelerator.nvidia(2), cpu: kplus.Cpu.units(16), memory: Size.gibibytes(64) },
    sharedMemory: Size.gibibytes(8),
  });
  new TrainJob(chart, 'bert', {
    metadata: { name: 'bert-deepspeed' },
    runtime: runtime.ref,
    command: ['mpirun', '--hostfile', '/etc/mpi/hostfile', 'python3', '/home/mpiuser/train_bert_ds.py'],
    numNodes: 2,
  });
}
