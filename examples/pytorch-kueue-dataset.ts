import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, CleanPodPolicy, DistributedPyTorch } from '../src';

/**
 * A job admitted by Kueue that reads a shared dataset claim read-only, writes checkpoints to a
 * claim of its own, and has enough shared memory for its data loaders.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'pytorch-kueue-dataset', { namespace: 'team-vision' });
  const dataset = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Imagenet', 'imagenet-2012');
  const checkpoints = new kplus.PersistentVolumeClaim(chart, 'Checkpoints', {
    metadata: { name: 'resnet-checkpoints' },
    storage: Size.gibibytes(200),
    storageClassName: 'shared-rwx',
    accessModes: [kplus.PersistentVolumeAccessMode.READ_WRITE_MANY],
  });

  const job = new DistributedPyTorch(chart, 'resnet', {
    metadata: { name: 'resnet50' },
    image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
    command: ['torchrun', '/workspace/train.py', '--data', '/data', '--checkpoints', '/checkpoints'],
    workers: 3,
    queue: 'team-vision',
    resources: { accelerator: Accelerator.nvidia(2), cpu: kplus.Cpu.units(16), memory: Size.gibibytes(64) },
    sharedMemory: Size.gibibytes(16),
    runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING },
  });
  job.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'ImagenetVolume', dataset, { readOnly: true }), { readOnly: true });
  job.mount('/checkpoints', kplus.Volume.fromPersistentVolumeClaim(chart, 'CheckpointVolume', checkpoints));
}
