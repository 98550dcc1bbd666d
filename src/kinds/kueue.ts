/**
 * Kueue's kinds (kueue.x-k8s.io): the library writes v1beta2, and `lint` still reads v1beta1,
 * which Kueue v0.15 to v0.19 serve and v0.20 no longer does.
 */
import { KindFacts } from './kind';

/** Kueue's API group. */
export const KUEUE_GROUP = 'kueue.x-k8s.io';

const KUEUE = { family: 'kueue', group: KUEUE_GROUP, versions: ['v1beta1', 'v1beta2'] } as const;

const kueueKind = (kind: string, namespaced: boolean, l2: string): KindFacts =>
  ({ ...KUEUE, kind, namespaced, l1: { module: 'kueue', className: kind }, l2 });

export const RESOURCE_FLAVOR = kueueKind('ResourceFlavor', false, 'ResourceFlavor');
export const CLUSTER_QUEUE = kueueKind('ClusterQueue', false, 'ClusterQueue');
export const COHORT = kueueKind('Cohort', false, 'Cohort');
export const LOCAL_QUEUE = kueueKind('LocalQueue', true, 'LocalQueue');
export const WORKLOAD_PRIORITY_CLASS = kueueKind('WorkloadPriorityClass', false, 'WorkloadPriorityClass');
export const KUEUE_TOPOLOGY = kueueKind('Topology', false, 'KueueTopology');

/** Kueue's kinds, in the order the document rules list them. */
export const KUEUE_KINDS: readonly KindFacts[] = [RESOURCE_FLAVOR, CLUSTER_QUEUE, COHORT, LOCAL_QUEUE, WORKLOAD_PRIORITY_CLASS, KUEUE_TOPOLOGY];
