/**
 * The switches of the rule groups: one cdk8s context key per source, under one prefix, so an app
 * turns a group off where it sets any context (before it adds charts):
 *
 *   app.node.setContext('cdk8s-kubeflow/rules/kubernetes', 'off');
 *
 * A switched-off group's findings are dropped, whatever check found them (a Trainer check also
 * applies Kubernetes rules to the pods of a runtime patch; those go with the Kubernetes group).
 * The constructs' own checks of their props belong to no group and stay on.
 */
import { IConstruct } from 'constructs';
import { RuleSource } from '../rules/rule';
import { userError } from '../util/user-error';

/** The prefix of every switch: `cdk8s-kubeflow/rules/<source>`. */
export const RULES_CONTEXT_PREFIX = 'cdk8s-kubeflow/rules/';

/**
 * The key the differential proof (scripts/differential.ts) has set since before the groups: it
 * switches the Kubernetes group alone, as `cdk8s-kubeflow/rules/kubernetes` does.
 */
export const KUBERNETES_RULES_CONTEXT = 'cdk8s-kubeflow.internal/kubernetes-rules';

/** The context key of one group's switch. */
export function rulesContextKey(source: RuleSource): string {
  return `${RULES_CONTEXT_PREFIX}${source}`;
}

/**
 * The groups switched off for the app of `scope`. A switch is `'off'` or `false` (`'on'` and `true`
 * are the default); any other value is an error rather than a group silently left on. (A key that
 * names no group cannot be caught: constructs 10 offers no way to list the root's context.)
 * `sources` are the rule sets' (rule-sets.ts), passed by the engine, which loads the rules lazily.
 */
export function sourcesOff(scope: IConstruct, sources: readonly RuleSource[]): ReadonlySet<RuleSource> {
  const node = scope.node.root.node;
  const off = new Set<RuleSource>();
  for (const source of sources) {
    if (isOff(rulesContextKey(source), node.tryGetContext(rulesContextKey(source)))) off.add(source);
  }
  if (isOff(KUBERNETES_RULES_CONTEXT, node.tryGetContext(KUBERNETES_RULES_CONTEXT))) off.add('kubernetes');
  return off;
}

function isOff(key: string, value: unknown): boolean {
  if (value === undefined || value === 'on' || value === true) return false;
  if (value === 'off' || value === false) return true;
  throw userError(`context ${key} is ${JSON.stringify(value)}; expected "off" or false to switch the group off ("on", true or nothing leaves it on)`);
}
