/**
 * Kueue's rules: its webhooks on a ClusterQueue, a Cohort and a ResourceFlavor, the served API
 * version of every Kueue object, a pod template's topology annotations (read on the Kubernetes
 * walk over pod templates) and a job's slices (read on the Training Operator's walk), and across
 * the objects of one app: queue names and references, cohort cycles, jobs their ClusterQueue can
 * never admit, TrainJobs whose pods would miss their flavor, MultiKueue without a queue.
 */
import { KUEUE_API_VERSION_RULES, checkKueueApiVersion } from './api-version-served';
import { KUEUE_NEVER_ADMITTED, kueueNeverAdmitted } from './capacity';
import { CLUSTER_QUEUE_RULES, checkClusterQueue } from './cluster-queue';
import { COHORT_RULES, checkCohort } from './cohort';
import { KUEUE_COHORT_CYCLE, kueueCohortCycles } from './cohort-cycles';
import { MULTIKUEUE_QUEUE, multiKueueWithoutQueue } from './multikueue';
import { KUEUE_NAMESPACE_SELECTOR, kueueNamespaceSelectors } from './namespace-selector';
import { KUEUE_QUEUE_NAME, kueueQueueNames } from './queue-name';
import { KUEUE_REFERENCE, kueueReferences } from './references';
import { RESOURCE_FLAVOR_RULES, checkResourceFlavor } from './resource-flavor';
import { KUEUE_TOPOLOGY_RULES } from './topology';
import { KUEUE_SLICE_RULES } from './topology-slices';
import { KUEUE_TRAINJOB_PLACEMENT, kueueTrainJobPlacement } from './trainjob-placement';
import { isDocumentOf } from '../../kinds/kind';
import { CLUSTER_QUEUE, COHORT, RESOURCE_FLAVOR } from '../../kinds/kueue';
import { Finding } from '../finding';
import type { RuleSet } from '../rule-set';

/** The checks of one Kueue object; any v1beta1 one, of a kind the rules know or not, is no longer served. */
function checkKueueObject(doc: any, out: Finding[]): void {
  checkKueueApiVersion(doc, out);
  if (isDocumentOf(doc, CLUSTER_QUEUE)) checkClusterQueue(doc, out);
  else if (isDocumentOf(doc, COHORT)) checkCohort(doc, out);
  else if (isDocumentOf(doc, RESOURCE_FLAVOR)) checkResourceFlavor(doc, out);
}

export const KUEUE_RULE_SET: RuleSet = {
  source: 'kueue',
  title: 'Kueue',
  rules: [
    ...KUEUE_TOPOLOGY_RULES, ...KUEUE_SLICE_RULES, ...CLUSTER_QUEUE_RULES, ...COHORT_RULES, ...RESOURCE_FLAVOR_RULES, ...KUEUE_API_VERSION_RULES,
    MULTIKUEUE_QUEUE, KUEUE_QUEUE_NAME, KUEUE_REFERENCE, KUEUE_COHORT_CYCLE, KUEUE_NEVER_ADMITTED, KUEUE_TRAINJOB_PLACEMENT,
    KUEUE_NAMESPACE_SELECTOR,
  ],
  checkDocument: checkKueueObject,
  checkDocuments: (index, out) => {
    const docs = index.documents;
    multiKueueWithoutQueue(index, out);
    kueueQueueNames(docs, out);
    kueueReferences(index, out);
    kueueNamespaceSelectors(index, out);
    kueueCohortCycles(docs, out);
    kueueNeverAdmitted(index, out);
    kueueTrainJobPlacement(index, out);
  },
};
