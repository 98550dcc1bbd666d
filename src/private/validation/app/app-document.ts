import { Finding } from '../finding';

/** One rendered object of the app and the construct path it came from. */
export interface AppDocument {
  readonly path: string;
  readonly doc: any;
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
