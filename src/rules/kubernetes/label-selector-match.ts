/**
 * Whether a set of labels meets a `metav1.LabelSelector`, as k8s.io/apimachinery
 * `LabelSelectorAsSelector` and `labels.Selector.Matches` decide (a nil selector selects nothing,
 * `{}` everything; matchLabels and matchExpressions are ANDed), judged on labels of which only
 * some may be known: the rules read an object's labels from the input, and the cluster may hold
 * more. The answer is undefined when a requirement reads a label whose presence is not known, or
 * the selector is one Kubernetes refuses (kubernetes/label-selector reports that).
 */
import { isObject } from './names';

/** Labels as far as they are known: `known(key)` says whether the label's presence is (absent ones too). */
export interface KnownLabels {
  readonly labels: Readonly<Record<string, string>>;
  readonly known: (key: string) => boolean;
}

/** The answer, and when it is false, the first requirement the labels fail, as `key In (a, b)`. */
export interface SelectorMatch {
  readonly matches: boolean | undefined;
  readonly failed?: string;
}

export function labelSelectorMatches(selector: unknown, target: KnownLabels): SelectorMatch {
  if (selector === undefined || selector === null) return { matches: false, failed: 'nothing (no selector)' };
  if (!isObject(selector)) return { matches: undefined };
  const requirements: Array<{ key: string; operator: string; values: readonly string[] }> = [];
  const matchLabels = (selector as any).matchLabels;
  if (matchLabels !== undefined && matchLabels !== null) {
    if (!isObject(matchLabels)) return { matches: undefined };
    for (const [key, value] of Object.entries(matchLabels)) requirements.push({ key, operator: 'In', values: [String(value)] });
  }
  const expressions = (selector as any).matchExpressions;
  if (expressions !== undefined && expressions !== null) {
    if (!Array.isArray(expressions)) return { matches: undefined };
    for (const e of expressions) {
      if (!isObject(e) || typeof e.key !== 'string') return { matches: undefined };
      const values = Array.isArray(e.values) ? e.values.map(String) : [];
      requirements.push({ key: e.key, operator: String(e.operator), values });
    }
  }
  let unknown = false;
  for (const r of requirements) {
    const match = requirementMatches(r, target);
    if (match === false) return { matches: false, failed: requirementText(r) };
    if (match === undefined) unknown = true;
  }
  return { matches: unknown ? undefined : true };
}

function requirementMatches(r: { key: string; operator: string; values: readonly string[] }, target: KnownLabels): boolean | undefined {
  if (!target.known(r.key)) return undefined;
  const has = Object.prototype.hasOwnProperty.call(target.labels, r.key);
  const value = has ? target.labels[r.key] : undefined;
  switch (r.operator) {
    case 'In': return has && r.values.includes(value!);
    case 'NotIn': return !has || !r.values.includes(value!);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    default: return undefined;
  }
}

/** A requirement as a message names it: `team In (research)`, `gpu Exists`. */
function requirementText(r: { key: string; operator: string; values: readonly string[] }): string {
  return r.values.length === 0 ? `${r.key} ${r.operator}` : `${r.key} ${r.operator} (${r.values.join(', ')})`;
}
