import { ApiObject } from 'cdk8s';
import * as kueue from '../../../imports/kueue';
import type { ResourceGroup } from '../resource-group';

/**
 * Resource groups as a ClusterQueue and a Cohort write them (the two kinds share the shape in
 * v1beta2). Kueue reads a group's resources from `coveredResources` and each flavor's quotas by
 * position, so the covered resources are the first flavor's, in its order.
 */
export function renderResourceGroups(groups: readonly ResourceGroup[]): kueue.ResourceGroup[] {
  return groups.map(group => ({
    coveredResources: (group.flavors[0]?.quotas ?? []).map(q => q.resourceName),
    flavors: group.flavors.map(f => ({ name: f.flavor.name, resources: f.quotas.map(q => q._render()) })),
  }));
}

/** Orders `apiObject` after every flavor its groups name: Kueue leaves a queue inactive until its flavors exist. */
export function dependOnFlavors(apiObject: ApiObject, groups: readonly ResourceGroup[]): void {
  for (const group of groups) for (const f of group.flavors) apiObject.node.addDependency(f.flavor.apiObject);
}
