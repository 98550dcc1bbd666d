import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { dropUndefined } from '../../util/collections';
import type { PodSecurity } from '../security';

/**
 * The container security context of a preset. DEFAULT keeps whatever user the image has; RESTRICTED
 * meets the restricted Pod Security Standard. Either way escalation and privileged mode are off.
 * Only what the user asked for is carried over: cdk8s-plus would also switch on a read-only root
 * file system, which training code that writes to /tmp does not expect.
 */
export function presetSecurity(security: PodSecurity, asked: kplus.ContainerSecurityContextProps | undefined): k8s.SecurityContext {
  const common = {
    runAsUser: asked?.user,
    runAsGroup: asked?.group,
    readOnlyRootFilesystem: asked?.readOnlyRootFilesystem,
    allowPrivilegeEscalation: false,
    privileged: false,
  };
  if (security.restricted) {
    return dropUndefined({
      ...common,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
  }
  return dropUndefined(common);
}

/**
 * A security context the user wrote, as cdk8s-plus renders it, made acceptable to the API server:
 * cdk8s-plus writes `allowPrivilegeEscalation: false` unless told otherwise, and the API server
 * refuses that next to `privileged: true` (ValidateSecurityContext: "cannot set
 * allowPrivilegeEscalation to false and privileged to true"). A privileged container escalates
 * anyway, so the field is left out unless the user set it (the rule layer reports that pair).
 */
export function userSecurity(rendered: k8s.SecurityContext | undefined, asked: kplus.ContainerSecurityContextProps): k8s.SecurityContext | undefined {
  if (!rendered || rendered.privileged !== true || asked.allowPrivilegeEscalation !== undefined) return rendered;
  const { allowPrivilegeEscalation: _dropped, ...rest } = rendered;
  return rest;
}
