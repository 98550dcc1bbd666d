/**
 * The fields a pod's declared OS rules out, as `validateLinux` and `validateWindows`
 * (k8s.io/kubernetes/pkg/apis/core/validation) check them once `os.name` is valid: a Linux pod
 * takes no Windows options; a Windows pod takes none of the Linux-only security fields. A pod
 * without `os` is not checked (the node decides).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, named } from './field-path';
import { isObject } from './names';

export const POD_OS_FIELDS = new Rule('kubernetes', 'kubernetes/pod-os-fields', 'pod',
  'k8s.io/kubernetes/pkg/apis/core/validation validateLinux and validateWindows (the fields the pod\'s os.name rules out)',
  'a pod whose os.name is linux sets no Windows options');

export const POD_OS_RULES = [POD_OS_FIELDS];

// validateWindows: the pod security context's Linux-only fields, and the spec's host fields that
// the internal API keeps in the security context.
const WINDOWS_POD_SECURITY = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'runAsUser', 'runAsGroup',
  'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'];
const WINDOWS_CONTAINER_SECURITY = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged',
  'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

const set = (v: unknown) => v !== undefined && v !== null;

/** Checks the fields `spec.os.name` rules out, in the pod spec at `at`. */
export function checkPodOsFields(spec: Record<string, any>, at: string, out: Finding[]): void {
  const os = isObject(spec.os) ? spec.os.name : undefined;
  if (os !== 'linux' && os !== 'windows') return;
  const because = `(the pod's os.name is "${os}")`;
  const forbid = (fieldAt: string, value: unknown, what: string) => POD_OS_FIELDS.report(out, fieldAt, value, `expected not set: ${what} ${because}`);
  const scAt = child(at, 'securityContext');
  const sc = isObject(spec.securityContext) ? spec.securityContext : {};
  const containers = (visit: (sc: Record<string, any>, scAt: string) => void) => {
    for (const list of CONTAINER_LISTS) {
      if (!Array.isArray(spec[list])) continue;
      spec[list].forEach((c: unknown, i: number) => {
        if (isObject(c) && isObject(c.securityContext)) visit(c.securityContext, child(named(child(at, list), c, i), 'securityContext'));
      });
    }
  };
  if (os === 'linux') {
    if (set(sc.windowsOptions)) forbid(child(scAt, 'windowsOptions'), sc.windowsOptions, 'Windows options are for Windows pods');
    containers((c, cAt) => {
      if (set(c.windowsOptions)) forbid(child(cAt, 'windowsOptions'), c.windowsOptions, 'Windows options are for Windows pods');
    });
    return;
  }
  const linuxOnly = 'a Linux-only field';
  for (const key of WINDOWS_POD_SECURITY) if (set(sc[key])) forbid(child(scAt, key), sc[key], linuxOnly);
  if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) forbid(child(scAt, 'sysctls'), sc.sysctls, linuxOnly);
  if (set(spec.hostUsers)) forbid(child(at, 'hostUsers'), spec.hostUsers, linuxOnly);
  if (set(spec.shareProcessNamespace)) forbid(child(at, 'shareProcessNamespace'), spec.shareProcessNamespace, linuxOnly);
  for (const key of ['hostPID', 'hostIPC']) if (spec[key] === true) forbid(child(at, key), true, linuxOnly);
  containers((c, cAt) => {
    for (const key of WINDOWS_CONTAINER_SECURITY) if (set(c[key])) forbid(child(cAt, key), c[key], linuxOnly);
  });
}

