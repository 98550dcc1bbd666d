/**
 * Scheduling fields of a pod: tolerations, node selector and affinity, as `validateTolerations`,
 * `ValidateNodeSelector`, `validateAffinity` and `ValidateLabelSelector` check them
 * (k8s.io/kubernetes/pkg/apis/core/validation, k8s.io/apimachinery/pkg/apis/meta/v1/validation).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { LABEL_KEY_TEXT, checkLabels } from './metadata';
import {
  DNS1123_LABEL_TEXT, DNS1123_SUBDOMAIN_TEXT, LABEL_VALUE_TEXT, QUALIFIED_NAME_TEXT,
  isDns1123Label, isDns1123Subdomain, isLabelValue, isObject, isQualifiedName,
} from './names';

const F = 'scheduling';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const TOLERATION_KEY = new Rule('kubernetes', 'kubernetes/toleration-key', F, `${SOURCE} validateTolerations (key a qualified name; empty key needs Exists)`,
  'a toleration key is a qualified name, and an empty key comes with operator Exists');
export const TOLERATION_OPERATOR = new Rule('kubernetes', 'kubernetes/toleration-operator', F, `${SOURCE} validateTolerations (operator Equal or Exists)`,
  'a toleration\'s operator is Equal or Exists');
export const TOLERATION_VALUE = new Rule('kubernetes', 'kubernetes/toleration-value', F, `${SOURCE} validateTolerations (empty with Exists, a label value with Equal)`,
  'a toleration\'s value is empty with Exists and a label value with Equal');
export const TOLERATION_EFFECT = new Rule('kubernetes', 'kubernetes/toleration-effect', F, `${SOURCE} validateTaintEffect (allowEmpty)`,
  'a toleration\'s effect is NoSchedule, PreferNoSchedule, NoExecute or empty');
export const TOLERATION_SECONDS = new Rule('kubernetes', 'kubernetes/toleration-seconds', F, `${SOURCE} validateTolerations (tolerationSeconds only with NoExecute)`,
  'tolerationSeconds is set only with the NoExecute effect');
export const NODE_SELECTOR_TERMS = new Rule('kubernetes', 'kubernetes/node-selector-terms', F, `${SOURCE} ValidateNodeSelector (at least one term)`,
  'required node affinity has at least one term');
export const NODE_SELECTOR_TERM_EMPTY = new Rule('kubernetes', 'kubernetes/node-selector-term-empty', F,
  'k8s.io/component-helpers/scheduling/corev1/nodeaffinity: a term with no expressions and no fields matches no node',
  'a node selector term with no expressions and no fields matches no node, so the pod never schedules');
export const NODE_SELECTOR_REQUIREMENT = new Rule('kubernetes', 'kubernetes/node-selector-requirement', F,
  `${SOURCE} ValidateNodeSelectorRequirement and ValidateNodeFieldSelectorRequirement`,
  'a node selector requirement has a key, an operator it knows and the values that operator takes');
export const LABEL_SELECTOR = new Rule('kubernetes', 'kubernetes/label-selector', F,
  'k8s.io/apimachinery/pkg/apis/meta/v1/validation ValidateLabelSelector and ValidateLabelSelectorRequirement',
  'matchLabels are labels');
export const TOPOLOGY_KEY = new Rule('kubernetes', 'kubernetes/topology-key', F, `${SOURCE} validatePodAffinityTerm (topologyKey a non-empty qualified name)`,
  'a pod affinity term has a topologyKey that is a qualified name');
export const AFFINITY_NAMESPACE = new Rule('kubernetes', 'kubernetes/affinity-namespace', F, `${SOURCE} validatePodAffinityTerm (namespaces are DNS-1123 labels)`,
  'the namespaces of a pod affinity term are DNS labels');
export const AFFINITY_LABEL_KEYS = new Rule('kubernetes', 'kubernetes/affinity-label-keys', F,
  `${SOURCE} ValidateMatchLabelKeysAndMismatchLabelKeys (label keys, only with a labelSelector, not in both lists, not in the selector once merged)`,
  'matchLabelKeys and mismatchLabelKeys of a pod affinity term need a labelSelector');

export const SCHEDULING_RULES = [
  TOLERATION_KEY, TOLERATION_OPERATOR, TOLERATION_VALUE, TOLERATION_EFFECT, TOLERATION_SECONDS,
  NODE_SELECTOR_TERMS, NODE_SELECTOR_TERM_EMPTY, NODE_SELECTOR_REQUIREMENT, LABEL_SELECTOR, TOPOLOGY_KEY, AFFINITY_NAMESPACE,
  AFFINITY_LABEL_KEYS,
];

const EFFECTS = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

/** Checks a `tolerations` list. */
export function checkTolerations(tolerations: unknown, at: string, out: Finding[]): void {
  if (!Array.isArray(tolerations)) return;
  for (let i = 0; i < tolerations.length; i++) {
    const t = tolerations[i];
    if (!isObject(t)) continue;
    const path = indexed(at, i);
    const key = t.key ?? '';
    const operator = t.operator ?? 'Equal';
    if (key !== '' && !isQualifiedName(key)) {
      TOLERATION_KEY.report(out, child(path, 'key'), key, `expected a taint key: ${QUALIFIED_NAME_TEXT}`);
    } else if (key === '' && operator !== 'Exists') {
      TOLERATION_KEY.report(out, child(path, 'key'), t.key, 'expected a taint key, or operator "Exists" to tolerate every taint');
    }
    if (operator === 'Exists') {
      if (t.value !== undefined && t.value !== '') {
        TOLERATION_VALUE.report(out, child(path, 'value'), t.value, 'expected no value when operator is "Exists" (it matches any value)');
      }
    } else if (operator === 'Equal') {
      if (!isLabelValue(t.value ?? '')) TOLERATION_VALUE.report(out, child(path, 'value'), t.value, `expected ${LABEL_VALUE_TEXT}`);
    } else {
      TOLERATION_OPERATOR.report(out, child(path, 'operator'), t.operator, 'expected "Equal" or "Exists"');
    }
    const effect = t.effect;
    if (effect !== undefined && effect !== '' && !EFFECTS.has(effect)) {
      TOLERATION_EFFECT.report(out, child(path, 'effect'), effect, 'expected "NoSchedule", "PreferNoSchedule", "NoExecute", or empty for all effects');
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      TOLERATION_SECONDS.report(out, child(path, 'tolerationSeconds'), t.tolerationSeconds, 'expected not set unless effect is "NoExecute"');
    }
  }
}

/** Node selectors are labels: keys are label keys, values label values (ValidateLabels). */
export function checkNodeSelector(selector: unknown, at: string, out: Finding[]): void {
  checkLabels(selector, at, out);
}

/**
 * Checks a pod `affinity`; `podLabels` are the pod template's labels when known, which the API
 * server merges into a pod affinity term's selector by its matchLabelKeys when it creates a pod.
 */
export function checkAffinity(affinity: unknown, at: string, out: Finding[], podLabels?: unknown): void {
  if (!isObject(affinity)) return;
  const node = affinity.nodeAffinity;
  if (isObject(node)) {
    const nodeAt = child(at, 'nodeAffinity');
    const required = node.requiredDuringSchedulingIgnoredDuringExecution;
    if (isObject(required)) {
      const reqAt = child(nodeAt, 'requiredDuringSchedulingIgnoredDuringExecution');
      const terms = required.nodeSelectorTerms;
      if (!Array.isArray(terms) || terms.length === 0) {
        NODE_SELECTOR_TERMS.report(out, child(reqAt, 'nodeSelectorTerms'), terms, 'expected at least one node selector term');
      } else {
        for (let i = 0; i < terms.length; i++) checkNodeSelectorTerm(terms[i], indexed(child(reqAt, 'nodeSelectorTerms'), i), true, out);
      }
    }
    const preferred = node.preferredDuringSchedulingIgnoredDuringExecution;
    if (Array.isArray(preferred)) {
      const prefAt = child(nodeAt, 'preferredDuringSchedulingIgnoredDuringExecution');
      for (let i = 0; i < preferred.length; i++) {
        if (isObject(preferred[i])) checkNodeSelectorTerm(preferred[i].preference, child(indexed(prefAt, i), 'preference'), false, out);
      }
    }
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const pod = affinity[kind];
    if (!isObject(pod)) continue;
    const podAt = child(at, kind);
    const required = pod.requiredDuringSchedulingIgnoredDuringExecution;
    if (Array.isArray(required)) {
      const reqAt = child(podAt, 'requiredDuringSchedulingIgnoredDuringExecution');
      for (let i = 0; i < required.length; i++) checkPodAffinityTerm(required[i], indexed(reqAt, i), podLabels, out);
    }
    const preferred = pod.preferredDuringSchedulingIgnoredDuringExecution;
    if (Array.isArray(preferred)) {
      const prefAt = child(podAt, 'preferredDuringSchedulingIgnoredDuringExecution');
      for (let i = 0; i < preferred.length; i++) {
        if (isObject(preferred[i])) checkPodAffinityTerm(preferred[i].podAffinityTerm, child(indexed(prefAt, i), 'podAffinityTerm'), podLabels, out);
      }
    }
  }
}

/** A required term with nothing in it selects no node: the pod stays Pending. */
function checkNodeSelectorTerm(term: unknown, at: string, required: boolean, out: Finding[]): void {
  if (!isObject(term)) return;
  const expressions = term.matchExpressions;
  const fields = term.matchFields;
  const empty = (!Array.isArray(expressions) || expressions.length === 0) && (!Array.isArray(fields) || fields.length === 0);
  if (empty && required) {
    NODE_SELECTOR_TERM_EMPTY.report(out, at, term, 'expected at least one matchExpressions or matchFields entry (an empty term matches no node, so the pod never schedules)');
  }
  if (Array.isArray(expressions)) {
    for (let i = 0; i < expressions.length; i++) checkNodeSelectorRequirement(expressions[i], indexed(child(at, 'matchExpressions'), i), required, out);
  }
  if (Array.isArray(fields)) {
    for (let i = 0; i < fields.length; i++) {
      const r = fields[i];
      if (!isObject(r)) continue;
      const path = indexed(child(at, 'matchFields'), i);
      if (r.key !== 'metadata.name') {
        NODE_SELECTOR_REQUIREMENT.report(out, child(path, 'key'), r.key, 'expected "metadata.name" (the only node field a selector may use)');
      }
      if (r.operator !== 'In' && r.operator !== 'NotIn') {
        NODE_SELECTOR_REQUIREMENT.report(out, child(path, 'operator'), r.operator, 'expected "In" or "NotIn" for a field selector');
      } else if (!Array.isArray(r.values) || r.values.length !== 1) {
        NODE_SELECTOR_REQUIREMENT.report(out, child(path, 'values'), r.values, 'expected exactly one value (a node name) for a field selector');
      } else if (r.key === 'metadata.name' && !isDns1123Subdomain(r.values[0])) {
        // nodeFieldSelectorValidators: metadata.name values are node names (ValidateNodeName).
        NODE_SELECTOR_REQUIREMENT.report(out, indexed(child(path, 'values'), 0), r.values[0], `expected a node name: ${DNS1123_SUBDOMAIN_TEXT}`);
      }
    }
  }
}

const NODE_OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']);

/**
 * ValidateNodeSelectorRequirement. Values are checked as label values in required terms only: the
 * preferred terms are validated with allowInvalidLabelValueInRequiredNodeAffinity set.
 */
function checkNodeSelectorRequirement(r: unknown, at: string, required: boolean, out: Finding[]): void {
  if (!isObject(r)) return;
  const values = r.values;
  const count = Array.isArray(values) ? values.length : 0;
  const op = r.operator;
  if (!NODE_OPERATORS.has(op)) {
    NODE_SELECTOR_REQUIREMENT.report(out, child(at, 'operator'), op, 'expected "In", "NotIn", "Exists", "DoesNotExist", "Gt" or "Lt"');
  } else if ((op === 'In' || op === 'NotIn') && count === 0) {
    NODE_SELECTOR_REQUIREMENT.report(out, child(at, 'values'), values, `expected at least one value when operator is "${op}"`);
  } else if ((op === 'Exists' || op === 'DoesNotExist') && count > 0) {
    NODE_SELECTOR_REQUIREMENT.report(out, child(at, 'values'), values, `expected no values when operator is "${op}"`);
  } else if ((op === 'Gt' || op === 'Lt') && count !== 1) {
    NODE_SELECTOR_REQUIREMENT.report(out, child(at, 'values'), values, `expected exactly one value when operator is "${op}"`);
  }
  if (!isQualifiedName(r.key)) NODE_SELECTOR_REQUIREMENT.report(out, child(at, 'key'), r.key, LABEL_KEY_TEXT);
  if (required && Array.isArray(values)) {
    for (let i = 0; i < values.length; i++) {
      if (!isLabelValue(values[i])) NODE_SELECTOR_REQUIREMENT.report(out, indexed(child(at, 'values'), i), values[i], `expected ${LABEL_VALUE_TEXT}`);
    }
  }
}

function checkPodAffinityTerm(term: unknown, at: string, podLabels: unknown, out: Finding[]): void {
  if (!isObject(term)) return;
  checkAffinityLabelKeys(term, at, podLabels, out);
  checkLabelSelector(term.labelSelector, child(at, 'labelSelector'), out);
  checkLabelSelector(term.namespaceSelector, child(at, 'namespaceSelector'), out);
  if (!isQualifiedName(term.topologyKey)) {
    TOPOLOGY_KEY.report(out, child(at, 'topologyKey'), term.topologyKey, `expected a node label key such as kubernetes.io/hostname: ${QUALIFIED_NAME_TEXT}`);
  }
  if (Array.isArray(term.namespaces)) {
    for (let i = 0; i < term.namespaces.length; i++) {
      if (!isDns1123Label(term.namespaces[i])) {
        AFFINITY_NAMESPACE.report(out, indexed(child(at, 'namespaces'), i), term.namespaces[i], `expected a namespace: ${DNS1123_LABEL_TEXT}`);
      }
    }
  }
}

/**
 * matchLabelKeys and mismatchLabelKeys of a pod affinity term: label keys, only beside a
 * labelSelector, no key in both. On creating a pod the API server adds `<key> In (<the pod's
 * value>)` to the selector for each matchLabelKey the pod's labels have (mutatePodAffinity,
 * MatchLabelKeysInPodAffinity GA), then refuses a key the selector already had.
 */
function checkAffinityLabelKeys(term: Record<string, any>, at: string, podLabels: unknown, out: Finding[]): void {
  const selector = term.labelSelector;
  const match: unknown[] = Array.isArray(term.matchLabelKeys) ? term.matchLabelKeys : [];
  const mismatch: unknown[] = Array.isArray(term.mismatchLabelKeys) ? term.mismatchLabelKeys : [];
  for (const [list, keys] of [['matchLabelKeys', match], ['mismatchLabelKeys', mismatch]] as const) {
    if (keys.length === 0) continue;
    const listAt = child(at, list);
    if (!isObject(selector)) {
      AFFINITY_LABEL_KEYS.report(out, listAt, keys, 'expected not set when labelSelector is not set (the keys narrow the selector)');
      continue;
    }
    keys.forEach((key, i) => {
      if (!isQualifiedName(key)) AFFINITY_LABEL_KEYS.report(out, indexed(listAt, i), key, LABEL_KEY_TEXT);
    });
  }
  const mismatched = new Set(mismatch);
  match.forEach((key, i) => {
    if (mismatched.has(key)) {
      AFFINITY_LABEL_KEYS.report(out, indexed(child(at, 'matchLabelKeys'), i), key, 'expected a key that mismatchLabelKeys does not list (a key cannot both match and mismatch the pod)');
    }
  });
  if (!isObject(selector) || !isObject(podLabels)) return;
  const selectorKeys = new Set<string>(Object.keys(isObject(selector.matchLabels) ? selector.matchLabels : {}));
  if (Array.isArray(selector.matchExpressions)) for (const e of selector.matchExpressions) if (isObject(e) && typeof e.key === 'string') selectorKeys.add(e.key);
  match.forEach((key, i) => {
    if (typeof key === 'string' && isQualifiedName(key) && selectorKeys.has(key) && typeof podLabels[key] === 'string') {
      AFFINITY_LABEL_KEYS.report(out, indexed(child(at, 'matchLabelKeys'), i), key,
        `expected a key the labelSelector does not have: the API server adds "${key} In (${podLabels[key]})" from the pod's labels when it creates the pod, and refuses the key twice`);
    }
  });
}

/** A metav1 LabelSelector: matchLabels are labels; expressions In/NotIn with values, Exists/DoesNotExist without. */
export function checkLabelSelector(selector: unknown, at: string, out: Finding[]): void {
  if (!isObject(selector)) return;
  checkLabels(selector.matchLabels, child(at, 'matchLabels'), out);
  const expressions = selector.matchExpressions;
  if (!Array.isArray(expressions)) return;
  for (let i = 0; i < expressions.length; i++) {
    const r = expressions[i];
    if (!isObject(r)) continue;
    const path = indexed(child(at, 'matchExpressions'), i);
    const count = Array.isArray(r.values) ? r.values.length : 0;
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (count === 0) LABEL_SELECTOR.report(out, child(path, 'values'), r.values, `expected at least one value when operator is "${r.operator}"`);
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (count > 0) LABEL_SELECTOR.report(out, child(path, 'values'), r.values, `expected no values when operator is "${r.operator}"`);
    } else {
      LABEL_SELECTOR.report(out, child(path, 'operator'), r.operator, 'expected "In", "NotIn", "Exists" or "DoesNotExist"');
    }
    if (!isQualifiedName(r.key)) LABEL_SELECTOR.report(out, child(path, 'key'), r.key, LABEL_KEY_TEXT);
    // ValidateLabelSelectorRequirement checks values as label values for new objects.
    if (Array.isArray(r.values)) {
      for (let j = 0; j < r.values.length; j++) {
        if (!isLabelValue(r.values[j])) LABEL_SELECTOR.report(out, indexed(child(path, 'values'), j), r.values[j], `expected ${LABEL_VALUE_TEXT}`);
      }
    }
  }
}
