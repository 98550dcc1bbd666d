/**
 * Rules across the objects of one app, run once at synth over every rendered document: duplicate
 * objects, pod and service name collisions between training jobs, claims from other namespaces,
 * MultiKueue without a queue, queue names Kueue refuses, names of Kueue objects the input does not
 * define, cohorts whose parents form a cycle, jobs their ClusterQueue can never admit, queued TrainJobs whose pods would miss their
 * flavor, TrainJobs against their runtimes. Pure functions of the documents and their construct paths.
 */
import { AppDocument, AppFinding } from './app-document';
import { DocumentIndex } from './document-index';
import { CLAIM_NAMESPACE, claimsFromOtherNamespaces } from './kubernetes/claims';
import { DUPLICATE_OBJECT, duplicateObjects } from './kubernetes/duplicates';
import { KUEUE_NEVER_ADMITTED, kueueNeverAdmitted } from './kueue/capacity';
import { KUEUE_COHORT_CYCLE, kueueCohortCycles } from './kueue/cohort-cycles';
import { MULTIKUEUE_QUEUE, multiKueueWithoutQueue } from './kueue/multikueue';
import { KUEUE_QUEUE_NAME, kueueQueueNames } from './kueue/queue-name';
import { KUEUE_REFERENCE, kueueReferences } from './kueue/references';
import { KUEUE_TRAINJOB_PLACEMENT, kueueTrainJobPlacement } from './kueue/trainjob-placement';
import { RuleInfo } from './rule';
import { JOBSET_CLAIM_NAME, JOBSET_COORDINATOR } from './trainer/built-jobset';
import { JOBSET_POD_NAME, TRAINJOB_REACH } from './trainer/trainjob-reach';
import { TRAINJOB_RUNTIME, trainJobRuntimes } from './trainer/trainjob-runtime';
import { MPI_LAUNCHER_IMAGE, MPI_NODE_IMAGE } from './trainer/v2-4';
import { POD_NAME_COLLISION, podNameCollisions } from './training-operator/pod-name-collisions';

export type { AppDocument, AppFinding } from './app-document';

export const APP_RULES: readonly RuleInfo[] = [
  DUPLICATE_OBJECT, POD_NAME_COLLISION, CLAIM_NAMESPACE, MULTIKUEUE_QUEUE, KUEUE_QUEUE_NAME, KUEUE_REFERENCE, KUEUE_COHORT_CYCLE,
  KUEUE_NEVER_ADMITTED, KUEUE_TRAINJOB_PLACEMENT, TRAINJOB_RUNTIME,
  TRAINJOB_REACH, JOBSET_POD_NAME,
  JOBSET_COORDINATOR, JOBSET_CLAIM_NAME, MPI_LAUNCHER_IMAGE, MPI_NODE_IMAGE,
].map(r => r.info());

/**
 * Every finding across the app's documents, in document order per rule. The documents are indexed
 * once (`DocumentIndex`) for all the rules; a caller that has the index of its run passes it.
 */
export function appFindings(input: readonly AppDocument[] | DocumentIndex): AppFinding[] {
  const index = input instanceof DocumentIndex ? input : new DocumentIndex(input);
  const docs = index.documents;
  const out: AppFinding[] = [];
  duplicateObjects(docs, out);
  podNameCollisions(docs, out);
  claimsFromOtherNamespaces(docs, out);
  multiKueueWithoutQueue(index, out);
  kueueQueueNames(docs, out);
  kueueReferences(index, out);
  kueueCohortCycles(docs, out);
  kueueNeverAdmitted(index, out);
  kueueTrainJobPlacement(index, out);
  trainJobRuntimes(index, out);
  return out;
}
