import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, MlPolicy, TrainingRuntime, TrainingRuntimeRef, TrainJob, WorkloadPriorityClass } from '../src';

/**
 * TrainJobs queued by Kueue: one admitted by the team's LocalQueue with a priority and a topology
 * request, one handed to MultiKueue through the team's remote queue, whose ClusterQueue has the
 * MultiKueue admission check, to run on a worker cluster (where the runtime must exist too).
 * Kueue suspends a queued job itself and lifts the suspension on admission.
 *
 * The runtime names the node kind (H100): the team's queue has H100 and A100 flavors, Kueue picks a
 * TrainJob's flavor from its runtime's pods, and Trainer v2.3.0 drops the placement Kueue writes
 * (spec.podTemplateOverrides), so the job's runtime patch carries the one flavor's node labels and
 * tolerations instead. No topology request: its scheduling gate would not reach the pods either
 * (kueue/trainjob-placement refuses it); a v1 job gets one (llm-16-node, the speech team's job of kueue-platform).
 *
 * The priority class is defined here and named by construct: Kueue makes no Workload for a job
 * whose WorkloadPriorityClass does not exist (the job would stay suspended, the error only in
 * Kueue's log), and the job is written after the class. The `production` class is cluster-wide;
 * pytorch-production names it too.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'trainer-kueue', { namespace: 'team-vision' });
  const production = new WorkloadPriorityClass(chart, 'production', {
    metadata: { name: 'production' },
    value: 1000,
    description: 'Runs whose results ship: admitted before research, which they may preempt.',
  });
  const h100 = new TrainingRuntime(chart, 'torch-h100', {
    metadata: { name: 'torch-h100' },
    mlPolicy: MlPolicy.torch(),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    resources: { accelerator: Accelerator.nvidia(4), cpu: kplus.Cpu.units(32), memory: Size.gibibytes(256) },
    nodeSelector: { 'cloud.provider.com/gpu': 'h100' },
  });
  new TrainJob(chart, 'vit', {
    metadata: { name: 'vit-pretrain' },
    runtime: h100.ref,
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    command: ['torchrun', '/workspace/pretrain.py'],
    numNodes: 2,
    numProcPerNode: 4,
    queue: 'team-vision',
    workloadPriority: production,
    activeDeadline: Duration.hours(24),
  });
  new TrainJob(chart, 'vit-remote', {
    metadata: { name: 'vit-remote' },
    runtime: TrainingRuntimeRef.cluster('torch-distributed'),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    command: ['torchrun', '/workspace/pretrain.py'],
    numNodes: 2,
    queue: 'team-vision-remote',
    multiKueue: true,
  });
}
