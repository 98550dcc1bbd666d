import { restrictedFindings } from '../../../src/rules/kubernetes';
import { exampleDocument } from '../../harness/example-documents';
import { f } from '../cases';

/** The restricted profile on the gang-scheduled example, which uses PodSecurity.RESTRICTED. */
const AT = 'spec.pytorchReplicaSpecs.Worker.template.spec';
const C = `${AT}.containers[pytorch]`;
const R = '(Pod Security "restricted")';

function restricted(): any {
  return exampleDocument('pytorch-gang.k8s.yaml', 'PyTorchJob');
}
const s = (d: any) => d.spec.pytorchReplicaSpecs.Worker.template.spec;
const c = (d: any) => s(d).containers[0];

describe('restrictedFindings', () => {
  test('the RESTRICTED example has none, in every role', () => {
    const doc = restricted();
    for (const [type, spec] of Object.entries<any>(doc.spec.pytorchReplicaSpecs)) {
      expect(restrictedFindings(spec.template.spec, `spec.pytorchReplicaSpecs.${type}.template.spec`)).toEqual([]);
    }
  });

  test('kubernetes/pss-apparmor: the legacy AppArmor annotations of the pod template (baseline)', () => {
    const doc = restricted();
    const template = doc.spec.pytorchReplicaSpecs.Worker.template;
    const META = 'spec.pytorchReplicaSpecs.Worker.template.metadata';
    template.metadata = {
      ...template.metadata,
      annotations: {
        'container.apparmor.security.beta.kubernetes.io/pytorch': 'unconfined',
        'container.apparmor.security.beta.kubernetes.io/sidecar': 'localhost/k8s-train',
        'container.apparmor.security.beta.kubernetes.io/init': 'runtime/default',
        'example.com/note': 'unconfined',
      },
    };
    expect(restrictedFindings(s(doc), AT, template.metadata, META)).toEqual([
      f(`${META}.annotations["container.apparmor.security.beta.kubernetes.io/pytorch"]`, 'unconfined', `expected "runtime/default" or "localhost/<profile>" ${R}`, 'kubernetes/pss-apparmor'),
    ]);
    // Without the metadata the annotations are not seen.
    expect(restrictedFindings(s(doc), AT)).toEqual([]);
  });

  test('the reference example (DEFAULT) breaks the restricted profile where it should', () => {
    const doc = exampleDocument('pytorch-reference.k8s.yaml', 'PyTorchJob');
    expect(restrictedFindings(s(doc), AT).map(x => `${x.rule} ${x.field}`)).toEqual([
      `kubernetes/pss-run-as-non-root ${C}.securityContext.runAsNonRoot`,
      `kubernetes/pss-seccomp ${C}.securityContext.seccompProfile.type`,
      `kubernetes/pss-capabilities ${C}.securityContext.capabilities.drop`,
    ]);
  });

  test.each<[string, (d: any) => void, ReturnType<typeof f>[]]>([
    ['host networking', d => { s(d).hostNetwork = true; }, [f(`${AT}.hostNetwork`, true, `expected false or not set ${R}`, 'kubernetes/pss-host-namespaces')]],
    ['a hostPath volume', d => { s(d).volumes.push({ name: 'host', hostPath: { path: '/var' } }); },
      [f(`${AT}.volumes[host]`, 'hostPath', `expected one of the volume types configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret ${R}`, 'kubernetes/pss-volume-types')]],
    ['runAsUser 0', d => { c(d).securityContext.runAsUser = 0; }, [f(`${C}.securityContext.runAsUser`, 0, `expected a non-zero uid ${R}`, 'kubernetes/pss-run-as-user')]],
    ['runAsNonRoot false on the container', d => { c(d).securityContext.runAsNonRoot = false; }, [f(`${C}.securityContext.runAsNonRoot`, false, `expected true ${R}`, 'kubernetes/pss-run-as-non-root')]],
    ['privileged', d => { c(d).securityContext.privileged = true; }, [f(`${C}.securityContext.privileged`, true, `expected false or not set ${R}`, 'kubernetes/pss-privileged')]],
    ['privilege escalation not set', d => { delete c(d).securityContext.allowPrivilegeEscalation; },
      [f(`${C}.securityContext.allowPrivilegeEscalation`, undefined, `expected false ${R}`, 'kubernetes/pss-privilege-escalation')]],
    ['a capability beyond NET_BIND_SERVICE', d => { c(d).securityContext.capabilities.add = ['NET_BIND_SERVICE', 'SYS_PTRACE']; },
      [f(`${C}.securityContext.capabilities.add[1]`, 'SYS_PTRACE', `expected only NET_BIND_SERVICE to be added ${R}`, 'kubernetes/pss-capabilities')]],
    ['seccomp Unconfined on the container', d => { c(d).securityContext.seccompProfile = { type: 'Unconfined' }; },
      [f(`${C}.securityContext.seccompProfile.type`, 'Unconfined', `expected "RuntimeDefault" or "Localhost" on the container or the pod ${R}`, 'kubernetes/pss-seccomp')]],
    ['AppArmor Unconfined', d => { c(d).securityContext.appArmorProfile = { type: 'Unconfined' }; },
      [f(`${C}.securityContext.appArmorProfile.type`, 'Unconfined', `expected "RuntimeDefault" or "Localhost" ${R}`, 'kubernetes/pss-apparmor')]],
    ['an SELinux user', d => { s(d).securityContext.seLinuxOptions = { user: 'system_u' }; },
      [f(`${AT}.securityContext.seLinuxOptions.user`, 'system_u', `expected not set ${R}`, 'kubernetes/pss-selinux')]],
    ['an unmasked /proc', d => { c(d).securityContext.procMount = 'Unmasked'; }, [f(`${C}.securityContext.procMount`, 'Unmasked', `expected "Default" or not set ${R}`, 'kubernetes/pss-proc-mount')]],
    ['an unsafe sysctl', d => { s(d).securityContext.sysctls = [{ name: 'kernel.msgmax', value: '1' }]; },
      [f(`${AT}.securityContext.sysctls[0].name`, 'kernel.msgmax', expect.stringMatching(/^expected a safe sysctl: kernel\.shm_rmid_forced, .* \(Pod Security "restricted"\)$/), 'kubernetes/pss-sysctls')]],
    ['a host port', d => { c(d).ports[0].hostPort = 23456; }, [f(`${C}.ports[0].hostPort`, 23456, `expected 0 or not set ${R}`, 'kubernetes/pss-host-ports')]],
    ['a probe with a host', d => { c(d).readinessProbe = { httpGet: { host: '10.0.0.5', path: '/', port: 80 } }; },
      [f(`${C}.readinessProbe.httpGet.host`, '10.0.0.5', `expected not set (the pod's own IP) ${R}`, 'kubernetes/pss-probe-host')]],
    ['a preStop hook with a host', d => { c(d).lifecycle = { preStop: { tcpSocket: { host: 'db', port: 5432 } } }; },
      [f(`${C}.lifecycle.preStop.tcpSocket.host`, 'db', `expected not set (the pod's own IP) ${R}`, 'kubernetes/pss-probe-host')]],
    ['a Windows host process', d => { s(d).securityContext.windowsOptions = { hostProcess: true }; },
      [f(`${AT}.securityContext.windowsOptions.hostProcess`, true, `expected false or not set ${R}`, 'kubernetes/pss-host-process')]],
  ])('%s', (_name, change, expected) => {
    const doc = restricted();
    change(doc);
    expect(restrictedFindings(s(doc), AT)).toEqual(expected);
  });
});
