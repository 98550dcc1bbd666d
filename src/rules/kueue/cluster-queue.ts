/**
 * What Kueue's ClusterQueue webhook refuses on a create (sigs.k8s.io/kueue v0.15.2
 * pkg/webhooks/clusterqueue_webhook.go ValidateClusterQueue, common.go), beyond what the CRD's
 * schema and CEL rules say (those are the strict schema's, `crd/schema`): the resource groups'
 * names, order and sizes, each flavor in one group, the quotas' signs and limits, the fair-sharing
 * weight. The namespace selector is a Kubernetes label selector, judged by the Kubernetes rule.
 */
import { Finding } from '../finding';
import { child, indexed } from '../kubernetes/field-path';
import { isObject, isQualifiedName, QUALIFIED_NAME_TEXT } from '../kubernetes/names';
import { compareQuantities, isNegative, parseQuantity } from '../kubernetes/quantity';
import { checkLabelSelector } from '../kubernetes/scheduling';
import { Rule } from '../rule';

const F = 'queues';
const SOURCE = 'kueue v0.15.2 pkg/webhooks/clusterqueue_webhook.go';

export const CLUSTER_QUEUE_RESOURCES = new Rule('kueue', 'kueue/cluster-queue-resources', F,
  `${SOURCE} validateResourceGroups, validateFlavorQuotas, validateTotalFlavors, validateTotalCoveredResources, validateFlavorResourceCombinations `
  + '(covered resources qualified names, each in one group; a flavor\'s resources in the order of coveredResources; at most 256 flavors, 256 covered resources, 512 flavor-resource pairs per group)');
export const CLUSTER_QUEUE_FLAVORS = new Rule('kueue', 'kueue/cluster-queue-flavors', F,
  `${SOURCE} validateResourceGroups (a flavor appears in one resource group, once)`);
export const CLUSTER_QUEUE_QUOTAS = new Rule('kueue', 'kueue/cluster-queue-quotas', F,
  `${SOURCE} validateFlavorQuotas, validateResourceQuantity, validateLimit, validateLendingLimit (no negative quota; borrowing and lending limits only with a cohort; lendingLimit at most nominalQuota)`);
export const FAIR_SHARING_WEIGHT = new Rule('kueue', 'kueue/fair-sharing-weight', F,
  'kueue v0.15.2 pkg/webhooks/common.go validateFairSharing (weight not negative, 0 or above 1n)');

export const CLUSTER_QUEUE_RULES = [CLUSTER_QUEUE_RESOURCES, CLUSTER_QUEUE_FLAVORS, CLUSTER_QUEUE_QUOTAS, FAIR_SHARING_WEIGHT];

/** Kueue's limits on the sizes of a ClusterQueue's resource groups, across the groups and per group. */
const MAX_FLAVORS = 256;
const MAX_COVERED_RESOURCES = 256;
const MAX_FLAVOR_RESOURCES_PER_GROUP = 512;

/** The smallest fair-sharing weight above 0 that Kueue does not refuse as one that would collapse to 0. */
const ONE_NANO = parseQuantity('1n')!;
const ZERO = parseQuantity('0')!;

/** Checks a ClusterQueue (`kueue.x-k8s.io/v1beta1`) as Kueue's webhook does on a create. */
export function checkClusterQueue(doc: any, out: Finding[]): void {
  const spec = doc?.spec;
  if (!isObject(spec)) return;
  const groups: unknown[] = Array.isArray(spec.resourceGroups) ? spec.resourceGroups : [];
  const hasCohort = typeof spec.cohort === 'string' && spec.cohort !== '';
  const seenResources = new Set<string>();
  const seenFlavors = new Set<string>();
  let flavors = 0;
  let covered = 0;
  groups.forEach((group, i) => {
    if (!isObject(group)) return;
    const at = indexed('spec.resourceGroups', i);
    const names: unknown[] = Array.isArray(group.coveredResources) ? group.coveredResources : [];
    covered += names.length;
    names.forEach((name, j) => {
      const path = indexed(child(at, 'coveredResources'), j);
      if (!isQualifiedName(name)) {
        CLUSTER_QUEUE_RESOURCES.report(out, path, name, `expected a resource name: ${QUALIFIED_NAME_TEXT}`);
      } else if (seenResources.has(name as string)) {
        CLUSTER_QUEUE_RESOURCES.report(out, path, name, 'expected each resource covered by one resource group only; an earlier entry covers it already');
      } else {
        seenResources.add(name as string);
      }
    });
    const groupFlavors: unknown[] = Array.isArray(group.flavors) ? group.flavors : [];
    flavors += groupFlavors.length;
    let pairs = 0;
    groupFlavors.forEach((flavor, j) => {
      if (!isObject(flavor)) return;
      const path = indexed(child(at, 'flavors'), j);
      if (typeof flavor.name === 'string') {
        if (seenFlavors.has(flavor.name)) {
          CLUSTER_QUEUE_FLAVORS.report(out, child(path, 'name'), flavor.name, 'expected each flavor in one resource group, once; it is listed earlier already');
        } else {
          seenFlavors.add(flavor.name);
        }
      }
      const resources: unknown[] = Array.isArray(flavor.resources) ? flavor.resources : [];
      pairs += resources.length;
      checkFlavorQuotas(resources, names, hasCohort, path, out);
    });
    if (pairs > MAX_FLAVOR_RESOURCES_PER_GROUP) {
      CLUSTER_QUEUE_RESOURCES.report(out, at, pairs, `expected at most ${MAX_FLAVOR_RESOURCES_PER_GROUP} flavor-resource pairs in a resource group (flavors × resources)`);
    }
  });
  if (flavors > MAX_FLAVORS) CLUSTER_QUEUE_RESOURCES.report(out, 'spec.resourceGroups', flavors, `expected at most ${MAX_FLAVORS} flavors across all resource groups`);
  if (covered > MAX_COVERED_RESOURCES) {
    CLUSTER_QUEUE_RESOURCES.report(out, 'spec.resourceGroups', covered, `expected at most ${MAX_COVERED_RESOURCES} covered resources across all resource groups`);
  }
  checkLabelSelector(spec.namespaceSelector, 'spec.namespaceSelector', out);
  checkFairSharing(spec.fairSharing, 'spec.fairSharing', out);
}

/** One flavor's quotas: named as coveredResources in order, none negative, limits that Kueue accepts. */
function checkFlavorQuotas(resources: readonly unknown[], covered: readonly unknown[], hasCohort: boolean, at: string, out: Finding[]): void {
  // Kueue compares the resources with coveredResources position by position, and ignores any
  // beyond their count (the CRD's CEL rule requires the same number).
  resources.slice(0, covered.length).forEach((r, i) => {
    if (!isObject(r)) return;
    const path = indexed(child(at, 'resources'), i);
    if (r.name !== covered[i]) {
      CLUSTER_QUEUE_RESOURCES.report(out, child(path, 'name'), r.name,
        `expected ${JSON.stringify(covered[i])}: a flavor lists its resources in the order of the group's coveredResources`);
    }
    const nominal = parseQuantity(r.nominalQuota);
    if (nominal && isNegative(nominal)) CLUSTER_QUEUE_QUOTAS.report(out, child(path, 'nominalQuota'), r.nominalQuota, 'expected a quantity of 0 or more');
    for (const limit of ['borrowingLimit', 'lendingLimit'] as const) {
      if (r[limit] === undefined || r[limit] === null) continue;
      const q = parseQuantity(r[limit]);
      if (!hasCohort) {
        CLUSTER_QUEUE_QUOTAS.report(out, child(path, limit), r[limit], `expected none without a cohort (spec.cohort): a ${limit} bounds what a ClusterQueue borrows from or lends to its cohort`);
      } else if (q && isNegative(q)) {
        CLUSTER_QUEUE_QUOTAS.report(out, child(path, limit), r[limit], 'expected a quantity of 0 or more');
      } else if (limit === 'lendingLimit' && q && nominal && compareQuantities(q, nominal) > 0) {
        CLUSTER_QUEUE_QUOTAS.report(out, child(path, limit), r[limit], `expected at most the nominalQuota (${String(r.nominalQuota)}): a ClusterQueue lends only from its own quota`);
      }
    }
  });
}

/** A fair-sharing weight: 0 (never borrows under contention) or above 1n; Kueue refuses a weight that would round to 0. */
export function checkFairSharing(fairSharing: unknown, at: string, out: Finding[]): void {
  if (!isObject(fairSharing) || fairSharing.weight === undefined || fairSharing.weight === null) return;
  const weight = parseQuantity(fairSharing.weight);
  if (!weight) return; // the schema's pattern reports it
  if (isNegative(weight)) {
    FAIR_SHARING_WEIGHT.report(out, child(at, 'weight'), fairSharing.weight, 'expected a weight of 0 or more');
  } else if (compareQuantities(weight, ZERO) > 0 && compareQuantities(weight, ONE_NANO) <= 0) {
    FAIR_SHARING_WEIGHT.report(out, child(at, 'weight'), fairSharing.weight, 'expected 0 or a weight above 1n (0.000000001): a smaller one is too small for Kueue\'s share arithmetic');
  }
}
