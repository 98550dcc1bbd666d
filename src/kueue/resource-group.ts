import { ResourceFlavor } from './resource-flavor';
import { ResourceQuota } from './resource-quota';

/** The quotas of one flavor in a resource group. */
export interface FlavorQuotas {
  /** The flavor (a ResourceFlavor of this app, written before the ClusterQueue). */
  readonly flavor: ResourceFlavor;
  /**
   * One quota per resource of the group, in the same order for every flavor of the group (Kueue
   * compares them position by position with the group's resources).
   */
  readonly quotas: ResourceQuota[];
}

/**
 * Resources that are quota'd together: a job's pods take all of them from one flavor of the
 * group, the first (in the listed order) where they fit.
 */
export interface ResourceGroup {
  /**
   * The flavors, in the order Kueue tries them. The group's resources (`coveredResources`) are
   * those of the first flavor's quotas.
   */
  readonly flavors: FlavorQuotas[];
}
