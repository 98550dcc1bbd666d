/*
 * Small helpers over maps and lists that every construct uses when it renders. Not exported from
 * the package: plumbing, free to change.
 */

/** A copy without undefined values, so the typed serializers see only what is set. */
export function dropUndefined<T extends object>(value: T): T {
  // A plain loop: this runs for every pod and container, and an entries/filter/fromEntries chain
  // allocated three arrays per call (measured by `npm run bench`).
  const out: { [key: string]: unknown } = {};
  for (const key of Object.keys(value)) {
    const v = (value as { [key: string]: unknown })[key];
    if (v !== undefined) out[key] = v;
  }
  return out as T;
}

/** Later maps win key by key; undefined when all are empty. */
export function mergeMaps(...maps: Array<{ [key: string]: string } | undefined>): { [key: string]: string } | undefined {
  const out: { [key: string]: string } = {};
  for (const m of maps) Object.assign(out, m ?? {});
  return Object.keys(out).length ? out : undefined;
}

/** The map, or undefined when it has no keys. */
export function nonEmpty(map: { [key: string]: string } | undefined): { [key: string]: string } | undefined {
  return map && Object.keys(map).length ? map : undefined;
}

/** A copy with keys in sorted order, so output does not depend on the order they were added in. */
export function sortedMap(map: { [key: string]: string }): { [key: string]: string } {
  const out: { [key: string]: string } = {};
  for (const key of Object.keys(map).sort()) out[key] = map[key];
  return out;
}

/**
 * The same value written with its object keys sorted: two tolerations or volumes a user wrote with
 * fields in a different order are one value, and `plan` does not count a reordered YAML document
 * as a change.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map(k => [k, x[k]])) : x);
}

/** Keeps the first of equal items (compared by content, whatever order their keys are in). */
export function uniqueByContent<T>(items: T[]): T[] {
  // A list of one item has no duplicates: the common case (one accelerator toleration), without
  // serializing the item to compare it with nothing.
  if (items.length < 2) return [...items];
  const seen = new Set<string>();
  return items.filter(item => {
    const key = typeof item === 'string' ? `s:${item}` : canonicalJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The items that occur more than once, each listed once. */
export function duplicates<T>(items: T[]): T[] {
  const seen = new Set<T>();
  const repeated = new Set<T>();
  for (const item of items) (seen.has(item) ? repeated : seen).add(item);
  return [...repeated];
}

/** `"a", "b"`, or `none is defined` for an empty list. */
export function listOf(values: string[]): string {
  return values.length ? values.map(v => JSON.stringify(v)).join(', ') : 'none is defined';
}
