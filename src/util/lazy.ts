/**
 * A value computed on first use and kept. The library loads the code that only synthesis or a
 * first call needs this way (the Kubernetes and app rules, the strict CRD schemas, the boundary
 * checks) so that `require()` of the package stays close to the cost of cdk8s-plus-28 alone
 * (bench/load.ts): many programs require the package and build few constructs, or none.
 */
export function lazy<T>(load: () => T): () => T {
  let loaded: { readonly value: T } | undefined;
  return () => {
    loaded ??= { value: load() };
    return loaded.value;
  };
}
