import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, ClusterTrainingRuntime, MlPolicy, PodGroupPolicy, PodSecurity, TrainJob } from '../src';

/**
 * What a platform team publishes on Trainer v2, and a data scientist's job on it: a cluster-wide
 * torch runtime for 8-GPU nodes, with 32 GiB of shared memory for the data loaders and NCCL, the
 * Istio sidecar turned off (it would keep finished pods running), the restricted Pod Security
 * Standard and gang scheduling; the TrainJob says only what differs for this run. The runtime is
 * written before the job, so `kubectl apply -f dist/` and Argo CD create it first.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'trainer-platform-runtime', { namespace: 'team-nlp' });
  const runtime = new ClusterTrainingRuntime(chart, 'torch-a100', {
    metadata: { name: 'torch-a100' },
    mlPolicy: MlPolicy.torch(),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(64), memory: Size.gibibytes(512) },
    sharedMemory: Size.gibibytes(32),
    nodeSelector: { 'node.kubernetes.io/instance-type': 'a100-8x' },
    security: PodSecurity.RESTRICTED,
    podGroupPolicy: PodGroupPolicy.coscheduling({ scheduleTimeout: Duration.minutes(5) }),
  });

  const hfToken = kplus.Secret.fromSecretName(chart, 'HfToken', 'hf-token');
  const job = new TrainJob(chart, 'llama-sft', {
    metadata: { name: 'llama-sft' },
    runtime: runtime.ref,
    command: ['torchrun', '/workspace/sft.py', '--data', '/data'],
    numNodes: 4,
    numProcPerNode: 8,
    env: { HF_TOKEN: kplus.EnvValue.fromSecretValue({ secret: hfToken, key: 'token' }) },
  });
  const data = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Data', 'sft-data');
  job.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'DataVolume', data, { readOnly: true }), { readOnly: true });
}
