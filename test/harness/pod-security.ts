/**
 * The Kubernetes Pod Security Standards ("baseline" and "restricted") as checks on a rendered pod
 * spec, one function per rule, so that a test can name the rule a manifest breaks.
 */

/** A rule of the standard: its name and the problems it finds in a pod spec. */
export interface PodSecurityRule {
  readonly profile: 'baseline' | 'restricted';
  readonly name: string;
  readonly check: (pod: any) => string[];
}

const BASELINE_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD',
  'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const SAFE_SYSCTLS = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']);
const RESTRICTED_VOLUMES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);

/** Every container of the pod, init and ephemeral ones included, with where it sits. */
function containers(pod: any): Array<{ at: string; c: any }> {
  const out: Array<{ at: string; c: any }> = [];
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    (pod[field] ?? []).forEach((c: any, i: number) => out.push({ at: `${field}[${i}] (${c.name})`, c }));
  }
  return out;
}

function each(pod: any, problem: (c: any) => string | undefined): string[] {
  return containers(pod).flatMap(({ at, c }) => {
    const p = problem(c);
    return p ? [`${at}: ${p}`] : [];
  });
}

export const POD_SECURITY_RULES: readonly PodSecurityRule[] = [
  { profile: 'baseline', name: 'host namespaces', check: pod => ['hostNetwork', 'hostPID', 'hostIPC'].filter(f => pod[f] === true).map(f => `${f} is true`) },
  { profile: 'baseline', name: 'privileged containers', check: pod => each(pod, c => (c.securityContext?.privileged === true ? 'privileged' : undefined)) },
  {
    profile: 'baseline',
    name: 'capabilities beyond the baseline set',
    check: pod => each(pod, c => {
      const extra = (c.securityContext?.capabilities?.add ?? []).filter((a: string) => !BASELINE_CAPABILITIES.has(a));
      return extra.length ? `adds ${extra.join(', ')}` : undefined;
    }),
  },
  { profile: 'baseline', name: 'hostPath volumes', check: pod => (pod.volumes ?? []).filter((v: any) => v.hostPath).map((v: any) => `volume ${v.name} is a hostPath`) },
  { profile: 'baseline', name: 'host ports', check: pod => each(pod, c => ((c.ports ?? []).some((p: any) => p.hostPort) ? 'uses a hostPort' : undefined)) },
  {
    profile: 'baseline',
    name: 'AppArmor profile',
    check: pod => [pod.securityContext, ...containers(pod).map(x => x.c.securityContext)]
      .filter(sc => sc?.appArmorProfile && !['RuntimeDefault', 'Localhost'].includes(sc.appArmorProfile.type))
      .map(sc => `appArmorProfile ${sc.appArmorProfile.type}`),
  },
  {
    profile: 'baseline',
    name: 'SELinux user and role',
    check: pod => [pod.securityContext, ...containers(pod).map(x => x.c.securityContext)]
      .filter(sc => sc?.seLinuxOptions?.user || sc?.seLinuxOptions?.role).map(() => 'custom SELinux user or role'),
  },
  { profile: 'baseline', name: '/proc mount type', check: pod => each(pod, c => (c.securityContext?.procMount && c.securityContext.procMount !== 'Default' ? `procMount ${c.securityContext.procMount}` : undefined)) },
  { profile: 'baseline', name: 'unsafe sysctls', check: pod => (pod.securityContext?.sysctls ?? []).filter((s: any) => !SAFE_SYSCTLS.has(s.name)).map((s: any) => `sysctl ${s.name}`) },
  {
    profile: 'restricted',
    name: 'volume types',
    check: pod => (pod.volumes ?? []).filter((v: any) => !Object.keys(v).some(k => RESTRICTED_VOLUMES.has(k))).map((v: any) => `volume ${v.name} has a type outside the restricted list`),
  },
  { profile: 'restricted', name: 'privilege escalation', check: pod => each(pod, c => (c.securityContext?.allowPrivilegeEscalation === false ? undefined : 'allowPrivilegeEscalation is not false')) },
  {
    profile: 'restricted',
    name: 'running as non-root',
    check: pod => each(pod, c => {
      const nonRoot = c.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
      return nonRoot === true ? undefined : 'runAsNonRoot is not true on the pod or the container';
    }),
  },
  {
    profile: 'restricted',
    name: 'non-root user id',
    check: pod => [pod.securityContext, ...containers(pod).map(x => x.c.securityContext)].filter(sc => sc?.runAsUser === 0).map(() => 'runAsUser is 0'),
  },
  {
    profile: 'restricted',
    name: 'seccomp profile',
    check: pod => each(pod, c => {
      const type = c.securityContext?.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type;
      return type === 'RuntimeDefault' || type === 'Localhost' ? undefined : `seccompProfile is ${type ?? 'not set'}`;
    }),
  },
  {
    profile: 'restricted',
    name: 'capabilities dropped',
    check: pod => each(pod, c => {
      const caps = c.securityContext?.capabilities ?? {};
      if (!(caps.drop ?? []).includes('ALL')) return 'does not drop ALL capabilities';
      const added = (caps.add ?? []).filter((a: string) => a !== 'NET_BIND_SERVICE');
      return added.length ? `adds ${added.join(', ')}` : undefined;
    }),
  },
];

/** Problems of a pod spec under a profile (restricted includes baseline). */
export function podSecurityViolations(pod: any, profile: 'baseline' | 'restricted'): string[] {
  return POD_SECURITY_RULES
    .filter(r => profile === 'restricted' || r.profile === 'baseline')
    .flatMap(r => r.check(pod).map(p => `${r.name}: ${p}`));
}

/** Every pod template in a manifest (replica specs, workspace kinds), found by shape. */
export function podSpecsOf(doc: any): Array<{ at: string; pod: any }> {
  const out: Array<{ at: string; pod: any }> = [];
  const visit = (node: any, at: string) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node.containers) && node.containers.every((c: any) => c && typeof c.image === 'string')) {
      out.push({ at, pod: node });
      return;
    }
    for (const [k, v] of Object.entries(node)) visit(v, at ? `${at}.${k}` : k);
  };
  visit(doc.spec, 'spec');
  return out;
}
