import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, ClusterTrainingRuntime, MlPolicy, MpiAllReduce, Nccl, NcclDebug, PlatformDefaults,
  PodSecurity, RdmaDevice,
} from '../../src';
import { REPORT, synthErrors, synthKind } from '../harness';
import { PYTORCH_IMAGE as IMAGE, freshChart as fresh, pytorchJob as pytorch, synthPyTorchJob as synthJob, thrown } from '../harness/job-fixtures';
import { WHOLE_NUMBER_0_OR_MORE, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';


const podOf = (job: any, role: string) => job.spec.pytorchReplicaSpecs[role].template;
const mainOf = (job: any, role: string) => podOf(job, role).spec.containers[0];

describe('RDMA devices', () => {
  test('requested as a limit with an equal request, with IPC_LOCK on the main container only', () => {
    const job = synthJob({
      resources: { accelerator: Accelerator.nvidia(8) },
      network: { rdmaDevice: RdmaDevice.SHARED_DEVICE_A, rdmaDevicesPerPod: 2 },
    }, undefined);
    for (const role of ['Master', 'Worker']) {
      const c = mainOf(job, role);
      expect(c.resources).toEqual({
        limits: { 'nvidia.com/gpu': 8, 'rdma/rdma_shared_device_a': 2 },
        requests: { 'nvidia.com/gpu': 8, 'rdma/rdma_shared_device_a': 2 },
      });
      expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, privileged: false, capabilities: { add: ['IPC_LOCK'] } });
    }
  });

  test('sidecars get neither devices nor IPC_LOCK', () => {
    const job = synthKind('PyTorchJob', chart => {
      const j = pytorch(chart, { network: { rdmaDevice: RdmaDevice.HCA } });
      j.worker!.addContainer({ name: 'metrics', image: 'prom/node-exporter:v1.8.0' });
    });
    const sidecar = podOf(job, 'Worker').spec.containers[1];
    expect(sidecar.name).toBe('metrics');
    expect(sidecar.resources).toBeUndefined();
    expect(sidecar.securityContext).toEqual({ allowPrivilegeEscalation: false, privileged: false });
    expect(mainOf(job, 'Worker').resources).toEqual({ limits: { 'rdma/hca': 1 }, requests: { 'rdma/hca': 1 } });
  });

  test('a user capability list keeps its entries and gains IPC_LOCK once', () => {
    const job = synthJob({
      network: { rdmaDevice: RdmaDevice.ROCE_GDR },
      securityContext: { capabilities: { add: [kplus.Capability.SYS_PTRACE, kplus.Capability.IPC_LOCK] } } as any,
    });
    expect(mainOf(job, 'Master').securityContext.capabilities.add).toEqual(['SYS_PTRACE', 'IPC_LOCK']);
    expect(mainOf(job, 'Master').resources.limits).toEqual({ 'nvidia.com/roce_gdr': 1 });
  });

  test('no IPC_LOCK without RDMA devices', () => {
    const job = synthJob({ network: { networks: ['roce'], nccl: Nccl.roce() } });
    expect(mainOf(job, 'Worker').securityContext).toEqual({ allowPrivilegeEscalation: false, privileged: false });
    expect(mainOf(job, 'Worker').resources).toBeUndefined();
  });

  test('under PodSecurity.RESTRICTED, RDMA is an error at synth that says why', () => {
    const why = 'expected none under PodSecurity.RESTRICTED: RDMA needs the IPC_LOCK capability, which neither the baseline nor the restricted Pod Security level allows; use PodSecurity.DEFAULT in a namespace whose Pod Security level is privileged';
    const worker = { network: { rdmaDevice: RdmaDevice.SHARED_DEVICE_A } };
    expect(synthErrors(chart => pytorch(chart, { security: PodSecurity.RESTRICTED, worker })))
      .toBe(`${REPORT}  [test/job] Worker.network.rdmaDevice is "rdma/rdma_shared_device_a"; ${why}`);
    // The same when both come from the platform.
    expect(synthErrors(chart => {
      PlatformDefaults.set(chart, { security: PodSecurity.RESTRICTED, network: { rdmaDevice: RdmaDevice.HCA } });
      pytorch(chart, { workers: 0 });
    })).toBe(`${REPORT}  [test/job] Master.network.rdmaDevice is "rdma/hca"; ${why}`);
  });
});

describe('secondary networks', () => {
  test('written as the Multus annotation, comma-separated, on every pod template', () => {
    const job = synthJob({ network: { networks: ['ib-net', 'fabric/ib-net-2@net2'] } });
    for (const role of ['Master', 'Worker']) {
      expect(podOf(job, role).metadata.annotations['k8s.v1.cni.cncf.io/networks']).toBe('ib-net,fabric/ib-net-2@net2');
    }
  });

  test('each attachment is [namespace/]name[@interface]', () => {
    const text = 'expected "[namespace/]name[@interface]": namespace and name DNS-1123 labels (lower-case letters, digits, "-"), interface a Linux interface name';
    for (const bad of ['IB-Net', 'a/b/c', 'ns/', 'net@', 'net@a-very-long-interface', 'net@eth 0', 'a@b@c']) {
      expect(thrown(() => pytorch(fresh(), { network: { networks: ['ok', bad] } })))
        .toBe(`test/job: network.networks[1] is ${JSON.stringify(bad)}; ${text}`);
    }
  });
});

describe('NCCL settings', () => {
  test('the InfiniBand preset, overridden field by field, as env of the main container', () => {
    const job = synthJob({ network: { nccl: Nccl.infiniband({ ibHcas: ['mlx5_0:1', 'mlx5_1:1'], debug: NcclDebug.INFO, netGdrLevel: 'PHB' }) } });
    expect(mainOf(job, 'Worker').env).toEqual([
      { name: 'NCCL_SOCKET_IFNAME', value: 'eth0' },
      { name: 'NCCL_IB_HCA', value: 'mlx5_0:1,mlx5_1:1' },
      { name: 'NCCL_IB_DISABLE', value: '0' },
      { name: 'NCCL_NET_GDR_LEVEL', value: 'PHB' },
      { name: 'NCCL_DEBUG', value: 'INFO' },
    ]);
  });

  test('the RoCE preset sets the GID index', () => {
    expect(Nccl.roce()).toEqual({ socketInterfaces: ['eth0'], ibHcas: ['mlx5'], ibDisable: false, gidIndex: 3 });
    expect(Nccl.roce({ gidIndex: 5, socketInterfaces: ['net1'] })).toEqual({ socketInterfaces: ['net1'], ibHcas: ['mlx5'], ibDisable: false, gidIndex: 5 });
  });

  test('a variable the user sets wins over the preset', () => {
    const job = synthJob({ env: { NCCL_DEBUG: kplus.EnvValue.fromValue('TRACE') }, network: { nccl: Nccl.infiniband({ debug: NcclDebug.WARN }) } });
    const env = mainOf(job, 'Master').env;
    expect(env.filter((e: any) => e.name === 'NCCL_DEBUG')).toEqual([{ name: 'NCCL_DEBUG', value: 'TRACE' }]);
  });

  test('bad values are named', () => {
    expect(thrown(() => pytorch(fresh(), { network: { nccl: { gidIndex: -1 } } })))
      .toBe(`test/job: network.nccl.gidIndex is -1; ${WHOLE_NUMBER_0_OR_MORE}`);
    expect(thrown(() => pytorch(fresh(), { network: { nccl: { netGdrLevel: 'NEAR' } } })))
      .toBe('test/job: network.nccl.netGdrLevel is "NEAR"; expected one of LOC, PIX, PXB, PHB, SYS');
    expect(thrown(() => pytorch(fresh(), { network: { nccl: { socketInterfaces: ['eth0,eth1'] } } })))
      .toBe('test/job: network.nccl.socketInterfaces[0] is "eth0,eth1"; expected a Linux interface name: 1 to 15 characters, no "/", ":", "," or white space');
    expect(thrown(() => pytorch(fresh(), { network: { nccl: { ibHcas: ['mlx5 0'] } } })))
      .toBe('test/job: network.nccl.ibHcas[0] is "mlx5 0"; expected an adapter name or prefix such as "mlx5_0" or "mlx5_0:1"');
    expect(thrown(() => pytorch(fresh(), { network: { rdmaDevice: RdmaDevice.HCA, rdmaDevicesPerPod: 1.5 } })))
      .toBe(`test/job: network.rdmaDevicesPerPod is 1.5; ${WHOLE_NUMBER_1_OR_MORE}`);
    // A count without a device may be completed by the platform, so it is checked at synth.
    expect(synthErrors(chart => pytorch(chart, { workers: 0, network: { rdmaDevicesPerPod: 2 } })))
      .toBe(`${REPORT}  [test/job] Master.network.rdmaDevicesPerPod is 2; expected none without an rdmaDevice on the role, the job or the platform defaults`);
    expect(thrown(() => pytorch(fresh(), { network: { rdmaDevice: RdmaDevice.of('rdma_shared_device_a') } })))
      .toBe('test/job: network.rdmaDevice is "rdma_shared_device_a"; expected an extended resource name such as "rdma/rdma_shared_device_a" (a DNS subdomain, "/", a name)');
  });
});

describe('platform defaults', () => {
  test('set once for a platform; a job replaces fields one by one, NCCL settings too', () => {
    const own = { network: { nccl: { debug: NcclDebug.INFO } }, worker: { network: { rdmaDevicesPerPod: 4 } } };
    const job = synthJob(own, chart => PlatformDefaults.set(chart, {
      network: { rdmaDevice: RdmaDevice.SHARED_DEVICE_A, networks: ['ib'], nccl: Nccl.infiniband() },
    }));
    expect(podOf(job, 'Master').metadata.annotations['k8s.v1.cni.cncf.io/networks']).toBe('ib');
    expect(mainOf(job, 'Master').resources.limits).toEqual({ 'rdma/rdma_shared_device_a': 1 });
    expect(mainOf(job, 'Worker').resources.limits).toEqual({ 'rdma/rdma_shared_device_a': 4 });
    expect(mainOf(job, 'Worker').env.map((e: any) => `${e.name}=${e.value}`))
      .toEqual(['NCCL_SOCKET_IFNAME=eth0', 'NCCL_IB_HCA=mlx5', 'NCCL_IB_DISABLE=0', 'NCCL_DEBUG=INFO']);
  });

  test('every kind takes it: the MPI launcher and workers', () => {
    const doc = synthKind('MPIJob', chart => {
      PlatformDefaults.set(chart, { network: { networks: ['ib'], nccl: Nccl.infiniband() } });
      new MpiAllReduce(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 2 });
    });
    for (const role of ['Launcher', 'Worker']) {
      expect(doc.spec.mpiReplicaSpecs[role].template.metadata.annotations['k8s.v1.cni.cncf.io/networks']).toBe('ib');
    }
  });

  test('a second, different network for the same scope is a conflict; bad values are refused where they are set', () => {
    expect(synthErrors(chart => {
      PlatformDefaults.set(chart, { network: { networks: ['ib'] } });
      PlatformDefaults.set(chart, { network: { networks: ['roce'] } });
    })).toBe(`${REPORT}  [test/KubeflowPlatformDefaults] network is {"networks":["roce"]}; expected the value an earlier PlatformDefaults.set gave this scope, or none; set a different default on a child scope instead`);
    expect(thrown(() => PlatformDefaults.set(fresh(), { network: { networks: ['Bad'] } })))
      .toBe('test/KubeflowPlatformDefaults: network.networks[0] is "Bad"; expected "[namespace/]name[@interface]": namespace and name DNS-1123 labels (lower-case letters, digits, "-"), interface a Linux interface name');
  });
});

test('the MPI launcher takes the network but no RDMA devices from the job or the platform (they describe a worker)', () => {
  const doc = synthKind('MPIJob', chart => {
    PlatformDefaults.set(chart, { network: { rdmaDevice: RdmaDevice.SHARED_DEVICE_A, networks: ['ib'], nccl: Nccl.infiniband() } });
    new MpiAllReduce(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 2, network: { rdmaDevicesPerPod: 2 } });
  });
  const launcher = doc.spec.mpiReplicaSpecs.Launcher.template;
  const worker = doc.spec.mpiReplicaSpecs.Worker.template;
  expect(launcher.metadata.annotations['k8s.v1.cni.cncf.io/networks']).toBe('ib');
  expect(launcher.spec.containers[0].resources).toBeUndefined();
  expect(launcher.spec.containers[0].securityContext.capabilities).toBeUndefined();
  expect(launcher.spec.containers[0].env.map((e: any) => e.name)).toEqual(['NCCL_SOCKET_IFNAME', 'NCCL_IB_HCA', 'NCCL_IB_DISABLE']);
  expect(worker.spec.containers[0].resources.limits).toEqual({ 'rdma/rdma_shared_device_a': 2 });
  expect(worker.spec.containers[0].securityContext.capabilities).toEqual({ add: ['IPC_LOCK'] });
});

describe('on Trainer v2 runtimes', () => {
  test('the options reach the node pods, and RDMA under RESTRICTED is refused there too', () => {
    const rt = synthKind('ClusterTrainingRuntime', c => new ClusterTrainingRuntime(c, 'rt', {
      metadata: { name: 'torch-rdma' },
      mlPolicy: MlPolicy.torch(),
      image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
      resources: { accelerator: Accelerator.nvidia(8) },
      network: { rdmaDevice: RdmaDevice.SHARED_DEVICE_A, nccl: Nccl.infiniband() },
    }));
    const node = rt.spec.template.spec.replicatedJobs.find((j: any) => j.name === 'node').template.spec.template.spec;
    expect(node.containers[0].resources.limits['rdma/rdma_shared_device_a']).toBe(1);
    expect(node.containers[0].securityContext.capabilities.add).toEqual(['IPC_LOCK']);
    expect(synthErrors(c => new ClusterTrainingRuntime(c, 'rt', {
      metadata: { name: 'torch-rdma' },
      mlPolicy: MlPolicy.torch(),
      image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
      network: { rdmaDevice: RdmaDevice.SHARED_DEVICE_A },
      security: PodSecurity.RESTRICTED,
    }))).toContain('network.rdmaDevice is "rdma/rdma_shared_device_a"; expected none under PodSecurity.RESTRICTED: RDMA needs the IPC_LOCK capability');
  });
});
