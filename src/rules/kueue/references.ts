/**
 * Names that refer to Kueue objects, when the input defines Kueue objects: a name none of them
 * has is most likely a typo, and Kueue does not refuse it but waits. A job whose LocalQueue or
 * WorkloadPriorityClass does not exist gets no Workload and stays suspended (the error only in
 * Kueue's log); a LocalQueue whose ClusterQueue, or a ClusterQueue whose ResourceFlavor, does not
 * exist admits nothing, and so does every ClusterQueue using a ResourceFlavor whose Topology does
 * not exist (sigs.k8s.io/kueue v0.15.2 pkg/controller/core/localqueue_controller.go
 * ClusterQueueDoesNotExist; pkg/cache/scheduler/clusterqueue.go, the inactive reasons
 * FlavorNotFound and TopologyNotFound). When the input defines no Kueue object at all, the objects are
 * kept elsewhere and nothing is checked.
 */
import { isKueueDocument, isKueueGroup } from './api';
import { QueueIndex, localQueueKey } from './capacity-queues';
import { KUEUE_PRIORITY_LABEL, KUEUE_QUEUE_LABEL } from './labels';
import { nearest } from '../../util/nearest';
import { AppDocument, AppFinding, namespaceOf, showNamespace } from '../app-document';
import type { DocumentIndex } from '../document-index';
import { Rule } from '../rule';

export const KUEUE_REFERENCE = new Rule('kueue', 'kueue/reference', 'app',
  'kueue v0.15.2 pkg/controller/jobframework/reconciler.go (a job\'s LocalQueue and WorkloadPriorityClass), pkg/cache/scheduler/clusterqueue.go FlavorNotFound, TopologyNotFound, pkg/controller/core/localqueue_controller.go ClusterQueueDoesNotExist: names of Kueue objects the input defines',
  'the LocalQueue the label names exists in the job\'s namespace, else the workload stays pending');

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const isKind = isKueueDocument;

/** What to say after "expected ...": a near name, else the names there are. */
function guess(name: string, names: readonly string[], what: string): string {
  const near = nearest(name, names);
  if (near !== undefined) return `did you mean "${near}"?`;
  return names.length === 0 ? `the input defines no ${what}.` : `the input defines ${names.map(n => `"${n}"`).join(', ')}.`;
}

export function kueueReferences(documents: DocumentIndex, out: AppFinding[]): void {
  const docs = documents.documents;
  const index = documents.queues;
  if (!index.defined) return;
  const report = (d: AppDocument, field: string, value: unknown, allowed: string) =>
    out.push({ path: d.path, finding: { field, value, allowed, rule: KUEUE_REFERENCE.id } });
  for (const d of docs) {
    const doc = d.doc;
    if (isKueueGroup(doc)) {
      objectReferences(d, index, report);
      continue;
    }
    const labels = doc?.metadata?.labels;
    const queue = labels?.[KUEUE_QUEUE_LABEL];
    if (typeof queue === 'string' && queue !== '' && !index.localQueues.has(localQueueKey(namespaceOf(doc), queue))) {
      const namespace = namespaceOf(doc);
      const here = [...index.localQueues.values()].filter(q => text(q.metadata?.namespace) === namespace).map(q => text(q.metadata?.name));
      const elsewhere = [...index.localQueues.values()].find(q => text(q.metadata?.name) === queue);
      const hint = elsewhere !== undefined
        ? `the input's "${queue}" is in ${showNamespace(text(elsewhere.metadata?.namespace))}, and Kueue looks in the job's own.`
        : guess(queue, here, 'LocalQueue there');
      report(d, `metadata.labels["${KUEUE_QUEUE_LABEL}"]`, queue,
        `expected a LocalQueue the input defines in the job's ${showNamespace(namespace)}; ${hint} Without it Kueue admits nothing for the job and it stays suspended`);
    }
    const priority = labels?.[KUEUE_PRIORITY_LABEL];
    if (typeof priority === 'string' && priority !== '' && !index.priorityClasses.has(priority)) {
      report(d, `metadata.labels["${KUEUE_PRIORITY_LABEL}"]`, priority,
        `expected a WorkloadPriorityClass the input defines; ${guess(priority, [...index.priorityClasses.keys()], 'WorkloadPriorityClass')} Without it Kueue makes no Workload and the job stays suspended`);
    }
  }
}

type Report = (d: AppDocument, field: string, value: unknown, allowed: string) => void;

function objectReferences(d: AppDocument, index: QueueIndex, report: Report): void {
  const doc = d.doc;
  if (isKind(doc, 'LocalQueue')) {
    const cq = text(doc.spec?.clusterQueue);
    if (cq !== '' && !index.clusterQueues.has(cq)) {
      report(d, 'spec.clusterQueue', cq, `expected a ClusterQueue the input defines; ${guess(cq, [...index.clusterQueues.keys()], 'ClusterQueue')} Without it the LocalQueue admits nothing`);
    }
  } else if (isKind(doc, 'ClusterQueue') || isKind(doc, 'Cohort')) {
    list(doc.spec?.resourceGroups).forEach((group, i) => list(group?.flavors).forEach((flavor, j) => {
      const name = text(flavor?.name);
      if (name === '' || index.flavors.has(name)) return;
      report(d, `spec.resourceGroups[${i}].flavors[${j}].name`, name,
        `expected a ResourceFlavor the input defines; ${guess(name, [...index.flavors.keys()], 'ResourceFlavor')} ${doc.kind === 'Cohort'
          ? 'Without it the Cohort\'s quota of that flavor serves no ClusterQueue: one that names the flavor is inactive'
          : 'Without it the ClusterQueue admits nothing'}`);
    }));
  } else if (isKind(doc, 'ResourceFlavor')) {
    const topology = text(doc.spec?.topologyName);
    if (topology !== '' && !index.topologies.has(topology)) {
      report(d, 'spec.topologyName', topology,
        `expected a Topology the input defines; ${guess(topology, [...index.topologies.keys()], 'Topology')} Without it every ClusterQueue that uses the flavor is inactive and admits nothing`);
    }
  }
}
