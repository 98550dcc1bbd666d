/**
 * A WorkspaceKind's filter rules and the label selectors of its filter and activity rules, as the
 * WorkspaceKind webhook judges them beyond what the CRD's schema can say (kubeflow/notebooks
 * notebooks-v2, workspaces/controller/internal/webhook workspacekind_webhook.go validateFilterRules
 * and validateActivityRules): a filter rule must do something (hide in the UI, hide from the API or
 * deny), an option selector means nothing on a rule about the kind itself, and every selector must be
 * one the API machinery accepts (`ValidateLabelSelector`, the same check pod templates' selectors
 * get: kubernetes/label-selector).
 */
import { Finding } from '../finding';
import { child, indexed } from '../kubernetes/field-path';
import { isObject } from '../kubernetes/names';
import { checkLabelSelector } from '../kubernetes/scheduling';
import { Rule } from '../rule';

const WEBHOOK = 'kubeflow/notebooks workspaces/controller/internal/webhook workspacekind_webhook.go';

export const FILTER_RULES = new Rule('notebooks', 'notebooks/filter-rules', 'workspace-kind',
  `${WEBHOOK} validateFilterRules (at least one effect set to true; matchImageConfig and matchPodConfig only on rules scoped to IMAGE_CONFIG or POD_CONFIG)`,
  'each filter rule sets at least one effect (ui.hide, api.hide or api.deny true)');

export const WORKSPACE_KIND_SELECTOR_RULES = [FILTER_RULES];

/** Checks the filter rules and the selectors of the activity rules of one WorkspaceKind. */
export function checkWorkspaceKindSelectors(doc: any, out: Finding[]): void {
  const filters = doc?.spec?.filterRules;
  if (Array.isArray(filters)) filters.forEach((rule, i) => checkFilterRule(rule, indexed('spec.filterRules', i), out));
  const activity = doc?.spec?.activityRules;
  if (Array.isArray(activity)) {
    activity.forEach((rule, i) => {
      const match = rule?.match;
      if (!isObject(match)) return;
      const at = child(indexed('spec.activityRules', i), 'match');
      for (const key of ['matchNamespace', 'matchPodConfig']) {
        if (isObject(match[key])) checkLabelSelector(match[key].selector, child(child(at, key), 'selector'), out);
      }
    });
  }
}

function checkFilterRule(rule: unknown, at: string, out: Finding[]): void {
  if (!isObject(rule)) return;
  const effect = isObject(rule.effect) ? rule.effect : {};
  // The webhook counts an effect only when it is true: `hide: false` everywhere filters nothing.
  const acts = effect.ui?.hide === true || effect.api?.hide === true || effect.api?.deny === true;
  if (!acts) {
    FILTER_RULES.report(out, child(at, 'effect'), effect,
      'expected at least one effect set to true: ui.hide, api.hide or api.deny (a rule with none filters nothing, and the webhook refuses it)');
  }
  if (!Array.isArray(rule.match)) return;
  rule.match.forEach((condition: unknown, j: number) => {
    if (!isObject(condition)) return;
    const cAt = indexed(child(at, 'match'), j);
    for (const key of ['matchNamespace', 'matchImageConfig', 'matchPodConfig']) {
      const selector = condition[key];
      if (!isObject(selector)) continue;
      if (key !== 'matchNamespace' && rule.scope === 'WORKSPACE_KIND') {
        FILTER_RULES.report(out, child(cAt, key), selector,
          `expected matchNamespace only, or the scope "IMAGE_CONFIG" or "POD_CONFIG": a rule scoped to "WORKSPACE_KIND" filters the kind, which has no ${key === 'matchImageConfig' ? 'image' : 'pod-config'} option to match`);
      }
      checkLabelSelector(selector.selector, child(child(cAt, key), 'selector'), out);
    }
  });
}
