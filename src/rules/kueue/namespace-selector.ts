/**
 * A reference that resolves but does not select: a LocalQueue names a ClusterQueue the input
 * defines, and the ClusterQueue's namespaceSelector leaves out the LocalQueue's namespace. Kueue
 * then admits no workload of the LocalQueue: its scheduler checks the workload's namespace's labels
 * against the selector before anything else ("Workload namespace doesn't match ClusterQueue
 * selector", sigs.k8s.io/kueue v0.15.2 pkg/scheduler/scheduler.go nominate), and a ClusterQueue
 * without a namespaceSelector selects no namespace (the CRD's own description; the selector is read
 * with metav1.LabelSelectorAsSelector, which makes nil `labels.Nothing()`), while `{}` selects every one.
 *
 * A namespace's labels are those of its Namespace document when the input has one (then every
 * label is known), and always `kubernetes.io/metadata.name`, which the API server sets to the name.
 * A requirement on another label of a namespace the input does not define is the cluster's state,
 * and is not judged.
 */
import { isKueueDocument } from './api';
import { AppDocument, AppFinding, namespaceOf, showNamespace } from '../app-document';
import type { DocumentIndex } from '../document-index';
import { KnownLabels, labelSelectorMatches } from '../kubernetes/label-selector-match';
import { isObject } from '../kubernetes/names';
import { Rule } from '../rule';

export const KUEUE_NAMESPACE_SELECTOR = new Rule('kueue', 'kueue/namespace-selector', 'app',
  'kueue v0.15.2 pkg/scheduler/scheduler.go nominate ("Workload namespace doesn\'t match ClusterQueue selector"); apis/kueue/v1beta2 ClusterQueueSpec.NamespaceSelector (nil selects no namespace)',
  'the ClusterQueue a LocalQueue names selects the LocalQueue\'s namespace, else Kueue admits none of its workloads');

/** The label the API server sets on every namespace (k8s.io/api core/v1 LabelMetadataName). */
const METADATA_NAME = 'kubernetes.io/metadata.name';

export function kueueNamespaceSelectors(documents: DocumentIndex, out: AppFinding[]): void {
  const index = documents.queues;
  if (!index.defined || index.localQueues.size === 0) return;
  const namespaces = namespaceDocuments(documents.documents);
  for (const d of documents.documents) {
    if (!isKueueDocument(d.doc, 'LocalQueue')) continue;
    const name = d.doc.spec?.clusterQueue;
    const clusterQueue = typeof name === 'string' ? index.clusterQueues.get(name) : undefined;
    if (clusterQueue === undefined) continue; // kueue/reference says when it does not resolve
    const namespace = namespaceOf(d.doc);
    const target = labelsOf(namespace, namespaces.get(namespace));
    const selector = clusterQueue.spec?.namespaceSelector;
    const { matches, failed } = labelSelectorMatches(selector, target);
    if (matches !== false) continue;
    const why = selector === undefined || selector === null
      ? `ClusterQueue "${name}" has no namespaceSelector, which selects no namespace (namespaceSelector: {} selects every one)`
      : `ClusterQueue "${name}"'s namespaceSelector asks ${failed}, and ${showNamespace(namespace)} ${labelText(failed!, target)}`;
    out.push({
      path: d.path,
      finding: {
        field: 'spec.clusterQueue',
        value: name,
        allowed: `expected a ClusterQueue whose namespaceSelector selects the LocalQueue's ${showNamespace(namespace)}; ${why}. Kueue admits none of the LocalQueue's workloads ("Workload namespace doesn't match ClusterQueue selector")`,
        rule: KUEUE_NAMESPACE_SELECTOR.id,
      },
    });
  }
}

/** The input's Namespace documents, by name. */
function namespaceDocuments(docs: readonly AppDocument[]): Map<string, any> {
  const out = new Map<string, any>();
  for (const d of docs) {
    if (d.doc?.apiVersion === 'v1' && d.doc?.kind === 'Namespace' && typeof d.doc.metadata?.name === 'string') out.set(d.doc.metadata.name, d.doc);
  }
  return out;
}

/** What is known of a namespace's labels: all of them with its document, else the one the API server sets (nothing, for no namespace). */
function labelsOf(namespace: string, doc: any): KnownLabels {
  if (namespace === '') return { labels: {}, known: () => false };
  const own = isObject(doc?.metadata?.labels) ? Object.fromEntries(Object.entries(doc.metadata.labels).map(([k, v]) => [k, String(v)])) : {};
  const labels = { ...own, [METADATA_NAME]: namespace };
  return { labels, known: doc === undefined ? (key: string) => key === METADATA_NAME : () => true };
}

/** What the namespace has of the label a failed requirement reads. */
function labelText(failed: string, target: KnownLabels): string {
  const key = failed.split(' ')[0];
  return Object.prototype.hasOwnProperty.call(target.labels, key) ? `has label ${key} "${target.labels[key]}"` : `has no label ${key}`;
}
