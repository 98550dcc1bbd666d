/**
 * Which flavors Kueue gives a podset (node labels, taints, topology: kueue/never-admitted counts
 * only those), and where a queued TrainJob's pods run (kueue/trainjob-placement): in lint over
 * plain documents, and at synth, where the TrainJob writes the one flavor's placement itself.
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import {
  Accelerator, ClusterQueue, ClusterTrainingRuntime, DistributedPyTorch, KueueTopology, LocalQueue, MlPolicy, ResourceFlavor, ResourceQuota, Topology,
  TrainJob, TrainingRuntimeRef,
} from '../../../src';
import { AppDocument } from '../../../src/rules/app-document';
import { appFindings } from '../../../src/rules/rule-sets';
import { runCli } from '../../cli/run-cli';
import { REPORT, expectValidManifests, synthErrors } from '../../harness';
import { GPU, clusterQueue, localQueue, queuedJob, resourceFlavor } from '../../harness/kueue-objects';

const at = (docs: any[]): AppDocument[] => docs.map((doc, i) => ({ path: `d${i}`, doc }));
const allowed = (docs: any[], rule: string) => appFindings(at(docs)).filter(f => f.finding.rule === rule).map(f => f.finding.allowed);
const NEVER = 'kueue/never-admitted';
const PLACEMENT = 'kueue/trainjob-placement';
const TAIL = '; Kueue admits a workload whole, so the job stays suspended for good';
const GPU_LABEL = 'example.com/gpu';

const quotas = (gpu: number) => [{ name: 'cpu', nominalQuota: 256 }, { name: 'memory', nominalQuota: '1Ti' }, { name: GPU, nominalQuota: gpu }];
/** A GPU flavor: its node label, and a taint only pods that tolerate it (or that Kueue gives the flavor's toleration) may run on. */
const gpuFlavor = (model: string, own: { tolerate?: boolean; topology?: string } = {}) => resourceFlavor(model, {
  nodeLabels: { [GPU_LABEL]: model },
  nodeTaints: [{ key: GPU_LABEL, value: model, effect: 'NoSchedule' }],
  ...(own.tolerate === false ? {} : { tolerations: [{ key: GPU_LABEL, operator: 'Equal', value: model, effect: 'NoSchedule' }] }),
  ...(own.topology === undefined ? {} : { topologyName: own.topology }),
});
const platform = (flavors: Record<string, number>, flavorDocs = Object.keys(flavors).map(f => gpuFlavor(f))) => {
  const cq = clusterQueue('team-cq', Object.fromEntries(Object.entries(flavors).map(([f, gpus]) => [f, quotas(gpus)])));
  return [...flavorDocs, cq, localQueue('ml', 'team', 'team-cq')];
};
/** A PyTorchJob of `replicas` workers of 8 GPUs, its pod spec extended by `spec`. */
function job(replicas: number, spec: object = {}, annotations?: object): any {
  const doc = queuedJob('ml', 'train', 'team', { Worker: { replicas, limits: { [GPU]: 8, cpu: 8, memory: '32Gi' } } });
  const template = doc.spec.pytorchReplicaSpecs.Worker.template;
  Object.assign(template.spec, spec);
  if (annotations !== undefined) template.metadata = { annotations };
  return doc;
}
const start = (podSet: string, pods: number) => `expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to ClusterQueue "team-cq", where podset "${podSet}" (${pods} pods) `
  + 'requests 16 nvidia.com/gpu, 16 cpu, 64Gi memory, and ';

describe('kueue/never-admitted counts only the flavors a podset can use', () => {
  test('a nodeSelector that no flavor matches: each flavor names its label', () => {
    expect(allowed([...platform({ h100: 64, a100: 64 }), job(2, { nodeSelector: { [GPU_LABEL]: 'b200' } })], NEVER)).toEqual([
      `${start('Worker', 2)}flavor "h100" has node label ${GPU_LABEL} "h100", and the pods' nodeSelector asks "b200", `
        + `flavor "a100" has node label ${GPU_LABEL} "a100", and the pods' nodeSelector asks "b200"${TAIL}`,
    ]);
  });

  test('a job that fits only the flavor it cannot use', () => {
    expect(allowed([...platform({ h100: 64, a100: 8 }), job(2, { nodeSelector: { [GPU_LABEL]: 'a100' } })], NEVER)).toEqual([
      `${start('Worker', 2)}flavor "h100" has node label ${GPU_LABEL} "h100", and the pods' nodeSelector asks "a100", `
        + `flavor "a100" gives at most 8 nvidia.com/gpu (nominal quota 8, no cohort)${TAIL}`,
    ]);
    // The same job on H100s fits.
    expect(allowed([...platform({ h100: 64, a100: 8 }), job(2, { nodeSelector: { [GPU_LABEL]: 'h100' } })], NEVER)).toEqual([]);
  });

  test('a taint neither the pods nor the flavor tolerate; the flavor\'s own tolerations count', () => {
    const untolerating = [gpuFlavor('h100', { tolerate: false })];
    expect(allowed([...platform({ h100: 64 }, untolerating), job(2)], NEVER)).toEqual([
      `${start('Worker', 2)}flavor "h100" has the taint ${GPU_LABEL}=h100:NoSchedule, which neither the pods' tolerations nor the flavor's own tolerate${TAIL}`,
    ]);
    expect(allowed([...platform({ h100: 64 }), job(2)], NEVER)).toEqual([]);
    expect(allowed([...platform({ h100: 64 }, untolerating), job(2, { tolerations: [{ key: GPU_LABEL, operator: 'Exists' }] })], NEVER)).toEqual([]);
  });

  test('required node affinity: Kueue compares only the keys the group\'s flavors use, and a term left empty says nothing', () => {
    const affinity = (...terms: object[][]) => ({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms.map(matchExpressions => ({ matchExpressions })) },
        },
      },
    });
    const notH100 = { key: GPU_LABEL, operator: 'NotIn', values: ['h100'] };
    expect(allowed([...platform({ h100: 64 }), job(2, affinity([notH100]))], NEVER)).toEqual([
      `${start('Worker', 2)}flavor "h100" has node label ${GPU_LABEL} "h100", and the pods' required node affinity asks ${GPU_LABEL} NotIn (h100)${TAIL}`,
    ]);
    // A second term on a key no flavor uses matches any flavor.
    expect(allowed([...platform({ h100: 64 }), job(2, affinity([notH100], [{ key: 'zone', operator: 'In', values: ['a'] }]))], NEVER)).toEqual([]);
    // Keys no flavor of the group uses are the scheduler's, not Kueue's.
    expect(allowed([...platform({ h100: 64 }), job(2, { nodeSelector: { 'topology.kubernetes.io/zone': 'a' } })], NEVER)).toEqual([]);
  });

  test('topology: a podset that asks for one needs a flavor with it; one that does not cannot use such a flavor beside flavors without', () => {
    const topology = { apiVersion: 'kueue.x-k8s.io/v1beta1', kind: 'Topology', metadata: { name: 'dc' }, spec: { levels: [{ nodeLabel: 'example.com/rack' }, { nodeLabel: 'kubernetes.io/hostname' }] } };
    const mixed = [gpuFlavor('h100', { topology: 'dc' }), gpuFlavor('a100'), topology];
    const rack = { 'kueue.x-k8s.io/podset-required-topology': 'example.com/rack' };
    // h100 has the rack level: the job fits there.
    expect(allowed([...platform({ h100: 64, a100: 8 }, mixed), job(2, {}, rack)], NEVER)).toEqual([]);
    expect(allowed([...platform({ h100: 64, a100: 8 }, mixed), job(2, {}, { 'kueue.x-k8s.io/podset-required-topology': 'example.com/block' })], NEVER)).toEqual([
      `${start('Worker', 2)}flavor "h100"'s topology "dc" has no level "example.com/block", which the pods ask for (kueue.x-k8s.io/podset-required-topology "example.com/block"), `
        + 'flavor "a100" has no topology, and the pods ask for topology-aware placement (kueue.x-k8s.io/podset-required-topology "example.com/block")' + TAIL,
    ]);
    expect(allowed([...platform({ h100: 64, a100: 8 }, mixed), job(2)], NEVER)).toEqual([
      `${start('Worker', 2)}flavor "h100" has a topology ("dc"), and Kueue gives such a flavor only to pods that ask for topology-aware placement while the ClusterQueue has flavors without one, `
        + `flavor "a100" gives at most 8 nvidia.com/gpu (nominal quota 8, no cohort)${TAIL}`,
    ]);
    // Every flavor with a topology: Kueue implies the request.
    expect(allowed([...platform({ h100: 64 }, [gpuFlavor('h100', { topology: 'dc' }), topology]), job(2)], NEVER)).toEqual([]);
  });

  test('the podsets together count only the flavors they can use', () => {
    const two = job(2, { nodeSelector: { [GPU_LABEL]: 'a100' } });
    two.spec.pytorchReplicaSpecs.Master = { ...two.spec.pytorchReplicaSpecs.Worker, replicas: 1 };
    expect(allowed([...platform({ h100: 64, a100: 16 }), two], NEVER)).toEqual([
      'expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team" leads to ClusterQueue "team-cq", where the job\'s podsets together request '
        + `24 nvidia.com/gpu, and the flavors "a100" give at most 16 nvidia.com/gpu together${TAIL}`,
    ]);
  });

  test('plan leaves a flavor the podset cannot use out of its placement', () => {
    const docs = [...platform({ h100: 64, a100: 64 }), job(2, { nodeSelector: { [GPU_LABEL]: 'a100' } })];
    const result = runCli(['plan', '-', '--format', 'json'], docs.map(d => yaml.dump(d)).join('---\n'));
    const rows = JSON.parse(result.stdout).clusterQueues[0].flavors.filter((r: any) => r.resource === GPU);
    expect(rows.map((r: any) => [r.flavor, r.requested])).toEqual([['h100', '0'], ['a100', '16']]);
  });
});

/** A torch runtime of one `node` job with 8 GPUs a node, its pod spec extended by `spec`. */
function runtimeDoc(spec: object = {}, annotations?: object): any {
  return {
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'ClusterTrainingRuntime',
    metadata: { name: 'torch' },
    spec: {
      mlPolicy: { numNodes: 1, torch: {} },
      template: {
        spec: {
          replicatedJobs: [{
            name: 'node',
            template: {
              metadata: { labels: { 'trainer.kubeflow.org/trainjob-ancestor-step': 'trainer' } },
              spec: {
                template: {
                  ...(annotations === undefined ? {} : { metadata: { annotations } }),
                  spec: { containers: [{ name: 'node', image: 'pytorch/pytorch:2.13.0', resources: { limits: { [GPU]: 8, cpu: 8, memory: '32Gi' } } }], ...spec },
                },
              },
            },
          }],
        },
      },
    },
  };
}
function trainJobDoc(patchSpec?: object): any {
  return {
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'TrainJob',
    metadata: { name: 'train', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'team' } },
    spec: {
      runtimeRef: { apiGroup: 'trainer.kubeflow.org', kind: 'ClusterTrainingRuntime', name: 'torch' },
      trainer: { numNodes: 2 },
      ...(patchSpec === undefined ? {} : {
        runtimePatches: [{ manager: 'example.com/platform', trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: patchSpec } } } }] } } } }],
      }),
    },
  };
}
const DROPPED = 'Kueue v0.15.2 writes them into spec.podTemplateOverrides, which Trainer v2.3.0\'s TrainJob does not have (the API server drops it)';
const H100_TOLERATION = { key: GPU_LABEL, operator: 'Equal', value: 'h100', effect: 'NoSchedule' };

describe('kueue/trainjob-placement', () => {
  test('one flavor can take the pods: the runtime and the patches together must carry its node labels and tolerations', () => {
    expect(allowed([...platform({ h100: 64 }), runtimeDoc(), trainJobDoc()], PLACEMENT)).toEqual([
      'expected the pods of the replicated job "node" to carry the placement of flavor "h100", the one Kueue can give them in ClusterQueue "team-cq": '
        + `nodeSelector ${GPU_LABEL}: "h100", toleration ${GPU_LABEL}=h100:NoSchedule in a runtime patch (or the runtime's pod template); `
        + `${DROPPED}, so without it the pods run on any node while Kueue holds that flavor's quota`,
    ]);
    expect(allowed([...platform({ h100: 64 }), runtimeDoc({ nodeSelector: { [GPU_LABEL]: 'h100' } }), trainJobDoc({ tolerations: [H100_TOLERATION] })], PLACEMENT)).toEqual([]);
    // A patch's tolerations replace the runtime's, so the runtime's alone are not what the pods get.
    expect(allowed([...platform({ h100: 64 }), runtimeDoc({ tolerations: [H100_TOLERATION] }), trainJobDoc({ nodeSelector: { [GPU_LABEL]: 'h100' }, tolerations: [] })], PLACEMENT))
      .toEqual([expect.stringContaining(`: toleration ${GPU_LABEL}=h100:NoSchedule in a runtime patch`)]);
  });

  test('several flavors can take the pods: Kueue\'s choice depends on quota in use, and no patch can follow it', () => {
    const message = 'expected a ClusterQueue where one flavor can take the pods of the replicated job "node": Kueue may give them flavor '
      + `"h100" (node labels ${GPU_LABEL} "h100"; tolerations ${GPU_LABEL}=h100:NoSchedule) or "a100" (node labels ${GPU_LABEL} "a100"; tolerations ${GPU_LABEL}=a100:NoSchedule) `
      + `of ClusterQueue "team-cq", as quota allows, and ${DROPPED}, so no runtime patch can follow its choice; pin one flavor with a nodeSelector on the runtime's pod template `
      + '(Kueue reads the runtime, not the job\'s runtime patches), or queue the job on a ClusterQueue with one flavor';
    expect(allowed([...platform({ h100: 64, a100: 64 }), runtimeDoc(), trainJobDoc({ nodeSelector: { [GPU_LABEL]: 'h100' }, tolerations: [H100_TOLERATION] })], PLACEMENT))
      .toEqual([message]);
    // Pinned on the runtime, which Kueue reads: one flavor left.
    expect(allowed([...platform({ h100: 64, a100: 64 }), runtimeDoc({ nodeSelector: { [GPU_LABEL]: 'h100' } }), trainJobDoc({ tolerations: [H100_TOLERATION] })], PLACEMENT)).toEqual([]);
    // A flavor too small for the pods is no candidate.
    expect(allowed([...platform({ h100: 64, a100: 8 }), runtimeDoc({ nodeSelector: {} }), trainJobDoc({ nodeSelector: { [GPU_LABEL]: 'h100' }, tolerations: [H100_TOLERATION] })], PLACEMENT)).toEqual([]);
  });

  test('a topology request on a queued TrainJob\'s runtime cannot reach the pods', () => {
    const topology = { apiVersion: 'kueue.x-k8s.io/v1beta1', kind: 'Topology', metadata: { name: 'dc' }, spec: { levels: [{ nodeLabel: 'example.com/rack' }, { nodeLabel: 'kubernetes.io/hostname' }] } };
    const docs = [...platform({ h100: 64 }, [gpuFlavor('h100', { topology: 'dc' }), topology]),
      runtimeDoc({}, { 'kueue.x-k8s.io/podset-preferred-topology': 'example.com/rack' }), trainJobDoc({ nodeSelector: { [GPU_LABEL]: 'h100' }, tolerations: [H100_TOLERATION] })];
    expect(allowed(docs, PLACEMENT)).toEqual([
      'expected no topology request on the pods of a TrainJob queued by Kueue: the runtime\'s replicated job "node" asks kueue.x-k8s.io/podset-preferred-topology "example.com/rack", '
        + 'and Kueue v0.15.2 places such pods through a scheduling gate and node selectors it writes into spec.podTemplateOverrides, which Trainer v2.3.0\'s TrainJob does not have '
        + '(the API server drops it), so the placement never reaches the pods; run the job on a runtime without a topology, or as a v1 job (DistributedPyTorch), whose pods Kueue places',
    ]);
  });

  test('nothing to judge: flavors without placement, queues or runtime outside the input, a job never admitted, MultiKueue', () => {
    const plain = [resourceFlavor('default'), clusterQueue('team-cq', { default: quotas(64) }), localQueue('ml', 'team', 'team-cq')];
    expect(allowed([...plain, runtimeDoc(), trainJobDoc()], PLACEMENT)).toEqual([]);
    expect(allowed([...platform({ h100: 64 }), trainJobDoc()], PLACEMENT)).toEqual([]);
    expect(allowed([gpuFlavor('h100'), runtimeDoc(), trainJobDoc()], PLACEMENT)).toEqual([]);
    expect(allowed([...platform({ h100: 8 }), runtimeDoc(), trainJobDoc()], PLACEMENT)).toEqual([]);
    const remote = trainJobDoc();
    remote.spec.managedBy = 'kueue.x-k8s.io/multikueue';
    expect(allowed([...platform({ h100: 64 }), runtimeDoc(), remote], PLACEMENT)).toEqual([]);
  });

  test('malformed flavors, selectors and patches are the schema\'s: these rules neither throw nor guess', () => {
    const odd = resourceFlavor('h100', { nodeLabels: 'gpu', nodeTaints: [null, { key: 7, effect: 'NoSchedule' }], tolerations: 'all', topologyName: 7 });
    const patched = trainJobDoc({ nodeSelector: 'h100', tolerations: [null, 'x'] });
    patched.spec.runtimePatches.push(null, { trainingRuntimeSpec: { template: { spec: { replicatedJobs: 'node' } } } });
    const terms = [null, { matchExpressions: [null] }];
    const runtime = runtimeDoc({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });
    const docs = [...platform({ h100: 64 }, [odd]), runtime, patched];
    expect(() => appFindings(at(docs))).not.toThrow();
    // The taint of key 7 is tolerated by nothing: the one flavor is unusable, and that much is certain.
    expect(allowed(docs, NEVER)).toEqual([expect.stringContaining('flavor "h100" has the taint 7:NoSchedule, which neither the pods\' tolerations nor the flavor\'s own tolerate')]);
    expect(allowed(docs, PLACEMENT)).toEqual([]);
    // lint reports them as findings (status 1), not as an internal error (status 3).
    expect(runCli(['lint', '-'], docs.map(d => yaml.dump(d)).join('---\n')).status).toBe(1);
  });

  test('lint prints it at the TrainJob, and a built-in runtime counts as the Trainer ships it', () => {
    const builtin = trainJobDoc();
    builtin.spec.runtimeRef.name = 'torch-distributed';
    builtin.spec.trainer.resourcesPerNode = { limits: { [GPU]: 8 } };
    const docs = [...platform({ h100: 64 }), builtin];
    const result = runCli(['lint', '-'], docs.map(d => yaml.dump(d)).join('---\n'));
    expect(result.stdout.split('\n').filter(l => l.includes('[kueue/trainjob-placement]'))).toEqual([
      '<stdin>:53:5: TrainJob ml/train: metadata.labels["kueue.x-k8s.io/queue-name"] is "team"; expected the pods of the replicated job "node" to carry the placement of flavor "h100", '
        + `the one Kueue can give them in ClusterQueue "team-cq": nodeSelector ${GPU_LABEL}: "h100", toleration ${GPU_LABEL}=h100:NoSchedule in a runtime patch (or the runtime's pod template); `
        + `${DROPPED}, so without it the pods run on any node while Kueue holds that flavor's quota [kueue/trainjob-placement]`,
    ]);
    expect(result.status).toBe(1);
  });

  test('from Kueue v0.17.0 Kueue writes the placement into a runtime patch of its own: a target of v0.17 or later drops the rule', () => {
    const docs = [...platform({ h100: 64 }), runtimeDoc(), trainJobDoc()].map(d => yaml.dump(d)).join('---\n');
    const placement = (args: string[]) => runCli(['lint', ...args, '-'], docs).stdout.split('\n').filter(l => l.includes(`[${PLACEMENT}]`)).length;
    // The window reaches back to v0.15.2, which drops the placement: without a target, a finding.
    expect(placement([])).toBe(1);
    expect(placement(['--target', 'kueue=v0.16'])).toBe(1);
    expect(placement(['--target', 'kueue=v0.17'])).toBe(0);
    expect(placement(['--target', 'kueue=v0.19.2'])).toBe(0);
  });
});

/** Room for 64 GPUs of 8 a node. */
const gpuQuotas = () => [
  ResourceQuota.cpu(kplus.Cpu.units(512)), ResourceQuota.memory(Size.gibibytes(4096)), ResourceQuota.accelerator(Accelerator.nvidia(64)),
];

describe('the TrainJob construct', () => {
  /** An H100 and an A100 flavor (tainted, with the tolerations Kueue adds) and team-a's queue over `flavors`. */
  function kueue(c: Chart, flavors: Array<'h100' | 'a100'>): LocalQueue {
    const flavor = (model: string) => new ResourceFlavor(c, model, {
      metadata: { name: model },
      nodeLabels: { [GPU_LABEL]: model },
      nodeTaints: [{ key: GPU_LABEL, value: model, effect: 'NoSchedule' }],
      tolerations: [{ key: GPU_LABEL, operator: 'Equal', value: model, effect: 'NoSchedule' }],
    });
    const made = { h100: flavor('h100'), a100: flavor('a100') };
    const cq = new ClusterQueue(c, 'Cq', {
      metadata: { name: 'team-a' },
      resourceGroups: [{
        flavors: flavors.map(f => ({
          flavor: made[f],
          quotas: gpuQuotas(),
        })),
      }],
    });
    return new LocalQueue(c, 'Queue', { metadata: { name: 'team-a' }, clusterQueue: cq });
  }
  const runtime = (c: Chart, extra: object = {}) => new ClusterTrainingRuntime(c, 'Runtime', {
    metadata: { name: 'torch-8gpu' },
    mlPolicy: MlPolicy.torch(),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(64), memory: Size.gibibytes(512) },
    ...extra,
  });

  test('a v1 job whose nodeSelector matches no flavor of its queue is never admitted: the synth names the flavor and the label', () => {
    const message = synthErrors(c => {
      new DistributedPyTorch(c, 'Job', {
        metadata: { name: 'train' },
        image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
        workers: 2,
        resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(64), memory: Size.gibibytes(512) },
        nodeSelector: { [GPU_LABEL]: 'a100' },
        localQueue: kueue(c, ['h100']),
      });
    }, 'team-a');
    expect(message).toBe(REPORT
      + '  [test/Job] metadata.labels["kueue.x-k8s.io/queue-name"] (localQueue) is "team-a"; expected a LocalQueue whose ClusterQueue can admit the job: LocalQueue "team-a" '
      + 'leads to ClusterQueue "team-a", where podset "Master" (1 pod) requests 64 cpu, 512Gi memory, 8 nvidia.com/gpu, and '
      + `flavor "h100" has node label ${GPU_LABEL} "h100", and the pods' nodeSelector asks "a100"; Kueue admits a workload whole, so the job stays suspended for good`);
  });

  test('one flavor: the runtime patch carries its node labels and tolerations, beside the runtime\'s own toleration', () => {
    const app = Testing.app();
    const c = new Chart(app, 'test', { namespace: 'team-a' });
    new TrainJob(c, 'Job', { metadata: { name: 'train' }, runtime: runtime(c).ref, numNodes: 2, localQueue: kueue(c, ['h100']) });
    const docs = Testing.synth(c);
    expectValidManifests(docs);
    const trainJob = docs.find(d => d.kind === 'TrainJob');
    expect(trainJob.spec.runtimePatches).toEqual([{
      manager: 'cdk8s-kubeflow/train-job',
      trainingRuntimeSpec: {
        template: {
          spec: {
            replicatedJobs: [{
              name: 'node',
              template: {
                spec: {
                  template: {
                    spec: {
                      nodeSelector: { [GPU_LABEL]: 'h100' },
                      tolerations: [{ key: GPU, operator: 'Exists', effect: 'NoSchedule' }, { key: GPU_LABEL, operator: 'Equal', value: 'h100', effect: 'NoSchedule' }],
                    },
                  },
                },
              },
            }],
          },
        },
      },
    }]);
  });

  test('two flavors: refused at synth with the way out; the runtime\'s nodeSelector pins one', () => {
    const message = synthErrors(c => {
      new TrainJob(c, 'Job', { metadata: { name: 'train' }, runtime: runtime(c).ref, numNodes: 2, localQueue: kueue(c, ['h100', 'a100']) });
    }, 'team-a');
    expect(message).toBe(REPORT
      + '  [test/Job] metadata.labels["kueue.x-k8s.io/queue-name"] (localQueue) is "team-a"; expected a ClusterQueue where one flavor can take the pods of the replicated job "node": '
      + `Kueue may give them flavor "h100" (node labels ${GPU_LABEL} "h100"; tolerations ${GPU_LABEL}=h100:NoSchedule) or "a100" (node labels ${GPU_LABEL} "a100"; tolerations ${GPU_LABEL}=a100:NoSchedule) `
      + `of ClusterQueue "team-a", as quota allows, and ${DROPPED}, so no runtime patch can follow its choice; pin one flavor with a nodeSelector on the runtime's pod template `
      + '(Kueue reads the runtime, not the job\'s runtime patches), or queue the job on a ClusterQueue with one flavor');
    expect(synthErrors(c => {
      new TrainJob(c, 'Job', { metadata: { name: 'train' }, runtime: runtime(c, { nodeSelector: { [GPU_LABEL]: 'a100' } }).ref, numNodes: 2, localQueue: kueue(c, ['h100', 'a100']) });
    }, 'team-a')).toBeUndefined();
  });

  test('the job\'s own nodeSelector cannot move Kueue\'s choice: a conflicting value is refused', () => {
    expect(synthErrors(c => {
      new TrainJob(c, 'Job', {
        metadata: { name: 'train' }, runtime: runtime(c).ref, numNodes: 2, localQueue: kueue(c, ['h100']), nodeSelector: { [GPU_LABEL]: 'a100' },
      });
    }, 'team-a')).toBe(REPORT
      + '  [test/Job] metadata.labels["kueue.x-k8s.io/queue-name"] (localQueue) is "team-a"; expected the pods of the replicated job "node" to carry the placement of flavor "h100", '
      + `the one Kueue can give them in ClusterQueue "team-a": nodeSelector ${GPU_LABEL}: "h100" in a runtime patch (or the runtime's pod template); `
      + `${DROPPED}, so without it the pods run on any node while Kueue holds that flavor's quota`);
  });

  test('a topology request on the runtime of a queued TrainJob is refused at synth', () => {
    const message = synthErrors(c => {
      const dc = new KueueTopology(c, 'Dc', { metadata: { name: 'dc' }, levels: ['example.com/rack', 'kubernetes.io/hostname'] });
      const h100 = new ResourceFlavor(c, 'h100', { metadata: { name: 'h100' }, nodeLabels: { [GPU_LABEL]: 'h100' }, topology: dc });
      const cq = new ClusterQueue(c, 'Cq', {
        metadata: { name: 'team-a' },
        resourceGroups: [{ flavors: [{ flavor: h100, quotas: gpuQuotas() }] }],
      });
      new TrainJob(c, 'Job', {
        metadata: { name: 'train' },
        runtime: runtime(c, { topology: Topology.preferred('example.com/rack') }).ref,
        numNodes: 2,
        localQueue: new LocalQueue(c, 'Queue', { metadata: { name: 'team-a' }, clusterQueue: cq }),
      });
    }, 'team-a');
    expect(message).toContain('[test/Job] metadata.labels["kueue.x-k8s.io/queue-name"] (localQueue) is "team-a"; expected no topology request on the pods of a TrainJob queued by Kueue: '
      + 'the runtime\'s replicated job "node" asks kueue.x-k8s.io/podset-preferred-topology "example.com/rack"');
  });

  test('the placement looks the app\'s Kueue objects up once per synth: tree walks do not grow with the number of queued jobs', () => {
    // Each queued TrainJob walked the whole tree when it rendered, which made a synth quadratic
    // (1,000 jobs of the bench: 3.6 s instead of 0.8 s).
    const walksOf = (jobs: number) => {
      const app = Testing.app();
      const c = new Chart(app, 'test', { namespace: 'team-a' });
      const queue = kueue(c, ['h100']);
      const rt = runtime(c, { nodeSelector: { [GPU_LABEL]: 'h100' } });
      for (let i = 0; i < jobs; i++) new TrainJob(c, `Job${i}`, { metadata: { name: `train-${i}` }, runtime: rt.ref, numNodes: 2, localQueue: queue });
      const findAll = jest.spyOn(app.node, 'findAll');
      app.synth();
      const walks = findAll.mock.calls.length;
      findAll.mockRestore();
      return walks;
    };
    const one = walksOf(1);
    expect(one).toBeGreaterThan(0);
    expect(walksOf(12)).toBe(one);
  });

  test('a built-in runtime: the patch keeps the accelerator toleration the job writes for it, and adds the flavor\'s placement', () => {
    const app = Testing.app();
    const c = new Chart(app, 'test', { namespace: 'team-a' });
    new TrainJob(c, 'Job', {
      metadata: { name: 'train' },
      runtime: TrainingRuntimeRef.cluster('torch-distributed'),
      numNodes: 2,
      resourcesPerNode: { accelerator: Accelerator.nvidia(8) },
      localQueue: kueue(c, ['h100']),
    });
    const docs = Testing.synth(c);
    expectValidManifests(docs);
    const pod = docs.find(d => d.kind === 'TrainJob').spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec;
    expect(pod).toEqual({
      nodeSelector: { [GPU_LABEL]: 'h100' },
      tolerations: [{ key: GPU, operator: 'Exists', effect: 'NoSchedule' }, { key: GPU_LABEL, operator: 'Equal', value: 'h100', effect: 'NoSchedule' }],
    });
  });
});
