import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, DistributedPaddle } from '../src';

/** A collective PaddleJob: two GPU workers that all-reduce; worker 0 is the rendezvous endpoint. */
export default function (app: App): void {
  const chart = new Chart(app, 'paddle-collective', { namespace: 'training' });
  new DistributedPaddle(chart, 'resnet', {
    metadata: { name: 'paddle-resnet' },
    image: 'registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-gpu-cuda11.2-cudnn8.1-trt8.0',
    command: ['python', '-m', 'paddle.distributed.launch', '/workspace/train.py'],
    workers: 2,
    resources: { accelerator: Accelerator.nvidia(2), cpu: kplus.Cpu.units(8), memory: Size.gibibytes(32) },
    sharedMemory: Size.gibibytes(4),
  });
}
