import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import {
  Accelerator, ClusterQueue, Cohort, DistributedPyTorch, KueueTopology, LocalQueue, MpiAllReduce, PreemptionPolicy, QueueingStrategy, ResourceFlavor,
  ResourceQuota,
  TrainJob, TrainingRuntimeRef, WorkloadPriorityClass,
} from '../../src';
import { runCli } from '../cli/run-cli';
import { REPORT, expectValidManifests, synthErrors, synthKind } from '../harness';
import { withNamedFlavors } from '../harness/kueue-objects';

/** Kueue's objects as constructs, the jobs that name them, and Kueue's webhook checks at synth and in lint. */

const report = (...lines: string[]) => REPORT + lines.map(l => `  ${l}`).join('\n');

function thrown(build: () => void): string {
  try {
    build();
  } catch (e: any) {
    return e.message;
  }
  return 'no error';
}

/** A flavor, a ClusterQueue in cohort `gpus` with 8 GPUs of it, and a LocalQueue in team-a. */
function platform(c: Chart) {
  const topology = new KueueTopology(c, 'Topology', { metadata: { name: 'dc' }, levels: ['example.com/block', 'example.com/rack', 'kubernetes.io/hostname'] });
  const a100 = new ResourceFlavor(c, 'A100', {
    metadata: { name: 'a100' },
    nodeLabels: { 'example.com/gpu': 'a100' },
    nodeTaints: [{ key: 'example.com/gpu', value: 'a100', effect: 'NoSchedule' }],
    tolerations: [{ key: 'example.com/gpu', operator: 'Equal', value: 'a100', effect: 'NoSchedule' }],
    topology,
  });
  const clusterQueue = new ClusterQueue(c, 'Vision', {
    metadata: { name: 'vision' },
    cohort: Cohort.fromName('gpus'),
    queueingStrategy: QueueingStrategy.STRICT_FIFO,
    preemption: {
      reclaimWithinCohort: PreemptionPolicy.ANY,
      withinClusterQueue: PreemptionPolicy.LOWER_PRIORITY,
      borrowWithinCohort: PreemptionPolicy.LOWER_PRIORITY,
      borrowWithinCohortMaxPriorityThreshold: 100,
    },
    namespaceSelector: { matchLabels: { team: 'vision' } },
    fairSharingWeight: '2',
    resourceGroups: [{
      flavors: [{
        flavor: a100,
        quotas: [
          ResourceQuota.cpu(kplus.Cpu.units(96)),
          ResourceQuota.memory(Size.gibibytes(1024)),
          ResourceQuota.accelerator(Accelerator.nvidia(8), 8, 4),
        ],
      }],
    }],
  });
  const localQueue = new LocalQueue(c, 'Queue', { metadata: { name: 'vision', namespace: 'team-a' }, clusterQueue });
  const production = new WorkloadPriorityClass(c, 'Production', { metadata: { name: 'production' }, value: 1000, description: 'training runs that ship' });
  return { topology, a100, clusterQueue, localQueue, production };
}

describe('the five kinds', () => {
  test('each renders its kueue.x-k8s.io/v1beta2 manifest, valid against the pinned CRD', () => {
    const app = Testing.app();
    platform(new Chart(app, 'test', { namespace: 'team-a' }));
    const docs = app.charts[0].toJson();
    expectValidManifests(docs);
    expect(docs).toEqual([
      {
        apiVersion: 'kueue.x-k8s.io/v1beta2',
        kind: 'Topology',
        metadata: { name: 'dc' },
        spec: { levels: [{ nodeLabel: 'example.com/block' }, { nodeLabel: 'example.com/rack' }, { nodeLabel: 'kubernetes.io/hostname' }] },
      },
      {
        apiVersion: 'kueue.x-k8s.io/v1beta2',
        kind: 'ResourceFlavor',
        metadata: { name: 'a100' },
        spec: {
          nodeLabels: { 'example.com/gpu': 'a100' },
          nodeTaints: [{ key: 'example.com/gpu', value: 'a100', effect: 'NoSchedule' }],
          tolerations: [{ effect: 'NoSchedule', key: 'example.com/gpu', operator: 'Equal', value: 'a100' }],
          topologyName: 'dc',
        },
      },
      {
        apiVersion: 'kueue.x-k8s.io/v1beta2',
        kind: 'ClusterQueue',
        metadata: { name: 'vision' },
        spec: {
          cohortName: 'gpus',
          fairSharing: { weight: '2' },
          namespaceSelector: { matchLabels: { team: 'vision' } },
          preemption: { borrowWithinCohort: { maxPriorityThreshold: 100, policy: 'LowerPriority' }, reclaimWithinCohort: 'Any', withinClusterQueue: 'LowerPriority' },
          queueingStrategy: 'StrictFIFO',
          resourceGroups: [{
            coveredResources: ['cpu', 'memory', 'nvidia.com/gpu'],
            flavors: [{
              name: 'a100',
              resources: [
                { name: 'cpu', nominalQuota: '96' },
                { name: 'memory', nominalQuota: '1024Gi' },
                { borrowingLimit: 8, lendingLimit: 4, name: 'nvidia.com/gpu', nominalQuota: 8 },
              ],
            }],
          }],
        },
      },
      { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'LocalQueue', metadata: { name: 'vision', namespace: 'team-a' }, spec: { clusterQueue: 'vision' } },
      { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'WorkloadPriorityClass', metadata: { name: 'production' }, description: 'training runs that ship', value: 1000 },
    ]);
  });

  test('a ClusterQueue admits every namespace unless told otherwise (Kueue\'s own default admits none)', () => {
    const queue = synthKind('ClusterQueue', c => new ClusterQueue(c, 'Q', {
      resourceGroups: [{ flavors: [{ flavor: new ResourceFlavor(c, 'F', { metadata: { name: 'cpu-nodes' } }), quotas: [ResourceQuota.pods(10), ResourceQuota.custom('example.com/license', '3')] }] }],
    }));
    expect(queue.spec).toEqual({
      namespaceSelector: {},
      resourceGroups: [{ coveredResources: ['pods', 'example.com/license'], flavors: [{ name: 'cpu-nodes', resources: [{ name: 'pods', nominalQuota: 10 }, { name: 'example.com/license', nominalQuota: '3' }] }] }],
    });
  });

  test('Kueue objects describe no pods: addPodLabel is refused', () => {
    const app = Testing.app();
    const queue = new WorkloadPriorityClass(new Chart(app, 'test'), 'P', { value: 1 });
    expect(thrown(() => queue.addPodLabel('team', 'a'))).toBe('test/P: podLabels is "team"; expected none: a WorkloadPriorityClass describes no pods; add pod labels to the jobs it admits');
  });

  test('the policies and strategies parse from configuration, refusing an unknown name', () => {
    expect(PreemptionPolicy.parse('LowerOrNewerEqualPriority')).toBe(PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY);
    expect(QueueingStrategy.parse('StrictFIFO')).toBe(QueueingStrategy.STRICT_FIFO);
    expect(thrown(() => PreemptionPolicy.parse('lowerPriority', 'preemption.withinClusterQueue'))).toBe('PreemptionPolicy.parse: preemption.withinClusterQueue is "lowerPriority"; '
      + 'expected "Never", "LowerPriority", "LowerOrNewerEqualPriority" or "Any", the preemption policies Kueue v0.15.2 knows: did you mean "LowerPriority"?');
  });

  test('a priority threshold without the borrowWithinCohort policy it belongs to is refused, not dropped', () => {
    const chart = new Chart(Testing.app(), 'test');
    expect(thrown(() => new ClusterQueue(chart, 'Q', { preemption: { borrowWithinCohortMaxPriorityThreshold: 100 }, resourceGroups: [] })))
      .toBe('test/Q: preemption.borrowWithinCohortMaxPriorityThreshold is 100; expected none without preemption.borrowWithinCohort: the threshold limits the workloads that policy preempts');
  });

  test('an unknown policy for a field is the schema\'s finding, named by the prop', () => {
    expect(synthErrors(c => new ClusterQueue(c, 'Q', {
      preemption: { withinClusterQueue: PreemptionPolicy.ANY },
      resourceGroups: [{ flavors: [{ flavor: new ResourceFlavor(c, 'F'), quotas: [ResourceQuota.pods(1)] }] }],
    }))).toBe(report('[test/Q] spec.preemption.withinClusterQueue (preemption) is "Any"; expected one of "Never", "LowerPriority", "LowerOrNewerEqualPriority"'));
  });
});

describe('jobs name a LocalQueue and a WorkloadPriorityClass by construct', () => {
  test('the labels carry their names, and the job is written after them', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'test', { namespace: 'team-a' });
    const { localQueue, production } = platform(chart);
    new TrainJob(chart, 'Job', { metadata: { name: 'vit' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), image: 'registry.example/vit:1', localQueue, workloadPriority: production });
    new DistributedPyTorch(chart, 'V1', { metadata: { name: 'resnet' }, image: 'registry.example/resnet:1', workers: 2, localQueue, workloadPriority: production });
    const docs = chart.toJson();
    expectValidManifests(docs);
    expect(docs.map((d: any) => `${d.kind} ${d.metadata.name}`)).toEqual([
      'Topology dc', 'ResourceFlavor a100', 'ClusterQueue vision', 'LocalQueue vision', 'WorkloadPriorityClass production', 'TrainJob vit', 'PyTorchJob resnet',
    ]);
    for (const job of docs.slice(5)) {
      expect(job.metadata.labels).toEqual({ 'kueue.x-k8s.io/queue-name': 'vision', 'kueue.x-k8s.io/priority-class': 'production' });
    }
  });

  test('a job for MultiKueue needs a queue whose ClusterQueue has the MultiKueue admission check (admissionChecks)', () => {
    const build = (checks: string[] | undefined) => (c: Chart) => {
      const a100 = new ResourceFlavor(c, 'A100', { metadata: { name: 'a100' } });
      const cq = new ClusterQueue(c, 'Remote', {
        metadata: { name: 'remote' },
        admissionChecks: checks,
        resourceGroups: [{
          flavors: [{ flavor: a100, quotas: [ResourceQuota.cpu(kplus.Cpu.units(64)), ResourceQuota.memory(Size.gibibytes(512))] }],
        }],
      });
      new TrainJob(c, 'Job', {
        metadata: { name: 'vit' },
        runtime: TrainingRuntimeRef.cluster('torch-distributed'),
        image: 'registry.example/vit:1',
        numNodes: 2,
        localQueue: new LocalQueue(c, 'Queue', { metadata: { name: 'remote' }, clusterQueue: cq }),
        multiKueue: true,
      });
    };
    expect(synthErrors(build(undefined), 'team-a')).toBe(report(
      '[test/Job] metadata.labels["kueue.x-k8s.io/queue-name"] (localQueue) is "remote"; expected a LocalQueue whose ClusterQueue has MultiKueue\'s AdmissionCheck (controllerName "kueue.x-k8s.io/multikueue"): '
      + 'ClusterQueue "remote" has no admission check, so Kueue admits the job in this cluster, reserves its quota and lifts its suspension, and nothing runs it (its own controller leaves a job managed by MultiKueue alone)',
    ));
    const app = Testing.app();
    const chart = new Chart(app, 'test', { namespace: 'team-a' });
    build(['multikueue'])(chart);
    const docs = chart.toJson();
    expectValidManifests(docs);
    // v1beta2 has no spec.admissionChecks: the checks are listed under admissionChecksStrategy.
    expect(docs.find((d: any) => d.kind === 'ClusterQueue').spec).toMatchObject({ admissionChecksStrategy: { admissionChecks: [{ name: 'multikueue' }] } });
    expect(docs.find((d: any) => d.kind === 'ClusterQueue').spec.admissionChecks).toBeUndefined();
  });

  test('a job in a chart made before the platform\'s is still written after the Kueue objects it names', () => {
    const app = Testing.app();
    const jobs = new Chart(app, 'jobs', { namespace: 'team-a' });
    const { localQueue, production } = platform(new Chart(app, 'platform', { namespace: 'team-a' }));
    new TrainJob(jobs, 'Job', { metadata: { name: 'vit' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), image: 'x', localQueue, workloadPriority: production });
    const order = (yaml.loadAll(app.synthYaml()) as any[]).map(d => d.kind);
    expect(order).toEqual(['Topology', 'ResourceFlavor', 'ClusterQueue', 'LocalQueue', 'WorkloadPriorityClass', 'TrainJob']);
  });

  test('a LocalQueue in another namespace is refused, naming both', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'test', { namespace: 'team-b' });
    const { localQueue } = platform(chart);
    expect(thrown(() => new TrainJob(chart, 'Job', { runtime: TrainingRuntimeRef.cluster('torch-distributed'), image: 'x', localQueue })))
      .toBe('test/Job: localQueue.namespace is "team-a"; expected the job\'s namespace "team-b": Kueue looks a job\'s LocalQueue (test/Queue) up in the job\'s namespace only');
    expect(thrown(() => new DistributedPyTorch(chart, 'V1', { metadata: { namespace: 'ml' }, image: 'x', workers: 1, localQueue })))
      .toBe('test/V1: localQueue.namespace is "team-a"; expected the job\'s namespace "ml": Kueue looks a job\'s LocalQueue (test/Queue) up in the job\'s namespace only');
  });

  test('a name and a construct for the same label are refused', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'test', { namespace: 'team-a' });
    const { localQueue, production } = platform(chart);
    expect(thrown(() => new TrainJob(chart, 'A', { runtime: TrainingRuntimeRef.cluster('torch-distributed'), image: 'x', localQueue, queue: 'other' })))
      .toBe('test/A: localQueue is "vision"; expected either localQueue or queue, not both (queue is "other")');
    expect(thrown(() => new DistributedPyTorch(chart, 'B', { image: 'x', workers: 1, workloadPriority: production, workloadPriorityClass: 'low' })))
      .toBe('test/B: workloadPriority is "production"; expected either workloadPriority or workloadPriorityClass, not both (workloadPriorityClass is "low")');
  });

  test('a kind Kueue cannot queue refuses the constructs too', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'test', { namespace: 'team-a' });
    const { localQueue } = platform(chart);
    expect(thrown(() => new MpiAllReduce(chart, 'M', { image: 'x', localQueue })))
      .toMatch(/^test\/M: localQueue is "vision"; expected no Kueue queue: Kueue's kubeflow.org\/mpijob integration serves the MPI Operator's v2beta1 MPIJob/);
  });
});

describe('Kueue\'s webhook checks: the same message at synth and in lint', () => {
  const flavor = (c: Chart, name: string) => new ResourceFlavor(c, name, { metadata: { name } });
  const gpus = (count: number, borrow?: number, lend?: number) => ResourceQuota.accelerator(Accelerator.nvidia(count), borrow, lend);

  /** The findings `lint` prints for documents (with the flavors their ClusterQueues name), without the position prefix and the summary. */
  function lint(...docs: object[]): string[] {
    const result = runCli(['lint', '-'], withNamedFlavors(docs).map(d => JSON.stringify(d)).join('\n---\n'));
    return result.stdout.trim().split('\n').slice(0, -1).map(l => l.replace(/^<stdin>:\d+:\d+: /, ''));
  }
  const clusterQueue = (spec: object) => ({ apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ClusterQueue', metadata: { name: 'vision' }, spec });

  test('kueue/cluster-queue-quotas: a lending limit above the nominal quota', () => {
    expect(synthErrors(c => new ClusterQueue(c, 'Q', { cohort: Cohort.fromName('gpus'), resourceGroups: [{ flavors: [{ flavor: flavor(c, 'a100'), quotas: [gpus(8, undefined, 16)] }] }] })))
      .toBe(report('[test/Q] spec.resourceGroups[0].flavors[0].resources[0].lendingLimit (resourceGroups) is 16; expected at most the nominalQuota (8): a ClusterQueue lends only from its own quota'));
    expect(lint(clusterQueue({ cohortName: 'gpus', resourceGroups: [{ coveredResources: ['nvidia.com/gpu'], flavors: [{ name: 'a100', resources: [{ name: 'nvidia.com/gpu', nominalQuota: 8, lendingLimit: 16 }] }] }] })))
      .toEqual(['ClusterQueue vision: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit is 16; expected at most the nominalQuota (8): a ClusterQueue lends only from its own quota [kueue/cluster-queue-quotas]']);
  });

  test('kueue/cluster-queue-quotas: a lending limit without a cohort', () => {
    expect(synthErrors(c => new ClusterQueue(c, 'Q', { resourceGroups: [{ flavors: [{ flavor: flavor(c, 'a100'), quotas: [gpus(8, undefined, 4)] }] }] })))
      .toBe(report('[test/Q] spec.resourceGroups[0].flavors[0].resources[0].lendingLimit (resourceGroups) is 4; expected none without a cohort (spec.cohortName): a lendingLimit bounds what a ClusterQueue borrows from or lends to its cohort'));
  });

  test('kueue/cluster-queue-resources: a flavor\'s resources in another order than the group\'s', () => {
    expect(synthErrors(c => new ClusterQueue(c, 'Q', {
      resourceGroups: [{
        flavors: [
          { flavor: flavor(c, 'a100'), quotas: [ResourceQuota.cpu(kplus.Cpu.units(8)), gpus(8)] },
          { flavor: flavor(c, 'h100'), quotas: [gpus(8), ResourceQuota.cpu(kplus.Cpu.units(8))] },
        ],
      }],
    }))).toBe(report(
      '[test/Q] spec.resourceGroups[0].flavors[1].resources[0].name (resourceGroups) is "nvidia.com/gpu"; expected "cpu": a flavor lists its resources in the order of the group\'s coveredResources',
      '[test/Q] spec.resourceGroups[0].flavors[1].resources[1].name (resourceGroups) is "cpu"; expected "nvidia.com/gpu": a flavor lists its resources in the order of the group\'s coveredResources',
    ));
    expect(lint(clusterQueue({
      resourceGroups: [
        { coveredResources: ['cpu'], flavors: [{ name: 'a100', resources: [{ name: 'cpu', nominalQuota: 8 }] }] },
        { coveredResources: ['cpu'], flavors: [{ name: 'h100', resources: [{ name: 'cpu', nominalQuota: 8 }] }] },
      ],
    }))).toEqual(['ClusterQueue vision: spec.resourceGroups[1].coveredResources[0] is "cpu"; expected each resource covered by one resource group only; an earlier entry covers it already [kueue/cluster-queue-resources]']);
  });

  test('kueue/cluster-queue-flavors: a flavor in two resource groups', () => {
    expect(synthErrors(c => {
      const a100 = flavor(c, 'a100');
      new ClusterQueue(c, 'Q', {
        resourceGroups: [
          { flavors: [{ flavor: a100, quotas: [ResourceQuota.cpu(kplus.Cpu.units(8))] }] },
          { flavors: [{ flavor: a100, quotas: [gpus(8)] }] },
        ],
      });
    })).toBe(report('[test/Q] spec.resourceGroups[1].flavors[0].name (resourceGroups) is "a100"; expected each flavor in one resource group, once; it is listed earlier already'));
  });

  test('kueue/fair-sharing-weight: a weight that rounds to nothing', () => {
    expect(synthErrors(c => new ClusterQueue(c, 'Q', { fairSharingWeight: '1n', resourceGroups: [{ flavors: [{ flavor: flavor(c, 'a100'), quotas: [gpus(8)] }] }] })))
      .toBe(report('[test/Q] spec.fairSharing.weight (fairSharingWeight) is "1n"; expected 0 or a weight above 1n (0.000000001): a smaller one is too small for Kueue\'s share arithmetic'));
    expect(lint(clusterQueue({ fairSharing: { weight: '-1' }, resourceGroups: [] })))
      .toEqual(['ClusterQueue vision: spec.fairSharing.weight is "-1"; expected a weight of 0 or more [kueue/fair-sharing-weight]']);
  });

  test('kueue/resource-flavor-taints: two taints of one key and effect', () => {
    expect(synthErrors(c => new ResourceFlavor(c, 'F', { nodeTaints: [{ key: 'gpu', effect: 'NoSchedule' }, { key: 'gpu', value: 'x', effect: 'NoSchedule' }] })))
      .toBe(report('[test/F] spec.nodeTaints[1] (nodeTaints) is "gpu:NoSchedule"; expected taints unique by key and effect; an earlier taint has both'));
    expect(lint({ apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ResourceFlavor', metadata: { name: 'a100' }, spec: { nodeTaints: [{ key: 'bad key', effect: 'NoSchedule' }] } }))
      .toEqual(['ResourceFlavor a100: spec.nodeTaints[0].key is "bad key"; expected a taint key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit [kueue/resource-flavor-taints]']);
  });

  test('the CRDs\' CEL rules: a topology without node labels, hostname above another level', () => {
    const topology = (c: Chart) => new KueueTopology(c, 'T', { metadata: { name: 'dc' }, levels: ['kubernetes.io/hostname', 'example.com/rack'] });
    expect(synthErrors(c => new ResourceFlavor(c, 'F', { topology: topology(c) }))).toBe(report(
      '[test/T] spec.levels (levels) is [{"nodeLabel":"kubernetes.io/hostname"}, {"nodeLabel":"example.com/rack"}]; expected a value the CRD\'s validation rule accepts: '
        + 'the kubernetes.io/hostname label can only be used at the lowest level of topology '
        + '(x-kubernetes-validations: size(self.filter(i, i.nodeLabel == \'kubernetes.io/hostname\')) == 0 || self[size(self) - 1].nodeLabel == \'kubernetes.io/hostname\')',
      '[test/F] spec is {"topologyName":"dc"}; expected a value the CRD\'s validation rule accepts: at least one nodeLabel is required when topology is set '
        + '(x-kubernetes-validations: !has(self.topologyName) || self.nodeLabels.size() >= 1); the rule could not be evaluated (no such key: nodeLabels), which the API server refuses too',
    ));
  });

  test('kubernetes/int32: a priority value beyond 32 bits (the CRD\'s format, which the API server leaves to the decoder)', () => {
    expect(synthErrors(c => new WorkloadPriorityClass(c, 'P', { value: 2 ** 31 })))
      .toBe(report('[test/P] value is 2147483648; expected a whole number from -2147483648 to 2147483647 (int32)'));
  });

  test('a valid platform has no findings in lint', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'test', { namespace: 'team-a' });
    platform(chart);
    const result = runCli(['lint', '-'], chart.toJson().map((d: any) => JSON.stringify(d)).join('\n---\n'));
    expect(result.stdout).toBe('5 documents checked; no findings\n');
  });
});
