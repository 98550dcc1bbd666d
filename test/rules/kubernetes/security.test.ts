import { CONTAINER, WORKER, pytorchJob, workerContainer as c, workerSpec as s } from '../../harness/example-documents';
import { f, runCases } from '../cases';

const NON_ROOT = 'expected a non-zero uid when runAsNonRoot is true (the kubelet refuses to start the container)';
const sc = `${CONTAINER}.securityContext`;
const SYSCTL = 'a sysctl name such as net.core.somaxconn: at most 253 lower-case letters, digits, "-" or "_", in parts joined by "." or "/"';

describe('security contexts', () => {
  runCases(pytorchJob, [
    ['runAsNonRoot with runAsUser 0 in the container', d => { Object.assign(c(d).securityContext, { runAsNonRoot: true, runAsUser: 0 }); },
      [f(`${sc}.runAsUser`, 0, NON_ROOT, 'kubernetes/run-as-non-root')]],
    ['runAsNonRoot in the pod, runAsUser 0 in the container', d => { s(d).securityContext = { runAsNonRoot: true }; c(d).securityContext.runAsUser = 0; },
      [f(`${sc}.runAsUser`, 0, NON_ROOT, 'kubernetes/run-as-non-root')]],
    ['both in the pod: every container is refused', d => { s(d).securityContext = { runAsNonRoot: true, runAsUser: 0 }; },
      [f(`${WORKER}.securityContext.runAsUser`, 0, NON_ROOT, 'kubernetes/run-as-non-root')]],
    ['runAsUser 0 in the pod, overridden by the container', d => { s(d).securityContext = { runAsNonRoot: true, runAsUser: 0 }; c(d).securityContext.runAsUser = 1000; }, []],
    ['runAsNonRoot false in the container overrides the pod', d => { s(d).securityContext = { runAsNonRoot: true, runAsUser: 0 }; c(d).securityContext.runAsNonRoot = false; }, []],
    ['privileged with allowPrivilegeEscalation false', d => { c(d).securityContext.privileged = true; },
      [f(`${sc}.allowPrivilegeEscalation`, false, 'expected true or not set when privileged is true (the API server refuses privileged: true with allowPrivilegeEscalation: false)', 'kubernetes/privileged-escalation')]],
    ['CAP_SYS_ADMIN with allowPrivilegeEscalation false', d => { c(d).securityContext.capabilities = { add: ['CAP_SYS_ADMIN'] }; },
      [f(`${sc}.allowPrivilegeEscalation`, false, 'expected true or not set when capabilities.add has CAP_SYS_ADMIN (the API server refuses the pair)', 'kubernetes/sys-admin-escalation'),
        // The API server compares the literal "CAP_SYS_ADMIN"; the runtime would make it CAP_CAP_SYS_ADMIN.
        f(`${sc}.capabilities.add[0]`, 'CAP_SYS_ADMIN', 'expected the name without "CAP_", such as SYS_ADMIN (the runtime adds the prefix: CAP_SYS_ADMIN becomes CAP_CAP_SYS_ADMIN, which runc ignores and CRI-O refuses)', 'kubernetes/capability-name')]],
    ['a capability with the CAP_ prefix', d => { c(d).securityContext.capabilities = { drop: ['ALL'], add: ['CAP_SYS_PTRACE'] }; },
      [f(`${sc}.capabilities.add[0]`, 'CAP_SYS_PTRACE', 'expected the name without "CAP_", such as SYS_PTRACE (the runtime adds the prefix: CAP_SYS_PTRACE becomes CAP_CAP_SYS_PTRACE, which runc ignores and CRI-O refuses)', 'kubernetes/capability-name')]],
    ['an unknown capability', d => { c(d).securityContext.capabilities = { add: ['NET_ADMINS'] }; },
      [f(`${sc}.capabilities.add[0]`, 'NET_ADMINS', 'expected a Linux capability name such as NET_ADMIN or SYS_PTRACE, or ALL (runc ignores an unknown name, CRI-O refuses it)', 'kubernetes/capability-name')]],
    ['known capabilities in any case (the runtimes upper-case them), and "all"', d => { c(d).securityContext.capabilities = { drop: ['all'], add: ['NET_BIND_SERVICE', 'ipc_lock'] }; }, []],
    ['seccomp Localhost without a profile', d => { s(d).securityContext = { seccompProfile: { type: 'Localhost' } }; },
      [f(`${WORKER}.securityContext.seccompProfile.localhostProfile`, undefined, 'expected the profile to load when type is "Localhost"', 'kubernetes/seccomp-profile')]],
    ['seccomp RuntimeDefault with a profile', d => { c(d).securityContext.seccompProfile = { type: 'RuntimeDefault', localhostProfile: 'a.json' }; },
      [f(`${sc}.seccompProfile.localhostProfile`, 'a.json', 'expected not set when type is "RuntimeDefault" (only "Localhost" takes a profile)', 'kubernetes/seccomp-profile')]],
    ['a misspelt seccomp type', d => { c(d).securityContext.seccompProfile = { type: 'Default' }; },
      [f(`${sc}.seccompProfile.type`, 'Default', 'expected "RuntimeDefault", "Unconfined" or "Localhost"', 'kubernetes/seccomp-profile')]],
    ['an absolute seccomp profile path', d => { c(d).securityContext.seccompProfile = { type: 'Localhost', localhostProfile: '/etc/p.json' }; },
      [f(`${sc}.seccompProfile.localhostProfile`, '/etc/p.json', 'expected a relative path without ".." (under the kubelet\'s seccomp directory)', 'kubernetes/seccomp-profile')]],
    ['AppArmor Localhost without a profile', d => { c(d).securityContext.appArmorProfile = { type: 'Localhost' }; },
      [f(`${sc}.appArmorProfile.localhostProfile`, undefined, 'expected the profile to load when type is "Localhost"', 'kubernetes/apparmor-profile')]],
    ['a procMount value', d => { c(d).securityContext.procMount = 'Masked'; }, [f(`${sc}.procMount`, 'Masked', 'expected "Default" or "Unmasked"', 'kubernetes/proc-mount')]],
    ['an unmasked /proc in a pod that shares the host\'s user namespace', d => { c(d).securityContext.procMount = 'Unmasked'; },
      [f(`${sc}.procMount`, 'Unmasked', 'expected "Default" or not set, unless the pod sets hostUsers: false ("Unmasked" needs the pod\'s own user namespace)', 'kubernetes/proc-mount')]],
    ['an unmasked /proc with hostUsers false', d => { c(d).securityContext.procMount = 'Unmasked'; s(d).hostUsers = false; }, []],
    ['a sysctl name with capitals', d => { s(d).securityContext = { sysctls: [{ name: 'net.core.Somaxconn', value: '1024' }] }; },
      [f(`${WORKER}.securityContext.sysctls[0].name`, 'net.core.Somaxconn', `expected ${SYSCTL}`, 'kubernetes/sysctl')]],
    ['a sysctl set twice', d => { s(d).securityContext = { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'kernel.shm_rmid_forced', value: '0' }] }; },
      [f(`${WORKER}.securityContext.sysctls[1].name`, 'kernel.shm_rmid_forced', 'expected a sysctl not set twice in the pod', 'kubernetes/sysctl')]],
    ['a net sysctl with hostNetwork (also in the "/" form)', d => {
      s(d).hostNetwork = true;
      c(d).ports[0].hostPort = 23456;
      s(d).securityContext = { sysctls: [{ name: 'net/ipv4/ip_local_port_range', value: '1024 65000' }] };
    }, [f(`${WORKER}.securityContext.sysctls[0].name`, 'net/ipv4/ip_local_port_range', 'expected no net.* sysctl when hostNetwork is true (it would change the host\'s network namespace)', 'kubernetes/sysctl')]],
    ['an IPC sysctl with hostIPC', d => { s(d).hostIPC = true; s(d).securityContext = { sysctls: [{ name: 'fs.mqueue.msg_max', value: '20' }] }; },
      [f(`${WORKER}.securityContext.sysctls[0].name`, 'fs.mqueue.msg_max', 'expected no IPC sysctl when hostIPC is true (it would change the host\'s IPC namespace)', 'kubernetes/sysctl')]],
    ['a net sysctl without hostNetwork', d => { s(d).securityContext = { sysctls: [{ name: 'net.ipv4.tcp_syncookies', value: '1' }] }; }, []],
    ['a misspelt fsGroupChangePolicy', d => { s(d).securityContext = { fsGroupChangePolicy: 'OnMismatch' }; },
      [f(`${WORKER}.securityContext.fsGroupChangePolicy`, 'OnMismatch', 'expected "OnRootMismatch" or "Always"', 'kubernetes/security-policy')]],
    ['a misspelt supplementalGroupsPolicy', d => { s(d).securityContext = { supplementalGroupsPolicy: 'strict' }; },
      [f(`${WORKER}.securityContext.supplementalGroupsPolicy`, 'strict', 'expected "Merge" or "Strict"', 'kubernetes/security-policy')]],
    ['seLinuxChangePolicy MountOption without the SELinuxMount gate', d => { s(d).securityContext = { seLinuxChangePolicy: 'MountOption' }; },
      [f(`${WORKER}.securityContext.seLinuxChangePolicy`, 'MountOption', 'expected "Recursive" or not set ("MountOption" needs the SELinuxMount feature gate, off by default in 1.34)', 'kubernetes/security-policy')]],
    ['the accepted policies', d => { s(d).securityContext = { fsGroupChangePolicy: 'OnRootMismatch', supplementalGroupsPolicy: 'Strict', seLinuxChangePolicy: 'Recursive' }; }, []],
    ['shareProcessNamespace with hostPID', d => { s(d).shareProcessNamespace = true; s(d).hostPID = true; },
      [f(`${WORKER}.shareProcessNamespace`, true, 'expected false or not set when hostPID is true (the pod cannot share both)', 'kubernetes/host-namespaces')]],
    ['hostUsers false with hostIPC', d => { s(d).hostUsers = false; s(d).hostIPC = true; },
      [f(`${WORKER}.hostIPC`, true, 'expected false or not set when hostUsers is false (a pod in its own user namespace cannot use the host\'s namespaces)', 'kubernetes/host-namespaces')]],
    ['a negative runAsUser', d => { c(d).securityContext.runAsUser = -1; },
      [f(`${sc}.runAsUser`, -1, 'expected a whole number from 0 to 9223372036854775807', 'kubernetes/int-range')]],
    ['a negative fsGroup', d => { s(d).securityContext = { fsGroup: -5 }; },
      [f(`${WORKER}.securityContext.fsGroup`, -5, 'expected a whole number from 0 to 9223372036854775807', 'kubernetes/int-range')]],
  ]);
});
