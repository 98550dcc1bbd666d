/**
 * A pod mounts PersistentVolumeClaims of its own namespace only. A template that names a claim the
 * app creates in another namespace (and none in its own) leaves the pods Pending.
 */
import { documentKind } from './';
import { apiVersionOf } from '../../kinds/kind';
import { WORKSPACE } from '../../kinds/notebooks';
import { AppDocument, AppFinding, namespaceOf, showNamespace } from '../app-document';
import { named } from './field-path';
import { compileLocation, select } from './select';
import { Rule } from '../rule';

export const CLAIM_NAMESPACE = new Rule('kubernetes', 'kubernetes/claim-namespace', 'app',
  'kube-scheduler VolumeBinding and the kubelet: persistentVolumeClaim.claimName is looked up in the pod\'s namespace',
  'a pod mounts claims of its own namespace only, so a claim the app creates in another namespace leaves the pod pending');

const CLAIM = compileLocation('persistentVolumeClaim.claimName');
const TEMPLATE_SPECS = new Map<string, ReturnType<typeof compileLocation>>();

/** Where a kind names claims, besides its pod templates' volumes. */
const CLAIM_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [`${apiVersionOf(WORKSPACE)}/${WORKSPACE.kind}`]: ['spec.podTemplate.volumes.home', 'spec.podTemplate.volumes.data[].pvcName'],
};
const COMPILED_CLAIM_FIELDS = new Map(Object.entries(CLAIM_FIELDS).map(([k, v]) => [k, v.map(compileLocation)]));

export function claimsFromOtherNamespaces(docs: readonly AppDocument[], out: AppFinding[]): void {
  const claims = new Map<string, Set<string>>();
  for (const d of docs) {
    if (d.doc?.apiVersion !== 'v1' || d.doc?.kind !== 'PersistentVolumeClaim') continue;
    const name = d.doc.metadata?.name;
    if (typeof name !== 'string') continue;
    const namespaces = claims.get(name) ?? new Set<string>();
    namespaces.add(namespaceOf(d.doc));
    claims.set(name, namespaces);
  }
  if (claims.size === 0) return;
  for (const d of docs) {
    const ns = namespaceOf(d.doc);
    const check = (claim: unknown, at: string) => {
      if (typeof claim !== 'string') return;
      const namespaces = claims.get(claim);
      if (namespaces === undefined || namespaces.has(ns)) return;
      out.push({
        path: d.path,
        finding: {
          field: at,
          value: claim,
          rule: CLAIM_NAMESPACE.id,
          allowed: `expected a claim in the object's own ${showNamespace(ns)} (the app's claim "${claim}" is in ${[...namespaces].map(showNamespace).join(' and ')}; pods mount claims of their own namespace only)`,
        },
      });
    };
    const kind = documentKind(d.doc);
    for (const pattern of kind?.podTemplates ?? []) {
      let location = TEMPLATE_SPECS.get(pattern);
      if (location === undefined) TEMPLATE_SPECS.set(pattern, location = compileLocation(`${pattern}.spec`));
      select(d.doc, location, (spec, specAt) => {
        const volumes = (spec as any)?.volumes;
        if (!Array.isArray(volumes)) return;
        for (let i = 0; i < volumes.length; i++) {
          const volumeAt = named(`${specAt}.volumes`, volumes[i], i);
          select(volumes[i], CLAIM, (claim, claimAt) => check(claim, `${volumeAt}.${claimAt}`));
        }
      });
    }
    for (const location of COMPILED_CLAIM_FIELDS.get(`${d.doc?.apiVersion}/${d.doc?.kind}`) ?? []) select(d.doc, location, check);
  }
}
