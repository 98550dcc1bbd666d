import { Finding, finding } from './finding';
import * as core from '../../../imports/core';

/*
 * The "restricted" Pod Security Standard, for security contexts a user wrote explicitly where the
 * library would otherwise write its preset (the rules of k8s.io/pod-security-admission's
 * restricted policy: allowPrivilegeEscalation, runAsNonRoot, runAsUser, seccompProfile,
 * capabilities; and privileged from baseline).
 */

const ALLOWED = (what: string) => `expected ${what} under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)`;

/** What in explicit pod and container security contexts breaks the restricted standard. */
export function restrictedContextFindings(pod: core.PodSecurityContext | undefined, container: core.SecurityContext,
  fields = { pod: 'podSecurityContext', container: 'containerSecurityContext' }): Finding[] {
  const errors: Finding[] = [];
  const podContext = pod ?? {};
  const c = fields.container;
  if (container.allowPrivilegeEscalation !== false) errors.push(finding(`${c}.allowPrivilegeEscalation`, container.allowPrivilegeEscalation, ALLOWED('false')));
  if (container.privileged === true) errors.push(finding(`${c}.privileged`, true, ALLOWED('false or not set')));
  if (!(container.runAsNonRoot === true || (podContext.runAsNonRoot === true && container.runAsNonRoot !== false))) {
    errors.push(finding(`${c}.runAsNonRoot`, container.runAsNonRoot, ALLOWED(`true here or on ${fields.pod}`)));
  }
  if (container.runAsUser === 0) errors.push(finding(`${c}.runAsUser`, 0, ALLOWED('a non-zero user id')));
  if (podContext.runAsUser === 0) errors.push(finding(`${fields.pod}.runAsUser`, 0, ALLOWED('a non-zero user id')));
  const seccomp = container.seccompProfile?.type ?? podContext.seccompProfile?.type;
  if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
    errors.push(finding(`${c}.seccompProfile.type`, seccomp, ALLOWED(`RuntimeDefault or Localhost, here or on ${fields.pod}`)));
  }
  if (!(container.capabilities?.drop ?? []).includes('ALL')) {
    errors.push(finding(`${c}.capabilities.drop`, container.capabilities?.drop ?? [], ALLOWED('to include "ALL"')));
  }
  const added = (container.capabilities?.add ?? []).filter(a => a !== 'NET_BIND_SERVICE');
  if (added.length) errors.push(finding(`${c}.capabilities.add`, added, ALLOWED('at most "NET_BIND_SERVICE"')));
  return errors;
}
