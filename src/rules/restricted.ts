import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Finding } from './finding';
import { lazy } from '../util/lazy';

/*
 * The constructs' side of the one Pod Security "restricted" check (kubernetes/pod-security.ts,
 * the rule layer's, which mirrors k8s.io/pod-security-admission). Under PodSecurity.RESTRICTED a
 * construct writes the preset's security contexts, so the rendered pod always passes; what the user
 * asked for explicitly (host namespaces, volumes, a container's own security context) is judged
 * here, as a pod spec made of those requests over the preset, so it is an error rather than
 * something the preset silently replaces. Findings name the props the user wrote.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rules = lazy(() => require('./kubernetes/pod-security') as typeof import('./kubernetes/pod-security'));

/** What the restricted standard refuses in `spec` (a pod spec), with each field renamed by `rename`. */
export function restrictedPodFindings(spec: object, rename: (field: string) => string): Finding[] {
  const { restrictedFindings } = rules();
  // The preset is what asked for the standard here, so the reason names it.
  return restrictedFindings(spec, '', undefined, undefined, UNDER_PRESET).map(f => ({ field: rename(f.field), value: f.value, allowed: f.allowed }));
}

/** Why a construct's request is judged by the standard. */
const UNDER_PRESET = 'under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)';

/**
 * A container's security context as the restricted check sees a request: the preset's context
 * (no escalation, not privileged, non-root, every capability dropped, the runtime's seccomp
 * profile) with what the user asked in its place.
 */
export function askedOverRestricted(asked: kplus.ContainerSecurityContextProps): k8s.SecurityContext {
  const add = (asked.capabilities?.add ?? []).map(c => String(c));
  return {
    allowPrivilegeEscalation: asked.allowPrivilegeEscalation ?? false,
    privileged: asked.privileged ?? false,
    runAsNonRoot: asked.ensureNonRoot ?? true,
    capabilities: { drop: ['ALL'], add: add.length ? add : undefined },
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

/** The names a pod's options give the fields the standard judges (`hostIPC` is the `hostIpc` prop, `runAsNonRoot` the `ensureNonRoot` prop). */
export function optionFieldName(field: string): string {
  return field
    .replace(/^hostIPC$/, 'hostIpc')
    .replace(/\.securityContext\.runAsNonRoot$/, '.securityContext.ensureNonRoot')
    .replace(/\.securityContext\.runAsUser$/, '.securityContext.user');
}
