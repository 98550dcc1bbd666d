/**
 * Two objects with the same API group, kind, namespace and name are one object to the API server:
 * `kubectl apply` writes the second over the first, `create` fails with AlreadyExists.
 */
import { documentKind } from './';
import { AppDocument, AppFinding, labelOf, namespaceOf, showNamespace } from '../app-document';
import { Rule } from '../rule';

export const DUPLICATE_OBJECT = new Rule('kubernetes', 'kubernetes/duplicate-object', 'app',
  'kube-apiserver object identity (group, kind, namespace, name): AlreadyExists on create, overwritten on apply',
  'two objects of one kind, namespace and name cannot both be created');

export function duplicateObjects(docs: readonly AppDocument[], out: AppFinding[]): void {
  const seen = new Map<string, AppDocument>();
  for (const d of docs) {
    const doc = d.doc;
    const name = doc?.metadata?.name;
    if (typeof name !== 'string' || name === '' || typeof doc?.kind !== 'string') continue;
    const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    // Cluster-scoped kinds have no namespace; the API server ignores one written on them.
    const ns = documentKind(doc)?.namespaced === false ? '' : namespaceOf(doc);
    const key = `${group}\u0000${doc.kind}\u0000${ns}\u0000${name}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, d);
      continue;
    }
    out.push({
      path: d.path,
      finding: {
        field: 'metadata.name',
        value: name,
        rule: DUPLICATE_OBJECT.id,
        allowed: `expected a name no other ${doc.kind} in ${showNamespace(ns)} has (${labelOf(first)} is also ${doc.kind} "${name}", and one would replace the other)`,
      },
    });
  }
}
