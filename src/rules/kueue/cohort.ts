/**
 * What Kueue's Cohort webhook refuses on a create (sigs.k8s.io/kueue v0.15.2
 * pkg/webhooks/cohort_webhook.go validateCohort), beyond the CRD's schema: the fair-sharing weight,
 * and the resource groups judged as a ClusterQueue's are (the same code in Kueue, with the parent
 * cohort in the place of a ClusterQueue's cohort, and without the ClusterQueue's caps on sizes and
 * its lending limit at most the nominal quota).
 */
import { checkFairSharing, checkResourceGroups } from './cluster-queue';
import { Finding } from '../finding';
import { isObject } from '../kubernetes/names';
import { Rule } from '../rule';

export const COHORT_RESOURCE_GROUPS = new Rule('kueue', 'kueue/cohort-resource-groups', 'queues',
  'kueue v0.15.2 pkg/webhooks/cohort_webhook.go validateCohort, with clusterqueue_webhook.go validateResourceGroups, validateFlavorQuotas, validateLimit '
  + '(covered resources qualified names, each in one group; each flavor in one group, once; its resources in the order of coveredResources; no negative quota; '
  + 'borrowing and lending limits only with a parent cohort)',
  'a Cohort\'s covered resources are resource names, each in one group');

export const COHORT_RULES = [COHORT_RESOURCE_GROUPS];

/** Checks a Cohort (v1beta2 or v1beta1: the same fields) as Kueue's webhook does on a create. */
export function checkCohort(doc: any, out: Finding[]): void {
  const spec = doc?.spec;
  if (!isObject(spec)) return;
  const hasParent = typeof spec.parentName === 'string' && spec.parentName !== '';
  checkResourceGroups(spec.resourceGroups, {
    resources: COHORT_RESOURCE_GROUPS,
    flavors: COHORT_RESOURCE_GROUPS,
    quotas: COHORT_RESOURCE_GROUPS,
    parent: hasParent ? 'spec.parentName' : undefined,
    noParent: limit => `expected none without a parent cohort (spec.parentName): a ${limit} bounds what a Cohort borrows from or lends to its parent`,
    lendingAtMostNominal: false,
    sizeLimits: false,
  }, out);
  checkFairSharing(spec.fairSharing, 'spec.fairSharing', out);
}
