import { App, Chart, Duration, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, CleanPodPolicy, DistributedPyTorch, PodSecurity } from '../src';

/**
 * What a production job sets: it cleans up after itself (the pods when it finishes, the job
 * itself a day later), gives up after a deadline and a few retries, waits in a Kueue queue with a
 * priority, runs under the restricted Pod Security Standard, reads its dataset read-only,
 * writes checkpoints to a claim of its own, and, through the escape hatch (the constructs have no
 * option for them), runs on the NVIDIA runtime class with the volumes' group set to the user's.
 *
 * The TTL suits a job that is applied once (by a pipeline step or `kubectl apply`): in a
 * repository that Argo CD or Flux keeps in sync, a job deleted by its TTL would be applied again.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'pytorch-production', { namespace: 'team-vision' });
  const dataset = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Imagenet', 'imagenet-2012');
  const checkpoints = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Checkpoints', 'resnet-checkpoints');

  const job = new DistributedPyTorch(chart, 'resnet', {
    metadata: { name: 'resnet-prod' },
    image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
    command: ['torchrun', '/workspace/train.py', '--data', '/data', '--checkpoints', '/checkpoints'],
    workers: 3,
    resources: { accelerator: Accelerator.nvidia(4), cpu: kplus.Cpu.units(16), memory: Size.gibibytes(64) },
    sharedMemory: Size.gibibytes(16),
    securityContext: { user: 1000, group: 1000 },
    security: PodSecurity.RESTRICTED,
    queue: 'team-vision',
    workloadPriorityClass: 'production',
    runPolicy: {
      cleanPodPolicy: CleanPodPolicy.ALL,
      ttlAfterFinished: Duration.days(1),
      activeDeadline: Duration.hours(48),
      backoffLimit: 3,
    },
  });
  job.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'ImagenetVolume', dataset, { readOnly: true }), { readOnly: true });
  job.mount('/checkpoints', kplus.Volume.fromPersistentVolumeClaim(chart, 'CheckpointVolume', checkpoints));

  // Escape hatch: fields no construct option covers, patched into the rendered L1. fsGroup makes
  // the checkpoint volume writable by the non-root user.
  for (const role of ['Master', 'Worker']) {
    const pod = `/spec/pytorchReplicaSpecs/${role}/template/spec`;
    job.apiObject.addJsonPatch(
      JsonPatch.add(`${pod}/runtimeClassName`, 'nvidia'),
      JsonPatch.add(`${pod}/securityContext/fsGroup`, 1000),
    );
  }
}
