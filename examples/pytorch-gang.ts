import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, DistributedPyTorch, GangScheduler, PlatformDefaults, PodSecurity } from '../src';

/**
 * Gang scheduling with Volcano: all 8 pods start together or none do. The chart also shows
 * platform defaults, which a template library sets once for every job below a scope.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'pytorch-gang', { namespace: 'research' });
  PlatformDefaults.set(chart, {
    nodeSelector: { 'node.kubernetes.io/instance-type': 'p4d.24xlarge' },
    priorityClassName: 'research-batch',
    imagePullSecrets: ['registry-credentials'],
    labels: { 'cost-center': 'research' },
    security: PodSecurity.RESTRICTED,
  });
  new DistributedPyTorch(chart, 'bert', {
    metadata: { name: 'bert-pretrain' },
    image: 'registry.example.com/research/bert:2024.11',
    command: ['torchrun', '/app/pretrain.py'],
    workers: 7,
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(90), memory: Size.gibibytes(1000) },
    sharedMemory: Size.gibibytes(128),
    gangScheduling: { scheduler: GangScheduler.VOLCANO, queue: 'research', scheduleTimeout: Duration.minutes(30) },
    securityContext: { user: 1000, group: 1000 },
  });
}
