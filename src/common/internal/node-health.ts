import { k8s } from 'cdk8s-plus-28';
import { Finding, finding } from '../../rules/finding';
import { LABEL_VALUE_TEXT, QUALIFIED_NAME_TEXT, isLabelValue, isQualifiedName } from '../../rules/kubernetes/names';
import { canonicalJson, uniqueByContent } from '../../util/collections';
import type { NodeHealth } from '../node-health';

/*
 * Rendering and checks of NodeHealth (src/node-health.ts). Plumbing, not exported from index.ts.
 */

/**
 * The pods' affinity with the health requirements added to every required node-selector term.
 * Terms are ORed by the scheduler (k8s.io/component-helpers/scheduling/corev1/nodeaffinity,
 * nodeSelectorTerms: "the requirements of any term" match), so a requirement added to one term only
 * would let a pod through any other; it goes into each. With no terms, it becomes the one term.
 * Everything else the user wrote (preferred terms, pod affinity) is kept as it is.
 */
export function withNodeHealth(affinity: k8s.Affinity | undefined, health: NodeHealth[]): k8s.Affinity | undefined {
  const requirements = uniqueByContent(health.map(h => ({ key: h.labelKey, operator: 'NotIn', values: [...h.values] })));
  if (requirements.length === 0) return affinity;
  const nodeAffinity = affinity?.nodeAffinity;
  const terms = nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const merged: k8s.NodeSelectorTerm[] = (terms.length ? terms : [{}]).map(term => {
    const own = term.matchExpressions ?? [];
    const seen = new Set(own.map(r => canonicalJson(r)));
    return { ...term, matchExpressions: [...own, ...requirements.filter(r => !seen.has(canonicalJson(r)))] };
  });
  return {
    ...affinity,
    nodeAffinity: {
      ...nodeAffinity,
      requiredDuringSchedulingIgnoredDuringExecution: {
        ...nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
        nodeSelectorTerms: merged,
      },
    },
  };
}

/**
 * What is wrong with the values: a label key, and at least one label value (the API server
 * requires values for `NotIn`: ValidateNodeSelectorRequirement in k8s.io/kubernetes
 * pkg/apis/core/validation).
 */
export function nodeHealthFindings(health: NodeHealth[] | undefined, field: string): Finding[] {
  const out: Finding[] = [];
  (health ?? []).forEach((h, i) => {
    const at = `${field}[${i}]`;
    if (!isQualifiedName(h.labelKey)) out.push(finding(`${at}.labelKey`, h.labelKey, `expected a node label key: ${QUALIFIED_NAME_TEXT}`));
    if (!Array.isArray(h.values) || h.values.length === 0) {
      out.push(finding(`${at}.values`, h.values, 'expected at least one label value; a NotIn requirement without values is refused by the API server'));
    } else {
      for (const v of h.values) if (!isLabelValue(v)) out.push(finding(`${at}.values`, v, `expected ${LABEL_VALUE_TEXT}`));
    }
  });
  return out;
}
