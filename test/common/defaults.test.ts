import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { DistributedPyTorch, PlatformDefaults, PodSecurity } from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';
import { PYTORCH_IMAGE as IMAGE } from '../harness/job-fixtures';
import { REPORT } from '../harness/messages';


function build(withJob: (scope: Construct) => void, setDefaults: (app: App, chart: Chart, team: Construct) => void) {
  const docs = expectDeterministic(app => {
    const chart = new Chart(app, 'platform');
    const team = new Construct(chart, 'team');
    withJob(team);
    // Defaults set after the job was built still apply: they are read at synth time.
    setDefaults(app, chart, team);
  });
  expectValidManifests(docs);
  return docs[0];
}

test('defaults reach every job below the scope, nearest scope first, explicit props strongest', () => {
  const job = build(
    team => new DistributedPyTorch(team, 'job', {
      metadata: { name: 'train', labels: { team: 'explicit' } },
      image: IMAGE,
      workers: 1,
      priorityClassName: 'explicit-priority',
      nodeSelector: { pool: 'explicit' },
      podLabels: { owner: 'alice' },
    }),
    (app, chart, team) => {
      PlatformDefaults.set(app, {
        labels: { 'team': 'app', 'cost-center': 'app' },
        nodeSelector: { pool: 'app', zone: 'a' },
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' }],
        imagePullSecrets: ['app-registry'],
        queue: 'app-queue',
        priorityClassName: 'app-priority',
      });
      PlatformDefaults.set(chart, { labels: { 'cost-center': 'chart' }, queue: 'chart-queue', imagePullSecrets: ['chart-registry'] });
      PlatformDefaults.set(team, { podAnnotations: { 'team.example.com/owner': 'vision' } });
    });

  // Job labels: explicit > chart > app; the queue from the nearest scope.
  expect(job.metadata.labels).toEqual({ 'cost-center': 'chart', 'kueue.x-k8s.io/queue-name': 'chart-queue', 'team': 'explicit' });
  const pod = job.spec.pytorchReplicaSpecs.Worker.template;
  // On the pods too, the job's own value wins for a key the platform sets (team).
  expect(pod.metadata.labels).toEqual({ 'cost-center': 'chart', 'owner': 'alice', 'team': 'explicit' });
  expect(pod.metadata.annotations).toEqual({ 'sidecar.istio.io/inject': 'false', 'team.example.com/owner': 'vision' });
  expect(pod.spec.nodeSelector).toEqual({ pool: 'explicit', zone: 'a' });
  expect(pod.spec.priorityClassName).toBe('explicit-priority');
  expect(pod.spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' }]);
  expect(pod.spec.imagePullSecrets).toEqual([{ name: 'app-registry' }, { name: 'chart-registry' }]);
});

test('an explicit queue and security preset beat the defaults', () => {
  const job = build(
    team => new DistributedPyTorch(team, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0, queue: 'mine', security: PodSecurity.DEFAULT }),
    (_app, chart) => PlatformDefaults.set(chart, { queue: 'platform', security: PodSecurity.RESTRICTED }));
  expect(job.metadata.labels).toEqual({ 'kueue.x-k8s.io/queue-name': 'mine' });
  expect(job.spec.pytorchReplicaSpecs.Master.template.spec.securityContext).toBeUndefined();
});

test('jobs outside the scope are untouched', () => {
  const docs = expectDeterministic(app => {
    const a = new Chart(app, 'a');
    const b = new Chart(app, 'b');
    PlatformDefaults.set(a, { queue: 'a-queue' });
    new DistributedPyTorch(b, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0 });
  });
  expect(docs[0].metadata.labels).toBeUndefined();
});

test('PlatformDefaults.of merges the layers a construct sees', () => {
  const app = new App();
  const chart = new Chart(app, 'c');
  PlatformDefaults.set(app, { tolerations: [{ key: 'x', operator: 'Exists' }], labels: { a: '1' } });
  PlatformDefaults.set(chart, { tolerations: [{ key: 'x', operator: 'Exists' }, { key: 'y', operator: 'Exists' }], labels: { a: '2', b: '3' } });
  expect(PlatformDefaults.of(chart)).toEqual({
    nodeSelector: undefined,
    tolerations: [{ key: 'x', operator: 'Exists' }, { key: 'y', operator: 'Exists' }],
    priorityClassName: undefined,
    queue: undefined,
    imagePullSecrets: [],
    labels: { a: '2', b: '3' },
    podAnnotations: undefined,
    security: undefined,
  });
  expect(PlatformDefaults.of(new Construct(app, 'other'))).toEqual(expect.objectContaining({ labels: { a: '1' } }));
});

test('PlatformDefaults.set twice on one scope adds to the defaults; a conflicting value is an error', () => {
  const app = new App();
  const chart = new Chart(app, 'c');
  const first = PlatformDefaults.set(chart, { labels: { team: 'vision' }, queue: 'research', tolerations: [{ key: 'x', operator: 'Exists' }] });
  const second = PlatformDefaults.set(chart, { labels: { team: 'vision', tier: 'gold' }, imagePullSecrets: ['registry'], tolerations: [{ operator: 'Exists', key: 'x' }] });
  expect(second).toBe(first);
  expect(PlatformDefaults.of(chart)).toEqual(expect.objectContaining({
    labels: { team: 'vision', tier: 'gold' }, queue: 'research', imagePullSecrets: ['registry'], tolerations: [{ key: 'x', operator: 'Exists' }],
  }));
  // Conflicting values are reported together at synth; the earlier values stay.
  PlatformDefaults.set(chart, { queue: 'other' });
  PlatformDefaults.set(chart, { labels: { team: 'nlp', owner: 'ml' } });
  PlatformDefaults.set(chart, { security: PodSecurity.RESTRICTED });
  PlatformDefaults.set(chart, { security: PodSecurity.DEFAULT });
  expect(PlatformDefaults.of(chart)).toEqual(expect.objectContaining({ queue: 'research', labels: { team: 'vision', tier: 'gold', owner: 'ml' }, security: PodSecurity.RESTRICTED }));
  expect(() => app.synth()).toThrow(new Error(REPORT
    + '  [c/KubeflowPlatformDefaults] queue is "other"; expected the value an earlier PlatformDefaults.set gave this scope ("research"), or none; set a different default on a child scope instead\n'
    + '  [c/KubeflowPlatformDefaults] labels["team"] is "nlp"; expected the value an earlier PlatformDefaults.set gave this scope ("vision"), or none\n'
    + '  [c/KubeflowPlatformDefaults] security is "PodSecurity default"; expected the value an earlier PlatformDefaults.set gave this scope ("PodSecurity restricted"), or none; set a different default on a child scope instead'));
});
