import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, TrainingRuntimeRef, TrainJob } from '../src';

/**
 * TrainJobs queued by Kueue: one admitted by the team's LocalQueue with a priority and a topology
 * request annotated on every pod (through the library's runtime patch), one handed to MultiKueue to run on
 * a worker cluster (where the runtime must exist too). Kueue suspends a queued job itself and
 * lifts the suspension on admission.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'trainer-kueue', { namespace: 'team-vision' });
  new TrainJob(chart, 'vit', {
    metadata: { name: 'vit-pretrain' },
    runtime: TrainingRuntimeRef.cluster('torch-distributed'),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    command: ['torchrun', '/workspace/pretrain.py'],
    numNodes: 2,
    numProcPerNode: 4,
    resourcesPerNode: { accelerator: Accelerator.nvidia(4), cpu: kplus.Cpu.units(32), memory: Size.gibibytes(256) },
    queue: 'team-vision',
    workloadPriorityClass: 'production',
    podAnnotations: { 'kueue.x-k8s.io/podset-preferred-topology': 'cloud.provider.com/topology-rack' },
    activeDeadline: Duration.hours(24),
  });
  new TrainJob(chart, 'vit-remote', {
    metadata: { name: 'vit-remote' },
    runtime: TrainingRuntimeRef.cluster('torch-distributed'),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    command: ['torchrun', '/workspace/pretrain.py'],
    numNodes: 2,
    queue: 'team-vision',
    multiKueue: true,
  });
}
