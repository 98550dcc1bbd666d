import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, MpiAllReduce } from '../src';

/**
 * The reference MPIJob: two workers with two NVIDIA GPUs each, so two slots per worker and
 * `mpirun -np 4`, started from a CPU-only launcher.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'mpi-reference', { namespace: 'training' });
  new MpiAllReduce(chart, 'horovod', {
    metadata: { name: 'horovod-benchmark' },
    image: 'horovod/horovod:0.28.1',
    workers: 2,
    resources: { accelerator: Accelerator.nvidia(2), cpu: kplus.Cpu.units(8), memory: Size.gibibytes(32) },
    worker: { sharedMemory: Size.gibibytes(4) },
    launcher: { resources: { cpu: kplus.Cpu.units(1), memory: Size.gibibytes(2) } },
    trainingCommand: ['python', '/horovod/examples/tensorflow2/tensorflow2_synthetic_benchmark.py'],
  });
}
