/**
 * Every rule, as data, from the rule sets (rule-sets.ts), and what findings need looked up by
 * their rule's id: findings carry only the id, so code that treats findings by source (the
 * switches, `cdk8s-kubeflow rules`, the differential run), by version or by severity looks it up
 * here rather than reading the id's prefix or a message.
 */
import { RuleInfo, RuleSeverity, RuleSource } from './rule';
import { RULE_SETS } from './rule-sets';
import type { RuleVersions } from './target';

/** Every rule, by set, in the order `cdk8s-kubeflow rules` lists them. */
export const ALL_RULES: readonly RuleInfo[] = RULE_SETS.flatMap(s => s.rules.map(r => r.info()));

const byId = new Map<string, RuleInfo>(ALL_RULES.map(r => [r.id, r]));

/** The rule with this id; undefined for an id of no rule (a construct's own check has none). */
export function ruleInfo(id: string | undefined): RuleInfo | undefined {
  return id === undefined ? undefined : byId.get(id);
}

/** The source of the rule with this id; undefined for an id of no rule. */
export function ruleSource(id: string | undefined): RuleSource | undefined {
  return ruleInfo(id)?.source;
}

/** The severity of the rule with this id; a finding of no rule (a construct's own check) is an error. */
export function ruleSeverity(id: string | undefined): RuleSeverity {
  return ruleInfo(id)?.severity ?? 'error';
}

const versioned = new Map<string, RuleVersions>(ALL_RULES.filter(r => r.versions !== undefined).map(r => [r.id, r.versions!]));

/**
 * The versions the rule with this id applies to; undefined for a rule of every version (most) or
 * an id of no rule. Findings carry only the id, so the engine and `lint` look it up here.
 */
export function ruleVersions(id: string | undefined): RuleVersions | undefined {
  return id === undefined ? undefined : versioned.get(id);
}
