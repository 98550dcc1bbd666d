import { dropUndefined } from '../util/collections';
import { parseKnown } from './internal/parse-value';

/**
 * The extended resource an RDMA device plugin publishes; a pod that asks for one gets the RDMA
 * devices (`/dev/infiniband/...`) of the node mounted.
 */
export class RdmaDevice {
  /**
   * The first shared device of the Mellanox RDMA shared device plugin as the NVIDIA Network
   * Operator configures it (`rdma/rdma_shared_device_a`; resource prefix `rdma`, name from the
   * plugin's configuration).
   */
  public static readonly SHARED_DEVICE_A = new RdmaDevice('rdma/rdma_shared_device_a');
  /** The RDMA shared device plugin's original single resource (`rdma/hca`). */
  public static readonly HCA = new RdmaDevice('rdma/hca');
  /** RoCE GPUDirect devices as IBM's MLBatch clusters publish them (`nvidia.com/roce_gdr`). */
  public static readonly ROCE_GDR = new RdmaDevice('nvidia.com/roce_gdr');

  /**
   * Another device plugin's resource, such as an SR-IOV pool (`nvidia.com/mlnxnics`).
   *
   * @param resourceName the extended resource name the device plugin publishes
   */
  public static of(resourceName: string): RdmaDevice {
    return new RdmaDevice(resourceName);
  }

  /**
   * The RdmaDevice a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the extended resource name: `rdma/rdma_shared_device_a`, `rdma/hca` or `nvidia.com/roce_gdr`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): RdmaDevice {
    return parseKnown('RdmaDevice.parse', value, key, [['rdma/rdma_shared_device_a', RdmaDevice.SHARED_DEVICE_A], ['rdma/hca', RdmaDevice.HCA], ['nvidia.com/roce_gdr', RdmaDevice.ROCE_GDR]], 'the RDMA resources this library knows', "another device plugin's resource is RdmaDevice.of(resourceName)");
  }

  /** @param resourceName the extended resource name */
  private constructor(public readonly resourceName: string) {}
}

/** How much NCCL logs (`NCCL_DEBUG`). */
export class NcclDebug {
  /** The NCCL version only. */
  public static readonly VERSION = new NcclDebug('VERSION');
  /** Errors and warnings. */
  public static readonly WARN = new NcclDebug('WARN');
  /** The chosen transports, interfaces and rings: what to read when a job is slower than expected. */
  public static readonly INFO = new NcclDebug('INFO');
  /** Everything, per call (very verbose). */
  public static readonly TRACE = new NcclDebug('TRACE');
  /**
   * The NcclDebug a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the level as `NCCL_DEBUG` spells it: `VERSION`, `WARN`, `INFO` or `TRACE`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): NcclDebug {
    return parseKnown('NcclDebug.parse', value, key, [['VERSION', NcclDebug.VERSION], ['WARN', NcclDebug.WARN], ['INFO', NcclDebug.INFO], ['TRACE', NcclDebug.TRACE]], 'the NCCL_DEBUG levels');
  }

  /** @param level the value of `NCCL_DEBUG` */
  private constructor(public readonly level: string) {}
}

/** NCCL settings, written as environment variables of every main container. */
export interface NcclSettings {
  /**
   * Interfaces NCCL uses for bootstrap and socket traffic (`NCCL_SOCKET_IFNAME`), such as `eth0`.
   * @default - NCCL's choice
   */
  readonly socketInterfaces?: string[];
  /**
   * InfiniBand/RoCE adapters NCCL uses (`NCCL_IB_HCA`), such as `mlx5_0` or `mlx5_0:1`; a name is
   * a prefix, so `mlx5` means every ConnectX adapter.
   * @default - NCCL's choice
   */
  readonly ibHcas?: string[];
  /**
   * The GID index of RoCE traffic (`NCCL_IB_GID_INDEX`); RoCE v2 over IPv4 is usually index 3.
   * @default - NCCL's choice
   */
  readonly gidIndex?: number;
  /**
   * Turn off the InfiniBand/RoCE transport (`NCCL_IB_DISABLE`).
   * @default - NCCL's choice (on when an adapter is found)
   */
  readonly ibDisable?: boolean;
  /**
   * How far apart a NIC and a GPU may be for GPUDirect RDMA (`NCCL_NET_GDR_LEVEL`): `LOC`, `PIX`,
   * `PXB`, `PHB` or `SYS`.
   * @default - NCCL's choice
   */
  readonly netGdrLevel?: string;
  /**
   * Log level (`NCCL_DEBUG`).
   * @default - NCCL's default (none)
   */
  readonly debug?: NcclDebug;
}

/** NCCL presets for common fabrics; a preset's fields can be overridden. */
export class Nccl {
  /**
   * InfiniBand: the IB transport on, every `mlx5` adapter, bootstrap over the pod's `eth0`.
   *
   * @param overrides settings that replace the preset's
   */
  public static infiniband(overrides: NcclSettings = {}): NcclSettings {
    return { socketInterfaces: ['eth0'], ibHcas: ['mlx5'], ibDisable: false, ...dropUndefined(overrides) };
  }

  /**
   * RoCE (RDMA over Converged Ethernet): as InfiniBand, with the RoCE v2 GID index 3.
   *
   * @param overrides settings that replace the preset's
   */
  public static roce(overrides: NcclSettings = {}): NcclSettings {
    return { socketInterfaces: ['eth0'], ibHcas: ['mlx5'], ibDisable: false, gidIndex: 3, ...dropUndefined(overrides) };
  }

  private constructor() {}
}

/**
 * The network of large GPU jobs: RDMA devices, secondary networks (Multus) and NCCL settings. Set
 * once for a platform through `PlatformDefaults` and per job or role; the job's fields replace the
 * platform's one by one.
 */
export interface GpuNetworking {
  /**
   * RDMA devices for the main container. Asking for them also adds the `IPC_LOCK` capability,
   * which GPUDirect RDMA needs to pin memory; that capability is outside the baseline and the
   * restricted Pod Security levels.
   * @default - none
   */
  readonly rdmaDevice?: RdmaDevice;
  /**
   * RDMA devices per pod.
   * @default 1
   */
  readonly rdmaDevicesPerPod?: number;
  /**
   * Secondary networks, as Multus reads them from `k8s.v1.cni.cncf.io/networks`: each
   * `[namespace/]name[@interface]`, naming a NetworkAttachmentDefinition.
   * @default - none
   */
  readonly networks?: string[];
  /**
   * NCCL settings (see `Nccl.infiniband()` and `Nccl.roce()`).
   * @default - none
   */
  readonly nccl?: NcclSettings;
}
