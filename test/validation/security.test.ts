import { f, runCases } from './cases';
import { CONTAINER, WORKER, pytorchJob, workerContainer as c, workerSpec as s } from './fixtures';

const NON_ROOT = 'expected a non-zero uid when runAsNonRoot is true (the kubelet refuses to start the container)';
const sc = `${CONTAINER}.securityContext`;

describe('security contexts', () => {
  runCases(pytorchJob, [
    ['runAsNonRoot with runAsUser 0 in the container', d => { Object.assign(c(d).securityContext, { runAsNonRoot: true, runAsUser: 0 }); },
      [f(`${sc}.runAsUser`, 0, NON_ROOT, 'k8s/run-as-non-root')]],
    ['runAsNonRoot in the pod, runAsUser 0 in the container', d => { s(d).securityContext = { runAsNonRoot: true }; c(d).securityContext.runAsUser = 0; },
      [f(`${sc}.runAsUser`, 0, NON_ROOT, 'k8s/run-as-non-root')]],
    ['both in the pod: every container is refused', d => { s(d).securityContext = { runAsNonRoot: true, runAsUser: 0 }; },
      [f(`${WORKER}.securityContext.runAsUser`, 0, NON_ROOT, 'k8s/run-as-non-root')]],
    ['runAsUser 0 in the pod, overridden by the container', d => { s(d).securityContext = { runAsNonRoot: true, runAsUser: 0 }; c(d).securityContext.runAsUser = 1000; }, []],
    ['runAsNonRoot false in the container overrides the pod', d => { s(d).securityContext = { runAsNonRoot: true, runAsUser: 0 }; c(d).securityContext.runAsNonRoot = false; }, []],
    ['privileged with allowPrivilegeEscalation false', d => { c(d).securityContext.privileged = true; },
      [f(`${sc}.allowPrivilegeEscalation`, false, 'expected true or not set when privileged is true (the API server refuses privileged: true with allowPrivilegeEscalation: false)', 'k8s/privileged-escalation')]],
    ['CAP_SYS_ADMIN with allowPrivilegeEscalation false', d => { c(d).securityContext.capabilities = { add: ['CAP_SYS_ADMIN'] }; },
      [f(`${sc}.allowPrivilegeEscalation`, false, 'expected true or not set when capabilities.add has CAP_SYS_ADMIN (the API server refuses the pair)', 'k8s/sys-admin-escalation')]],
    ['a capability in lower case', d => { c(d).securityContext.capabilities = { drop: ['all'], add: ['net_admin'] }; },
      [f(`${sc}.capabilities.add[0]`, 'net_admin', 'expected a Linux capability in upper case, with or without "CAP_" (such as NET_ADMIN or CAP_SYS_PTRACE), or ALL', 'k8s/capability-name'),
        f(`${sc}.capabilities.drop[0]`, 'all', 'expected a Linux capability in upper case, with or without "CAP_" (such as NET_ADMIN or CAP_SYS_PTRACE), or ALL', 'k8s/capability-name')]],
    ['an unknown capability', d => { c(d).securityContext.capabilities = { add: ['NET_ADMINS'] }; },
      [f(`${sc}.capabilities.add[0]`, 'NET_ADMINS', 'expected a Linux capability in upper case, with or without "CAP_" (such as NET_ADMIN or CAP_SYS_PTRACE), or ALL', 'k8s/capability-name')]],
    ['known capabilities with and without CAP_', d => { c(d).securityContext.capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'CAP_IPC_LOCK'] }; }, []],
    ['seccomp Localhost without a profile', d => { s(d).securityContext = { seccompProfile: { type: 'Localhost' } }; },
      [f(`${WORKER}.securityContext.seccompProfile.localhostProfile`, undefined, 'expected the profile to load when type is "Localhost"', 'k8s/seccomp-profile')]],
    ['seccomp RuntimeDefault with a profile', d => { c(d).securityContext.seccompProfile = { type: 'RuntimeDefault', localhostProfile: 'a.json' }; },
      [f(`${sc}.seccompProfile.localhostProfile`, 'a.json', 'expected not set when type is "RuntimeDefault" (only "Localhost" takes a profile)', 'k8s/seccomp-profile')]],
    ['a misspelt seccomp type', d => { c(d).securityContext.seccompProfile = { type: 'Default' }; },
      [f(`${sc}.seccompProfile.type`, 'Default', 'expected "RuntimeDefault", "Unconfined" or "Localhost"', 'k8s/seccomp-profile')]],
    ['an absolute seccomp profile path', d => { c(d).securityContext.seccompProfile = { type: 'Localhost', localhostProfile: '/etc/p.json' }; },
      [f(`${sc}.seccompProfile.localhostProfile`, '/etc/p.json', 'expected a relative path without ".." (under the kubelet\'s seccomp directory)', 'k8s/seccomp-profile')]],
    ['AppArmor Localhost without a profile', d => { c(d).securityContext.appArmorProfile = { type: 'Localhost' }; },
      [f(`${sc}.appArmorProfile.localhostProfile`, undefined, 'expected the profile to load when type is "Localhost"', 'k8s/apparmor-profile')]],
    ['a procMount value', d => { c(d).securityContext.procMount = 'Masked'; }, [f(`${sc}.procMount`, 'Masked', 'expected "Default" or "Unmasked"', 'k8s/proc-mount')]],
    ['a negative runAsUser', d => { c(d).securityContext.runAsUser = -1; },
      [f(`${sc}.runAsUser`, -1, 'expected a whole number from 0 to 9223372036854775807', 'k8s/int-range')]],
    ['a negative fsGroup', d => { s(d).securityContext = { fsGroup: -5 }; },
      [f(`${WORKER}.securityContext.fsGroup`, -5, 'expected a whole number from 0 to 9223372036854775807', 'k8s/int-range')]],
  ]);
});
