import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, CleanPodPolicy, DistributedPyTorch, RendezvousBackend } from '../src';

/** An elastic job: workers only, scaling between 2 and 8 as nodes come and go. */
export default function (app: App): void {
  const chart = new Chart(app, 'pytorch-elastic', { namespace: 'training' });
  new DistributedPyTorch(chart, 'llm-finetune', {
    metadata: { name: 'llm-finetune' },
    image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
    command: ['torchrun', '/workspace/finetune.py'],
    workers: 4,
    elastic: {
      minWorkers: 2,
      maxWorkers: 8,
      rendezvousBackend: RendezvousBackend.C10D,
      maxRestarts: 20,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    },
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(32), memory: Size.gibibytes(256) },
    sharedMemory: Size.gibibytes(64),
    runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING },
  });
}
