import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, DistributedPyTorch } from '../src';

/** The reference job: one Master and three workers, one NVIDIA GPU each. */
export default function (app: App): void {
  const chart = new Chart(app, 'pytorch-reference', { namespace: 'training' });
  new DistributedPyTorch(chart, 'resnet', {
    metadata: { name: 'resnet' },
    image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
    command: ['python', '/workspace/train.py'],
    workers: 3,
    resources: { accelerator: Accelerator.nvidia(1), cpu: kplus.Cpu.units(4), memory: Size.gibibytes(16) },
    sharedMemory: Size.gibibytes(2),
  });
}
