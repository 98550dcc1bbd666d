/**
 * Each fact of a run is worked out once: a TrainJob's runtime is resolved once per synth on the
 * construct side and once per run on the document side, by the one resolver
 * (src/rules/trainer/runtime-resolver.ts), and `lint` indexes its input once for every rule across
 * documents (src/rules/document-index.ts). Counted with spies on those modules, on an app of a
 * ClusterTrainingRuntime, a TrainingRuntime, a ResourceFlavor, a ClusterQueue, a LocalQueue and
 * three TrainJobs: one on the cluster runtime's ref (queued), one naming the namespaced runtime,
 * one naming a runtime the Trainer ships.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, ClusterQueue, ClusterTrainingRuntime, LocalQueue, MlPolicy, ResourceFlavor, ResourceQuota, TrainJob, TrainingRuntime,
  TrainingRuntimeRef,
} from '../../src';
import * as podSets from '../../src/rules/kueue/capacity-podsets';
import * as queues from '../../src/rules/kueue/capacity-queues';
import * as resolver from '../../src/rules/trainer/runtime-resolver';
import { addRenderStep } from '../../src/synth/render-hook';
import { runCli } from '../cli/run-cli';

function app() {
  const a = Testing.app();
  const c = new Chart(a, 'team', { namespace: 'team' });
  const flavor = new ResourceFlavor(c, 'h100', { metadata: { name: 'h100' }, nodeLabels: { 'example.com/gpu': 'h100' } });
  const cq = new ClusterQueue(c, 'Cq', {
    metadata: { name: 'team-a' },
    resourceGroups: [{
      flavors: [{
        flavor,
        quotas: [
          ResourceQuota.cpu(kplus.Cpu.units(512)), ResourceQuota.memory(Size.gibibytes(4096)), ResourceQuota.accelerator(Accelerator.nvidia(64)),
        ],
      }],
    }],
  });
  const queue = new LocalQueue(c, 'Queue', { metadata: { name: 'team-a' }, clusterQueue: cq });
  const cluster = new ClusterTrainingRuntime(c, 'Cluster', {
    metadata: { name: 'torch-8gpu' },
    mlPolicy: MlPolicy.torch(),
    image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(64), memory: Size.gibibytes(512) },
  });
  new TrainingRuntime(c, 'Local', { metadata: { name: 'torch-local' }, mlPolicy: MlPolicy.torch(), image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime' });
  new TrainJob(c, 'Queued', { metadata: { name: 'queued' }, runtime: cluster.ref, numNodes: 2, localQueue: queue });
  new TrainJob(c, 'ByName', { metadata: { name: 'by-name' }, runtime: TrainingRuntimeRef.namespaced('torch-local') });
  new TrainJob(c, 'Shipped', { metadata: { name: 'shipped' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), resourcesPerNode: { accelerator: Accelerator.nvidia(2) } });
  return a;
}

/** The reference each call resolved, as `Kind namespace/name`. */
const resolved = (spy: jest.SpyInstance) => spy.mock.calls.map(([ref]) => ref.key).sort();

afterEach(() => jest.restoreAllMocks());

test('one synth resolves each TrainJob\'s runtime once on each side: none for the job given the runtime\'s ref', () => {
  const a = app();
  const resolve = jest.spyOn(resolver, 'resolveRuntime');
  a.synth();
  // The document side resolves every TrainJob once; the construct side the two that name their
  // runtime by string, once each (torch-distributed and torch-local appear once per side).
  expect(resolved(resolve)).toEqual([
    'ClusterTrainingRuntime torch-8gpu',
    'ClusterTrainingRuntime torch-distributed',
    'ClusterTrainingRuntime torch-distributed',
    'TrainingRuntime team/torch-local',
    'TrainingRuntime team/torch-local',
  ]);
});

test('lint indexes its input once for all the rules across documents, and resolves each TrainJob\'s runtime once', () => {
  const a = app();
  a.synth();
  const files = fs.readdirSync(a.outdir).map(f => path.join(a.outdir, f));
  const resolve = jest.spyOn(resolver, 'resolveRuntime');
  const queueIndex = jest.spyOn(queues, 'queueIndex');
  const runtimeIndex = jest.spyOn(podSets, 'runtimeIndex');
  expect(runCli(['lint', ...files])).toEqual({ status: 0, stdout: '8 documents checked; no findings\n', stderr: '' });
  expect(queueIndex).toHaveBeenCalledTimes(1);
  expect(runtimeIndex).toHaveBeenCalledTimes(1);
  expect(resolved(resolve)).toEqual(['ClusterTrainingRuntime torch-8gpu', 'ClusterTrainingRuntime torch-distributed', 'TrainingRuntime team/torch-local']);
});

test('plan resolves each TrainJob\'s runtime once for its job table and its quota view', () => {
  const a = app();
  a.synth();
  const files = fs.readdirSync(a.outdir).map(f => path.join(a.outdir, f));
  const resolve = jest.spyOn(resolver, 'resolveRuntime');
  expect(runCli(['plan', ...files]).status).toBe(0);
  expect(resolved(resolve)).toEqual(['ClusterTrainingRuntime torch-8gpu', 'ClusterTrainingRuntime torch-distributed', 'TrainingRuntime team/torch-local']);
});

test('a queued TrainJob reads its runtime\'s document of the synth: the runtime is rendered once, though the job\'s patch needs its pods', () => {
  const a = app();
  const runtime = a.node.findAll().find((c): c is ClusterTrainingRuntime => c instanceof ClusterTrainingRuntime)!;
  let renders = 0;
  addRenderStep(runtime.apiObject, json => {
    renders++;
    return json;
  });
  a.synth();
  expect(renders).toBe(1);
});
