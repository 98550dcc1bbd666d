/**
 * A pod's topology spread constraints, as `validateTopologySpreadConstraints` and
 * `ValidateMatchLabelKeysAndMismatchLabelKeys` (k8s.io/kubernetes/pkg/apis/core/validation, with
 * MatchLabelKeysInPodTopologySpread and its selector merge on, as at 1.34) check them. maxSkew and
 * minDomains of at least 1 are the integer table's (kubernetes/int-range).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { LABEL_KEY_TEXT } from './metadata';
import { isObject, isQualifiedName } from './names';
import { checkLabelSelector } from './scheduling';

export const TOPOLOGY_SPREAD = new Rule('kubernetes', 'kubernetes/topology-spread', 'scheduling',
  'k8s.io/kubernetes/pkg/apis/core/validation validateTopologySpreadConstraints (topologyKey, whenUnsatisfiable, one constraint per pair, minDomains, node policies, matchLabelKeys)',
  'a constraint has a topologyKey and whenUnsatisfiable DoNotSchedule or ScheduleAnyway, one per pair');

export const TOPOLOGY_SPREAD_RULES = [TOPOLOGY_SPREAD];

const ACTIONS = new Set(['DoNotSchedule', 'ScheduleAnyway']);
const NODE_POLICIES = new Set(['Honor', 'Ignore']);

/**
 * Checks `topologySpreadConstraints` at `at`; `podLabels` are the pod template's labels, which
 * the API server merges into the selector by matchLabelKeys when it creates a pod.
 */
export function checkTopologySpread(constraints: unknown, at: string, podLabels: unknown, out: Finding[]): void {
  if (!Array.isArray(constraints)) return;
  constraints.forEach((c, i) => {
    if (!isObject(c)) return;
    const cAt = indexed(at, i);
    if (typeof c.topologyKey !== 'string' || c.topologyKey === '') {
      TOPOLOGY_SPREAD.report(out, child(cAt, 'topologyKey'), c.topologyKey, 'expected the node label to spread over, such as topology.kubernetes.io/zone');
    }
    if (!ACTIONS.has(c.whenUnsatisfiable)) {
      TOPOLOGY_SPREAD.report(out, child(cAt, 'whenUnsatisfiable'), c.whenUnsatisfiable, 'expected "DoNotSchedule" or "ScheduleAnyway"');
    }
    const twin = constraints.slice(i + 1)
      .findIndex(o => isObject(o) && o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable);
    if (twin >= 0) {
      TOPOLOGY_SPREAD.report(out, cAt, `${c.topologyKey}/${c.whenUnsatisfiable}`,
        `expected one constraint per topologyKey and whenUnsatisfiable (${indexed(at, i + 1 + twin)} has the same pair)`);
    }
    if (c.minDomains !== undefined && c.minDomains !== null && c.whenUnsatisfiable !== 'DoNotSchedule') {
      TOPOLOGY_SPREAD.report(out, child(cAt, 'minDomains'), c.minDomains, 'expected not set unless whenUnsatisfiable is "DoNotSchedule"');
    }
    for (const key of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (c[key] !== undefined && c[key] !== null && !NODE_POLICIES.has(c[key])) {
        TOPOLOGY_SPREAD.report(out, child(cAt, key), c[key], 'expected "Honor" or "Ignore"');
      }
    }
    checkLabelSelector(c.labelSelector, child(cAt, 'labelSelector'), out);
    checkMatchLabelKeys(c, cAt, podLabels, out);
  });
}

/**
 * matchLabelKeys: label keys, only with a labelSelector. On creating a pod the API server adds
 * `<key> In (<the pod's value>)` to the selector for each key the pod's labels have
 * (mutateTopologySpreadConstraints), then refuses a key the selector already had.
 */
function checkMatchLabelKeys(c: Record<string, any>, at: string, podLabels: unknown, out: Finding[]): void {
  const keys = c.matchLabelKeys;
  if (!Array.isArray(keys) || keys.length === 0) return;
  const keysAt = child(at, 'matchLabelKeys');
  const selector = c.labelSelector;
  if (!isObject(selector)) {
    TOPOLOGY_SPREAD.report(out, keysAt, keys, 'expected not set when labelSelector is not set');
    return;
  }
  const selectorKeys = new Set<string>(Object.keys(isObject(selector.matchLabels) ? selector.matchLabels : {}));
  if (Array.isArray(selector.matchExpressions)) for (const e of selector.matchExpressions) if (isObject(e) && typeof e.key === 'string') selectorKeys.add(e.key);
  keys.forEach((key, i) => {
    if (!isQualifiedName(key)) {
      TOPOLOGY_SPREAD.report(out, indexed(keysAt, i), key, LABEL_KEY_TEXT);
    } else if (selectorKeys.has(key) && isObject(podLabels) && typeof podLabels[key] === 'string') {
      TOPOLOGY_SPREAD.report(out, indexed(keysAt, i), key,
        `expected a key the labelSelector does not have: the API server adds "${key} In (${podLabels[key]})" from the pod's labels when it creates the pod, and refuses the key twice`);
    }
  });
}
