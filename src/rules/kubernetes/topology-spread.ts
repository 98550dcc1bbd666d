/**
 * A pod's topology spread constraints, as `validateTopologySpreadConstraints`
 * (k8s.io/kubernetes/pkg/apis/core/validation) checks them: the scheduler needs a topology key and
 * an action for pods that cannot be spread, and minDomains only means something when it must
 * not schedule them.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { isObject } from './names';
import { checkLabelSelector } from './scheduling';

export const TOPOLOGY_SPREAD = new Rule('kubernetes', 'k8s/topology-spread', 'scheduling',
  'k8s.io/kubernetes/pkg/apis/core/validation validateTopologySpreadConstraints (topologyKey, whenUnsatisfiable, minDomains, node inclusion policies, labelSelector)');

export const TOPOLOGY_SPREAD_RULES = [TOPOLOGY_SPREAD];

const ACTIONS = new Set(['DoNotSchedule', 'ScheduleAnyway']);
const NODE_POLICIES = new Set(['Honor', 'Ignore']);

/** Checks a `topologySpreadConstraints` list (maxSkew and minDomains ranges are the integer table's). */
export function checkTopologySpread(constraints: unknown, at: string, out: Finding[]): void {
  if (!Array.isArray(constraints)) return;
  constraints.forEach((c: unknown, i: number) => {
    if (!isObject(c)) return;
    const path = indexed(at, i);
    if (typeof c.topologyKey !== 'string' || c.topologyKey === '') {
      TOPOLOGY_SPREAD.report(out, child(path, 'topologyKey'), c.topologyKey, 'expected a non-empty node label key such as topology.kubernetes.io/zone');
    }
    if (!ACTIONS.has(c.whenUnsatisfiable)) {
      TOPOLOGY_SPREAD.report(out, child(path, 'whenUnsatisfiable'), c.whenUnsatisfiable, 'expected "DoNotSchedule" or "ScheduleAnyway"');
    } else if (c.minDomains !== undefined && c.minDomains !== null && c.whenUnsatisfiable !== 'DoNotSchedule') {
      TOPOLOGY_SPREAD.report(out, child(path, 'minDomains'), c.minDomains, 'expected not set unless whenUnsatisfiable is "DoNotSchedule"');
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (c[policy] !== undefined && c[policy] !== null && !NODE_POLICIES.has(c[policy])) {
        TOPOLOGY_SPREAD.report(out, child(path, policy), c[policy], 'expected "Honor" or "Ignore"');
      }
    }
    checkLabelSelector(c.labelSelector, child(path, 'labelSelector'), out);
  });
}
