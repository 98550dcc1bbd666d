/**
 * Kueue v0.20 stops serving `kueue.x-k8s.io/v1beta1` (Kueue PR #14558; v1beta2 is served from
 * v0.15 and stored from v0.16): the API server of a cluster on a current Kueue refuses every
 * v1beta1 Kueue object at apply time, long after the manifest was written. The finding names the
 * version to write and the object's v1beta2 form in short (v1beta2-form.ts makes it as Kueue's
 * conversion does), so the fix is in the message.
 */
import { KUEUE_API_VERSION, KUEUE_V1BETA1 } from './api';
import { kueueV1beta2Form } from './v1beta2-form';
import { Finding } from '../finding';
import { Rule } from '../rule';

export const KUEUE_API_VERSION_SERVED = new Rule('kueue', 'kueue/api-version-served', 'versions',
  'kueue PR #14558 (v0.20: v1beta1 not served) and apis/kueue/v1beta1/*_conversion.go (the v1beta2 form)',
  'a kueue.x-k8s.io/v1beta1 object of any kind is refused by the API server of a cluster on Kueue v0.20 or later',
  // Kueue v0.15 to v0.19 serve v1beta1: a target below v0.20 accepts it.
  { versions: { upstream: 'kueue', from: 'v0.20' } });

export const KUEUE_API_VERSION_RULES = [KUEUE_API_VERSION_SERVED];

/** A finding on a `kueue.x-k8s.io/v1beta1` document of any kind, with its v1beta2 changes. */
export function checkKueueApiVersion(doc: any, out: Finding[]): void {
  if (doc?.apiVersion !== KUEUE_V1BETA1) return;
  const { changes } = kueueV1beta2Form(doc);
  const form = changes.length === 0 ? 'its v1beta2 form changes only the apiVersion' : `its v1beta2 form: ${changes.join('; ')}`;
  KUEUE_API_VERSION_SERVED.report(out, 'apiVersion', doc.apiVersion,
    `expected ${KUEUE_API_VERSION}: Kueue v0.20 and later do not serve v1beta1 (${form})`);
}
