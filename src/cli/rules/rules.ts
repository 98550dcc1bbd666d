/**
 * `cdk8s-kubeflow rules`: every rule `lint` applies, grouped by its source (the component whose
 * behaviour it mirrors; each group is switched on its own, see synth/rule-switches.ts), then by
 * family, with its severity, what it requires, its upstream reference and, for a rule of some
 * upstream versions only, those versions (a target outside them drops its findings,
 * docs/versions.md), so that a finding's rule id can be looked up and a team can see what the
 * command checks. The rule sets (rules/rule-sets.ts) are the list.
 */
import { ALL_RULES } from '../../rules/catalogue';
import { RuleInfo } from '../../rules/rule';
import { RULE_SETS } from '../../rules/rule-sets';
import { versionsText } from '../../rules/target';

/** Every rule `lint` applies. */
export const LINT_RULES: readonly RuleInfo[] = ALL_RULES;

/**
 * The rules as text: a heading per source with its name (what `lint --rules-off` and the context key
 * `cdk8s-kubeflow/rules/<name>` switch) and its count, a line per family with its count, a line per
 * rule (with `[warning]` for a rule of that severity and `[versions: ...]` when it applies to some
 * upstream versions only).
 */
export function rulesText(): string {
  const lines: string[] = [];
  for (const { source, title } of RULE_SETS) {
    const rules = LINT_RULES.filter(r => r.source === source);
    lines.push(`${title} [${source}]: ${rules.length}`);
    const families = new Map<string, RuleInfo[]>();
    for (const r of rules) families.set(r.family, [...families.get(r.family) ?? [], r]);
    for (const [family, members] of families) {
      lines.push(`  ${family}: ${members.length}`);
      for (const r of members) {
        const marks = `${r.severity === 'warning' ? '  [warning]' : ''}${r.versions ? `  [versions: ${versionsText(r.versions)}]` : ''}`;
        lines.push(`    ${r.id}  ${r.description}  (${r.upstream})${marks}`);
      }
    }
  }
  lines.push(`${LINT_RULES.length} rules`);
  return lines.join('\n') + '\n';
}
