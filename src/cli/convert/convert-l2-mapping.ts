/*
 * What an L2 mapper gives back, in a module of its own: the per-kind mappers (convert-runtime.ts,
 * convert-v1-job.ts, ...) return it and convert-mappers.ts, which dispatches to them, reads it.
 */

/** The L2 code of an object (the construct and what the module imports for it), or why the construct cannot say it. */
export type L2Mapping =
  /**
   * `patches`: why each JSON patch the code adds is there, one comment each, above the code;
   * `patched`: the code adds JSON patches and says why itself (the v1 jobs' mapper).
   */
  | { readonly code: string; readonly imports: readonly string[]; readonly patches?: readonly string[]; readonly patched?: boolean }
  | { readonly cannot: string };
