/**
 * Security contexts: what the API server refuses (`ValidatePodSecurityContext`,
 * `ValidateSecurityContext`, k8s.io/kubernetes/pkg/apis/core/validation) and what the kubelet and
 * the container runtime refuse when the container starts.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { isObject } from './names';

const F = 'security';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const RUN_AS_NON_ROOT = new Rule('kubernetes', 'kubernetes/run-as-non-root', F,
  'kubelet verifyRunAsNonRoot (pkg/kubelet/kuberuntime/security_context_others.go): runAsNonRoot with uid 0 does not start',
  'a container whose effective runAsNonRoot is true and runAsUser 0 does not start');
export const PRIVILEGED_ESCALATION = new Rule('kubernetes', 'kubernetes/privileged-escalation', F,
  `${SOURCE} ValidateSecurityContext: allowPrivilegeEscalation false with privileged true`,
  'a privileged container does not set allowPrivilegeEscalation to false');
export const SYS_ADMIN_ESCALATION = new Rule('kubernetes', 'kubernetes/sys-admin-escalation', F,
  `${SOURCE} ValidateSecurityContext: allowPrivilegeEscalation false with capabilities.add CAP_SYS_ADMIN`,
  'a container that adds CAP_SYS_ADMIN does not set allowPrivilegeEscalation to false');
export const CAPABILITY_NAME = new Rule('kubernetes', 'kubernetes/capability-name', F,
  'container runtime: containerd and CRI-O upper-case a CRI capability and prefix CAP_; runc capabilities.New ignores an unknown name, CRI-O refuses it',
  'a capability is named without CAP_ in any case, or ALL');
export const SECCOMP_PROFILE = new Rule('kubernetes', 'kubernetes/seccomp-profile', F, `${SOURCE} validateSeccompProfileField`,
  'a seccomp profile type is RuntimeDefault, Unconfined or Localhost');
export const APPARMOR_PROFILE = new Rule('kubernetes', 'kubernetes/apparmor-profile', F, `${SOURCE} ValidateAppArmorProfileField`,
  'an AppArmor profile type is RuntimeDefault, Unconfined or Localhost');
export const PROC_MOUNT = new Rule('kubernetes', 'kubernetes/proc-mount', F, `${SOURCE} ValidateSecurityContext (procMount: Default, or Unmasked when hostUsers is false)`,
  'procMount is Default or Unmasked, and Unmasked only when the pod sets hostUsers false');

export const SECURITY_RULES = [
  RUN_AS_NON_ROOT, PRIVILEGED_ESCALATION, SYS_ADMIN_ESCALATION, CAPABILITY_NAME, SECCOMP_PROFILE, APPARMOR_PROFILE, PROC_MOUNT,
];

// Linux capabilities (include/uapi/linux/capability.h), as the CRI names them: without the CAP_
// prefix, which containerd and CRI-O add after upper-casing the name; "ALL" in any case.
const CAPABILITIES = new Set([
  'CHOWN', 'DAC_OVERRIDE', 'DAC_READ_SEARCH', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID', 'SETPCAP',
  'LINUX_IMMUTABLE', 'NET_BIND_SERVICE', 'NET_BROADCAST', 'NET_ADMIN', 'NET_RAW', 'IPC_LOCK', 'IPC_OWNER',
  'SYS_MODULE', 'SYS_RAWIO', 'SYS_CHROOT', 'SYS_PTRACE', 'SYS_PACCT', 'SYS_ADMIN', 'SYS_BOOT', 'SYS_NICE',
  'SYS_RESOURCE', 'SYS_TIME', 'SYS_TTY_CONFIG', 'MKNOD', 'LEASE', 'AUDIT_WRITE', 'AUDIT_CONTROL', 'SETFCAP',
  'MAC_OVERRIDE', 'MAC_ADMIN', 'SYSLOG', 'WAKE_ALARM', 'BLOCK_SUSPEND', 'AUDIT_READ', 'PERFMON', 'BPF',
  'CHECKPOINT_RESTORE',
]);

/** Why a capability name does not reach the container as written, or undefined when it does. */
function capabilityProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'expected a Linux capability name such as NET_ADMIN, or ALL';
  const upper = value.toUpperCase();
  if (upper === 'ALL' || CAPABILITIES.has(upper)) return undefined;
  if (upper.startsWith('CAP_') && CAPABILITIES.has(upper.slice(4))) {
    return `expected the name without "CAP_", such as ${upper.slice(4)} (the runtime adds the prefix: ${upper} becomes CAP_${upper}, which runc ignores and CRI-O refuses)`;
  }
  return 'expected a Linux capability name such as NET_ADMIN or SYS_PTRACE, or ALL (runc ignores an unknown name, CRI-O refuses it)';
}

/** Checks a pod's security context (profiles; the uid rules are checked per container). */
export function checkPodSecurityContext(sc: unknown, at: string, out: Finding[]): void {
  if (!isObject(sc)) return;
  checkProfiles(sc, at, out);
}

/**
 * Checks a container's security context; `pod` is the pod's, for the values it inherits, and
 * `hostUsers` the pod's `hostUsers` (true unless the pod runs in its own user namespace).
 */
export function checkContainerSecurityContext(sc: unknown, at: string, pod: unknown, podAt: string, out: Finding[], hostUsers = true): void {
  const own = isObject(sc) ? sc : undefined;
  const inherited = isObject(pod) ? pod : undefined;
  checkRunAsNonRoot(own, at, inherited, podAt, out);
  if (own === undefined) return;
  if (own.allowPrivilegeEscalation === false) {
    if (own.privileged === true) {
      PRIVILEGED_ESCALATION.report(out, child(at, 'allowPrivilegeEscalation'), false,
        'expected true or not set when privileged is true (the API server refuses privileged: true with allowPrivilegeEscalation: false)');
    }
    const add = own.capabilities?.add;
    if (Array.isArray(add) && add.includes('CAP_SYS_ADMIN')) {
      SYS_ADMIN_ESCALATION.report(out, child(at, 'allowPrivilegeEscalation'), false,
        'expected true or not set when capabilities.add has CAP_SYS_ADMIN (the API server refuses the pair)');
    }
  }
  const caps = own.capabilities;
  if (isObject(caps)) {
    for (const list of ['add', 'drop']) {
      const names = caps[list];
      if (!Array.isArray(names)) continue;
      for (let i = 0; i < names.length; i++) {
        const problem = capabilityProblem(names[i]);
        if (problem !== undefined) CAPABILITY_NAME.report(out, indexed(child(child(at, 'capabilities'), list), i), names[i], problem);
      }
    }
  }
  if (own.procMount !== undefined && own.procMount !== 'Default' && own.procMount !== 'Unmasked') {
    PROC_MOUNT.report(out, child(at, 'procMount'), own.procMount, 'expected "Default" or "Unmasked"');
  } else if (own.procMount === 'Unmasked' && hostUsers) {
    PROC_MOUNT.report(out, child(at, 'procMount'), own.procMount, 'expected "Default" or not set, unless the pod sets hostUsers: false ("Unmasked" needs the pod\'s own user namespace)');
  }
  checkProfiles(own, at, out);
}

/**
 * The kubelet refuses to start a container whose effective runAsNonRoot is true and whose
 * effective runAsUser is 0 ("container's runAsUser breaks non-root policy").
 */
function checkRunAsNonRoot(
  own: Record<string, any> | undefined, at: string, pod: Record<string, any> | undefined, podAt: string, out: Finding[],
): void {
  const nonRoot = own?.runAsNonRoot ?? pod?.runAsNonRoot;
  if (nonRoot !== true) return;
  if (own?.runAsUser !== undefined) {
    if (own.runAsUser === 0) {
      RUN_AS_NON_ROOT.report(out, child(at, 'runAsUser'), 0, 'expected a non-zero uid when runAsNonRoot is true (the kubelet refuses to start the container)');
    }
  } else if (pod?.runAsUser === 0) {
    RUN_AS_NON_ROOT.report(out, child(podAt, 'runAsUser'), 0, 'expected a non-zero uid when runAsNonRoot is true (the kubelet refuses to start the container)');
  }
}

const PROFILE_TYPES = new Set(['RuntimeDefault', 'Unconfined', 'Localhost']);

function checkProfiles(sc: Record<string, any>, at: string, out: Finding[]): void {
  const seccomp = sc.seccompProfile;
  if (isObject(seccomp)) {
    const path = child(at, 'seccompProfile');
    checkProfile(SECCOMP_PROFILE, seccomp, path, out);
    const local = seccomp.localhostProfile;
    // validateLocalDescendingPath: relative to the kubelet's seccomp root, no "..".
    if (seccomp.type === 'Localhost' && typeof local === 'string' && local !== '' && !isLocalDescendingPath(local)) {
      SECCOMP_PROFILE.report(out, child(path, 'localhostProfile'), local, 'expected a relative path without ".." (under the kubelet\'s seccomp directory)');
    }
  }
  const appArmor = sc.appArmorProfile;
  if (isObject(appArmor)) checkProfile(APPARMOR_PROFILE, appArmor, child(at, 'appArmorProfile'), out);
}

function checkProfile(rule: Rule, profile: Record<string, any>, at: string, out: Finding[]): void {
  const type = profile.type;
  if (!PROFILE_TYPES.has(type)) {
    rule.report(out, child(at, 'type'), type, 'expected "RuntimeDefault", "Unconfined" or "Localhost"');
    return;
  }
  const local = profile.localhostProfile;
  const hasLocal = typeof local === 'string' && local !== '';
  if (type === 'Localhost' && !hasLocal) {
    rule.report(out, child(at, 'localhostProfile'), local, 'expected the profile to load when type is "Localhost"');
  } else if (type !== 'Localhost' && local !== undefined) {
    rule.report(out, child(at, 'localhostProfile'), local, `expected not set when type is "${type}" (only "Localhost" takes a profile)`);
  }
}

/** validateLocalDescendingPath: not absolute, and no ".." element. */
export function isLocalDescendingPath(path: string): boolean {
  if (path.startsWith('/')) return false;
  for (const part of path.split(/[\\/]/)) if (part === '..') return false;
  return true;
}
