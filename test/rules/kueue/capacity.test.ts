/**
 * The Kueue rules across documents: a job its ClusterQueue can never admit (kueue/never-admitted)
 * and names of Kueue objects the input does not define (kueue/reference), on plain documents
 * and at synth, where the app's Kueue objects are plain ApiObjects.
 */
import { ApiObject, Chart } from 'cdk8s';
import { DistributedPyTorch, Accelerator } from '../../../src';
import { AppDocument } from '../../../src/rules/app-document';
import { podRequests } from '../../../src/rules/kueue/pod-requests';
import { appFindings } from '../../../src/rules/rule-sets';
import { REPORT, expectValidManifests, synthErrors } from '../../harness';
import { GPU, clusterQueue, localQueue, priorityClass, queuedJob, resourceFlavor } from '../../harness/kueue-objects';

const at = (docs: any[]): AppDocument[] => docs.map((doc, i) => ({ path: `d${i}`, doc }));
const findings = (docs: any[], rule: string) => appFindings(at(docs)).filter(f => f.finding.rule === rule);
const NEVER = 'kueue/never-admitted';
const REFERENCE = 'kueue/reference';
const QUEUE_FIELD = 'metadata.labels["kueue.x-k8s.io/queue-name"]';
const TAIL = '; Kueue admits a workload whole, so the job stays suspended for good';

const gpuPods = (replicas: number, gpus: number) => ({ replicas, limits: { [GPU]: gpus, cpu: 8, memory: '32Gi' } });
const quotas = (gpu: number, extra: object = {}) => [
  { name: 'cpu', nominalQuota: 256 }, { name: 'memory', nominalQuota: '1Ti' }, { name: GPU, nominalQuota: gpu, ...extra },
];

describe('kueue/never-admitted', () => {
  const platform = (cq: any) => [resourceFlavor('a100'), resourceFlavor('h100'), cq, localQueue('ml', 'team', cq.metadata.name)];

  test('a podset larger than the only flavor of a ClusterQueue without a cohort', () => {
    const job = queuedJob('ml', 'big', 'team', { Master: gpuPods(1, 8), Worker: gpuPods(3, 8) });
    expect(findings([...platform(clusterQueue('team-cq', { a100: quotas(16) })), job], NEVER)).toEqual([{
      path: 'd4',
      finding: {
        field: QUEUE_FIELD,
        value: 'team',
        rule: NEVER,
        allowed: 'expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to ClusterQueue "team-cq", where podset "Worker" (3 pods) '
          + `requests 24 nvidia.com/gpu, 24 cpu, 96Gi memory, and flavor "a100" gives at most 16 nvidia.com/gpu (nominal quota 16, no cohort)${TAIL}`,
      },
    }]);
  });

  test('each podset fits a flavor, but together they exceed all the flavors of the group', () => {
    const cq = clusterQueue('team-cq', { a100: quotas(8), h100: quotas(4) });
    const job = queuedJob('ml', 'two', 'team', { Master: gpuPods(1, 8), Worker: gpuPods(1, 8) });
    expect(findings([...platform(cq), job], NEVER).map(f => f.finding.allowed)).toEqual([
      'expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to ClusterQueue "team-cq", where the job\'s podsets together request '
        + `16 nvidia.com/gpu, and the flavors "a100", "h100" give at most 12 nvidia.com/gpu together${TAIL}`,
    ]);
  });

  test('a resource no resource group covers', () => {
    const job = queuedJob('ml', 'rocm', 'team', { Worker: { replicas: 2, limits: { 'amd.com/gpu': 4 } } });
    expect(findings([...platform(clusterQueue('team-cq', { a100: quotas(16) })), job], NEVER).map(f => f.finding.allowed)).toEqual([
      'expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to ClusterQueue "team-cq", where podset "Worker" requests 8 amd.com/gpu, '
        + `which no resource group covers (they cover cpu, memory, nvidia.com/gpu)${TAIL}`,
    ]);
  });

  test('a group covering pods counts each podset\'s pods', () => {
    const cq = clusterQueue('team-cq', { a100: [{ name: 'pods', nominalQuota: 4 }, { name: GPU, nominalQuota: 64 }] });
    const job = queuedJob('ml', 'wide', 'team', { Worker: { replicas: 6, limits: { [GPU]: 1 } } });
    expect(findings([...platform(cq), job], NEVER).map(f => f.finding.allowed)).toEqual([
      'expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to ClusterQueue "team-cq", where podset "Worker" (6 pods) '
        + `requests 6 nvidia.com/gpu, 6 pods, and flavor "a100" gives at most 4 pods (nominal quota 4, no cohort)${TAIL}`,
    ]);
  });

  test('a pod requests its containers and sidecars, or its largest init container with the sidecars before it, plus its overhead', () => {
    const spec = {
      initContainers: [
        { name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '1' } } },
        { name: 'fetch', resources: { limits: { cpu: '6', memory: '1Gi' } } },
      ],
      containers: [{ name: 'main', resources: { requests: { cpu: '2', memory: '4Gi' } } }],
      overhead: { cpu: '500m', memory: '128Mi' },
    };
    // cpu: max(2 + 1, 6 + 1) + 0.5; memory: max(4Gi, 1Gi) + 128Mi.
    expect(podRequests(spec)).toEqual(new Map([['cpu', BigInt(7500)], ['memory', BigInt(4 * 2 ** 30 + 128 * 2 ** 20)]]));
    // Pod-level requests of CPU, memory and huge pages replace the containers' total (PodRequests); pod-level limits are not read.
    const podLevel = { ...spec, resources: { requests: { cpu: '10', nvidia: '1' }, limits: { memory: '99Gi' } } };
    expect(podRequests(podLevel)).toEqual(new Map([['cpu', BigInt(10500)], ['memory', BigInt(4 * 2 ** 30 + 128 * 2 ** 20)]]));
    const job = queuedJob('ml', 'init', 'team', { Worker: { replicas: 1, limits: {} } });
    job.spec.pytorchReplicaSpecs.Worker.template.spec = { ...spec, containers: [{ ...spec.containers[0], image: 'x' }] };
    const cq = clusterQueue('team-cq', { a100: [{ name: 'cpu', nominalQuota: 7 }, { name: 'memory', nominalQuota: '64Gi' }] });
    expect(findings([...platform(cq), job], NEVER).map(f => f.finding.allowed)).toEqual([
      'expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to ClusterQueue "team-cq", where podset "Worker" (1 pod) '
        + `requests 7.5 cpu, 4224Mi memory, and flavor "a100" gives at most 7 cpu (nominal quota 7, no cohort)${TAIL}`,
    ]);
  });

  test('in a cohort: what the others lend (their lending limit, else their quota), capped by the borrowing limit', () => {
    const a = clusterQueue('team-a', { a100: quotas(16, { borrowingLimit: 8 }) }, { cohort: 'research' });
    const b = clusterQueue('team-b', { a100: quotas(8, { lendingLimit: 2 }) }, { cohort: 'research' });
    const docs = [resourceFlavor('a100'), a, b, localQueue('ml', 'a', 'team-a'), localQueue('ml', 'b', 'team-b')];
    const onA = (gpus: number) => queuedJob('ml', `a-${gpus}`, 'a', { Worker: gpuPods(1, gpus) });
    const onB = (gpus: number) => queuedJob('ml', `b-${gpus}`, 'b', { Worker: gpuPods(1, gpus) });
    // team-a: 16 + 2 lent by team-b = 18, below 16 + 8; team-b: 6 kept + 16 + 2 in the cohort = 24.
    expect(findings([...docs, onA(18), onA(19), onB(24), onB(25)], NEVER).map(f => `${f.path}: ${f.finding.allowed}`)).toEqual([
      'd6: expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "a" leads to ClusterQueue "team-a", where podset "Worker" (1 pod) '
        + `requests 19 nvidia.com/gpu, 8 cpu, 32Gi memory, and flavor "a100" gives at most 18 nvidia.com/gpu (nominal quota 16 + 2 from cohort "research")${TAIL}`,
      'd8: expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "b" leads to ClusterQueue "team-b", where podset "Worker" (1 pod) '
        + `requests 25 nvidia.com/gpu, 8 cpu, 32Gi memory, and flavor "a100" gives at most 24 nvidia.com/gpu (nominal quota 8 + 16 from cohort "research")${TAIL}`,
    ]);
    // A borrowing limit below what the cohort holds decides.
    const lent = clusterQueue('team-b', { a100: quotas(40) }, { cohort: 'research' });
    expect(findings([resourceFlavor('a100'), a, lent, localQueue('ml', 'a', 'team-a'), onA(24), onA(25)], NEVER).map(f => f.finding.allowed)).toEqual([
      'expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "a" leads to ClusterQueue "team-a", where podset "Worker" (1 pod) '
        + `requests 25 nvidia.com/gpu, 8 cpu, 32Gi memory, and flavor "a100" gives at most 24 nvidia.com/gpu (nominal quota 16 + borrowing limit 8)${TAIL}`,
    ]);
  });

  test('a cohort with a parent: the tree is followed to its root, whose own quota counts', () => {
    const cohort = { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'Cohort', metadata: { name: 'research' }, spec: { parentName: 'org' } };
    const org = {
      apiVersion: 'kueue.x-k8s.io/v1beta2',
      kind: 'Cohort',
      metadata: { name: 'org' },
      spec: { resourceGroups: [{ coveredResources: [GPU], flavors: [{ name: 'a100', resources: [{ name: GPU, nominalQuota: 8 }] }] }] },
    };
    const bounded = clusterQueue('team-a', { a100: quotas(16, { borrowingLimit: 8 }) }, { cohort: 'research' });
    const open = clusterQueue('team-b', { a100: quotas(16) }, { cohort: 'research' });
    const docs = [resourceFlavor('a100'), cohort, bounded, open, localQueue('ml', 'a', 'team-a'), localQueue('ml', 'b', 'team-b'), org];
    const jobs = [queuedJob('ml', 'on-a', 'a', { Worker: gpuPods(1, 25) }), queuedJob('ml', 'on-b', 'b', { Worker: gpuPods(1, 41) }), queuedJob('ml', 'fits', 'b', { Worker: gpuPods(1, 40) })];
    // team-b: the 16 + 16 its cohort's queues lend, and the 8 of "org" above it: 40.
    expect(findings([...docs, ...jobs], NEVER).map(f => `${f.path}: ${f.finding.allowed}`)).toEqual([
      'd7: expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "a" leads to ClusterQueue "team-a", where podset "Worker" (1 pod) '
        + `requests 25 nvidia.com/gpu, 8 cpu, 32Gi memory, and flavor "a100" gives at most 24 nvidia.com/gpu (nominal quota 16 + borrowing limit 8)${TAIL}`,
      'd8: expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "b" leads to ClusterQueue "team-b", where podset "Worker" (1 pod) '
        + `requests 41 nvidia.com/gpu, 8 cpu, 32Gi memory, and flavor "a100" gives at most 40 nvidia.com/gpu (nominal quota 16 + 24 from cohort "research")${TAIL}`,
    ]);
    // Without "org" in the input, it is a root holding only what "research" lends: 32.
    expect(findings([...docs.slice(0, -1), ...jobs], NEVER).map(f => f.finding.allowed.match(/gives at most \d+ nvidia.com\/gpu \([^)]*\)/)?.[0]))
      .toEqual(['gives at most 24 nvidia.com/gpu (nominal quota 16 + borrowing limit 8)', 'gives at most 32 nvidia.com/gpu (nominal quota 16 + 16 from cohort "research")',
        'gives at most 32 nvidia.com/gpu (nominal quota 16 + 16 from cohort "research")']);
  });

  test('a Cohort object without a parent adds its own quota to what the cohort holds', () => {
    const cohort = {
      apiVersion: 'kueue.x-k8s.io/v1beta1',
      kind: 'Cohort',
      metadata: { name: 'research' },
      spec: { resourceGroups: [{ coveredResources: [GPU], flavors: [{ name: 'a100', resources: [{ name: GPU, nominalQuota: 8 }] }] }] },
    };
    const a = clusterQueue('team-a', { a100: quotas(16) }, { cohort: 'research' });
    const docs = [resourceFlavor('a100'), cohort, a, localQueue('ml', 'a', 'team-a')];
    const onA = (gpus: number) => queuedJob('ml', `a-${gpus}`, 'a', { Worker: gpuPods(1, gpus) });
    expect(findings([...docs, onA(24), onA(25)], NEVER).map(f => `${f.path}: ${f.finding.allowed}`)).toEqual([
      'd5: expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "a" leads to ClusterQueue "team-a", where podset "Worker" (1 pod) '
        + `requests 25 nvidia.com/gpu, 8 cpu, 32Gi memory, and flavor "a100" gives at most 24 nvidia.com/gpu (nominal quota 16 + 8 from cohort "research")${TAIL}`,
    ]);
  });

  test('a TrainJob counts the podsets of its runtime, with its own node count and resources', () => {
    const runtime = {
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'TrainingRuntime',
      metadata: { name: 'torch', namespace: 'ml' },
      spec: {
        mlPolicy: { numNodes: 1, torch: {} },
        template: { spec: { replicatedJobs: [{ name: 'node', template: { metadata: { labels: { 'trainer.kubeflow.org/trainjob-ancestor-step': 'trainer' } }, spec: { template: { spec: { containers: [{ name: 'node', image: 'x', resources: { limits: { [GPU]: 1 } } }] } } } } }] } },
      },
    };
    const job = {
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'TrainJob',
      metadata: { name: 'llm', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'team' } },
      spec: { runtimeRef: { name: 'torch', kind: 'TrainingRuntime' }, trainer: { numNodes: 4, resourcesPerNode: { limits: { [GPU]: 8 } } } },
    };
    expect(findings([...platform(clusterQueue('team-cq', { a100: quotas(16) })), runtime, job], NEVER).map(f => f.finding.allowed)).toEqual([
      'expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to ClusterQueue "team-cq", where podset "node" (4 pods) '
        + `requests 32 nvidia.com/gpu, and flavor "a100" gives at most 16 nvidia.com/gpu (nominal quota 16, no cohort)${TAIL}`,
    ]);
  });

  test('nothing when the job fits, its queues are not in the input, or Kueue does not queue its kind', () => {
    const docs = platform(clusterQueue('team-cq', { a100: quotas(16) }));
    const fits = queuedJob('ml', 'fits', 'team', { Master: gpuPods(1, 8), Worker: gpuPods(1, 8) });
    const elsewhere = queuedJob('other', 'elsewhere', 'team', { Worker: gpuPods(4, 8) });
    const mpi = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'MPIJob',
      metadata: { name: 'mpi', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'team' } },
      spec: { mpiReplicaSpecs: { Worker: { replicas: 8, template: { spec: { containers: [{ name: 'w', image: 'x', resources: { limits: { [GPU]: 8 } } }] } } } } },
    };
    expect(findings([...docs, fits, elsewhere, mpi], NEVER)).toEqual([]);
    expect(findings([fits, queuedJob('ml', 'big', 'team', { Worker: gpuPods(8, 8) })], NEVER)).toEqual([]);
  });
});

test('the jobs these tests build are valid against their pinned CRDs', () => {
  const gpu = (replicas: number) => ({ replicas, limits: { [GPU]: 8, cpu: 8, memory: '32Gi' } });
  const jobs = [queuedJob('ml', 'a', 'team', { Master: gpu(1), Worker: gpu(2) }, { 'kueue.x-k8s.io/priority-class': 'high' })];
  expect(expectValidManifests(jobs)).toBe(1);
});

test('malformed Kueue objects are judged by the schema, not thrown on by these rules', () => {
  const api = 'kueue.x-k8s.io/v1beta1';
  const odd = [
    { apiVersion: api, kind: 'ClusterQueue', metadata: { name: 'a' }, spec: { cohort: 5, resourceGroups: 'x' } },
    { apiVersion: api, kind: 'ClusterQueue', metadata: { name: 'b' }, spec: { namespaceSelector: {}, resourceGroups: [null, { coveredResources: [7], flavors: [null, { name: 'f', resources: [{ name: 'cpu', nominalQuota: 'lots' }, null] }] }] } },
    { apiVersion: api, kind: 'LocalQueue', metadata: { name: 'q', namespace: 'ml' }, spec: { clusterQueue: 'b' } },
    { apiVersion: api, kind: 'LocalQueue', metadata: null, spec: null },
    { apiVersion: api, kind: 'ResourceFlavor', metadata: { name: 'f' }, spec: { topologyName: ['t'] } },
    { apiVersion: api, kind: 'Cohort', metadata: { name: 'c' }, spec: { parentName: {} } },
  ];
  const job = queuedJob('ml', 'j', 'q', { Worker: { replicas: 2, limits: { cpu: '2' } } });
  job.spec.pytorchReplicaSpecs.Master = { replicas: 'one', template: { spec: { containers: 'none', initContainers: [null], overhead: { cpu: [] } } } };
  // The cpu quota that is not a quantity bounds nothing: no finding of the rules here.
  expect(appFindings(at([...odd, job])).filter(f => f.finding.rule?.startsWith('kueue/'))).toEqual([]);
  // A quota that is a quantity still does.
  odd[1] = clusterQueue('b', { f: [{ name: 'cpu', nominalQuota: '3' }, { name: 'memory', nominalQuota: 'lots' }] });
  expect(appFindings(at([...odd, job])).map(f => `${f.path} ${f.finding.rule} ${f.finding.field}`)).toEqual([
    'd6 kueue/never-admitted metadata.labels["kueue.x-k8s.io/queue-name"]',
  ]);
});

test('kueue/trainjob-placement: a queued TrainJob whose pods would miss the placement of the one flavor that can take them', () => {
  const flavor = resourceFlavor('h100', { nodeLabels: { 'example.com/gpu': 'h100' } });
  const runtime = {
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'ClusterTrainingRuntime',
    metadata: { name: 'torch' },
    spec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: { containers: [{ name: 'node', image: 'x', resources: { limits: { [GPU]: 8 } } }] } } } } }] } } },
  };
  const job = {
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'TrainJob',
    metadata: { name: 'j', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'team' } },
    spec: { runtimeRef: { name: 'torch' } },
  };
  const docs = [flavor, clusterQueue('team-cq', { h100: quotas(16) }), localQueue('ml', 'team', 'team-cq'), runtime, job];
  expect(findings(docs, 'kueue/trainjob-placement').map(f => [f.path, f.finding.field, f.finding.value])).toEqual([['d4', QUEUE_FIELD, 'team']]);
  expect(findings(docs, 'kueue/trainjob-placement')[0].finding.allowed).toMatch(/^expected the pods of the replicated job "node" to carry the placement of flavor "h100", .*: nodeSelector example.com\/gpu: "h100" in a runtime patch/);
});

describe('kueue/reference', () => {
  const platform = () => [
    resourceFlavor('a100'), clusterQueue('team-cq', { a100: quotas(16) }), localQueue('ml', 'team-a', 'team-cq'), localQueue('research', 'team-b', 'team-cq'),
    priorityClass('high'),
  ];
  const job = (queue: string, labels: Record<string, string> = {}) => queuedJob('ml', 'train', queue, { Worker: gpuPods(1, 1) }, labels);

  test('a job\'s LocalQueue: a near name, one in another namespace, or none near', () => {
    const messages = (queue: string) => findings([...platform(), job(queue)], REFERENCE)
      .map(f => [f.path, f.finding.field, f.finding.value, f.finding.allowed]);
    expect(messages('team-aa')).toEqual([['d5', QUEUE_FIELD, 'team-aa',
      'expected a LocalQueue the input defines in the job\'s namespace "ml"; did you mean "team-a"? Without it Kueue admits nothing for the job and it stays suspended']]);
    expect(messages('team-b')).toEqual([['d5', QUEUE_FIELD, 'team-b',
      'expected a LocalQueue the input defines in the job\'s namespace "ml"; the input\'s "team-b" is in namespace "research", and Kueue looks in the job\'s own. '
        + 'Without it Kueue admits nothing for the job and it stays suspended']]);
    expect(messages('gpu')).toEqual([['d5', QUEUE_FIELD, 'gpu',
      'expected a LocalQueue the input defines in the job\'s namespace "ml"; the input defines "team-a". Without it Kueue admits nothing for the job and it stays suspended']]);
    expect(messages('team-a')).toEqual([]);
  });

  test('a job\'s WorkloadPriorityClass', () => {
    expect(findings([...platform(), job('team-a', { 'kueue.x-k8s.io/priority-class': 'hihg' })], REFERENCE).map(f => [f.finding.field, f.finding.allowed])).toEqual([[
      'metadata.labels["kueue.x-k8s.io/priority-class"]',
      'expected a WorkloadPriorityClass the input defines; did you mean "high"? Without it Kueue makes no Workload and the job stays suspended',
    ]]);
  });

  test('a LocalQueue\'s ClusterQueue, a ClusterQueue\'s flavors, a flavor\'s Topology', () => {
    const docs = [
      resourceFlavor('a100', { topologyName: 'default' }),
      clusterQueue('team-cq', { a100: quotas(16), a10: quotas(4) }),
      localQueue('ml', 'team-a', 'team-qc'),
    ];
    expect(findings(docs, REFERENCE).map(f => [f.path, f.finding.field, f.finding.value, f.finding.allowed])).toEqual([
      ['d0', 'spec.topologyName', 'default', 'expected a Topology the input defines; the input defines no Topology. Without it every ClusterQueue that uses the flavor is inactive and admits nothing'],
      ['d1', 'spec.resourceGroups[0].flavors[1].name', 'a10', 'expected a ResourceFlavor the input defines; did you mean "a100"? Without it the ClusterQueue admits nothing'],
      ['d2', 'spec.clusterQueue', 'team-qc', 'expected a ClusterQueue the input defines; did you mean "team-cq"? Without it the LocalQueue admits nothing'],
    ]);
  });

  test('a Cohort\'s flavors', () => {
    const cohort = {
      apiVersion: 'kueue.x-k8s.io/v1beta1',
      kind: 'Cohort',
      metadata: { name: 'research' },
      spec: { resourceGroups: [{ coveredResources: [GPU], flavors: [{ name: 'h100', resources: [{ name: GPU, nominalQuota: 8 }] }] }] },
    };
    expect(findings([resourceFlavor('a100'), cohort], REFERENCE).map(f => [f.finding.field, f.finding.allowed])).toEqual([[
      'spec.resourceGroups[0].flavors[0].name',
      'expected a ResourceFlavor the input defines; did you mean "a100"? Without it the Cohort\'s quota of that flavor serves no ClusterQueue: one that names the flavor is inactive',
    ]]);
  });

  test('an input without Kueue objects is not checked: they are kept elsewhere', () => {
    expect(findings([job('anything', { 'kueue.x-k8s.io/priority-class': 'any' })], REFERENCE)).toEqual([]);
  });
});

describe('kueue/cohort-cycle', () => {
  const CYCLE = 'kueue/cohort-cycle';
  const cohort = (version: string, name: string, parentName?: string) => ({
    apiVersion: `kueue.x-k8s.io/${version}`, kind: 'Cohort', metadata: { name }, spec: parentName === undefined ? {} : { parentName },
  });

  test('in either API version: two cohorts in a cycle and a ClusterQueue under them; a tree has none', () => {
    for (const [version, field] of [['v1beta1', 'cohort'], ['v1beta2', 'cohortName']]) {
      const queue = { ...clusterQueue('team-cq', { a100: quotas(16) }), apiVersion: `kueue.x-k8s.io/${version}` };
      queue.spec[field] = 'team';
      const docs = [cohort(version, 'org', 'team'), cohort(version, 'team', 'org'), queue];
      expect(findings(docs, CYCLE).map(f => [f.path, f.finding.field, f.finding.value])).toEqual([
        ['d0', 'spec.parentName', 'team'], ['d1', 'spec.parentName', 'org'], ['d2', `spec.${field}`, 'team'],
      ]);
      expect(findings([cohort(version, 'org'), cohort(version, 'team', 'org'), queue], CYCLE)).toEqual([]);
    }
  });
});

describe('at synth, over the app\'s documents', () => {
  const kueue = (chart: Chart, id: string, doc: any) => new ApiObject(chart, id, doc);

  test('a job its ClusterQueue never admits, and a priority class the app does not define', () => {
    const message = synthErrors(chart => {
      kueue(chart, 'a100', resourceFlavor('a100'));
      kueue(chart, 'cq', clusterQueue('team-cq', { a100: quotas(16) }));
      kueue(chart, 'lq', localQueue('ml', 'team', 'team-cq'));
      kueue(chart, 'high', priorityClass('high'));
      new DistributedPyTorch(chart, 'job', {
        metadata: { name: 'big', namespace: 'ml' },
        image: 'registry.example.com/train:1.0',
        workers: 3,
        queue: 'team',
        workloadPriorityClass: 'hihg',
        resources: { accelerator: Accelerator.nvidia(8) },
      });
    });
    expect(message).toBe(`${REPORT}`
      + '  [test/job] metadata.labels["kueue.x-k8s.io/priority-class"] (workloadPriorityClass) is "hihg"; expected a WorkloadPriorityClass the input defines; did you mean "high"? '
      + 'Without it Kueue makes no Workload and the job stays suspended\n'
      + '  [test/job] metadata.labels["kueue.x-k8s.io/queue-name"] (queue) is "team"; expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to '
      + 'ClusterQueue "team-cq", where podset "Worker" (3 pods) requests 24 nvidia.com/gpu, and flavor "a100" gives at most 16 nvidia.com/gpu (nominal quota 16, no cohort)'
      + TAIL);
  });

  test('a queue the app does not define', () => {
    const message = synthErrors(chart => {
      kueue(chart, 'a100', resourceFlavor('a100'));
      kueue(chart, 'cq', clusterQueue('team-cq', { a100: quotas(16) }));
      kueue(chart, 'lq', localQueue('ml', 'team', 'team-cq'));
      new DistributedPyTorch(chart, 'job', { metadata: { name: 'small', namespace: 'ml' }, image: 'registry.example.com/train:1.0', workers: 1, queue: 'teem' });
    });
    expect(message).toBe(`${REPORT}  [test/job] metadata.labels["kueue.x-k8s.io/queue-name"] (queue) is "teem"; expected a LocalQueue the input defines in the job's namespace "ml"; `
      + 'did you mean "team"? Without it Kueue admits nothing for the job and it stays suspended');
  });

  test('a job that fits synthesizes, its manifest valid', () => {
    let chart: Chart | undefined;
    expect(synthErrors(c => {
      chart = c;
      kueue(c, 'a100', resourceFlavor('a100'));
      kueue(c, 'cq', clusterQueue('team-cq', { a100: quotas(16) }));
      kueue(c, 'lq', localQueue('ml', 'team', 'team-cq'));
      new DistributedPyTorch(c, 'job', {
        metadata: { name: 'small', namespace: 'ml' }, image: 'registry.example.com/train:1.0', workers: 1, queue: 'team', resources: { accelerator: Accelerator.nvidia(8) },
      });
    })).toBeUndefined();
    // The PyTorchJob against its pinned CRD; Kueue's objects once their CRDs are pinned.
    expect(expectValidManifests(chart!.toJson())).toBeGreaterThanOrEqual(1);
  });
});
