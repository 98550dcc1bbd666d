/**
 * The opt-in for values a newer operator knows and the pinned one does not. The rules of
 * training-operator/known-values.ts refuse a value outside the pinned operator's set wherever it
 * comes from (`RestartPolicy.of('Sometimes')`, a YAML file in `lint`); an app that runs a newer
 * operator lists the raw values it accepts under one cdk8s context key, as it switches rule groups
 * (rule-switches.ts), where it sets any context (before it adds charts, or in cdk8s.yaml):
 *
 *   app.node.setContext('cdk8s-kubeflow/accept-unknown-values', ['Sometimes']);
 *
 * A context key rather than a factory per class: the decision is the platform's (which operator
 * runs), made once per app rather than at every use, it costs no API on the enum-like classes, and
 * the same finding reaches YAML rendered by other tools through `lint`.
 */
import { IConstruct } from 'constructs';
import { Finding } from '../rules/finding';
import { userError } from '../util/user-error';

/** The context key: a list of raw values (strings) accepted where the pinned operator knows a fixed set. */
export const ACCEPT_UNKNOWN_VALUES_CONTEXT = 'cdk8s-kubeflow/accept-unknown-values';

/** The values the app of `scope` accepts; a malformed key is an error rather than ignored. */
export function acceptedUnknownValues(scope: IConstruct): ReadonlySet<string> {
  const value = scope.node.root.node.tryGetContext(ACCEPT_UNKNOWN_VALUES_CONTEXT);
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || value.some(v => typeof v !== 'string')) {
    throw userError(`context ${ACCEPT_UNKNOWN_VALUES_CONTEXT} is ${JSON.stringify(value)}; expected a list of the raw values to accept, such as ["Sometimes"]`);
  }
  return new Set(value);
}

/**
 * The findings of the known-value rules (`isKnownValueRule`) without those of accepted values, and
 * with the opt-in named in the others, so the message says how to accept a newer operator's value.
 */
export function withUnknownValuesAccepted(
  findings: Finding[], accepted: ReadonlySet<string>, isKnownValueRule: (rule: string | undefined) => boolean,
): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    if (!isKnownValueRule(f.rule)) {
      out.push(f);
    } else if (!(typeof f.value === 'string' && accepted.has(f.value))) {
      out.push({ ...f, allowed: `${f.allowed}; for a newer operator's value, list it in the cdk8s context key "${ACCEPT_UNKNOWN_VALUES_CONTEXT}"` });
    }
  }
  return out;
}
