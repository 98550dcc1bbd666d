/**
 * A value computed on first use and kept: the one way the library defers loading code. The library
 * loads the code that only synthesis or a first call needs this way (the Kubernetes and app rules,
 * the strict CRD schemas, the boundary checks) so that `require()` of the package stays close to
 * the cost of cdk8s-plus-28 alone (bench/load.ts): many programs require the package and build few
 * constructs, or none.
 *
 * A module loaded on first use is one line, with the lint rule's exception above it:
 *
 *     // eslint-disable-next-line @typescript-eslint/no-require-imports
 *     const check = lazy(() => require('./check') as typeof import('./check'));
 *
 * The literal `require()` is what test/package/architecture.test.ts reads for the layering and the bundler
 * of the command follows; the type names the same path, which test/util/lazy.test.ts holds to.
 */
export function lazy<T>(load: () => T): () => T {
  let loaded: { readonly value: T } | undefined;
  return () => {
    loaded ??= { value: load() };
    return loaded.value;
  };
}
