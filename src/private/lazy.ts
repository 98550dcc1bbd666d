/**
 * A value computed on first use and kept. The library loads its rule layers this way (the
 * Kubernetes and app rules, the strict CRD schemas: most of its code) so that `require()` of the
 * package stays close to the cost of cdk8s-plus-28 alone (bench/load.ts): constructs need them only
 * when a synth validates, and many programs require the package without synthesizing.
 */
export function lazy<T>(load: () => T): () => T {
  let loaded: { readonly value: T } | undefined;
  return () => {
    loaded ??= { value: load() };
    return loaded.value;
  };
}
