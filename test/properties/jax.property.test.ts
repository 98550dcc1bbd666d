import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import {
  applyRole, commonEffect, commonFaults, decorateJob, decorateRole, expectConstructError, FaultEffect, Ids, jobDataFor, jobInvariants,
  jobProps, Problems, roleDataFor,
  roleOptions,
  consistent,
} from './job-arbitraries';
import { DistributedJax, DistributedJaxProps } from '../../src';
import { RUNS, renderTwice, schemaErrors } from '../harness/properties';

/** What the operator sets in every container (KUBEFLOW-FACTS.md; PYTHONUNBUFFERED from the upstream controller). */
const INJECTED = /^(COORDINATOR_ADDRESS|COORDINATOR_PORT|NUM_PROCESSES|PROCESS_ID|PYTHONUNBUFFERED)$/;

/** Random valid DistributedJax configurations. */
const validConfig = fc.record({
  job: jobDataFor(INJECTED),
  workers: fc.integer({ min: 1, max: 64 }),
  workerRole: fc.option(roleDataFor(INJECTED), { nil: undefined }),
  port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  scaleWorkers: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
}).map(c => consistent(c));
type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

function build(chart: Chart, c: Config, effect?: FaultEffect): DistributedJax {
  const ids = new Ids();
  const finalWorkers = c.scaleWorkers ?? c.workers;
  let props: DistributedJaxProps = {
    ...jobProps(chart, ids, c.job, { Worker: Math.max(c.workers, finalWorkers) }, finalWorkers),
    workers: c.workers,
    worker: applyRole(effect, roleOptions(chart, ids, c.workerRole), true),
    port: c.port,
  };
  if (effect?.job) props = effect.job(props);
  const job = new DistributedJax(chart, 'job', props);
  decorateJob(job, c.job, chart, ids);
  decorateRole(job.worker, c.workerRole, chart, ids);
  if (finalWorkers !== c.workers) job.worker.scale(finalWorkers);
  effect?.after?.(job, chart);
  return job;
}

test(`${RUNS} random valid DistributedJax jobs are schema-valid, deterministic and keep the kind's invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    const docs = renderTwice(chart => build(chart, c));
    const p = new Problems();
    p.add(schemaErrors(docs));
    const job = docs.find(d => d.kind === 'JAXJob');
    const specs = job.spec.jaxReplicaSpecs;
    jobInvariants(job, p, { specsField: 'jaxReplicaSpecs', injected: INJECTED, container: 'jax' });
    // Workers only, at least one (worker 0 is the coordinator), with the coordinator port.
    p.check(Object.keys(specs).join() === 'Worker', `replica types ${Object.keys(specs).join()}`);
    p.check(specs.Worker?.replicas >= 1, `Worker replicas ${specs.Worker?.replicas}`);
    const main = specs.Worker.template.spec.containers.find((x: any) => x.name === 'jax');
    p.check(main.ports.some((x: any) => x.containerPort === (c.port ?? 6666) && x.name === 'jaxjob-port'), 'no jaxjob-port');
    expect(p.list).toEqual([]);
  }), { numRuns: RUNS });
});

/** Faults particular to JAXJob. */
const jaxFaults = fc.oneof(
  fc.record({ fault: fc.constant('port' as const), n: fc.oneof(fc.integer({ min: -100, max: 0 }), fc.integer({ min: 65536, max: 100000 }), fc.double({ min: 1.1, max: 65534, noNaN: true }).filter(x => !Number.isInteger(x)), fc.constant(Number.NaN)) }),
  fc.record({ fault: fc.constant('workers count' as const), n: fc.oneof(fc.integer({ min: -20, max: 0 }), fc.double({ min: 0.1, max: 20, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ fault: fc.constant('scale the workers to 0' as const) }),
);
type JaxFault = typeof jaxFaults extends fc.Arbitrary<infer T> ? T : never;

function jaxEffect(f: JaxFault): FaultEffect {
  switch (f.fault) {
    case 'port': return { job: p => ({ ...p, port: f.n }) };
    case 'workers count': return { job: p => ({ ...p, workers: f.n }) };
    default: return { after: job => (job as DistributedJax).worker.scale(0) };
  }
}

const INJECTED_NAMES = ['COORDINATOR_ADDRESS', 'COORDINATOR_PORT', 'NUM_PROCESSES', 'PROCESS_ID', 'PYTHONUNBUFFERED'];
const invalidConfig = fc.tuple(validConfig, fc.oneof(
  commonFaults(INJECTED_NAMES).map(f => ({ label: f.fault, effect: commonEffect(f), f })),
  jaxFaults.map(f => ({ label: f.fault, effect: jaxEffect(f), f })),
));

test(`${RUNS} random invalid DistributedJax jobs end in the construct's own error, never a manifest`, () => {
  fc.assert(fc.property(invalidConfig, ([c, { label, effect }]) => {
    expectConstructError(label, chart => { build(chart, c, effect); });
  }), { numRuns: RUNS });
});
