/**
 * The Kubernetes rule layer: pure functions over rendered documents (what `ApiObject.toJson()`
 * returns, or a parsed YAML document), applying the API server's object and pod-template rules that
 * need no cluster and the kubelet's and runtime's start-up refusals. Findings name the rule and the
 * field from the document root; the engine maps them to construct paths.
 */
import { DocumentKind, documentKind, integerFields, SUBDOMAIN_NAME } from './documents';
import { checkIntegers, compileIntegers } from './integers';
import { checkObjectMeta } from './metadata';
import { isObject } from './names';
import { checkPodTemplate } from './pod-spec';
import { Location, compileLocation, select } from './select';
import { Finding } from '../finding';

export { DOCUMENT_KINDS, documentKind, integerFields } from './documents';
export { restrictedFindings } from './pod-security';
export type { DocumentKind } from './documents';

/** A kind's table, compiled once. */
interface Compiled {
  readonly templates: readonly Location[];
  readonly integers: ReturnType<typeof compileIntegers>;
}
const compiled = new Map<DocumentKind, Compiled>();

function compile(kind: DocumentKind): Compiled {
  let c = compiled.get(kind);
  if (c === undefined) {
    c = { templates: kind.podTemplates.map(compileLocation), integers: compileIntegers(integerFields(kind)) };
    compiled.set(kind, c);
  }
  return c;
}

/** Every finding of every rule that applies to one document. */
export function kubernetesFindings(doc: any): Finding[] {
  const out: Finding[] = [];
  checkKubernetesDocument(doc, out);
  return out;
}

/** The Kubernetes set's walk over one document (rule-set.ts): its findings are added to `out`. */
export function checkKubernetesDocument(doc: any, out: Finding[]): void {
  if (!isObject(doc)) return;
  const kind = documentKind(doc);
  checkObjectMeta(doc.metadata, 'metadata', kind?.name ?? SUBDOMAIN_NAME, out);
  if (kind === undefined) return;
  const c = compile(kind);
  const added = kind.addedVolumes?.(doc) ?? [];
  for (const location of c.templates) select(doc, location, (template, at) => checkPodTemplate(template, at, out, added));
  checkIntegers(c.integers, doc, '', out);
  kind.check?.(doc, out);
}
