import { parseKnown } from './internal/parse-value';

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
   * The NodeHealth a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the preset's name: `autopilot` (the other node-health rules take arguments: `labelNotIn`, `avoidHosts`)
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): NodeHealth {
    return parseKnown('NodeHealth.parse', value, key, [['autopilot', NodeHealth.AUTOPILOT]], 'the node-health presets', 'other nodes are NodeHealth.labelNotIn(labelKey, values) or NodeHealth.avoidHosts(hostnames)');
  }

  /**
   * @param labelKey the node label's key
   * @param values the values the pods avoid
   */
  private constructor(public readonly labelKey: string, public readonly values: string[]) {}
}
