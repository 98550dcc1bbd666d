/**
 * Which flavors of a ClusterQueue Kueue may use for a podset, before it looks at quota
 * (sigs.k8s.io/kueue v0.15.2 pkg/scheduler/flavorassigner checkFlavorForPodSets, flavorSelector,
 * checkPodSetAndFlavorMatchForTAS), in the order Kueue checks them:
 *
 * - topology: a podset that asks for topology-aware placement (a required, preferred or
 *   unconstrained topology annotation, or a slice) needs a flavor with a topology that has the
 *   level it names; a podset that does not ask cannot use a flavor with a topology, unless every
 *   flavor of the ClusterQueue has one (then Kueue implies the request);
 * - taints: each `NoSchedule` or `NoExecute` taint of the flavor is tolerated by the pods'
 *   tolerations or by the flavor's own `tolerations` (which Kueue adds to the pods on admission);
 * - labels: the pods' nodeSelector and required node affinity match the flavor's node labels, on
 *   the label keys that some flavor of the resource group uses only (a key no flavor of the group
 *   names is left for the scheduler; an affinity term left with no expression drops the affinity).
 *
 * A reason is given only when it is certain: a flavor or topology the input does not define, and a
 * selector Kubernetes would refuse to read, count as usable.
 */
import { isObject } from '../kubernetes/names';

/** A ResourceFlavor as the flavor assigner reads it. */
export interface FlavorSpec {
  readonly nodeLabels: Readonly<Record<string, string>>;
  readonly nodeTaints: readonly any[];
  readonly tolerations: readonly any[];
  readonly topologyName?: string;
  /** The levels of its Topology, when the input defines it. */
  readonly levels?: readonly string[];
}

/** What Kueue knows of a ClusterQueue's flavors when it chooses one. */
export interface FlavorContext {
  /** The node label keys the flavors of the podset's resource group use. */
  readonly labelKeys: ReadonlySet<string>;
  /** Whether every flavor of the ClusterQueue has a topology (Kueue then implies a topology request). */
  readonly tasOnly: boolean;
}

const TAS = 'kueue.x-k8s.io/podset-';
const REQUIRED = `${TAS}required-topology`;
const PREFERRED = `${TAS}preferred-topology`;
const UNCONSTRAINED = `${TAS}unconstrained-topology`;
const SLICE_REQUIRED = `${TAS}slice-required-topology`;
const SLICE_SIZE = `${TAS}slice-size`;

/** The flavor's spec as the assigner reads it, from a ResourceFlavor document and the input's Topologies. */
export function flavorSpec(doc: any, topologies: ReadonlyMap<string, any>): FlavorSpec {
  const spec = isObject(doc?.spec) ? doc.spec : {};
  const labels = isObject(spec.nodeLabels) ? spec.nodeLabels : {};
  const topologyName = typeof spec.topologyName === 'string' && spec.topologyName !== '' ? spec.topologyName : undefined;
  const levels = topologyName === undefined ? undefined : topologies.get(topologyName)?.spec?.levels;
  return {
    nodeLabels: Object.fromEntries(Object.entries(labels).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
    nodeTaints: Array.isArray(spec.nodeTaints) ? spec.nodeTaints.filter(isObject) : [],
    tolerations: Array.isArray(spec.tolerations) ? spec.tolerations.filter(isObject) : [],
    ...(topologyName === undefined ? {} : { topologyName }),
    ...(Array.isArray(levels) ? { levels: levels.map((l: any) => l?.nodeLabel).filter((l: unknown) => typeof l === 'string') } : {}),
  };
}

/** The topology-aware placement a pod template asks for (its annotations), in words; undefined when it asks none. */
export function topologyRequest(annotations: unknown): { readonly text: string; readonly level?: string; readonly sliceLevel?: string } | undefined {
  if (!isObject(annotations)) return undefined;
  const sliceLevel = typeof annotations[SLICE_REQUIRED] === 'string' && annotations[SLICE_SIZE] !== undefined ? annotations[SLICE_REQUIRED] : undefined;
  const slice = sliceLevel === undefined ? {} : { sliceLevel };
  for (const key of [REQUIRED, PREFERRED]) {
    if (annotations[key] !== undefined) return { text: `${key} "${String(annotations[key])}"`, level: String(annotations[key]), ...slice };
  }
  if (annotations[UNCONSTRAINED] !== undefined) return { text: `${UNCONSTRAINED} "${String(annotations[UNCONSTRAINED])}"`, ...slice };
  if (sliceLevel !== undefined) return { text: `${SLICE_REQUIRED} "${sliceLevel}"`, ...slice };
  return undefined;
}

/**
 * Why Kueue cannot use the flavor for pods of this template (its pod spec and annotations), in
 * words that start with the flavor; undefined when it can, or when the input cannot tell.
 */
export function flavorRejection(name: string, flavor: FlavorSpec | undefined, podSpec: any, annotations: unknown,
  context: FlavorContext): string | undefined {
  if (flavor === undefined) return undefined;
  const request = topologyRequest(annotations);
  if (request !== undefined) {
    if (flavor.topologyName === undefined) return `flavor "${name}" has no topology, and the pods ask for topology-aware placement (${request.text})`;
    const missing = [request.level, request.sliceLevel].find(l => l !== undefined && flavor.levels !== undefined && !flavor.levels.includes(l));
    if (missing !== undefined) return `flavor "${name}"'s topology "${flavor.topologyName}" has no level "${missing}", which the pods ask for (${request.text})`;
  } else if (flavor.topologyName !== undefined && !context.tasOnly) {
    return `flavor "${name}" has a topology ("${flavor.topologyName}"), and Kueue gives such a flavor only to pods that ask for topology-aware placement while the ClusterQueue has flavors without one`;
  }
  const tolerations = [...(Array.isArray(podSpec?.tolerations) ? podSpec.tolerations.filter(isObject) : []), ...flavor.tolerations];
  // Only these effects keep pods off a node; a PreferNoSchedule taint does not.
  const blocking = flavor.nodeTaints.filter(t => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  const untolerated = blocking.find(t => !tolerations.some(tol => tolerates(tol, t)));
  if (untolerated !== undefined) {
    return `flavor "${name}" has the taint ${taintText(untolerated)}, which neither the pods' tolerations nor the flavor's own tolerate`;
  }
  return selectorMismatch(name, flavor.nodeLabels, podSpec, context.labelKeys);
}

/** Whether a toleration tolerates a taint (k8s.io/api core/v1 Toleration.ToleratesTaint). */
export function tolerates(toleration: any, taint: any): boolean {
  if (typeof toleration.effect === 'string' && toleration.effect !== '' && toleration.effect !== taint.effect) return false;
  if (typeof toleration.key === 'string' && toleration.key !== '' && toleration.key !== taint.key) return false;
  const operator = toleration.operator ?? 'Equal';
  if (operator === 'Exists') return true;
  return operator === 'Equal' && (toleration.value ?? '') === (taint.value ?? '');
}

/** A taint as Kubernetes prints it: `key=value:Effect`, or `key:Effect` without a value. */
export function taintText(taint: any): string {
  return `${String(taint.key)}${taint.value ? `=${String(taint.value)}` : ''}:${String(taint.effect)}`;
}

/** A toleration in one line: `key=value:Effect`, `key (Exists):Effect`, `every taint`. */
export function tolerationText(t: any): string {
  const key = typeof t.key === 'string' && t.key !== '' ? t.key : undefined;
  const effect = typeof t.effect === 'string' && t.effect !== '' ? `:${t.effect}` : '';
  if (key === undefined) return `every taint${effect}`;
  return t.operator === 'Exists' ? `${key} (Exists)${effect}` : `${key}=${String(t.value ?? '')}${effect}`;
}

/** Why the flavor's node labels fail the pods' selector on the group's label keys; undefined when they match or cannot be judged. */
function selectorMismatch(name: string, labels: Readonly<Record<string, string>>, podSpec: any, keys: ReadonlySet<string>): string | undefined {
  const show = (key: string) => (Object.prototype.hasOwnProperty.call(labels, key)
    ? `has node label ${key} "${labels[key]}"`
    : `has no node label ${key}`);
  const selector = isObject(podSpec?.nodeSelector) ? podSpec.nodeSelector : {};
  for (const [key, value] of Object.entries(selector)) {
    if (!keys.has(key) || labels[key] === value) continue;
    return `flavor "${name}" ${show(key)}, and the pods' nodeSelector asks "${String(value)}"`;
  }
  const terms = podSpec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!Array.isArray(terms)) return undefined;
  const kept: any[][] = [];
  for (const term of terms) {
    const expressions = (Array.isArray(term?.matchExpressions) ? term.matchExpressions : []).filter((e: any) => keys.has(e?.key));
    // A term with nothing left matches any flavor, and terms are ORed: the affinity says nothing.
    if (expressions.length === 0) return undefined;
    kept.push(expressions);
  }
  const failures: string[] = [];
  // The key of the first requirement that fails names the flavor's label in the message.
  let firstKey: string | undefined;
  for (const expressions of kept) {
    let failed: any;
    for (const e of expressions) {
      const match = requirementMatches(e, labels);
      if (match === undefined) return undefined;
      if (!match) {
        failed = e;
        break;
      }
    }
    if (failed === undefined) return undefined;
    firstKey ??= String(failed.key);
    failures.push(`${String(failed.key)} ${String(failed.operator)}${Array.isArray(failed.values) ? ` (${failed.values.join(', ')})` : ''}`);
  }
  if (firstKey === undefined) return undefined;
  return `flavor "${name}" ${show(firstKey)}, and the pods' required node affinity asks ${failures.join(', or ')}`;
}

/** Whether node labels meet one requirement (k8s.io/apimachinery labels.Requirement.Matches); undefined when Kubernetes would refuse it. */
function requirementMatches(e: any, labels: Readonly<Record<string, string>>): boolean | undefined {
  const has = typeof e?.key === 'string' && Object.prototype.hasOwnProperty.call(labels, e.key);
  const values: unknown[] = Array.isArray(e?.values) ? e.values : [];
  const value = has ? labels[e.key] : undefined;
  switch (e?.operator) {
    case 'In': return has && values.includes(value);
    case 'NotIn': return !has || !values.includes(value);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    case 'Gt':
    case 'Lt': {
      const bound = values.length === 1 && typeof values[0] === 'string' && /^-?\d+$/.test(values[0]) ? Number(values[0]) : undefined;
      if (bound === undefined) return undefined;
      if (!has || !/^-?\d+$/.test(value!)) return false;
      return e.operator === 'Gt' ? Number(value) > bound : Number(value) < bound;
    }
    default: return undefined;
  }
}
