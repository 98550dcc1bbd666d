import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, ParameterServerTF } from '../src';

/** The reference TFJob: one Chief, two GPU workers and one CPU parameter server. */
export default function (app: App): void {
  const chart = new Chart(app, 'tensorflow-reference', { namespace: 'training' });
  new ParameterServerTF(chart, 'mnist', {
    metadata: { name: 'tf-mnist' },
    image: 'tensorflow/tensorflow:2.17.0-gpu',
    command: ['python', '/workspace/train.py'],
    chief: { resources: { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(8) } },
    workers: 2,
    worker: { resources: { accelerator: Accelerator.nvidia(1), cpu: kplus.Cpu.units(4), memory: Size.gibibytes(16) } },
    parameterServers: 1,
    parameterServer: { resources: { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(8) } },
  });
}
