/**
 * Exact resource amounts for `plan`: CPU in millicores and memory in bytes as BigInt, rounded up as
 * the API server rounds (Quantity.MilliValue and Value round up), accelerators as whole counts. A
 * pod asks for the sum of its containers or the largest init container, whichever is larger, per
 * resource (the scheduler's computePodResourceRequest); requests default to limits.
 */
import { parseQuantity } from '../rules/kubernetes/quantity';
import { formatBytes, formatCpu, scaledUp } from '../rules/kueue/capacity-amounts';

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

/** The amounts one container asks for. */
function containerAmounts(container: any): Amounts {
  const requests = container?.resources?.requests ?? {};
  const limits = container?.resources?.limits ?? {};
  const pick = (name: string, limitFirst: boolean) => {
    const r = requests?.[name];
    const l = limits?.[name];
    const v = limitFirst ? (l ?? r) : (r ?? l);
    return v === undefined ? undefined : parseQuantity(v);
  };
  const cpu = pick('cpu', false);
  const memory = pick('memory', false);
  const accelerators = new Map<string, bigint>();
  for (const name of new Set([...Object.keys(limits ?? {}), ...Object.keys(requests ?? {})])) {
    if (!isVendorResource(name)) continue;
    // Extended resources are set as limits (requests, when given, must equal them).
    const q = pick(name, true);
    if (q !== undefined) accelerators.set(name, scaledUp(q, 0));
  }
  return {
    milliCpu: cpu === undefined ? ZERO : scaledUp(cpu, 3),
    memoryBytes: memory === undefined ? ZERO : scaledUp(memory, 0),
    accelerators,
  };
}

/** The amounts a pod spec asks for. */
export function podAmounts(spec: any): Amounts {
  const containers: any[] = Array.isArray(spec?.containers) ? spec.containers : [];
  const inits: any[] = Array.isArray(spec?.initContainers) ? spec.initContainers : [];
  const sum = containers.map(containerAmounts).reduce(add, NO_AMOUNTS);
  return inits.map(containerAmounts).reduce(max, sum);
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

function max(a: Amounts, b: Amounts): Amounts {
  return combine(a, b, (x, y) => (x > y ? x : y));
}

function combine(a: Amounts, b: Amounts, op: (x: bigint, y: bigint) => bigint): Amounts {
  const accelerators = new Map<string, bigint>();
  for (const name of [...new Set([...a.accelerators.keys(), ...b.accelerators.keys()])].sort()) {
    accelerators.set(name, op(a.accelerators.get(name) ?? ZERO, b.accelerators.get(name) ?? ZERO));
  }
  return { milliCpu: op(a.milliCpu, b.milliCpu), memoryBytes: op(a.memoryBytes, b.memoryBytes), accelerators };
}

/** Whether every amount is zero. */
export function isZero(a: Amounts): boolean {
  return a.milliCpu === ZERO && a.memoryBytes === ZERO && [...a.accelerators.values()].every(v => v === ZERO);
}

/** Accelerators as `8 nvidia.com/gpu, 2 amd.com/gpu`, or `-` for none. */
export function formatAccelerators(a: ReadonlyMap<string, bigint>, signed = false): string {
  const parts = [...a.entries()].filter(([, n]) => n !== ZERO).map(([name, n]) => `${signed && n > ZERO ? '+' : ''}${n} ${name}`);
  return parts.length === 0 ? (signed ? '0' : '-') : parts.join(', ');
}
