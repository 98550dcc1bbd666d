/**
 * Nodes a job's pods must stay off: those whose label `labelKey` has one of `values`, as a health
 * checker marks them. Written as a node-affinity requirement (`NotIn`) added to every term of the
 * pods' required node affinity, so the pods' own affinity still holds.
 *
 * A node without the label is allowed (`NotIn` matches a missing label), so a checker that labels
 * only the nodes it has judged keeps new nodes schedulable.
 */
export class NodeHealth {
  /**
   * The nodes IBM's Autopilot health checks found faulty or is testing: `autopilot.ibm.com/gpuhealth`
   * in `ERR`, `TESTING`, `EVICT` (the values MLBatch's PyTorchJob chart keeps its pods away from).
   */
  public static readonly AUTOPILOT = new NodeHealth('autopilot.ibm.com/gpuhealth', ['ERR', 'TESTING', 'EVICT']);

  /**
   * Nodes whose label `labelKey` has any of `values`.
   *
   * @param labelKey the node label a health checker writes
   * @param values the values that mark a node unfit (at least one)
   */
  public static labelNotIn(labelKey: string, values: string[]): NodeHealth {
    return new NodeHealth(labelKey, [...values]);
  }

  /**
   * Nodes by name (`kubernetes.io/hostname`), for known bad hosts.
   *
   * @param hostnames the nodes' host names (at least one)
   */
  public static avoidHosts(hostnames: string[]): NodeHealth {
    return new NodeHealth('kubernetes.io/hostname', [...hostnames]);
  }

  /**
   * @param labelKey the node label's key
   * @param values the values the pods avoid
   */
  private constructor(public readonly labelKey: string, public readonly values: string[]) {}
}
