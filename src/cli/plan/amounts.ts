/**
 * Exact resource amounts for `plan`: CPU in millicores and memory in bytes as BigInt, rounded up as
 * the API server rounds (Quantity.MilliValue and Value round up), accelerators as whole counts.
 * What a pod asks for is what Kueue counts (rules/kueue/pod-requests.ts, the same arithmetic as the
 * capacity rules and plan's quota view): this module only sorts it into CPU, memory and accelerators.
 */
import { formatBytes, formatCpu, scaledUp } from '../../rules/kueue/capacity-amounts';
import { Requests, podRequests } from '../../rules/kueue/pod-requests';

// The exact arithmetic and the cores and bytes texts are Kueue's too (the capacity rule uses them).
export { formatBytes, formatCpu, scaledUp };

export interface Amounts {
  readonly milliCpu: bigint;
  readonly memoryBytes: bigint;
  /** Extended resources with a vendor domain (`nvidia.com/gpu`, `amd.com/gpu`), by name. */
  readonly accelerators: ReadonlyMap<string, bigint>;
}

const ZERO = BigInt(0);

export const NO_AMOUNTS: Amounts = { milliCpu: ZERO, memoryBytes: ZERO, accelerators: new Map() };

/** Whether a resource name is an accelerator-like extended resource of a vendor (`<domain>/<name>`). */
export function isVendorResource(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash < 0) return false;
  const domain = name.slice(0, slash);
  // kubernetes.io names are the system's own (requests.*, hugepages are unprefixed).
  return domain.includes('.') && domain !== 'kubernetes.io' && !domain.endsWith('.kubernetes.io');
}

/** The amounts of a pod's requests (pod-requests.ts counts them): CPU, memory and the vendors' resources. */
export function amountsOf(requests: Requests): Amounts {
  const accelerators = new Map<string, bigint>();
  for (const name of [...requests.keys()].filter(isVendorResource).sort()) accelerators.set(name, requests.get(name)!);
  return { milliCpu: requests.get('cpu') ?? ZERO, memoryBytes: requests.get('memory') ?? ZERO, accelerators };
}

/** The amounts one pod of the spec asks for, as Kueue counts them. */
export function podAmounts(spec: any): Amounts {
  return amountsOf(podRequests(spec));
}

/** a + b. */
export function add(a: Amounts, b: Amounts): Amounts {
  return combine(a, b, (x, y) => x + y);
}

/** a − b. */
export function subtract(a: Amounts, b: Amounts): Amounts {
  return combine(a, b, (x, y) => x - y);
}

/** a × n. */
export function times(a: Amounts, n: number): Amounts {
  const k = BigInt(n);
  return combine(a, NO_AMOUNTS, x => x * k);
}

function combine(a: Amounts, b: Amounts, op: (x: bigint, y: bigint) => bigint): Amounts {
  const accelerators = new Map<string, bigint>();
  for (const name of [...new Set([...a.accelerators.keys(), ...b.accelerators.keys()])].sort()) {
    accelerators.set(name, op(a.accelerators.get(name) ?? ZERO, b.accelerators.get(name) ?? ZERO));
  }
  return { milliCpu: op(a.milliCpu, b.milliCpu), memoryBytes: op(a.memoryBytes, b.memoryBytes), accelerators };
}

/** Accelerators as `8 nvidia.com/gpu, 2 amd.com/gpu`, or `-` for none. */
export function formatAccelerators(a: ReadonlyMap<string, bigint>, signed = false): string {
  const parts = [...a.entries()].filter(([, n]) => n !== ZERO).map(([name, n]) => `${signed && n > ZERO ? '+' : ''}${n} ${name}`);
  return parts.length === 0 ? (signed ? '0' : '-') : parts.join(', ');
}
