/**
 * The props a construct was created with, as the boundary checked them, kept on the construct
 * itself: the rules' messages name the prop that set a rendered field
 * (common/internal/prop-fields.ts), whatever the family. A symbol of this copy of the library,
 * set non-enumerable, so the props travel with the construct (and go with it) without showing in
 * its keys, its JSON or another copy's view of it.
 */
const CHECKED_PROPS = Symbol('cdk8s-kubeflow.boundary.checkedProps');

/** Keeps `props` on `construct` (the boundary does, once it has checked them). */
export function keepCheckedProps(construct: object, props: object): void {
  Object.defineProperty(construct, CHECKED_PROPS, { value: props, enumerable: false, writable: false, configurable: true });
}

/** The props kept on `construct`, or undefined for a construct the boundary did not check. */
export function checkedPropsOf(construct: object | undefined): object | undefined {
  return construct === undefined ? undefined : (construct as { [CHECKED_PROPS]?: object })[CHECKED_PROPS];
}
