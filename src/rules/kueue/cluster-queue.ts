/**
 * What Kueue's ClusterQueue webhook refuses on a create (sigs.k8s.io/kueue v0.15.2
 * pkg/webhooks/clusterqueue_webhook.go ValidateClusterQueue, common.go), beyond what the CRD's
 * schema and CEL rules say (those are the strict schema's, `library/schema`): the resource groups'
 * names, order and sizes, each flavor in one group, the quotas' signs and limits, the fair-sharing
 * weight. The namespace selector is a Kubernetes label selector, judged by the Kubernetes rule.
 */
import { cohortFieldOf, cohortNameOf } from './api';
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
  + '(covered resources qualified names, each in one group; a flavor\'s resources in the order of coveredResources; at most 256 flavors, 256 covered resources, 512 flavor-resource pairs per group)',
  'each covered resource of a ClusterQueue is a qualified name, covered by one resource group only');
export const CLUSTER_QUEUE_FLAVORS = new Rule('kueue', 'kueue/cluster-queue-flavors', F,
  `${SOURCE} validateResourceGroups (a flavor appears in one resource group, once)`,
  'a flavor appears once across all resource groups of a ClusterQueue');
export const CLUSTER_QUEUE_QUOTAS = new Rule('kueue', 'kueue/cluster-queue-quotas', F,
  `${SOURCE} validateFlavorQuotas, validateResourceQuantity, validateLimit, validateLendingLimit (no negative quota; borrowing and lending limits only with a cohort (v1beta2 spec.cohortName, v1beta1 spec.cohort); lendingLimit at most nominalQuota)`,
  'nominal quota, borrowing limit and lending limit are not negative');
export const FAIR_SHARING_WEIGHT = new Rule('kueue', 'kueue/fair-sharing-weight', F,
  'kueue v0.15.2 pkg/webhooks/common.go validateFairSharing (weight not negative, 0 or above 1n)',
  'the fair-sharing weight is 0 or more, and 0 or above one nano');

export const CLUSTER_QUEUE_RULES = [CLUSTER_QUEUE_RESOURCES, CLUSTER_QUEUE_FLAVORS, CLUSTER_QUEUE_QUOTAS, FAIR_SHARING_WEIGHT];

/** Kueue's limits on the sizes of a ClusterQueue's resource groups, across the groups and per group. */
const MAX_FLAVORS = 256;
const MAX_COVERED_RESOURCES = 256;
const MAX_FLAVOR_RESOURCES_PER_GROUP = 512;

/** The smallest fair-sharing weight above 0 that Kueue does not refuse as one that would collapse to 0. */
const ONE_NANO = parseQuantity('1n')!;
const ZERO = parseQuantity('0')!;

/** Checks a ClusterQueue (v1beta2 or v1beta1, read through ./api.ts) as Kueue's webhook does on a create. */
export function checkClusterQueue(doc: any, out: Finding[]): void {
  const spec = doc?.spec;
  if (!isObject(spec)) return;
  const cohortField = `spec.${cohortFieldOf(doc)}`;
  checkResourceGroups(spec.resourceGroups, {
    resources: CLUSTER_QUEUE_RESOURCES,
    flavors: CLUSTER_QUEUE_FLAVORS,
    quotas: CLUSTER_QUEUE_QUOTAS,
    parent: cohortNameOf(doc) === '' ? undefined : cohortField,
    noParent: limit => `expected none without a cohort (${cohortField}): a ${limit} bounds what a ClusterQueue borrows from or lends to its cohort`,
    lendingAtMostNominal: true,
    sizeLimits: true,
  }, out);
  checkLabelSelector(spec.namespaceSelector, 'spec.namespaceSelector', out);
  checkFairSharing(spec.fairSharing, 'spec.fairSharing', out);
}

/**
 * How Kueue judges resource groups, which ClusterQueues and Cohorts share (validateResourceGroups
 * with its validationConfig): the rules to report through, whether the object has a parent (a
 * ClusterQueue's cohort, a Cohort's parent) that limits bound, and the checks only a ClusterQueue has.
 */
export interface ResourceGroupChecks {
  readonly resources: Rule;
  readonly flavors: Rule;
  readonly quotas: Rule;
  /** The field that names the parent, when the object has one; undefined when it has none. */
  readonly parent?: string;
  /** What to say of a limit (`borrowingLimit`, `lendingLimit`) on an object without a parent. */
  readonly noParent: (limit: string) => string;
  /** A lending limit at most the nominal quota (enforceNominalGreaterThanLending: ClusterQueues only). */
  readonly lendingAtMostNominal: boolean;
  /** The caps on flavors, covered resources and pairs (validateTotalFlavors and the like: ClusterQueues only). */
  readonly sizeLimits: boolean;
}

/** Checks `spec.resourceGroups` of a ClusterQueue or a Cohort. */
export function checkResourceGroups(resourceGroups: unknown, checks: ResourceGroupChecks, out: Finding[]): void {
  const groups: unknown[] = Array.isArray(resourceGroups) ? resourceGroups : [];
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
        checks.resources.report(out, path, name, `expected a resource name: ${QUALIFIED_NAME_TEXT}`);
      } else if (seenResources.has(name as string)) {
        checks.resources.report(out, path, name, 'expected each resource covered by one resource group only; an earlier entry covers it already');
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
          checks.flavors.report(out, child(path, 'name'), flavor.name, 'expected each flavor in one resource group, once; it is listed earlier already');
        } else {
          seenFlavors.add(flavor.name);
        }
      }
      const resources: unknown[] = Array.isArray(flavor.resources) ? flavor.resources : [];
      pairs += resources.length;
      checkFlavorQuotas(resources, names, checks, path, out);
    });
    if (checks.sizeLimits && pairs > MAX_FLAVOR_RESOURCES_PER_GROUP) {
      checks.resources.report(out, at, pairs, `expected at most ${MAX_FLAVOR_RESOURCES_PER_GROUP} flavor-resource pairs in a resource group (flavors × resources)`);
    }
  });
  if (!checks.sizeLimits) return;
  if (flavors > MAX_FLAVORS) checks.resources.report(out, 'spec.resourceGroups', flavors, `expected at most ${MAX_FLAVORS} flavors across all resource groups`);
  if (covered > MAX_COVERED_RESOURCES) {
    checks.resources.report(out, 'spec.resourceGroups', covered, `expected at most ${MAX_COVERED_RESOURCES} covered resources across all resource groups`);
  }
}

/** One flavor's quotas: named as coveredResources in order, none negative, limits that Kueue accepts. */
function checkFlavorQuotas(resources: readonly unknown[], covered: readonly unknown[], checks: ResourceGroupChecks, at: string,
  out: Finding[]): void {
  // Kueue compares the resources with coveredResources position by position, and ignores any
  // beyond their count (the CRD's CEL rule requires the same number).
  resources.slice(0, covered.length).forEach((r, i) => {
    if (!isObject(r)) return;
    const path = indexed(child(at, 'resources'), i);
    if (r.name !== covered[i]) {
      checks.resources.report(out, child(path, 'name'), r.name,
        `expected ${JSON.stringify(covered[i])}: a flavor lists its resources in the order of the group's coveredResources`);
    }
    const nominal = parseQuantity(r.nominalQuota);
    if (nominal && isNegative(nominal)) checks.quotas.report(out, child(path, 'nominalQuota'), r.nominalQuota, 'expected a quantity of 0 or more');
    for (const limit of ['borrowingLimit', 'lendingLimit'] as const) {
      if (r[limit] === undefined || r[limit] === null) continue;
      const q = parseQuantity(r[limit]);
      if (checks.parent === undefined) {
        checks.quotas.report(out, child(path, limit), r[limit], checks.noParent(limit));
      } else if (q && isNegative(q)) {
        checks.quotas.report(out, child(path, limit), r[limit], 'expected a quantity of 0 or more');
      } else if (checks.lendingAtMostNominal && limit === 'lendingLimit' && q && nominal && compareQuantities(q, nominal) > 0) {
        checks.quotas.report(out, child(path, limit), r[limit], `expected at most the nominalQuota (${String(r.nominalQuota)}): a ClusterQueue lends only from its own quota`);
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
