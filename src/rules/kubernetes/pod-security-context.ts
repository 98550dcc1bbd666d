/**
 * The pod-wide security fields the API server checks besides ids and profiles: sysctls, the
 * ownership and label change policies, and the host namespaces (`validatePodSpecSecurityContext`,
 * `validateSysctls`, `ValidateHostSysctl` and `validateHostUsers`, k8s.io/kubernetes/pkg/apis/core/validation,
 * with the 1.34 default feature gates). In the v1 API `hostNetwork`, `hostPID`, `hostIPC`,
 * `shareProcessNamespace` and `hostUsers` sit on the pod spec, not in its securityContext.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { isObject } from './names';

const F = 'security';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const SYSCTL = new Rule('kubernetes', 'kubernetes/sysctl', F,
  `${SOURCE} validateSysctls and ValidateHostSysctl (IsValidSysctlName, unique, no net.* with hostNetwork and no IPC sysctl with hostIPC)`,
  'sysctl names match the sysctl pattern (at most 253 characters), each once');
export const SECURITY_POLICY = new Rule('kubernetes', 'kubernetes/security-policy', F,
  `${SOURCE} validateFSGroupChangePolicy, validateSupplementalGroupsPolicy and validateSELinuxChangePolicy (only Recursive while the SELinuxMount gate is off, as at 1.34)`,
  'fsGroupChangePolicy is OnRootMismatch or Always, supplementalGroupsPolicy Merge or Strict, seLinuxChangePolicy Recursive (MountOption needs the SELinuxMount gate, off in 1.34)');
export const HOST_NAMESPACES = new Rule('kubernetes', 'kubernetes/host-namespaces', F,
  `${SOURCE} validatePodSpecSecurityContext (shareProcessNamespace with hostPID) and validateHostUsers (hostUsers false with a host namespace)`,
  'shareProcessNamespace is not set with hostPID');

export const POD_SECURITY_CONTEXT_RULES = [SYSCTL, SECURITY_POLICY, HOST_NAMESPACES];

// IsValidSysctlName: segments of [a-z0-9]([-_a-z0-9]*[a-z0-9])? joined by "." or "/", at most 253 characters.
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const SYSCTL_NAME_TEXT = 'a sysctl name such as net.core.somaxconn: at most 253 lower-case letters, digits, "-" or "_", in parts joined by "." or "/"';
// k8s.io/component-helpers/node/util/sysctl: the sysctls of the IPC namespace, by name and by prefix.
const IPC_SYSCTLS = new Set(['kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced', 'kernel.shm',
  'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.msg']);

/** Checks the pod-wide security fields of a pod spec at `at`. */
export function checkPodSecurityFields(spec: Record<string, any>, at: string, out: Finding[]): void {
  const sc = isObject(spec.securityContext) ? spec.securityContext : {};
  const scAt = child(at, 'securityContext');
  checkSysctls(sc.sysctls, child(scAt, 'sysctls'), spec.hostNetwork === true, spec.hostIPC === true, out);
  policy(sc.fsGroupChangePolicy, child(scAt, 'fsGroupChangePolicy'), ['OnRootMismatch', 'Always'], out);
  policy(sc.supplementalGroupsPolicy, child(scAt, 'supplementalGroupsPolicy'), ['Merge', 'Strict'], out);
  const seLinux = sc.seLinuxChangePolicy;
  if (seLinux !== undefined && seLinux !== null && seLinux !== 'Recursive') {
    SECURITY_POLICY.report(out, child(scAt, 'seLinuxChangePolicy'), seLinux,
      seLinux === 'MountOption'
        ? 'expected "Recursive" or not set ("MountOption" needs the SELinuxMount feature gate, off by default in 1.34)'
        : 'expected "Recursive" or not set');
  }
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    HOST_NAMESPACES.report(out, child(at, 'shareProcessNamespace'), true, 'expected false or not set when hostPID is true (the pod cannot share both)');
  }
  if (spec.hostUsers === false) {
    for (const key of ['hostNetwork', 'hostPID', 'hostIPC']) {
      if (spec[key] === true) {
        HOST_NAMESPACES.report(out, child(at, key), true, 'expected false or not set when hostUsers is false (a pod in its own user namespace cannot use the host\'s namespaces)');
      }
    }
  }
}

function policy(value: unknown, at: string, allowed: readonly string[], out: Finding[]): void {
  if (value === undefined || value === null || allowed.includes(value as string)) return;
  SECURITY_POLICY.report(out, at, value, `expected ${allowed.map(a => `"${a}"`).join(' or ')}`);
}

function checkSysctls(sysctls: unknown, at: string, hostNetwork: boolean, hostIPC: boolean, out: Finding[]): void {
  if (!Array.isArray(sysctls)) return;
  const seen = new Set<string>();
  sysctls.forEach((s, i) => {
    if (!isObject(s)) return;
    const nameAt = child(indexed(at, i), 'name');
    const name = s.name;
    if (typeof name !== 'string' || name.length > 253 || !SYSCTL_NAME.test(name)) {
      SYSCTL.report(out, nameAt, name, `expected ${SYSCTL_NAME_TEXT}`);
      return;
    }
    if (seen.has(name)) SYSCTL.report(out, nameAt, name, 'expected a sysctl not set twice in the pod');
    seen.add(name);
    const normalized = normalizeSysctl(name);
    if (hostNetwork && normalized.startsWith('net.')) {
      SYSCTL.report(out, nameAt, name, 'expected no net.* sysctl when hostNetwork is true (it would change the host\'s network namespace)');
    } else if (hostIPC && (IPC_SYSCTLS.has(normalized) || normalized.startsWith('fs.mqueue.'))) {
      SYSCTL.report(out, nameAt, name, 'expected no IPC sysctl when hostIPC is true (it would change the host\'s IPC namespace)');
    }
  });
}

/** NormalizeName: a name whose first separator is "/" uses "/" for "." and "." for "/". */
function normalizeSysctl(name: string): string {
  const first = name.search(/[./]/);
  if (first < 0 || name[first] === '.') return name;
  return name.replace(/[./]/g, c => (c === '.' ? '/' : '.'));
}
