import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import {
  applyRole, commonEffect, commonFaults, decorateJob, decorateRole, expectConstructError, FaultEffect, Ids, jobDataFor, jobInvariants,
  jobProps, Problems, roleDataFor, roleOptions,
  consistent,
} from './job-arbitraries';
import { DistributedPaddle, DistributedPaddleProps, PaddleMode } from '../../src';
import { RUNS, renderTwice, schemaErrors } from '../harness/properties';

/** What the operator sets in every container (KUBEFLOW-FACTS.md; POD_IP_DUMMY and PYTHONUNBUFFERED from the upstream controller). */
const INJECTED = /^(PADDLE_MASTER|PADDLE_NNODES|PADDLE_JOB_ID|PADDLE_SERVER_NUM|PADDLE_TRAINER_NUM|POD_IP_DUMMY|PYTHONUNBUFFERED)$/;
const role = fc.option(roleDataFor(INJECTED), { nil: undefined });

/** Random valid DistributedPaddle configurations: collective and parameter-server, fixed and elastic. */
const validConfig = fc.record({
  job: jobDataFor(INJECTED),
  mode: fc.constantFrom('collective', 'ps', 'implicit ps', 'implicit collective'),
  parameterServers: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
  psRole: role,
  workers: fc.option(fc.integer({ min: 1, max: 32 }), { nil: undefined }),
  workerRole: role,
  port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  elastic: fc.option(fc.record({
    below: fc.integer({ min: 0, max: 8 }),
    above: fc.integer({ min: 0, max: 16 }),
    maxRestarts: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
    cpuTarget: fc.option(fc.integer({ min: 10, max: 100 }), { nil: undefined }),
  }), { nil: undefined }),
}).map(c => consistent(c));
type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

function build(chart: Chart, c: Config, effect?: FaultEffect): DistributedPaddle {
  const ids = new Ids();
  const ps = c.mode === 'ps' || c.mode === 'implicit ps';
  const workers = c.workers ?? 1;
  const servers = ps ? c.parameterServers ?? 1 : 0;
  const elastic = c.elastic && {
    minWorkers: Math.max(1, workers - c.elastic.below),
    maxWorkers: workers + c.elastic.above,
    maxRestarts: c.elastic.maxRestarts,
    metrics: c.elastic.cpuTarget ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: c.elastic.cpuTarget } } }] : undefined,
  };
  const replicas = { Master: servers, Worker: elastic ? elastic.maxWorkers : workers };
  let props: DistributedPaddleProps = {
    ...jobProps(chart, ids, c.job, replicas, servers + workers),
    // An implicit mode follows from whether parameter-server options are given.
    mode: c.mode === 'ps' ? PaddleMode.PARAMETER_SERVER : c.mode === 'collective' ? PaddleMode.COLLECTIVE : undefined,
    parameterServers: ps && (c.parameterServers !== undefined || c.mode === 'implicit ps') ? servers : undefined,
    parameterServer: ps ? applyRole(effect, roleOptions(chart, ids, c.psRole), false) : undefined,
    workers: c.workers,
    worker: applyRole(effect, roleOptions(chart, ids, c.workerRole), true),
    port: c.port,
    elastic,
  };
  if (effect?.job) props = effect.job(props);
  const job = new DistributedPaddle(chart, 'job', props);
  decorateJob(job, c.job, chart, ids);
  decorateRole(job.parameterServer, c.psRole, chart, ids);
  decorateRole(job.worker, c.workerRole, chart, ids);
  effect?.after?.(job, chart);
  return job;
}

test(`${RUNS} random valid DistributedPaddle jobs are schema-valid, deterministic and keep the kind's invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    const docs = renderTwice(chart => build(chart, c));
    const p = new Problems();
    p.add(schemaErrors(docs));
    const job = docs.find(d => d.kind === 'PaddleJob');
    const specs = job.spec.paddleReplicaSpecs;
    const elastic = job.spec.elasticPolicy;
    jobInvariants(job, p, {
      specsField: 'paddleReplicaSpecs',
      injected: INJECTED,
      container: 'paddle',
      maxReplicas: (type, n) => (type === 'Worker' && elastic ? Math.max(n, elastic.maxReplicas) : n),
    });
    for (const type of Object.keys(specs)) p.check(['Master', 'Worker'].includes(type), `replica type ${type}`);
    // The mode is the replica types: a Master (parameter servers) only in parameter-server mode.
    const ps = c.mode === 'ps' || c.mode === 'implicit ps';
    p.check((specs.Master !== undefined) === ps, `Master ${specs.Master ? 'present' : 'absent'} in ${c.mode} mode`);
    p.check(!specs.Master || specs.Master.replicas >= 1, 'a Master spec with no replicas');
    p.check(specs.Worker?.replicas >= 1, `Worker replicas ${specs.Worker?.replicas}`);
    p.check(!elastic || (elastic.minReplicas <= specs.Worker.replicas && specs.Worker.replicas <= elastic.maxReplicas), 'workers outside the elastic bounds');
    for (const type of Object.keys(specs)) {
      const main = specs[type].template.spec.containers.find((x: any) => x.name === 'paddle');
      p.check(main.ports.some((x: any) => x.containerPort === (c.port ?? 36543) && x.name === 'master'), `${type} lacks the master port`);
    }
    expect(p.list).toEqual([]);
  }), { numRuns: RUNS });
});

/** Faults particular to PaddleJob. */
const paddleFaults = fc.oneof(
  fc.record({ fault: fc.constant('port' as const), n: fc.oneof(fc.integer({ min: -100, max: 0 }), fc.integer({ min: 65536, max: 100000 }), fc.constant(Number.NaN)) }),
  fc.record({ fault: fc.constant('workers count' as const), n: fc.oneof(fc.integer({ min: -20, max: 0 }), fc.double({ min: 0.1, max: 20, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ fault: fc.constant('parameterServers count' as const), n: fc.oneof(fc.integer({ min: -20, max: 0 }), fc.double({ min: 0.1, max: 20, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ fault: fc.constant('parameter servers in collective mode' as const), options: fc.boolean() }),
  fc.record({ fault: fc.constant('elastic min above max' as const), n: fc.integer({ min: 2, max: 20 }) }),
  fc.record({ fault: fc.constant('elastic bounds' as const), field: fc.constantFrom('minWorkers', 'maxWorkers', 'maxRestarts'), n: fc.oneof(fc.integer({ min: -5, max: -1 }), fc.double({ min: 0.1, max: 9.9, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ fault: fc.constant('workers outside the elastic bounds' as const), below: fc.boolean() }),
  fc.record({ fault: fc.constant('scale a role to 0' as const), role: fc.constantFrom('worker', 'parameterServer') }),
);
type PaddleFault = typeof paddleFaults extends fc.Arbitrary<infer T> ? T : never;

function paddleEffect(f: PaddleFault): FaultEffect {
  switch (f.fault) {
    case 'port': return { job: p => ({ ...p, port: f.n }) };
    case 'workers count': return { job: p => ({ ...p, workers: f.n }) };
    case 'parameterServers count': return { job: p => ({ ...p, mode: undefined, parameterServers: f.n }) };
    case 'parameter servers in collective mode': return {
      job: p => ({ ...p, mode: PaddleMode.COLLECTIVE, ...(f.options ? { parameterServer: { image: 'x:1' } } : { parameterServers: 2 }) }),
    };
    case 'elastic min above max': return { job: p => ({ ...p, elastic: { minWorkers: f.n, maxWorkers: f.n - 1 } }) };
    case 'elastic bounds': return { job: p => ({ ...p, elastic: { minWorkers: 1, maxWorkers: 4, [f.field]: f.n } }) };
    case 'workers outside the elastic bounds': return {
      job: p => ({ ...p, workers: f.below ? 1 : 9, elastic: { minWorkers: 2, maxWorkers: 8 } }),
    };
    default: return {
      job: f.role === 'parameterServer' ? p => ({ ...p, mode: PaddleMode.PARAMETER_SERVER }) : undefined,
      after: job => (f.role === 'worker' ? (job as DistributedPaddle).worker : (job as DistributedPaddle).parameterServer!).scale(0),
    };
  }
}

const INJECTED_NAMES = ['PADDLE_MASTER', 'PADDLE_NNODES', 'PADDLE_JOB_ID', 'PADDLE_SERVER_NUM', 'PADDLE_TRAINER_NUM', 'POD_IP_DUMMY', 'PYTHONUNBUFFERED'];
const invalidConfig = fc.tuple(validConfig, fc.oneof(
  commonFaults(INJECTED_NAMES).map(f => ({ label: f.fault, effect: commonEffect(f), f })),
  paddleFaults.map(f => ({ label: f.fault, effect: paddleEffect(f), f })),
));

test(`${RUNS} random invalid DistributedPaddle jobs end in the construct's own error, never a manifest`, () => {
  fc.assert(fc.property(invalidConfig, ([c, { label, effect }]) => {
    expectConstructError(label, chart => { build(chart, c, effect); });
  }), { numRuns: RUNS });
});
