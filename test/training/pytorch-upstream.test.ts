import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { UPSTREAM_EXAMPLES } from '../../scripts/upstream/pins';
import { Accelerator, DistributedPyTorch, DistributedPyTorchProps, NprocPerNode, RendezvousBackend, RestartPolicy } from '../../src';
import { expectValidManifests } from '../harness';
import { missingLeaves, yamlFilesUnder } from '../harness/fidelity';

const UPSTREAM = path.join(UPSTREAM_EXAMPLES, 'training-operator', 'pytorch');

/**
 * Each upstream PyTorchJob written with DistributedPyTorch. The props are what a user would write
 * by reading the upstream manifest; the test then checks that nothing of it went missing.
 */
const EXPRESSED: { [file: string]: DistributedPyTorchProps } = {
  'cpu-demo/demo.yaml': {
    metadata: { name: 'torchrun-cpu' }, image: 'pytorch-cpu:py3.8', command: ['torchrun', 'demo.py'], workers: 1, nprocPerNode: NprocPerNode.of(2),
  },
  'mnist/v1/pytorch_job_mnist_gloo.yaml': mnist('gloo'),
  'mnist/v1/pytorch_job_mnist_nccl.yaml': mnist('nccl'),
  'mnist/v1/pytorch_job_mnist_mpi.yaml': mnist('mpi'),
  'elastic/imagenet/imagenet.yaml': {
    metadata: { name: 'elastic-example-imagenet' },
    image: 'ghcr.io/kubeflow/training-v1/pytorch-elastic-example-imagenet:latest',
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    resources: { cpu: kplus.Cpu.units(4) },
    env: { LOGLEVEL: kplus.EnvValue.fromValue('DEBUG') },
    command: ['python', '-m', 'torch.distributed.run', '/workspace/examples/imagenet.py', '--arch=resnet18', '--epochs=1',
      '--batch-size=32', '--workers=0', '/workspace/data/tiny-imagenet-200'],
    workers: 2,
    elastic: {
      minWorkers: 1,
      maxWorkers: 3,
      maxRestarts: 100,
      rendezvousBackend: RendezvousBackend.C10D,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    },
  },
  'elastic/echo/echo.yaml': {
    metadata: { name: 'elastic-example-echo' },
    image: 'ghcr.io/kubeflow/training-v1/pytorch-elastic-example-echo:latest',
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    env: { LOGLEVEL: kplus.EnvValue.fromValue('DEBUG') },
    command: ['python', '-m', 'torch.distributed.run', '--rdzv_backend=c10d', './echo.py'],
    workers: 2,
    elastic: { minWorkers: 1, maxWorkers: 2, maxRestarts: 100, rendezvousBackend: RendezvousBackend.C10D },
  },
  'smoke-dist/pytorch_job_sendrecv.yaml': {
    metadata: { name: 'pytorch-dist-basic-sendrecv' }, image: 'ghcr.io/kubeflow/training-v1/pytorch-dist-sendrecv-test:latest', workers: 3,
  },
  'deepspeed-demo/pytorch_deepspeed_demo.yaml': {
    metadata: { name: 'pytorch-deepspeed-demo' },
    image: 'ghcr.io/kubeflow/training-v1/pytorch-deepspeed-demo:latest',
    command: ['torchrun', '/train_bert_ds.py', '--checkpoint_dir', '/root/deepspeed_data'],
    resources: { accelerator: Accelerator.nvidia(1) },
    workers: 1,
  },
  'simple.yaml': {
    metadata: { name: 'pytorch-simple', namespace: 'kubeflow' },
    image: 'docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727',
    imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
    command: ['python3', '/opt/pytorch-mnist/mnist.py', '--epochs=1'],
    restartPolicy: RestartPolicy.ON_FAILURE,
    workers: 1,
  },
};

function mnist(backend: string): DistributedPyTorchProps {
  return {
    metadata: { name: `pytorch-dist-mnist-${backend}` },
    image: 'ghcr.io/kubeflow/training-v1/pytorch-dist-mnist:latest',
    args: ['--backend', backend],
    resources: { accelerator: Accelerator.nvidia(1) },
    workers: 1,
  };
}

const upstreamFiles = () => yamlFilesUnder(UPSTREAM);

test('every upstream PyTorch example has an L2 expression', () => {
  expect(upstreamFiles()).toEqual(Object.keys(EXPRESSED).sort());
});

test.each(Object.keys(EXPRESSED).sort())('%s is expressible with DistributedPyTorch', file => {
  const upstream = yaml.load(fs.readFileSync(path.join(UPSTREAM, file), 'utf8'));
  const chart = new Chart(Testing.app(), 'upstream');
  new DistributedPyTorch(chart, 'job', EXPRESSED[file]);
  const docs = Testing.synth(chart);
  expectValidManifests(docs);
  expect(missingLeaves(upstream, docs[0])).toEqual([]);
});

test('the fidelity check reports a missing or changed leaf', () => {
  expect(missingLeaves({ a: { b: 1, c: [{ d: 'x' }] } }, { a: { b: 2, c: [{}] } })).toEqual([
    'a.b: expected 1, got 2',
    'a.c[0].d: expected "x", got undefined',
  ]);
  expect(missingLeaves({ cpu: 4 }, { cpu: '4' })).toEqual([]);
});
