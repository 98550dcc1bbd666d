/**
 * Resource quantities (k8s.io/apimachinery/pkg/api/resource ParseQuantity), parsed exactly so that
 * requests and limits compare as the API server compares them (`Quantity.Cmp`), without floats.
 */

// The quantity grammar of ParseQuantity (the same as the CRD schemas' pattern).
const QUANTITY = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE])|[eE]([+-]?\d+))?$/;

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** An exact quantity: digits × 10^exp10 × 2^exp2, with a sign. */
export interface Quantity {
  /** The value as a double, to compare quickly when two quantities are far apart. */
  readonly approx: number;
  readonly negative: boolean;
  readonly digits: bigint;
  readonly exp10: number;
  readonly exp2: number;
}

// Quantities repeat across documents ("4", "16Gi", 1): each text is parsed once.
const PARSED = new Map<unknown, Quantity | undefined>();
const MAX_PARSED = 10000;

/** Parses a quantity given as a string or a JSON number; undefined when it is not one. */
export function parseQuantity(value: unknown): Quantity | undefined {
  if (PARSED.has(value)) return PARSED.get(value);
  const q = parse(value);
  if (typeof value === 'string' || typeof value === 'number') {
    if (PARSED.size >= MAX_PARSED) PARSED.clear();
    PARSED.set(value, q);
  }
  return q;
}

function parse(value: unknown): Quantity | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (typeof text !== 'string') return undefined;
  const m = QUANTITY.exec(text);
  if (m === null) return undefined;
  const whole = m[2] ?? '';
  const fraction = m[3] ?? m[4] ?? '';
  let exp10 = -fraction.length;
  let exp2 = 0;
  if (m[5] !== undefined) {exp2 = BINARY[m[5]];} else if (m[6] !== undefined) {exp10 += DECIMAL[m[6]];} else if (m[7] !== undefined) {
    const e = Number(m[7]);
    if (Math.abs(e) > 1000) return undefined;
    exp10 += e;
  }
  const negative = m[1] === '-';
  const digits = (whole + fraction) || '0';
  const approx = (negative ? -1 : 1) * Number(digits) * 10 ** exp10 * 2 ** exp2;
  return { approx, negative, digits: BigInt(digits), exp10, exp2 };
}

const TEN = BigInt(10);
const TWO = BigInt(2);
const ZERO = BigInt(0);

/** The sign of a − b (−1, 0, 1). */
export function compareQuantities(a: Quantity, b: Quantity): number {
  if (a === b) return 0;
  // Doubles decide when the values are clearly apart; exact arithmetic only when they are close.
  const scale = Math.max(Math.abs(a.approx), Math.abs(b.approx));
  if (Number.isFinite(scale) && Math.abs(a.approx - b.approx) > scale * 1e-9) return a.approx < b.approx ? -1 : 1;
  const e10 = Math.min(a.exp10, b.exp10);
  const e2 = Math.min(a.exp2, b.exp2);
  const x = scaled(a, e10, e2);
  const y = scaled(b, e10, e2);
  return x < y ? -1 : x > y ? 1 : 0;
}

function scaled(q: Quantity, e10: number, e2: number): bigint {
  const v = q.digits * TEN ** BigInt(q.exp10 - e10) * TWO ** BigInt(q.exp2 - e2);
  return q.negative ? -v : v;
}

export function isNegative(q: Quantity): boolean {
  return q.negative && q.digits !== ZERO;
}

/** Whether the quantity is a whole number (what integer resources require). */
export function isWhole(q: Quantity): boolean {
  if (q.digits === ZERO || (q.exp10 >= 0 && q.exp2 >= 0)) return true;
  if (q.exp2 < 0) return false; // not produced by the grammar
  return q.digits % TEN ** BigInt(-q.exp10) === ZERO;
}
