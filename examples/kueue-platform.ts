import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, ClusterQueue, ClusterTrainingRuntime, Cohort, DistributedPyTorch, KueueTopology, LocalQueue, MlPolicy, PreemptionPolicy,
  QueueingStrategy, ResourceFlavor, ResourceQuota, Topology, TrainJob, WorkloadPriorityClass,
} from '../src';

/**
 * A platform repository for a shared GPU cluster behind Kueue: the platform chart holds what is
 * cluster-wide (a topology of the data center, an A100 and an H100 flavor, a tree of cohorts, one
 * ClusterQueue per team, a priority class and a runtime), and each team's chart its LocalQueue and
 * its jobs. Everything is named by construct, so each object is written after what it names
 * (flavors after the topology, child cohorts after their parent, queues after their flavors and
 * cohort, jobs after their queue and priority class), and a GitOps tool that applies the files in
 * order never meets a name that is not there.
 *
 * The cohorts form a tree: the organisation's `gpus` at the root, and under it one cohort per group
 * of teams (`language` for the LLM and speech teams, `vision` for the vision team). The teams lend
 * each other idle GPUs, nearest first: each queue may borrow up to 16 GPUs, and reclaims its own by
 * preempting the borrower.
 */
export default function (app: App): void {
  const platform = new Chart(app, 'kueue-platform');
  const datacenter = new KueueTopology(platform, 'datacenter', {
    metadata: { name: 'datacenter' },
    levels: ['cloud.provider.com/topology-block', 'cloud.provider.com/topology-rack', 'kubernetes.io/hostname'],
  });
  // The GPU nodes are tainted so that only jobs Kueue admits on them land there.
  const gpuPool = (id: string, model: string) => new ResourceFlavor(platform, id, {
    metadata: { name: id },
    nodeLabels: { 'cloud.provider.com/gpu': model },
    nodeTaints: [{ key: 'nvidia.com/gpu', value: model, effect: 'NoSchedule' }],
    tolerations: [{ key: 'nvidia.com/gpu', operator: 'Equal', value: model, effect: 'NoSchedule' }],
    topology: datacenter,
  });
  const a100 = gpuPool('a100', 'a100');
  const h100 = gpuPool('h100', 'h100');

  // The organisation's cohort and, under it, one per group of teams.
  const gpus = new Cohort(platform, 'gpus', { metadata: { name: 'gpus' } });
  const language = new Cohort(platform, 'language', { metadata: { name: 'language' }, parent: gpus });
  const visionCohort = new Cohort(platform, 'vision', { metadata: { name: 'vision' }, parent: gpus });

  // Per team: H100s first, A100s when the H100s are taken; CPU and memory go with the GPUs of a node.
  const teamQueue = (team: string, cohort: Cohort, h100s: number, a100s: number) => new ClusterQueue(platform, team, {
    metadata: { name: team },
    cohort,
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': team } },
    queueingStrategy: QueueingStrategy.BEST_EFFORT_FIFO,
    preemption: { reclaimWithinCohort: PreemptionPolicy.ANY, withinClusterQueue: PreemptionPolicy.LOWER_PRIORITY },
    resourceGroups: [{
      flavors: [
        { flavor: h100, quotas: nodeQuotas(h100s, 16) },
        { flavor: a100, quotas: nodeQuotas(a100s, 16) },
      ],
    }],
  });
  const llmQueue = teamQueue('team-llm', language, 32, 16);
  // The speech team's nominal H100s hold its fine-tuning job (two 8-GPU nodes) without borrowing:
  // a job that runs on borrowed GPUs is the first preempted when the lender reclaims them.
  const speechQueue = teamQueue('team-speech', language, 16, 16);

  const research = new WorkloadPriorityClass(platform, 'research', {
    metadata: { name: 'research' },
    value: 100,
    description: 'Experiments: admitted after production runs, preempted first.',
  });
  const runtime = new ClusterTrainingRuntime(platform, 'platform-torch-h100', {
    metadata: { name: 'platform-torch-h100' },
    mlPolicy: MlPolicy.torch(),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(96), memory: Size.gibibytes(1024) },
    sharedMemory: Size.gibibytes(32),
    // The runtime names its node kind: Kueue picks a TrainJob's flavor from the runtime's pods, and
    // with one flavor possible the TrainJob writes that flavor's placement into its runtime patch
    // (Trainer v2.3.0 drops the one Kueue writes).
    nodeSelector: { 'cloud.provider.com/gpu': 'h100' },
  });

  // Team LLM: a Trainer v2 job on the platform's runtime.
  const llm = new Chart(app, 'kueue-team-llm', { namespace: 'team-llm' });
  new TrainJob(llm, 'llama-pretrain', {
    metadata: { name: 'llama-pretrain' },
    runtime: runtime.ref,
    command: ['torchrun', '/workspace/pretrain.py'],
    numNodes: 4,
    numProcPerNode: 8,
    localQueue: new LocalQueue(llm, 'queue', { metadata: { name: 'team-llm' }, clusterQueue: llmQueue }),
    workloadPriority: research,
    activeDeadline: Duration.hours(72),
  });

  // Team Speech: a Training Operator v1 job, packed into one rack.
  const speech = new Chart(app, 'kueue-team-speech', { namespace: 'team-speech' });
  new DistributedPyTorch(speech, 'whisper-finetune', {
    metadata: { name: 'whisper-finetune' },
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    command: ['torchrun', '/workspace/finetune.py'],
    workers: 1,
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(96), memory: Size.gibibytes(1024) },
    sharedMemory: Size.gibibytes(32),
    localQueue: new LocalQueue(speech, 'queue', { metadata: { name: 'team-speech' }, clusterQueue: speechQueue }),
    workloadPriority: research,
    topology: Topology.required('cloud.provider.com/topology-rack'),
  });

  // The queues the other examples' jobs name by string (one repository, one platform): the vision
  // team's, and the LLM team's H100 queue, sized for its 16-node job (8 GPUs, 96 cores, 1 TiB and
  // one RDMA device a node), whose podset group must land in one block.
  const visionQueue = teamQueue('team-vision', visionCohort, 64, 16);
  const vision = new Chart(app, 'kueue-team-vision', { namespace: 'team-vision' });
  new LocalQueue(vision, 'queue', { metadata: { name: 'team-vision' }, clusterQueue: visionQueue });
  // The vision team's jobs for worker clusters: Kueue hands them on only through the MultiKueue
  // AdmissionCheck of their ClusterQueue ("multikueue", set up with its worker clusters' kubeconfigs
  // outside this repository); a queue without it would admit them here, where nothing runs them.
  const remoteQueue = new ClusterQueue(platform, 'team-vision-remote', {
    metadata: { name: 'team-vision-remote' },
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-vision' } },
    admissionChecks: ['multikueue'],
    resourceGroups: [{ flavors: [{ flavor: h100, quotas: nodeQuotas(16) }] }],
  });
  new LocalQueue(vision, 'remote-queue', { metadata: { name: 'team-vision-remote' }, clusterQueue: remoteQueue });
  const llmTrainingQueue = new ClusterQueue(platform, 'llm-training', {
    metadata: { name: 'llm-training' },
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'llm-training' } },
    resourceGroups: [{
      flavors: [{ flavor: h100, quotas: [...nodeQuotas(128), ResourceQuota.custom('rdma/rdma_shared_device_a', '16')] }],
    }],
  });
  new LocalQueue(new Chart(app, 'kueue-llm-training', { namespace: 'llm-training' }), 'queue', {
    metadata: { name: 'gpu-h100' }, clusterQueue: llmTrainingQueue,
  });
}

/**
 * The quotas of `gpus` GPUs and the CPU and memory of their nodes (12 cores and 128 GiB a GPU),
 * of which a team in a cohort may borrow up to `borrowGpus` more GPUs' worth (none out of a cohort).
 */
function nodeQuotas(gpus: number, borrowGpus?: number): ResourceQuota[] {
  const borrow = <T>(f: (n: number) => T): T | undefined => (borrowGpus === undefined ? undefined : f(borrowGpus));
  return [
    ResourceQuota.cpu(kplus.Cpu.units(gpus * 12), borrow(n => kplus.Cpu.units(n * 12))),
    ResourceQuota.memory(Size.gibibytes(gpus * 128), borrow(n => Size.gibibytes(n * 128))),
    ResourceQuota.accelerator(Accelerator.nvidia(gpus), borrowGpus),
  ];
}
