/**
 * Resource amounts as Kueue counts them (sigs.k8s.io/kueue v0.15.2 pkg/resources ResourceValue):
 * CPU in millicores, every other resource in whole units (bytes for memory), each rounded up as
 * Quantity.MilliValue and Quantity.Value round. Exact: BigInt, no floats. Shared by the capacity
 * rule and by `plan`, which writes the same numbers.
 */
import { Quantity, parseQuantity } from '../kubernetes/quantity';

const ZERO = BigInt(0);
const TEN = BigInt(10);
const TWO = BigInt(2);

/** ceil(q × 10^shift), exactly; 0 for a negative amount, which the API server refuses anyway. */
export function scaledUp(q: Quantity, shift: number): bigint {
  if (q.negative) return ZERO;
  const e10 = q.exp10 + shift;
  let numerator = q.digits * TWO ** BigInt(q.exp2);
  let denominator = BigInt(1);
  if (e10 >= 0) numerator *= TEN ** BigInt(e10);
  else denominator = TEN ** BigInt(-e10);
  return (numerator + denominator - BigInt(1)) / denominator;
}

/** A quantity of a resource as Kueue counts it; undefined when the value is not a quantity. */
export function resourceValue(resource: string, value: unknown): bigint | undefined {
  const q = parseQuantity(value);
  return q === undefined ? undefined : scaledUp(q, resource === 'cpu' ? 3 : 0);
}

/** CPU as cores: `4`, `2.5`, `0.25`. */
export function formatCpu(milli: bigint): string {
  const sign = milli < ZERO ? '-' : '';
  const m = milli < ZERO ? -milli : milli;
  const whole = m / BigInt(1000);
  const fraction = (m % BigInt(1000)).toString().padStart(3, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

// Binary units first (how manifests write memory), then decimal ones, the small ones last.
const UNITS: Array<[string, bigint]> = [
  ['Ti', TWO ** BigInt(40)], ['Gi', TWO ** BigInt(30)], ['Mi', TWO ** BigInt(20)],
  ['T', TEN ** BigInt(12)], ['G', TEN ** BigInt(9)], ['M', TEN ** BigInt(6)],
  ['Ki', TWO ** BigInt(10)], ['k', TEN ** BigInt(3)],
];

/** Memory in the first unit that writes it exactly: `64Gi`, `1536Mi`, `2G`, `1001`. */
export function formatBytes(bytes: bigint): string {
  if (bytes === ZERO) return '0';
  const sign = bytes < ZERO ? '-' : '';
  const b = bytes < ZERO ? -bytes : bytes;
  for (const [unit, size] of UNITS) if (b % size === ZERO) return `${sign}${b / size}${unit}`;
  return `${sign}${b}`;
}

/** Resources counted in bytes. */
const isBytes = (resource: string) => resource === 'memory' || resource === 'ephemeral-storage' || resource.startsWith('hugepages-');

/** An amount of a resource as a manifest would write it: cores, bytes with a unit, or a count. */
export function formatResource(resource: string, value: bigint): string {
  if (resource === 'cpu') return formatCpu(value);
  if (isBytes(resource)) return formatBytes(value);
  return value.toString();
}
