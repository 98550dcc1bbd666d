import { ApiObject } from 'cdk8s';

/*
 * Fields a user allowed beyond an object's pinned CRD (`EscapeHatch.allowUnknownField`). Kept in the
 * rule layer, which reads it when it judges a patched manifest, so that the rules need nothing from
 * the constructs above them.
 */
const allowed = new WeakMap<ApiObject, Set<string>>();

/** Allows a field path (as findings write it, `spec.containers[0].x`) and everything below it. */
export function allowField(apiObject: ApiObject, field: string): void {
  let set = allowed.get(apiObject);
  if (!set) {
    set = new Set();
    allowed.set(apiObject, set);
  }
  set.add(field);
}

/** The field paths allowed for an object. */
export function allowedFields(apiObject: ApiObject): ReadonlySet<string> {
  return allowed.get(apiObject) ?? new Set();
}
