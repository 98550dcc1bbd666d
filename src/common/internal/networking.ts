import { k8s } from 'cdk8s-plus-28';
import { Finding, finding } from '../../rules/finding';
import { isDns1123Label, isQualifiedName } from '../../rules/kubernetes/names';
import { dropUndefined } from '../../util/collections';
import type { GpuNetworking, NcclSettings } from '../networking';

/*
 * Rendering and checks of GpuNetworking (src/networking.ts). Plumbing, not exported from index.ts.
 */

/** The job's network over the platform's, field by field (NCCL settings too). */
export function mergeNetworking(outer: GpuNetworking | undefined, inner: GpuNetworking | undefined): GpuNetworking | undefined {
  if (!outer) return inner;
  if (!inner) return outer;
  const nccl = outer.nccl || inner.nccl ? { ...dropUndefined(outer.nccl ?? {}), ...dropUndefined(inner.nccl ?? {}) } : undefined;
  return dropUndefined({ ...dropUndefined(outer), ...dropUndefined(inner), nccl });
}

/** The Multus annotation (multus-cni pkg/k8sclient/k8sclient.go, parsePodNetworkAnnotation). */
export const MULTUS_NETWORKS_ANNOTATION = 'k8s.v1.cni.cncf.io/networks';
/** The capability GPUDirect RDMA needs to lock memory. */
export const IPC_LOCK = 'IPC_LOCK';
const GDR_LEVELS = ['LOC', 'PIX', 'PXB', 'PHB', 'SYS'];
const ATTACHMENT_TEXT = 'expected "[namespace/]name[@interface]": namespace and name DNS-1123 labels (lower-case letters, digits, "-"), interface a Linux interface name';

/** The NCCL environment of the settings, by variable name (NCCL's environment variable names). */
export function ncclEnv(nccl: NcclSettings | undefined): { [name: string]: string } {
  const env: { [name: string]: string } = {};
  if (!nccl) return env;
  if (nccl.socketInterfaces?.length) env.NCCL_SOCKET_IFNAME = nccl.socketInterfaces.join(',');
  if (nccl.ibHcas?.length) env.NCCL_IB_HCA = nccl.ibHcas.join(',');
  if (nccl.gidIndex !== undefined) env.NCCL_IB_GID_INDEX = String(nccl.gidIndex);
  if (nccl.ibDisable !== undefined) env.NCCL_IB_DISABLE = nccl.ibDisable ? '1' : '0';
  if (nccl.netGdrLevel !== undefined) env.NCCL_NET_GDR_LEVEL = nccl.netGdrLevel;
  if (nccl.debug !== undefined) env.NCCL_DEBUG = nccl.debug.level;
  return env;
}

/** The network without its RDMA devices (for a role whose resources are its own). */
export function withoutRdma(network: GpuNetworking | undefined): GpuNetworking | undefined {
  if (!network) return undefined;
  const { rdmaDevice: _device, rdmaDevicesPerPod: _count, ...rest } = network;
  return rest;
}

/** A device count with no device to count, on the network a role ends up with. */
export function rdmaCountFinding(network: GpuNetworking | undefined, field: string): Finding | undefined {
  if (network?.rdmaDevicesPerPod === undefined || network.rdmaDevice) return undefined;
  return finding(`${field}.rdmaDevicesPerPod`, network.rdmaDevicesPerPod, 'expected none without an rdmaDevice on the role, the job or the platform defaults');
}

/** RDMA devices per pod, if any. */
export function rdmaCount(network: GpuNetworking | undefined): number {
  return network?.rdmaDevice ? network.rdmaDevicesPerPod ?? 1 : 0;
}

/** What is wrong with the values of a network setting. */
export function networkingFindings(network: GpuNetworking | undefined, field: string): Finding[] {
  const out: Finding[] = [];
  if (!network) return out;
  const device = network.rdmaDevice?.resourceName;
  if (network.rdmaDevice && (typeof device !== 'string' || !device.includes('/') || !isQualifiedName(device))) {
    out.push(finding(`${field}.rdmaDevice`, device, 'expected an extended resource name such as "rdma/rdma_shared_device_a" (a DNS subdomain, "/", a name)'));
  }
  const count = network.rdmaDevicesPerPod;
  // Without a device here it may still come from the platform; that is checked once merged (rdmaCountFinding).
  if (count !== undefined && (!Number.isInteger(count) || count < 1)) {
    out.push(finding(`${field}.rdmaDevicesPerPod`, count, 'expected a whole number of 1 or more'));
  }
  (network.networks ?? []).forEach((attachment, i) => {
    if (!isAttachment(attachment)) out.push(finding(`${field}.networks[${i}]`, attachment, ATTACHMENT_TEXT));
  });
  const nccl = network.nccl;
  if (nccl) {
    (nccl.socketInterfaces ?? []).forEach((name, i) => {
      if (!isInterfaceName(name)) out.push(finding(`${field}.nccl.socketInterfaces[${i}]`, name, 'expected a Linux interface name: 1 to 15 characters, no "/", ":", "," or white space'));
    });
    (nccl.ibHcas ?? []).forEach((hca, i) => {
      if (typeof hca !== 'string' || !/^[\^=]?[A-Za-z0-9_.-]+(:[0-9]+)?$/.test(hca)) {
        out.push(finding(`${field}.nccl.ibHcas[${i}]`, hca, 'expected an adapter name or prefix such as "mlx5_0" or "mlx5_0:1"'));
      }
    });
    if (nccl.gidIndex !== undefined && (!Number.isInteger(nccl.gidIndex) || nccl.gidIndex < 0)) {
      out.push(finding(`${field}.nccl.gidIndex`, nccl.gidIndex, 'expected a whole number of 0 or more'));
    }
    if (nccl.netGdrLevel !== undefined && !GDR_LEVELS.includes(nccl.netGdrLevel)) {
      out.push(finding(`${field}.nccl.netGdrLevel`, nccl.netGdrLevel, `expected one of ${GDR_LEVELS.join(', ')}`));
    }
  }
  return out;
}

/**
 * Multus's format of one attachment (parsePodNetworkObjectName): an optional namespace and "/",
 * the NetworkAttachmentDefinition's name, an optional "@" and interface name; namespace and name
 * are DNS-1123 labels.
 */
function isAttachment(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = /^(?:([^/@]+)\/)?([^/@]+)(?:@([^/@]+))?$/.exec(value);
  if (!match) return false;
  const [, namespace, name, iface] = match;
  return (namespace === undefined || isDns1123Label(namespace)) && isDns1123Label(name) && (iface === undefined || isInterfaceName(iface));
}

/** Linux's dev_valid_name (net/core/dev.c): under IFNAMSIZ (16) bytes, no "/", ":" or white space. */
function isInterfaceName(value: unknown): boolean {
  return typeof value === 'string' && value.length >= 1 && value.length <= 15 && value !== '.' && value !== '..' && !/[/:,\s]/.test(value);
}


/**
 * The main container with the network's RDMA devices (limit and equal request: extended resources
 * cannot be overcommitted, ValidateResourceRequirements), the IPC_LOCK capability GPUDirect RDMA
 * needs to pin memory (as MLBatch's chart adds it with RoCE GDR), and NCCL's environment where the
 * user has not set the same variable (what the user writes wins over a preset).
 */
export function withNetworking(container: k8s.Container, network: GpuNetworking | undefined): k8s.Container {
  if (!network) return container;
  let out = container;
  const count = rdmaCount(network);
  if (count > 0) {
    const name = network.rdmaDevice!.resourceName;
    const amount = k8s.Quantity.fromNumber(count);
    const resources = out.resources ?? {};
    out = {
      ...out,
      resources: {
        ...resources,
        limits: { ...(resources.limits ?? {}), [name]: amount },
        requests: { ...(resources.requests ?? {}), [name]: amount },
      },
    };
    const context = out.securityContext ?? {};
    const added = context.capabilities?.add ?? [];
    out = {
      ...out,
      securityContext: {
        ...context,
        capabilities: { ...(context.capabilities ?? {}), add: added.includes(IPC_LOCK) ? added : [...added, IPC_LOCK] },
      },
    };
  }
  const env = ncclEnv(network.nccl);
  const own = new Set((out.env ?? []).map(e => e.name));
  const extra = Object.entries(env).filter(([name]) => !own.has(name)).map(([name, value]) => ({ name, value }));
  if (extra.length) out = { ...out, env: [...(out.env ?? []), ...extra] };
  return out;
}
