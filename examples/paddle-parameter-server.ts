import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { CleanPodPolicy, DistributedPaddle, PaddleMode } from '../src';

/**
 * A parameter-server PaddleJob: two parameter servers (the `Master` replica type) feeding four CPU
 * trainers. The job succeeds when the parameter servers do, so the trainers still running then are
 * cleaned up.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'paddle-parameter-server', { namespace: 'training' });
  new DistributedPaddle(chart, 'ctr', {
    metadata: { name: 'paddle-ctr' },
    mode: PaddleMode.PARAMETER_SERVER,
    image: 'registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-cpu',
    command: ['python', '-m', 'paddle.distributed.launch', '/workspace/ctr.py'],
    parameterServers: 2,
    parameterServer: { resources: { cpu: kplus.Cpu.units(4), memory: Size.gibibytes(16) } },
    workers: 4,
    worker: { resources: { cpu: kplus.Cpu.units(8), memory: Size.gibibytes(8) } },
    runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING },
  });
}
