/**
 * The annotation that silences one rule on one object, as kube-linter's ignore-check annotations
 * do: `ignore-rule.cdk8s-kubeflow.io/<source>.<name>: "<reason>"` in the object's
 * metadata.annotations (the rule id with its "/" written as ".", since an annotation key has one
 * "/"). The reason is required, so a silenced rule always says why; the synth engine and `lint`
 * drop that rule's findings on that object, and `lint` lists every silenced rule with its object
 * and reason, so nothing is silenced out of sight.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';

export const IGNORE_RULE_PREFIX = 'ignore-rule.cdk8s-kubeflow.io/';

export const IGNORE_RULE = new Rule('library', 'library/ignore-rule', 'metadata',
  'cdk8s-kubeflow\'s own (an annotation that silences one rule on one object, as kube-linter\'s ignore-check annotations)',
  'an ignore-rule annotation names a rule of `cdk8s-kubeflow rules` and gives the reason the rule does not apply');

/** The annotation key that silences the rule with this id: `ignore-rule.cdk8s-kubeflow.io/kubernetes.label-key`. */
export function ignoreRuleKey(ruleId: string): string {
  return `${IGNORE_RULE_PREFIX}${ruleId.replace('/', '.')}`;
}

/** One rule an object silences, and why. */
export interface Silencing {
  readonly rule: string;
  readonly reason: string;
}

/** The rules one document silences, and the findings of its annotations that cannot silence anything. */
export interface Silencings {
  readonly silenced: readonly Silencing[];
  readonly findings: readonly Finding[];
}

const NONE: Silencings = { silenced: [], findings: [] };

/**
 * Reads the ignore-rule annotations of one document. `isRule` says whether an id is a rule's; an
 * annotation that names none, or gives no reason, silences nothing and is a finding of
 * `library/ignore-rule`.
 */
export function silencingsOf(doc: any, isRule: (id: string) => boolean): Silencings {
  const annotations = doc?.metadata?.annotations;
  if (typeof annotations !== 'object' || annotations === null) return NONE;
  let silenced: Silencing[] | undefined;
  let findings: Finding[] | undefined;
  for (const key of Object.keys(annotations)) {
    if (!key.startsWith(IGNORE_RULE_PREFIX)) continue;
    const name = key.slice(IGNORE_RULE_PREFIX.length);
    const dot = name.indexOf('.');
    const rule = dot < 0 ? name : `${name.slice(0, dot)}/${name.slice(dot + 1)}`;
    const reason = annotations[key];
    const field = child('metadata.annotations', key);
    if (!isRule(rule) || rule === IGNORE_RULE.id) {
      IGNORE_RULE.report(findings ??= [], field, reason,
        `expected the key to name a rule of \`cdk8s-kubeflow rules\` as ${IGNORE_RULE_PREFIX}<source>.<name> (such as ${ignoreRuleKey('kubernetes/run-as-non-root')}); "${rule}" is no rule`);
    } else if (typeof reason !== 'string' || reason.trim() === '') {
      IGNORE_RULE.report(findings ??= [], field, reason, `expected the reason the rule ${rule} does not apply to this object`);
    } else {
      (silenced ??= []).push({ rule, reason });
    }
  }
  return silenced === undefined && findings === undefined ? NONE : { silenced: silenced ?? [], findings: findings ?? [] };
}

/** The findings of rules the document does not silence, with the findings of its ignore-rule annotations. */
export function unsilenced(findings: readonly Finding[], silencings: Silencings): Finding[] {
  if (silencings === NONE) return findings as Finding[];
  const kept = silencings.silenced.length === 0 ? [...findings] : findings.filter(f => !isSilenced(f, silencings));
  return silencings.findings.length === 0 ? kept : [...kept, ...silencings.findings];
}

/** Whether the document silences the rule of this finding. */
export function isSilenced(f: Finding, silencings: Silencings): boolean {
  return f.rule !== undefined && silencings.silenced.some(s => s.rule === f.rule);
}
