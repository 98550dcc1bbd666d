import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import reference from '../../examples/xgboost-reference';
import { DistributedXGBoost, DistributedXGBoostProps, RestartPolicy } from '../../src';
import { expectDeterministic, expectValidManifests, synthErrors, synthKind } from '../harness';
import { INJECTED_ENV, PORT_NUMBER, REPORT, WHOLE_NUMBER_0_OR_MORE } from '../harness/messages';

const IMAGE = 'ghcr.io/kubeflow/training-v1/xgboost-dist-iris:latest';

/** Synthesizes twice (asserting identical bytes), validates strictly, returns the XGBoostJob. */
function synthJob(props: Partial<DistributedXGBoostProps> = {}, after?: (job: DistributedXGBoost, chart: Chart) => void): any {
  return synthKind('XGBoostJob', chart => {
    const job = new DistributedXGBoost(chart, 'job', { metadata: { name: 'iris' }, image: IMAGE, ...props });
    after?.(job, chart);
  });
}


describe('the example', () => {
  test('examples/xgboost-reference.ts: one Master and three workers', () => {
    const docs = expectDeterministic(reference);
    expect(expectValidManifests(docs)).toBe(1);
    const specs = docs[0].spec.xgbReplicaSpecs;
    expect(docs[0].kind).toBe('XGBoostJob');
    expect(specs.Master.replicas).toBe(1);
    expect(specs.Worker.replicas).toBe(3);
  });
});

describe('DistributedXGBoost', () => {
  test('defaults: a Master with replicas 1 and one worker, container xgboost, port 9999, restart Never', () => {
    const job = synthJob();
    expect(job.apiVersion).toBe('kubeflow.org/v1');
    const specs = job.spec.xgbReplicaSpecs;
    expect(Object.keys(specs)).toEqual(['Master', 'Worker']);
    expect(specs.Master.replicas).toBe(1);
    expect(specs.Worker.replicas).toBe(1);
    for (const role of ['Master', 'Worker']) {
      const container = specs[role].template.spec.containers[0];
      expect(specs[role].restartPolicy).toBe('Never');
      expect(container.name).toBe('xgboost');
      expect(container.image).toBe(IMAGE);
      expect(container.ports).toEqual([{ containerPort: 9999, name: 'xgboostjob-port' }]);
      expect(specs[role].template.metadata.annotations).toEqual({ 'sidecar.istio.io/inject': 'false' });
      expect(specs[role].template.spec.restartPolicy).toBeUndefined();
    }
    expect(job.spec.runPolicy).toBeUndefined();
  });

  test('workers: 0 makes a single-node job with the Master alone', () => {
    const job = synthJob({ workers: 0 });
    expect(Object.keys(job.spec.xgbReplicaSpecs)).toEqual(['Master']);
  });

  test('the port is written on every role under the name the operator looks for', () => {
    const job = synthJob({ port: 9991, workers: 2 });
    for (const role of ['Master', 'Worker']) {
      expect(job.spec.xgbReplicaSpecs[role].template.spec.containers[0].ports).toEqual([{ containerPort: 9991, name: 'xgboostjob-port' }]);
    }
  });

  test('per-role options override the job options', () => {
    const job = synthJob({
      args: ['--job_type=Train'],
      resources: { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(4) },
      master: { args: ['--job_type=Train', '--model_path=/tmp/model'] },
      worker: { restartPolicy: RestartPolicy.EXIT_CODE, resources: { cpu: kplus.Cpu.units(4) } },
    });
    const { Master, Worker } = job.spec.xgbReplicaSpecs;
    expect(Master.restartPolicy).toBe('Never');
    expect(Master.template.spec.containers[0].args).toEqual(['--job_type=Train', '--model_path=/tmp/model']);
    expect(Master.template.spec.containers[0].resources.limits).toEqual({ cpu: '2', memory: '4Gi' });
    expect(Worker.restartPolicy).toBe('ExitCode');
    expect(Worker.template.spec.containers[0].args).toEqual(['--job_type=Train']);
    expect(Worker.template.spec.containers[0].resources.limits).toEqual({ cpu: '4' });
  });

  test('mounts and environment added after construction land in both roles', () => {
    const job = synthJob({ workers: 2 }, (j, chart) => {
      const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Models', 'xgboost-models');
      j.mount('/tmp/xgboost_model', kplus.Volume.fromPersistentVolumeClaim(chart, 'ModelVolume', claim));
      j.addEnv('OBJECTIVE', kplus.EnvValue.fromValue('multi:softprob'));
      j.worker!.addNodeSelector('pool', 'cpu');
    });
    for (const role of ['Master', 'Worker']) {
      const pod = job.spec.xgbReplicaSpecs[role].template.spec;
      expect(pod.containers[0].volumeMounts).toEqual([{ mountPath: '/tmp/xgboost_model', name: 'pvc-xgboost-models' }]);
      expect(pod.volumes).toEqual([{ name: 'pvc-xgboost-models', persistentVolumeClaim: { claimName: 'xgboost-models', readOnly: false } }]);
      expect(pod.containers[0].env).toEqual([{ name: 'OBJECTIVE', value: 'multi:softprob' }]);
    }
    expect(job.spec.xgbReplicaSpecs.Worker.template.spec.nodeSelector).toEqual({ pool: 'cpu' });
    expect(job.spec.xgbReplicaSpecs.Master.template.spec.nodeSelector).toBeUndefined();
  });

  test('the construct exposes its roles and port', () => {
    const chart = new Chart(Testing.app(), 'test');
    const job = new DistributedXGBoost(chart, 'job', { image: IMAGE, workers: 3, port: 9991 });
    expect(job.master.replicaType).toBe('Master');
    expect(job.worker?.replicas).toBe(3);
    expect(job.port).toBe(9991);
    expect(job.master.mainContainer.ports).toEqual([{ number: 9991, name: 'xgboostjob-port' }]);
  });
});

describe('validation', () => {
  const chart = () => new Chart(Testing.app(), 'test');

  test('a negative or fractional worker count fails at once', () => {
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, workers: -1 }))
      .toThrow(new Error(`test/job: workers is -1; ${WHOLE_NUMBER_0_OR_MORE}`));
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, workers: 1.5 }))
      .toThrow(new Error(`test/job: workers is 1.5; ${WHOLE_NUMBER_0_OR_MORE}`));
  });

  test('a port outside 1-65535 fails at once', () => {
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, port: 0 }))
      .toThrow(new Error(`test/job: port is 0; ${PORT_NUMBER}`));
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, port: 70000 }))
      .toThrow(new Error(`test/job: port is 70000; ${PORT_NUMBER}`));
  });

  test('a job without an image fails at once', () => {
    expect(() => new DistributedXGBoost(chart(), 'job', {}))
      .toThrow(new Error('test/job/Master: image is not set; expected a container image for the main container'));
  });

  test('the Master cannot be scaled away from 1', () => {
    const job = new DistributedXGBoost(chart(), 'job', { metadata: { name: 'iris' }, image: IMAGE });
    expect(() => job.master.scale(2)).toThrow(
      new Error('test/job/Master: replicas is 2; expected exactly 1; the operator rejects an XGBoostJob whose Master does not have one replica'));
    job.master.scale(1);
  });

  test('variables the operator injects are rejected', () => {
    expect(synthErrors(c => new DistributedXGBoost(c, 'job', {
      metadata: { name: 'iris' },
      image: IMAGE,
      workers: 1,
      worker: { env: { WORKER_ADDRS: kplus.EnvValue.fromValue('a,b') } },
    }))).toBe(
      REPORT +
      `  [test/job] spec.xgbReplicaSpecs.Worker.template.spec.containers[xgboost].env[WORKER_ADDRS] (worker.env) is {"name":"WORKER_ADDRS","value":"a,b"}; ${INJECTED_ENV}`);
    for (const name of ['MASTER_ADDR', 'MASTER_PORT', 'WORLD_SIZE', 'RANK', 'WORKER_PORT']) {
      expect(synthErrors(c => new DistributedXGBoost(c, 'job', { metadata: { name: 'iris' }, image: IMAGE, workers: 0 }).master.addEnv(name, kplus.EnvValue.fromValue('1'))))
        .toBe(`${REPORT}  [test/job] spec.xgbReplicaSpecs.Master.template.spec.containers[xgboost].env[${name}] is {"name":"${name}","value":"1"}; ${INJECTED_ENV}`);
    }
    expect(synthErrors(c => new DistributedXGBoost(c, 'job', { metadata: { name: 'iris' }, image: IMAGE, env: { RANKING: kplus.EnvValue.fromValue('x') } }))).toBeUndefined();
  });

  test('a name too long for the last worker\'s pod name is reported', () => {
    const name = 'x'.repeat(54);
    expect(synthErrors(c => new DistributedXGBoost(c, 'job', { metadata: { name }, image: IMAGE, workers: 100 }))).toBe(
      REPORT +
      `  [test/job] metadata.name is "${name}"; expected a name of at most 53 characters, so that the pod and service name "${name}-worker-99" fits in 63`);
  });
});
