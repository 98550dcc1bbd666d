import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, DistributedPyTorch, Nccl, NodeHealth, PlatformDefaults, RdmaDevice, Topology } from '../src';

/**
 * A 16-node LLM pre-training job (1 Master + 15 Workers, 8 GPUs each) kept in one block of the data
 * center. The platform team sets the fabric once: every job of the chart gets an RDMA device, the
 * InfiniBand network attachment and NCCL's InfiniBand settings, queues in Kueue and stays off nodes
 * the GPU health checker has marked. The job asks Kueue for one block for both roles together.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'llm-16-node', { namespace: 'llm-training' });
  PlatformDefaults.set(chart, {
    queue: 'gpu-h100',
    network: {
      rdmaDevice: RdmaDevice.SHARED_DEVICE_A,
      networks: ['network-operator/ib-fabric@net1'],
      nccl: Nccl.infiniband({ ibHcas: ['mlx5_0', 'mlx5_1', 'mlx5_2', 'mlx5_3', 'mlx5_4', 'mlx5_5', 'mlx5_6', 'mlx5_7'] }),
    },
    nodeHealth: [NodeHealth.AUTOPILOT],
  });

  new DistributedPyTorch(chart, 'llm', {
    metadata: { name: 'llama-70b-pretrain' },
    image: 'nvcr.io/nvidia/pytorch:24.07-py3',
    command: ['torchrun', '/workspace/pretrain.py', '--config', '/workspace/70b.yaml'],
    workers: 15,
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(96), memory: Size.gibibytes(1024) },
    sharedMemory: Size.gibibytes(64),
    // Master and Workers are two Kueue PodSets: the podset group puts both in the same block.
    topology: Topology.required('cloud.provider.com/topology-block', { podSetGroup: 'llama-70b' }),
  });
}
