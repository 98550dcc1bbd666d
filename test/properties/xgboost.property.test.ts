import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import {
  applyRole, commonEffect, commonFaults, decorateJob, decorateRole, expectConstructError, FaultEffect, Ids, jobDataFor, jobInvariants,
  jobProps, Problems, roleDataFor, roleOptions,
  consistent,
} from './job-arbitraries';
import { DistributedXGBoost, DistributedXGBoostProps } from '../../src';
import { RUNS, renderTwice, schemaErrors } from '../harness/properties';

/** What the operator sets in every container (KUBEFLOW-FACTS.md; PYTHONUNBUFFERED from the upstream controller). */
const INJECTED = /^(MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|WORKER_PORT|WORKER_ADDRS|PYTHONUNBUFFERED)$/;
const role = fc.option(roleDataFor(INJECTED), { nil: undefined });

/** Random valid DistributedXGBoost configurations: single-node and distributed, with custom ports. */
const validConfig = fc.record({
  job: jobDataFor(INJECTED),
  workers: fc.integer({ min: 0, max: 32 }),
  masterRole: role,
  workerRole: role,
  port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  scaleWorkers: fc.option(fc.integer({ min: 1, max: 32 }), { nil: undefined }),
}).map(c => consistent(c));
type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

function build(chart: Chart, c: Config, effect?: FaultEffect): DistributedXGBoost {
  const ids = new Ids();
  const finalWorkers = c.workers > 0 && c.scaleWorkers !== undefined ? c.scaleWorkers : c.workers;
  let props: DistributedXGBoostProps = {
    ...jobProps(chart, ids, c.job, { Master: 1, Worker: Math.max(c.workers, finalWorkers) }, 1 + finalWorkers),
    workers: c.workers,
    master: applyRole(effect, roleOptions(chart, ids, c.masterRole), c.workers === 0),
    worker: c.workers > 0 ? applyRole(effect, roleOptions(chart, ids, c.workerRole), true) : undefined,
    port: c.port,
  };
  if (effect?.job) props = effect.job(props);
  const job = new DistributedXGBoost(chart, 'job', props);
  decorateJob(job, c.job, chart, ids);
  decorateRole(job.master, c.masterRole, chart, ids);
  decorateRole(job.worker, c.workerRole, chart, ids);
  if (job.worker && finalWorkers !== c.workers) job.worker.scale(finalWorkers);
  effect?.after?.(job, chart);
  return job;
}

test(`${RUNS} random valid DistributedXGBoost jobs are schema-valid, deterministic and keep the kind's invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    const docs = renderTwice(chart => build(chart, c));
    const p = new Problems();
    p.add(schemaErrors(docs));
    const job = docs.find(d => d.kind === 'XGBoostJob');
    const specs = job.spec.xgbReplicaSpecs;
    jobInvariants(job, p, { specsField: 'xgbReplicaSpecs', injected: INJECTED, container: 'xgboost' });
    // Exactly one Master, written with replicas: 1; workers optional.
    for (const type of Object.keys(specs)) p.check(['Master', 'Worker'].includes(type), `replica type ${type}`);
    p.check(specs.Master?.replicas === 1, `Master replicas ${specs.Master?.replicas}`);
    p.check(!specs.Worker || specs.Worker.replicas >= 1, 'a Worker spec with no replicas');
    // The port the operator reads for MASTER_PORT and WORKER_PORT is on every pod.
    for (const type of Object.keys(specs)) {
      const main = specs[type].template.spec.containers.find((x: any) => x.name === 'xgboost');
      p.check(main.ports.some((x: any) => x.containerPort === (c.port ?? 9999) && x.name === 'xgboostjob-port'), `${type} lacks xgboostjob-port`);
    }
    expect(p.list).toEqual([]);
  }), { numRuns: RUNS });
});

/** Faults particular to XGBoostJob. */
const xgbFaults = fc.oneof(
  fc.record({ fault: fc.constant('port' as const), n: fc.oneof(fc.integer({ min: -100, max: 0 }), fc.integer({ min: 65536, max: 100000 }), fc.double({ min: 1.1, max: 65534, noNaN: true }).filter(x => !Number.isInteger(x)), fc.constant(Number.NaN)) }),
  fc.record({ fault: fc.constant('workers count' as const), n: fc.oneof(fc.integer({ min: -20, max: -1 }), fc.double({ min: 0.1, max: 20, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ fault: fc.constant('scale the master' as const), n: fc.constantFrom(0, 2, 3, 8) }),
);
type XgbFault = typeof xgbFaults extends fc.Arbitrary<infer T> ? T : never;

function xgbEffect(f: XgbFault): FaultEffect {
  switch (f.fault) {
    case 'port': return { job: p => ({ ...p, port: f.n }) };
    case 'workers count': return { job: p => ({ ...p, workers: f.n }) };
    default: return { after: job => (job as DistributedXGBoost).master.scale(f.n) };
  }
}

const INJECTED_NAMES = ['MASTER_ADDR', 'MASTER_PORT', 'WORLD_SIZE', 'RANK', 'WORKER_PORT', 'WORKER_ADDRS', 'PYTHONUNBUFFERED'];
const invalidConfig = fc.tuple(validConfig, fc.oneof(
  commonFaults(INJECTED_NAMES).map(f => ({ label: f.fault, effect: commonEffect(f), f })),
  xgbFaults.map(f => ({ label: f.fault, effect: xgbEffect(f), f })),
));

test(`${RUNS} random invalid DistributedXGBoost jobs end in the construct's own error, never a manifest`, () => {
  fc.assert(fc.property(invalidConfig, ([c, { label, effect }]) => {
    expectConstructError(label, chart => { build(chart, c, effect); });
  }), { numRuns: RUNS });
});
