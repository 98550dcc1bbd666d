/**
 * `cdk8s-kubeflow rules`: every rule `lint` applies, by layer and family, with its upstream source,
 * so that a finding's rule id can be looked up and a team can see what the command checks.
 */
import { YAML_SYNTAX } from './lint';
import { APP_RULES } from '../validation/app';
import { KUBERNETES_RULES, POD_SECURITY_RESTRICTED_RULES } from '../validation/k8s';
import { KUBEFLOW_RULES } from '../validation/kubeflow';
import { RuleInfo } from '../validation/rule';

/** The layers of `lint`, in the order findings are reported. */
export const LINT_LAYERS: ReadonlyArray<{ readonly layer: string; readonly rules: readonly RuleInfo[] }> = [
  { layer: 'YAML', rules: [{ id: YAML_SYNTAX, family: 'yaml', source: 'YAML 1.1, as kubectl reads it (duplicate keys refused)' }] },
  { layer: 'CRD schema', rules: [{ id: 'crd/schema', family: 'schema', source: 'the pinned CRDs (openAPIV3Schema), strictly: unknown fields are findings' }] },
  { layer: 'Kubernetes', rules: KUBERNETES_RULES },
  { layer: 'Pod Security "restricted" (namespaces of the input that enforce it)', rules: POD_SECURITY_RESTRICTED_RULES },
  { layer: 'Across documents', rules: APP_RULES },
  { layer: 'Operators', rules: KUBEFLOW_RULES },
];

/** The rules as text: a heading per layer, a line per family with its count, a line per rule. */
export function rulesText(): string {
  const lines: string[] = [];
  let total = 0;
  for (const { layer, rules } of LINT_LAYERS) {
    total += rules.length;
    lines.push(`${layer}: ${rules.length}`);
    const families = new Map<string, RuleInfo[]>();
    for (const r of rules) families.set(r.family, [...families.get(r.family) ?? [], r]);
    for (const [family, members] of families) {
      lines.push(`  ${family}: ${members.length}`);
      for (const r of members) lines.push(`    ${r.id}  (${r.source})`);
    }
  }
  lines.push(`${total} rules`);
  return lines.join('\n') + '\n';
}
