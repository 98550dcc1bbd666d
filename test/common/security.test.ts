import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, DistributedPyTorch, PlatformDefaults, PodSecurity } from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';
import { PYTORCH_IMAGE as IMAGE } from '../harness/job-fixtures';
import { POD_SECURITY_RULES, podSecurityViolations, podSpecsOf } from '../harness/pod-security';


function pods(security: PodSecurity | undefined, extra?: (job: DistributedPyTorch, chart: Chart) => void) {
  const docs = expectDeterministic(app => {
    const chart = new Chart(app, 'test');
    const job = new DistributedPyTorch(chart, 'job', {
      metadata: { name: 'train' },
      image: IMAGE,
      workers: 2,
      security,
      resources: { accelerator: Accelerator.nvidia(1) },
      sharedMemory: Size.gibibytes(1),
    });
    job.worker!.addInitContainer({ name: 'fetch', image: 'busybox:1.36', command: ['true'] });
    job.worker!.addContainer({ name: 'exporter', image: 'exporter:1' });
    extra?.(job, chart);
  });
  expectValidManifests(docs);
  return docs.flatMap(d => podSpecsOf(d));
}

describe('PodSecurity.RESTRICTED meets each rule of the restricted Pod Security Standard', () => {
  const restricted = pods(PodSecurity.RESTRICTED, (job, chart) => {
    const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Data', 'data');
    job.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'DataVolume', claim));
  });
  expect(restricted.length).toBe(2);
  test.each(POD_SECURITY_RULES.map(r => [`${r.profile}: ${r.name}`, r] as const))('%s', (_name, rule) => {
    for (const { pod } of restricted) expect(rule.check(pod)).toEqual([]);
  });

  test('the checks do catch a pod that breaks them', () => {
    const pod = { hostPID: true, volumes: [{ name: 'h', hostPath: { path: '/' } }], containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] };
    expect(podSecurityViolations(pod, 'restricted')).toEqual([
      'host namespaces: hostPID is true',
      'privileged containers: containers[0] (c): privileged',
      'hostPath volumes: volume h is a hostPath',
      'volume types: volume h has a type outside the restricted list',
      'privilege escalation: containers[0] (c): allowPrivilegeEscalation is not false',
      'running as non-root: containers[0] (c): runAsNonRoot is not true on the pod or the container',
      'seccomp profile: containers[0] (c): seccompProfile is not set',
      'capabilities dropped: containers[0] (c): does not drop ALL capabilities',
    ]);
  });
});

describe('the default preset', () => {
  const defaults = pods(undefined);
  test('meets the baseline standard: no privileged containers, host namespaces or hostPath volumes', () => {
    for (const { pod } of defaults) expect(podSecurityViolations(pod, 'baseline')).toEqual([]);
  });
  test('turns off privilege escalation everywhere and does not mount the service-account token', () => {
    for (const { pod } of defaults) {
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, privileged: false });
      }
    }
  });
  test('host namespaces only when asked by name', () => {
    const docs = expectDeterministic(app => {
      new DistributedPyTorch(new Chart(app, 'test'), 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0, hostIpc: true });
    });
    expect(docs[0].spec.pytorchReplicaSpecs.Master.template.spec.hostIPC).toBe(true);
    expect(docs[0].spec.pytorchReplicaSpecs.Master.template.spec.hostNetwork).toBeUndefined();
  });
});

test('a platform default of RESTRICTED applies to jobs below the scope', () => {
  const docs = expectDeterministic(app => {
    const chart = new Chart(app, 'test');
    PlatformDefaults.set(chart, { security: PodSecurity.RESTRICTED });
    new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 1 });
  });
  for (const { pod } of podSpecsOf(docs[0])) expect(podSecurityViolations(pod, 'restricted')).toEqual([]);
});
