import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, ClusterTrainingRuntime, DistributedPyTorch, MlPolicy, TrainJob } from '../src';

/**
 * One training run written twice, for docs/constructs/trainer-v1-to-v2.md: as a Training Operator
 * v1 PyTorchJob, and as a Trainer v2 runtime (the pod template a platform team owns) plus a
 * TrainJob (what the data scientist owns). Both run on the H100 nodes of the team's queue, which
 * has A100s too: Kueue reads a TrainJob's flavor from its runtime, and Trainer v2.3.0 drops the
 * flavor's placement Kueue writes, so the runtime names the node kind and the TrainJob writes the
 * flavor's toleration into its runtime patch (docs/kueue.md).
 */
export default function (app: App): void {
  const v1 = new Chart(app, 'trainer-migration-v1', { namespace: 'team-vision' });
  new DistributedPyTorch(v1, 'resnet', {
    metadata: { name: 'resnet' },
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    command: ['torchrun', '/workspace/train.py'],
    workers: 3,
    resources: { accelerator: Accelerator.nvidia(4), cpu: kplus.Cpu.units(16), memory: Size.gibibytes(64) },
    sharedMemory: Size.gibibytes(16),
    nodeSelector: { 'cloud.provider.com/gpu': 'h100' },
    queue: 'team-vision',
  });

  const v2 = new Chart(app, 'trainer-migration-v2', { namespace: 'team-vision' });
  const runtime = new ClusterTrainingRuntime(v2, 'torch-4gpu', {
    metadata: { name: 'torch-4gpu' },
    mlPolicy: MlPolicy.torch(),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    resources: { accelerator: Accelerator.nvidia(4), cpu: kplus.Cpu.units(16), memory: Size.gibibytes(64) },
    sharedMemory: Size.gibibytes(16),
    nodeSelector: { 'cloud.provider.com/gpu': 'h100' },
  });
  new TrainJob(v2, 'resnet', {
    metadata: { name: 'resnet' },
    runtime: runtime.ref,
    command: ['torchrun', '/workspace/train.py'],
    numNodes: 4,
    numProcPerNode: 4,
    queue: 'team-vision',
  });
}
