import { Finding } from './finding';

/** One rendered object of the app and the construct path it came from. */
export interface AppDocument {
  /** What findings are keyed by: unique per document (a construct path; `lint` adds an index). */
  readonly path: string;
  readonly doc: any;
  /** How a message about another document names this one; `path` when not given. */
  readonly label?: string;
}

/** How messages name a document. */
export function labelOf(d: AppDocument): string {
  return d.label ?? d.path;
}

/** A finding about one object of the app, at its construct path. */
export interface AppFinding {
  readonly path: string;
  readonly finding: Finding;
}

/** The namespace as written (`''` when the document has none), for comparing objects. */
export function namespaceOf(doc: any): string {
  const ns = doc?.metadata?.namespace;
  return typeof ns === 'string' ? ns : '';
}

/** How a namespace reads in a message. */
export function showNamespace(ns: string): string {
  return ns === '' ? 'no namespace (the default of kubectl\'s context)' : `namespace "${ns}"`;
}
