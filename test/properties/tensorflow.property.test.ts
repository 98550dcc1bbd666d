import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import {
  applyRole, commonEffect, commonFaults, decorateJob, decorateRole, expectConstructError, FaultEffect, Ids, jobDataFor, jobInvariants,
  jobProps, Problems, roleDataFor, roleOptions,
  consistent,
} from './job-arbitraries';
import { CleanPodPolicy, ParameterServerTF, ParameterServerTFProps, SuccessPolicy } from '../../src';
import { RUNS, renderTwice, schemaErrors } from '../harness/properties';

/** What the operator writes into the `tensorflow` container (KUBEFLOW-FACTS.md). */
const INJECTED = /^TF_CONFIG$/;
const TYPES = ['Chief', 'Master', 'PS', 'Worker', 'Evaluator'];
const role = fc.option(roleDataFor(INJECTED), { nil: undefined });

/** Random valid ParameterServerTF configurations: MultiWorkerMirrored, parameter-server and estimator jobs. */
const validConfig = fc.record({
  job: jobDataFor(INJECTED),
  coordinator: fc.constantFrom('none', 'chief', 'master'),
  coordinatorRole: role,
  parameterServers: fc.integer({ min: 0, max: 8 }),
  psRole: role,
  workers: fc.integer({ min: 0, max: 32 }),
  workerRole: role,
  evaluator: fc.boolean(),
  evaluatorRole: role,
  allWorkers: fc.boolean(),
  dynamicWorker: fc.option(fc.boolean(), { nil: undefined }),
  scaleWorkers: fc.option(fc.integer({ min: 1, max: 16 }), { nil: undefined }),
  port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
}).map(c => consistent(c));
type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

function build(chart: Chart, c: Config, effect?: FaultEffect): ParameterServerTF {
  const ids = new Ids();
  // Workers 0 needs a Chief or Master; fall back to one worker otherwise.
  const workers = c.workers === 0 && c.coordinator === 'none' ? 1 : c.workers;
  const finalWorkers = workers > 0 && c.scaleWorkers !== undefined ? c.scaleWorkers : workers;
  const replicas: { [type: string]: number } = {
    Chief: c.coordinator === 'chief' ? 1 : 0,
    Master: c.coordinator === 'master' ? 1 : 0,
    PS: c.parameterServers,
    Worker: Math.max(workers, finalWorkers),
    Evaluator: c.evaluator ? 1 : 0,
  };
  // The fault's role is the workers when there are any, else the Chief or Master.
  const target = workers > 0 ? 'worker' : 'coordinator';
  const coordinator = applyRole(effect, c.coordinator === 'none' ? undefined : roleOptions(chart, ids, c.coordinatorRole) ?? {}, target === 'coordinator');
  let props: ParameterServerTFProps = {
    ...jobProps(chart, ids, c.job, replicas, replicas.Chief + replicas.Master + replicas.PS + finalWorkers + replicas.Evaluator),
    chief: c.coordinator === 'chief' ? coordinator : undefined,
    master: c.coordinator === 'master' ? coordinator : undefined,
    parameterServers: c.parameterServers || undefined,
    parameterServer: c.parameterServers > 0 ? applyRole(effect, roleOptions(chart, ids, c.psRole), false) : undefined,
    workers,
    worker: workers > 0 ? applyRole(effect, roleOptions(chart, ids, c.workerRole), target === 'worker') : undefined,
    evaluator: c.evaluator ? applyRole(effect, roleOptions(chart, ids, c.evaluatorRole) ?? {}, false) : undefined,
    successPolicy: c.allWorkers && workers > 0 ? SuccessPolicy.ALL_WORKERS : undefined,
    enableDynamicWorker: c.dynamicWorker,
    port: c.port,
  };
  if (effect?.job) props = effect.job(props);
  const job = new ParameterServerTF(chart, 'job', props);
  decorateJob(job, c.job, chart, ids);
  decorateRole(job.chief ?? job.master, c.coordinatorRole, chart, ids);
  decorateRole(job.parameterServer, c.psRole, chart, ids);
  decorateRole(job.worker, c.workerRole, chart, ids);
  decorateRole(job.evaluator, c.evaluatorRole, chart, ids);
  if (job.worker && c.scaleWorkers !== undefined) job.worker.scale(c.scaleWorkers);
  effect?.after?.(job, chart);
  return job;
}

test(`${RUNS} random valid ParameterServerTF jobs are schema-valid, deterministic and keep the kind's invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    const docs = renderTwice(chart => build(chart, c));
    const p = new Problems();
    p.add(schemaErrors(docs));
    const job = docs.find(d => d.kind === 'TFJob');
    const specs = job.spec.tfReplicaSpecs;
    jobInvariants(job, p, { specsField: 'tfReplicaSpecs', injected: INJECTED, container: 'tensorflow' });
    for (const type of Object.keys(specs)) p.check(TYPES.includes(type), `replica type ${type}`);
    // Chief and Master together at most one, each with exactly one replica; one Evaluator at most.
    p.check(['Chief', 'Master'].filter(t => specs[t]).length <= 1, 'both a Chief and a Master');
    for (const type of ['Chief', 'Master', 'Evaluator']) p.check(!specs[type] || specs[type].replicas === 1, `${type} replicas ${specs[type]?.replicas}`);
    // Someone decides success: the Chief or Master, else worker 0.
    p.check(specs.Chief || specs.Master || specs.Worker?.replicas >= 1, 'no Chief, Master or worker 0');
    p.check(job.spec.successPolicy !== 'AllWorkers' || specs.Worker?.replicas >= 1, 'AllWorkers without workers');
    for (const type of Object.keys(specs)) {
      const main = specs[type].template.spec.containers.find((x: any) => x.name === 'tensorflow');
      p.check(main.ports.some((x: any) => x.containerPort === (c.port ?? 2222) && x.name === 'tfjob-port'), `${type} lacks tfjob-port`);
    }
    // Lingering parameter servers and evaluators are cleaned up unless the user chose otherwise.
    p.check(!(specs.PS || specs.Evaluator) || !!c.job.runPolicy?.cleanPodPolicy || job.spec.runPolicy.cleanPodPolicy === CleanPodPolicy.RUNNING.value, 'lingering pods not cleaned up');
    expect(p.list).toEqual([]);
  }), { numRuns: RUNS });
});

/** Faults particular to TFJob. */
const tfFaults = fc.oneof(
  fc.record({ fault: fc.constant('chief and master' as const) }),
  fc.record({ fault: fc.constant('no workers, no coordinator' as const) }),
  fc.record({ fault: fc.constant('workers count' as const), n: fc.oneof(fc.integer({ min: -20, max: -1 }), fc.double({ min: 0.1, max: 20, noNaN: true }).filter(x => !Number.isInteger(x)), fc.constant(Number.NaN)) }),
  fc.record({ fault: fc.constant('parameterServers count' as const), n: fc.oneof(fc.integer({ min: -20, max: -1 }), fc.double({ min: 0.1, max: 20, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ fault: fc.constant('worker options without workers' as const) }),
  fc.record({ fault: fc.constant('ps options without ps' as const) }),
  fc.record({ fault: fc.constant('AllWorkers without workers' as const) }),
  fc.record({ fault: fc.constant('scale a singleton' as const), role: fc.constantFrom('chief', 'master', 'evaluator'), n: fc.constantFrom(0, 2, 3) }),
  fc.record({ fault: fc.constant('scale workers to 0' as const) }),
  fc.record({ fault: fc.constant('port' as const), n: fc.oneof(fc.integer({ min: -100, max: 0 }), fc.integer({ min: 65536, max: 100000 }), fc.double({ min: 1.1, max: 65534, noNaN: true }).filter(x => !Number.isInteger(x)), fc.constant(Number.NaN)) }),
);
type TfFault = typeof tfFaults extends fc.Arbitrary<infer T> ? T : never;

function tfEffect(f: TfFault): FaultEffect {
  switch (f.fault) {
    case 'chief and master': return { job: p => ({ ...p, chief: {}, master: {} }) };
    case 'no workers, no coordinator': return { job: p => ({ ...p, chief: undefined, master: undefined, workers: 0, worker: undefined, successPolicy: undefined }) };
    case 'workers count': return { job: p => ({ ...p, workers: f.n }) };
    case 'parameterServers count': return { job: p => ({ ...p, parameterServers: f.n }) };
    case 'worker options without workers': return { job: p => ({ ...p, chief: p.chief ?? {}, master: undefined, workers: 0, worker: { image: 'x:1' }, successPolicy: undefined }) };
    case 'ps options without ps': return { job: p => ({ ...p, parameterServers: 0, parameterServer: { image: 'x:1' } }) };
    case 'AllWorkers without workers': return { job: p => ({ ...p, chief: p.chief ?? {}, master: undefined, workers: 0, worker: undefined, successPolicy: SuccessPolicy.ALL_WORKERS }) };
    case 'scale a singleton': return {
      job: p => ({ ...p, chief: f.role === 'chief' ? {} : undefined, master: f.role === 'master' ? {} : undefined, evaluator: f.role === 'evaluator' ? {} : p.evaluator }),
      after: job => { const tf = job as ParameterServerTF; (tf.chief ?? tf.master ?? tf.evaluator)!.scale(f.n); },
    };
    case 'port': return { job: p => ({ ...p, port: f.n }) };
    default: return {
      job: p => ({ ...p, chief: undefined, master: undefined, workers: Math.max(1, p.workers ?? 1), successPolicy: undefined }),
      after: job => (job as ParameterServerTF).worker!.scale(0),
    };
  }
}

const invalidConfig = fc.tuple(validConfig, fc.oneof(
  // The operator writes TF_CONFIG into the tensorflow container only (training-operator
  // pkg/controller.v1/tensorflow SetClusterSpec), so a sidecar's own TF_CONFIG is no fault.
  commonFaults(['TF_CONFIG']).filter(f => f.fault !== 'injected env' || f.how !== 'sidecar').map(f => ({ label: f.fault, effect: commonEffect(f), f })),
  tfFaults.map(f => ({ label: f.fault, effect: tfEffect(f), f })),
));

test(`${RUNS} random invalid ParameterServerTF jobs end in the construct's own error, never a manifest`, () => {
  fc.assert(fc.property(invalidConfig, ([c, { label, effect }]) => {
    expectConstructError(label, chart => { build(chart, c, effect); });
  }), { numRuns: RUNS });
});
