import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { Accelerator, DistributedPyTorch, DistributedPyTorchProps, ManagedBy, NprocPerNode } from '../../src';
import {
  acceleratorMismatches, allContainers, claimMounts, dnsLabel, env, gangScheduling, isConstructError, renderTwice, resources,
  restartPolicy, RUNS, runPolicy, schemaErrors, security,
} from '../harness/properties';

const INJECTED = /^(MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|PET_.*)$/;

/** Random valid DistributedPyTorch configurations, static and elastic. */
const validConfig = fc.record({
  name: dnsLabel,
  workers: fc.integer({ min: 0, max: 32 }),
  elastic: fc.option(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 16 })), { nil: undefined }),
  resources: fc.option(resources, { nil: undefined }),
  workerResources: fc.option(resources, { nil: undefined }),
  sharedMemory: fc.option(fc.integer({ min: 64, max: 65536 }), { nil: undefined }),
  env,
  runPolicy: fc.option(runPolicy, { nil: undefined }),
  gang: fc.option(gangScheduling, { nil: undefined }),
  queue: fc.option(dnsLabel, { nil: undefined }),
  security,
  restartPolicy,
  mounts: claimMounts,
  nproc: fc.option(fc.constantFrom('auto', 'cpu', 'gpu'), { nil: undefined }),
}).map(c => {
  // One process per GPU of a worker cannot be derived when the Master has fewer: then the
  // configuration names its process count, as a user must.
  const fewer = (c.workerResources?.accelerator?.count ?? 0) > (c.resources?.accelerator?.count ?? 0);
  const nproc = fewer && c.nproc === undefined ? 'gpu' as const : c.nproc;
  // MultiKueue dispatches queued jobs only.
  const unqueued = c.runPolicy?.managedBy === ManagedBy.MULTI_KUEUE && c.queue === undefined;
  return { ...c, nproc, runPolicy: unqueued ? { ...c.runPolicy, managedBy: undefined } : c.runPolicy };
});

type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

function build(chart: Chart, c: Config): DistributedPyTorch {
  const elastic = c.elastic ? { minWorkers: c.elastic[0], maxWorkers: c.elastic[0] + c.elastic[1] } : undefined;
  const workers = elastic ? Math.max(elastic.minWorkers, Math.min(c.workers, elastic.maxWorkers)) : c.workers;
  const props: DistributedPyTorchProps = {
    metadata: { name: c.name },
    image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime',
    workers,
    elastic,
    resources: c.resources,
    worker: { resources: c.workerResources, restartPolicy: c.restartPolicy },
    sharedMemory: c.sharedMemory ? Size.mebibytes(c.sharedMemory) : undefined,
    env: c.env,
    runPolicy: c.runPolicy,
    gangScheduling: c.gang,
    queue: c.queue,
    security: c.security,
    nprocPerNode: c.nproc === 'auto' ? NprocPerNode.AUTO : c.nproc === 'cpu' ? NprocPerNode.CPU : c.nproc === 'gpu' ? NprocPerNode.GPU : undefined,
  };
  const job = new DistributedPyTorch(chart, 'job', props);
  for (const m of c.mounts) {
    const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, `claim-${m.claim}`, m.claim);
    job.mount(m.path, kplus.Volume.fromPersistentVolumeClaim(chart, `vol-${m.claim}`, claim, { readOnly: m.readOnly }), { readOnly: m.readOnly });
  }
  return job;
}

test(`${RUNS} random valid DistributedPyTorch jobs are schema-valid, deterministic and keep the kind's invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    const docs = renderTwice(chart => build(chart, c));
    const job = docs.find(d => d.kind === 'PyTorchJob');
    expect(schemaErrors(docs)).toEqual([]);
    const specs = job.spec.pytorchReplicaSpecs;
    if (c.elastic) {
      expect(specs.Master).toBeUndefined();
      expect(job.spec.elasticPolicy.minReplicas).toBeLessThanOrEqual(job.spec.elasticPolicy.maxReplicas);
    } else {
      expect(specs.Master.replicas).toBe(1);
    }
    expect(acceleratorMismatches(job)).toEqual([]);
    for (const container of allContainers(job)) {
      for (const e of container.env ?? []) expect(e.name).not.toMatch(INJECTED);
    }
    const maxWorkers = Math.max(specs.Worker?.replicas ?? 0, job.spec.elasticPolicy?.maxReplicas ?? 0);
    for (const type of Object.keys(specs)) {
      const count = type === 'Worker' ? maxWorkers : specs[type].replicas;
      expect(`${job.metadata.name}-${type.toLowerCase()}-${count - 1}`.length).toBeLessThanOrEqual(63);
    }
  }), { numRuns: RUNS });
});

/** Random invalid configurations: each must end in the construct's own error. */
const invalidConfig = fc.oneof(
  fc.record({ kind: fc.constant('negative workers'), n: fc.integer({ min: -100, max: -1 }) }),
  fc.record({ kind: fc.constant('fractional workers'), n: fc.double({ min: 0.01, max: 50, noNaN: true }).filter(x => !Number.isInteger(x)) }),
  fc.record({ kind: fc.constant('accelerator count'), n: fc.oneof(fc.integer({ min: -8, max: 0 }), fc.double({ min: 0.1, max: 7.9, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ kind: fc.constant('elastic min above max'), n: fc.integer({ min: 2, max: 20 }) }),
  fc.record({ kind: fc.constant('injected env'), n: fc.constantFrom('MASTER_ADDR', 'MASTER_PORT', 'RANK', 'WORLD_SIZE', 'PET_NNODES', 'PET_RDZV_ENDPOINT') }),
  fc.record({ kind: fc.constant('long name'), n: fc.integer({ min: 55, max: 80 }) }),
  fc.record({ kind: fc.constant('bad name'), n: fc.stringMatching(/^[A-Z_][A-Za-z0-9_.]{0,10}$/) }),
  fc.record({ kind: fc.constant('nproc above GPUs'), n: fc.integer({ min: 2, max: 8 }) }),
);

test(`${RUNS} random invalid DistributedPyTorch jobs end in the construct's own error, never a manifest`, () => {
  fc.assert(fc.property(invalidConfig, ({ kind, n }) => {
    const props = (): DistributedPyTorchProps => {
      const base = { metadata: { name: 'train' }, image: 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime' };
      switch (kind) {
        case 'negative workers':
        case 'fractional workers': return { ...base, workers: n as number };
        case 'accelerator count': return { ...base, resources: { accelerator: Accelerator.nvidia(n) } };
        case 'elastic min above max': return { ...base, elastic: { minWorkers: n as number, maxWorkers: (n as number) - 1 } };
        case 'injected env': return { ...base, env: { [n as string]: kplus.EnvValue.fromValue('x') } };
        case 'long name': return { ...base, metadata: { name: 'a'.repeat(n as number) }, workers: 10 };
        case 'bad name': return { ...base, metadata: { name: n as string } };
        default: return {
          ...base, workers: 0, nprocPerNode: NprocPerNode.of(n as number), resources: { accelerator: Accelerator.nvidia((n as number) - 1) },
        };
      }
    };
    let error: unknown;
    let docs: any[] | undefined;
    try {
      docs = renderTwice(chart => { new DistributedPyTorch(chart, 'job', props()); });
    } catch (e) {
      error = e;
    }
    expect(docs).toBeUndefined();
    expect(isConstructError(error)).toBe(true);
  }), { numRuns: RUNS });
});
