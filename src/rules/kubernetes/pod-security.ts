/**
 * Pod Security Standards, profile "restricted" (which includes "baseline"), as findings on a pod
 * spec: for the PodSecurity.RESTRICTED preset to prove what it promises. Each rule mirrors one check
 * of k8s.io/pod-security-admission/policy (check_*.go, the "latest" version at 1.34). Not applied by
 * `kubernetesFindings`: only a preset asks for it.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed, named } from './field-path';
import { isObject } from './names';

const F = 'pod-security';
const SOURCE = 'k8s.io/pod-security-admission/policy';
/** The reason every finding of the profile gives (constructs name their preset in its place, see private/restricted.ts). */
export const WHY = '(Pod Security "restricted")';

export const PSS_HOST_NAMESPACES = new Rule('kubernetes', 'kubernetes/pss-host-namespaces', F, `${SOURCE} check_hostNamespaces.go`,
  'hostNetwork, hostPID and hostIPC are not true');
export const PSS_PRIVILEGED = new Rule('kubernetes', 'kubernetes/pss-privileged', F, `${SOURCE} check_privileged.go`,
  'no container is privileged');
export const PSS_CAPABILITIES = new Rule('kubernetes', 'kubernetes/pss-capabilities', F, `${SOURCE} check_capabilities_baseline.go and check_capabilities_restricted.go`,
  'containers drop ALL and add nothing but NET_BIND_SERVICE');
export const PSS_VOLUME_TYPES = new Rule('kubernetes', 'kubernetes/pss-volume-types', F, `${SOURCE} check_hostPathVolumes.go and check_restrictedVolumes.go`,
  'no hostPath volume, and only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and secret volumes');
export const PSS_HOST_PORTS = new Rule('kubernetes', 'kubernetes/pss-host-ports', F, `${SOURCE} check_hostPorts.go`,
  'no container port sets a hostPort');
export const PSS_APPARMOR = new Rule('kubernetes', 'kubernetes/pss-apparmor', F, `${SOURCE} check_appArmorProfile.go`,
  'no AppArmor profile is Unconfined');
export const PSS_SELINUX = new Rule('kubernetes', 'kubernetes/pss-selinux', F, `${SOURCE} check_seLinuxOptions.go`,
  'SELinux type is one of the container types or unset, and user and role are unset');
export const PSS_PROC_MOUNT = new Rule('kubernetes', 'kubernetes/pss-proc-mount', F, `${SOURCE} check_procMount.go`,
  'procMount is Default or unset');
export const PSS_SYSCTLS = new Rule('kubernetes', 'kubernetes/pss-sysctls', F, `${SOURCE} check_sysctls.go`,
  'only the safe sysctls are set');
export const PSS_PRIVILEGE_ESCALATION = new Rule('kubernetes', 'kubernetes/pss-privilege-escalation', F, `${SOURCE} check_allowPrivilegeEscalation.go`,
  'every container sets allowPrivilegeEscalation false');
export const PSS_RUN_AS_NON_ROOT = new Rule('kubernetes', 'kubernetes/pss-run-as-non-root', F, `${SOURCE} check_runAsNonRoot.go`,
  'runAsNonRoot is true on every container or on the pod, and false nowhere');
export const PSS_RUN_AS_USER = new Rule('kubernetes', 'kubernetes/pss-run-as-user', F, `${SOURCE} check_runAsUser.go`,
  'runAsUser is not 0 on the pod or a container');
export const PSS_SECCOMP = new Rule('kubernetes', 'kubernetes/pss-seccomp', F, `${SOURCE} check_seccompProfile_baseline.go and check_seccompProfile_restricted.go`,
  'seccomp is not Unconfined, and every container has RuntimeDefault or Localhost, set on it or on the pod');
export const PSS_PROBE_HOST = new Rule('kubernetes', 'kubernetes/pss-probe-host', F, `${SOURCE} check_hostProbesAndhostLifecycle.go (baseline from 1.34)`,
  'no probe or lifecycle handler sets an httpGet or tcpSocket host');
export const PSS_HOST_PROCESS = new Rule('kubernetes', 'kubernetes/pss-host-process', F, `${SOURCE} check_windowsHostProcess.go`,
  'no pod or container sets windowsOptions.hostProcess');

/** The restricted profile's rules (listed apart: only presets apply them). */
export const POD_SECURITY_RULES = [
  PSS_HOST_NAMESPACES, PSS_PRIVILEGED, PSS_CAPABILITIES, PSS_VOLUME_TYPES, PSS_HOST_PORTS, PSS_APPARMOR, PSS_SELINUX,
  PSS_PROC_MOUNT, PSS_SYSCTLS, PSS_PRIVILEGE_ESCALATION, PSS_RUN_AS_NON_ROOT, PSS_RUN_AS_USER, PSS_SECCOMP,
  PSS_PROBE_HOST, PSS_HOST_PROCESS,
];

const RESTRICTED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const RESTRICTED_VOLUME_SET = new Set(RESTRICTED_VOLUMES);
const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);
const SAFE_SYSCTLS = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']);
const SECCOMP_ALLOWED = 'expected "RuntimeDefault" or "Localhost" on the container or the pod';

/**
 * Every finding of the restricted profile on a pod spec at `at`; `metadata` (at `metadataAt`) is
 * the pod template's metadata when known, whose legacy AppArmor annotations the baseline reads.
 * `why` ends each message: what asked for the standard (the namespace's label, or a construct's preset).
 */
export function restrictedFindings(spec: unknown, at: string, metadata?: unknown, metadataAt?: string, why: string = WHY): Finding[] {
  const out: Finding[] = [];
  if (!isObject(spec)) return out;
  for (const key of ['hostNetwork', 'hostPID', 'hostIPC']) {
    if (spec[key] === true) PSS_HOST_NAMESPACES.report(out, child(at, key), true, `expected false or not set ${why}`);
  }
  const volumes = spec.volumes;
  if (Array.isArray(volumes)) {
    for (let i = 0; i < volumes.length; i++) {
      const v = volumes[i];
      if (!isObject(v)) continue;
      const type = Object.keys(v).find(k => k !== 'name');
      if (type === undefined || !RESTRICTED_VOLUME_SET.has(type)) {
        PSS_VOLUME_TYPES.report(out, named(child(at, 'volumes'), v, i), type, `expected one of the volume types ${RESTRICTED_VOLUMES.join(', ')} ${why}`);
      }
    }
  }
  const podSc = isObject(spec.securityContext) ? spec.securityContext : {};
  const podScAt = child(at, 'securityContext');
  checkCommonContext(podSc, podScAt, out, why);
  if (podSc.runAsNonRoot === false) PSS_RUN_AS_NON_ROOT.report(out, child(podScAt, 'runAsNonRoot'), false, `expected true ${why}`);
  const sysctls = podSc.sysctls;
  if (Array.isArray(sysctls)) {
    for (let i = 0; i < sysctls.length; i++) {
      const name = sysctls[i]?.name;
      if (!SAFE_SYSCTLS.has(name)) PSS_SYSCTLS.report(out, child(indexed(child(podScAt, 'sysctls'), i), 'name'), name, `expected a safe sysctl: ${[...SAFE_SYSCTLS].join(', ')} ${why}`);
    }
  }
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i];
      if (isObject(c)) checkContainer(c, named(child(at, list), c, i), podSc, out, why);
    }
  }
  checkAppArmorAnnotations(metadata, metadataAt, out, why);
  return out;
}

/** The checks on fields a pod and a container security context share. */
function checkCommonContext(sc: Record<string, any>, at: string, out: Finding[], why: string): void {
  if (sc.runAsUser === 0) PSS_RUN_AS_USER.report(out, child(at, 'runAsUser'), 0, `expected a non-zero uid ${why}`);
  const seLinux = sc.seLinuxOptions;
  if (isObject(seLinux)) {
    const seAt = child(at, 'seLinuxOptions');
    if (!SELINUX_TYPES.has(seLinux.type ?? '')) {
      PSS_SELINUX.report(out, child(seAt, 'type'), seLinux.type, `expected container_t, container_init_t, container_kvm_t, container_engine_t or not set ${why}`);
    }
    for (const key of ['user', 'role']) {
      if (seLinux[key] !== undefined && seLinux[key] !== '') PSS_SELINUX.report(out, child(seAt, key), seLinux[key], `expected not set ${why}`);
    }
  }
  if (sc.appArmorProfile?.type === 'Unconfined') {
    PSS_APPARMOR.report(out, child(child(at, 'appArmorProfile'), 'type'), 'Unconfined', `expected "RuntimeDefault" or "Localhost" ${why}`);
  }
  if (sc.seccompProfile?.type === 'Unconfined') {
    PSS_SECCOMP.report(out, child(child(at, 'seccompProfile'), 'type'), 'Unconfined', `${SECCOMP_ALLOWED} ${why}`);
  }
  if (sc.windowsOptions?.hostProcess === true) {
    PSS_HOST_PROCESS.report(out, child(child(at, 'windowsOptions'), 'hostProcess'), true, `expected false or not set ${why}`);
  }
}

// corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix and the values the baseline allows.
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** The legacy per-container AppArmor annotations: empty, runtime/default or localhost/<profile>. */
function checkAppArmorAnnotations(metadata: unknown, at: string | undefined, out: Finding[], why: string): void {
  if (!isObject(metadata) || !isObject(metadata.annotations) || at === undefined) return;
  for (const [key, value] of Object.entries(metadata.annotations)) {
    if (!key.startsWith(APPARMOR_ANNOTATION_PREFIX)) continue;
    if (value === '' || value === 'runtime/default' || (typeof value === 'string' && value.startsWith('localhost/'))) continue;
    PSS_APPARMOR.report(out, child(child(at, 'annotations'), key), value, `expected "runtime/default" or "localhost/<profile>" ${why}`);
  }
}

/** A probe or lifecycle handler that sets `host` (httpGet or tcpSocket) reaches outside the pod. */
function checkHandlerHosts(c: Record<string, any>, at: string, out: Finding[], why: string): void {
  const handlers: Array<[unknown, string]> = [
    [c.livenessProbe, child(at, 'livenessProbe')], [c.readinessProbe, child(at, 'readinessProbe')], [c.startupProbe, child(at, 'startupProbe')],
    [c.lifecycle?.postStart, child(child(at, 'lifecycle'), 'postStart')], [c.lifecycle?.preStop, child(child(at, 'lifecycle'), 'preStop')],
  ];
  for (const [handler, handlerAt] of handlers) {
    if (!isObject(handler)) continue;
    for (const action of ['httpGet', 'tcpSocket']) {
      const host = handler[action]?.host;
      if (typeof host === 'string' && host !== '') {
        PSS_PROBE_HOST.report(out, child(child(handlerAt, action), 'host'), host, `expected not set (the pod's own IP) ${why}`);
      }
    }
  }
}

function checkContainer(c: Record<string, any>, at: string, podSc: Record<string, any>, out: Finding[], why: string): void {
  const sc = isObject(c.securityContext) ? c.securityContext : {};
  const scAt = child(at, 'securityContext');
  checkCommonContext(sc, scAt, out, why);
  if (sc.privileged === true) PSS_PRIVILEGED.report(out, child(scAt, 'privileged'), true, `expected false or not set ${why}`);
  if (sc.allowPrivilegeEscalation !== false) {
    PSS_PRIVILEGE_ESCALATION.report(out, child(scAt, 'allowPrivilegeEscalation'), sc.allowPrivilegeEscalation, `expected false ${why}`);
  }
  const nonRoot = sc.runAsNonRoot ?? podSc.runAsNonRoot;
  if (nonRoot !== true && sc.runAsNonRoot !== false && podSc.runAsNonRoot !== false) {
    PSS_RUN_AS_NON_ROOT.report(out, child(scAt, 'runAsNonRoot'), sc.runAsNonRoot, `expected true on the container or the pod ${why}`);
  } else if (sc.runAsNonRoot === false) {
    PSS_RUN_AS_NON_ROOT.report(out, child(scAt, 'runAsNonRoot'), false, `expected true ${why}`);
  }
  const seccomp = sc.seccompProfile?.type ?? podSc.seccompProfile?.type;
  if (seccomp === undefined) PSS_SECCOMP.report(out, child(child(scAt, 'seccompProfile'), 'type'), undefined, `${SECCOMP_ALLOWED} ${why}`);
  if (sc.procMount !== undefined && sc.procMount !== 'Default') {
    PSS_PROC_MOUNT.report(out, child(scAt, 'procMount'), sc.procMount, `expected "Default" or not set ${why}`);
  }
  const caps = isObject(sc.capabilities) ? sc.capabilities : {};
  const capsAt = child(scAt, 'capabilities');
  if (!Array.isArray(caps.drop) || !caps.drop.includes('ALL')) {
    PSS_CAPABILITIES.report(out, child(capsAt, 'drop'), caps.drop, `expected a list with "ALL" ${why}`);
  }
  if (Array.isArray(caps.add)) {
    for (let i = 0; i < caps.add.length; i++) {
      if (caps.add[i] !== 'NET_BIND_SERVICE') {
        PSS_CAPABILITIES.report(out, indexed(child(capsAt, 'add'), i), caps.add[i], `expected only NET_BIND_SERVICE to be added ${why}`);
      }
    }
  }
  checkHandlerHosts(c, at, out, why);
  const ports = c.ports;
  if (Array.isArray(ports)) {
    for (let i = 0; i < ports.length; i++) {
      const hostPort = ports[i]?.hostPort;
      if (hostPort !== undefined && hostPort !== 0) {
        PSS_HOST_PORTS.report(out, child(indexed(child(at, 'ports'), i), 'hostPort'), hostPort, `expected 0 or not set ${why}`);
      }
    }
  }
}
