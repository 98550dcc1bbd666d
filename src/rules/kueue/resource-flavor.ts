/**
 * What Kueue's ResourceFlavor webhook refuses on a create (sigs.k8s.io/kueue v0.15.2
 * pkg/webhooks/resourceflavor_webhook.go ValidateResourceFlavor): node labels are labels, node
 * taints have a label-key key and a label value and are unique by key and effect, tolerations are
 * pod tolerations. Labels and tolerations are judged by the Kubernetes rules Kueue's code calls;
 * the taints are Kueue's own copy of the Kubernetes node check.
 */
import { Finding } from '../finding';
import { child, indexed } from '../kubernetes/field-path';
import { checkLabels } from '../kubernetes/metadata';
import { isLabelValue, isObject, isQualifiedName, LABEL_VALUE_TEXT, QUALIFIED_NAME_TEXT } from '../kubernetes/names';
import { checkTolerations } from '../kubernetes/scheduling';
import { Rule } from '../rule';

export const RESOURCE_FLAVOR_TAINTS = new Rule('kueue', 'kueue/resource-flavor-taints', 'queues',
  'kueue v0.15.2 pkg/webhooks/resourceflavor_webhook.go validateNodeTaints (key a label key, value a label value, unique by key and effect)',
  'a taint\'s key is a label key and its value a label value');

export const RESOURCE_FLAVOR_RULES = [RESOURCE_FLAVOR_TAINTS];

/** Checks a ResourceFlavor (v1beta2 or v1beta1: the same fields) as Kueue's webhook does on a create. */
export function checkResourceFlavor(doc: any, out: Finding[]): void {
  const spec = doc?.spec;
  if (!isObject(spec)) return;
  checkLabels(spec.nodeLabels, 'spec.nodeLabels', out);
  checkTolerations(spec.tolerations, 'spec.tolerations', out);
  if (!Array.isArray(spec.nodeTaints)) return;
  const seen = new Set<string>();
  spec.nodeTaints.forEach((taint: unknown, i: number) => {
    if (!isObject(taint)) return;
    const at = indexed('spec.nodeTaints', i);
    if (!isQualifiedName(taint.key)) RESOURCE_FLAVOR_TAINTS.report(out, child(at, 'key'), taint.key, `expected a taint key: ${QUALIFIED_NAME_TEXT}`);
    if (!isLabelValue(taint.value ?? '')) RESOURCE_FLAVOR_TAINTS.report(out, child(at, 'value'), taint.value, `expected ${LABEL_VALUE_TEXT}`);
    const identity = JSON.stringify([taint.key, taint.effect]);
    if (seen.has(identity)) {
      RESOURCE_FLAVOR_TAINTS.report(out, at, `${String(taint.key)}:${String(taint.effect)}`, 'expected taints unique by key and effect; an earlier taint has both');
    }
    seen.add(identity);
  });
}
