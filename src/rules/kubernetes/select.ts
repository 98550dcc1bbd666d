/**
 * Where things are in a document, as data: `spec.pytorchReplicaSpecs.*.template` (`*` every map
 * value, `a[]` every list item). Used by the kind table for pod templates, so a new shape (Trainer
 * v2's JobSet templates) is a new row, not new code.
 */
import { child, indexed } from './field-path';
import { isObject } from './names';

/** A compiled location. */
export type Location = readonly { readonly key: string; readonly list: boolean; readonly map: boolean }[];

export function compileLocation(pattern: string): Location {
  return pattern.split('.').map(raw => ({
    key: raw.endsWith('[]') ? raw.slice(0, -2) : raw,
    list: raw.endsWith('[]'),
    map: raw === '*',
  }));
}

/** Calls `visit` with every value at the location and its path. */
export function select(value: unknown, location: Location, visit: (found: unknown, at: string) => void, at = '', from = 0): void {
  if (from === location.length) {
    visit(value, at);
    return;
  }
  if (!isObject(value)) return;
  const step = location[from];
  if (step.map) {
    for (const key in value) select(value[key], location, visit, child(at, key), from + 1);
    return;
  }
  const next = value[step.key];
  if (next === undefined || next === null) return;
  const path = child(at, step.key);
  if (!step.list) {
    select(next, location, visit, path, from + 1);
  } else if (Array.isArray(next)) {
    for (let i = 0; i < next.length; i++) select(next[i], location, visit, indexed(path, i), from + 1);
  }
}
