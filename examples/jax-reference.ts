import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, DistributedJax } from '../src';

/**
 * The reference JAXJob: two workers, one JAX process and one GPU each; worker 0 coordinates. The
 * image's own entrypoint runs the training.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'jax-reference', { namespace: 'training' });
  new DistributedJax(chart, 'mnist', {
    metadata: { name: 'jax-mnist' },
    image: 'ghcr.io/kubeflow/training-v1/jaxjob-dist-spmd-mnist:latest',
    workers: 2,
    resources: { accelerator: Accelerator.nvidia(1), cpu: kplus.Cpu.units(4), memory: Size.gibibytes(16) },
  });
}
