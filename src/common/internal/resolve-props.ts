import { ApiObject, Lazy } from 'cdk8s';
import { propsRenderedByDefault } from '../../synth/cdk8s-adapter';

/*
 * What `ApiObject.toJson()` of cdk8s gives for an object the library renders, in one walk instead
 * of cdk8s's two (`resolve`, then `sanitizeValue`).
 *
 * cdk8s resolves every value of an object's props through the app's resolvers, building a
 * resolution context and a fresh key path for each value and looking up the app from the object
 * each time, and then walks the result again to sort keys and drop nulls. For the spec a
 * construct renders (a `Lazy` whose value is a few hundred plain values) that is the larger part
 * of rendering it. With cdk8s's three default resolvers, what they do to a value is fixed, so both
 * walks fold into one:
 *
 * - a `Lazy` becomes what it produces, and that is resolved in turn (LazyResolver);
 * - an object with a `resolve()` method becomes what it returns, resolved in turn (ImplicitTokenResolver);
 * - an array is resolved element by element, a plain object key by key in sorted order, without
 *   keys whose value resolves to null or undefined (sanitizeValue, keys sorted);
 * - an instance of a class with a string or number `value` (Quantity, IntOrString) becomes
 *   `{ value }` (NumberStringUnionResolver);
 * - strings, numbers and booleans stay as they are.
 *
 * Anything else (user resolvers on the app, `CDK8S_DISABLE_SORT`, JSON patches added through
 * cdk8s's own list, a value of another kind) gives `undefined`, and the object renders through
 * cdk8s as before: the answer is always exactly cdk8s's. test/common/resolve-props.test.ts compares the
 * two on every object of every example app and on each of those cases. What this needs of cdk8s's
 * internals (the private fields `props` and `patches`, its default resolvers) is read
 * through the one cdk8s adapter (synth/cdk8s-adapter.ts), whose test checks it against the pinned
 * cdk8s: should a release rename a field, every object falls back to cdk8s's path.
 *
 * Only the objects of the library's constructs render this way. An L1 object written by hand
 * renders through cdk8s's own `toJson()`, as any class `cdk8s import` generates does.
 */

/** Thrown out of the walk at a value none of the cases above covers: cdk8s decides then. */
const NOT_PLAIN = Symbol('not plain');

/** What the generated L1 classes (imports/) have beside ApiObject for this (see scripts/l1/modules.ts). */
interface ResolvableL1 extends ApiObject {
  _setPropsResolver(resolver: (apiObject: ApiObject) => any): void;
}

/** Makes `apiObject`, one of the library's generated L1s, resolve its props in one walk. */
export function resolvePropsInOneWalk(apiObject: ApiObject): void {
  const l1 = apiObject as Partial<ResolvableL1>;
  if (typeof l1._setPropsResolver === 'function') l1._setPropsResolver(resolveProps);
}

/**
 * The object's props and metadata as cdk8s's `ApiObject.toJson()` returns them (resolved, keys
 * sorted, `apiVersion`, `kind` and `metadata` first), or `undefined` where only cdk8s can say.
 */
export function resolveProps(apiObject: ApiObject): any {
  const props = propsRenderedByDefault(apiObject);
  if (props === undefined) return undefined;
  let json: any;
  try {
    json = resolveValue({ ...props, metadata: apiObject.metadata.toJson() });
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    // The message cdk8s gives for an error while rendering (a Lazy that throws).
    throw new Error(`Failed serializing construct at path '${apiObject.node.path}' with name '${apiObject.name}': ${e}`);
  }
  const result: any = {};
  for (const key of ['apiVersion', 'kind', 'metadata', ...Object.keys(json)]) {
    if (key in json) result[key] = json[key];
  }
  return result;
}

/** `sanitizeValue(resolve(value))` with the default resolvers; throws NOT_PLAIN where that is not known here. */
function resolveValue(value: any): any {
  if (value === null || value === undefined) return undefined;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return value;
  if (value instanceof Lazy) return resolveValue(value.produce());
  if (typeof value.resolve === 'function') return resolveValue(value.resolve());
  // map, as both of cdk8s's walks do (it keeps the holes of a sparse array).
  if (Array.isArray(value)) return value.map(element => resolveValue(element));
  if (value.constructor === Object) {
    const keys = Object.keys(value);
    if (keys.length > 1) keys.sort();
    const out: any = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const resolved = resolveValue(value[key]);
      if (resolved !== null && resolved !== undefined) out[key] = resolved;
    }
    return out;
  }
  const union = value.value;
  if (typeof union === 'string' || typeof union === 'number') return { value: union };
  throw NOT_PLAIN;
}
