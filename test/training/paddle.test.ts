import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import collective from '../../examples/paddle-collective';
import parameterServer from '../../examples/paddle-parameter-server';
import { Accelerator, DistributedPaddle, DistributedPaddleProps, PaddleMode, RestartPolicy } from '../../src';
import { expectDeterministic, expectValidManifests, REPORT, synthErrors, synthKind } from '../harness';
import { INJECTED_ENV, PORT_NUMBER, WHOLE_NUMBER_0_OR_MORE, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';

const IMAGE = 'registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-cpu';

/** Synthesizes twice (asserting identical bytes), validates strictly, returns the PaddleJob. */
function synthJob(props: Partial<DistributedPaddleProps> = {}, after?: (job: DistributedPaddle, chart: Chart) => void): any {
  return synthKind('PaddleJob', chart => {
    const job = new DistributedPaddle(chart, 'job', { metadata: { name: 'ctr' }, image: IMAGE, ...props });
    after?.(job, chart);
  });
}


describe('the examples', () => {
  test('examples/paddle-collective.ts: two GPU workers, no Master', () => {
    const docs = expectDeterministic(collective);
    expect(expectValidManifests(docs)).toBe(1);
    expect(Object.keys(docs[0].spec.paddleReplicaSpecs)).toEqual(['Worker']);
  });

  test('examples/paddle-parameter-server.ts: two parameter servers as Master, four workers', () => {
    const docs = expectDeterministic(parameterServer);
    expect(expectValidManifests(docs)).toBe(1);
    const specs = docs[0].spec.paddleReplicaSpecs;
    expect(Object.keys(specs)).toEqual(['Master', 'Worker']);
    expect(specs.Master.replicas).toBe(2);
    expect(specs.Worker.replicas).toBe(4);
  });
});

describe('collective mode', () => {
  test('defaults: one worker, no Master, container paddle, port 36543 named master, restart OnFailure', () => {
    const job = synthJob();
    expect(job.apiVersion).toBe('kubeflow.org/v1');
    expect(Object.keys(job.spec.paddleReplicaSpecs)).toEqual(['Worker']);
    const worker = job.spec.paddleReplicaSpecs.Worker;
    expect(worker.replicas).toBe(1);
    expect(worker.restartPolicy).toBe('OnFailure');
    expect(worker.template.spec.containers[0].name).toBe('paddle');
    expect(worker.template.spec.containers[0].ports).toEqual([{ containerPort: 36543, name: 'master' }]);
    expect(worker.template.metadata.annotations).toEqual({ 'sidecar.istio.io/inject': 'false' });
    expect(job.spec.elasticPolicy).toBeUndefined();
  });

  test('GPUs as limits with equal requests, shared memory, and a custom port', () => {
    const job = synthJob({
      workers: 2,
      port: 37777,
      resources: { accelerator: Accelerator.nvidia(2) },
      sharedMemory: Size.gibibytes(2),
    });
    const pod = job.spec.paddleReplicaSpecs.Worker.template.spec;
    expect(pod.containers[0].ports).toEqual([{ containerPort: 37777, name: 'master' }]);
    expect(pod.containers[0].resources).toEqual({ limits: { 'nvidia.com/gpu': 2 }, requests: { 'nvidia.com/gpu': 2 } });
    expect(pod.containers[0].volumeMounts).toEqual([{ mountPath: '/dev/shm', name: 'dshm' }]);
    expect(pod.volumes).toEqual([{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '2048Mi' } }]);
    expect(pod.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('the mode is exposed, and derived when not given', () => {
    const chart = new Chart(Testing.app(), 'test');
    expect(new DistributedPaddle(chart, 'a', { image: IMAGE }).mode).toBe(PaddleMode.COLLECTIVE);
    expect(new DistributedPaddle(chart, 'b', { image: IMAGE, parameterServers: 1 }).mode).toBe(PaddleMode.PARAMETER_SERVER);
    expect(new DistributedPaddle(chart, 'c', { image: IMAGE, parameterServer: {} }).mode).toBe(PaddleMode.PARAMETER_SERVER);
    const d = new DistributedPaddle(chart, 'd', { image: IMAGE, mode: PaddleMode.PARAMETER_SERVER });
    expect(d.parameterServer?.replicas).toBe(1);
    expect(d.worker.replicas).toBe(1);
    expect(new DistributedPaddle(chart, 'e', { image: IMAGE }).parameterServer).toBeUndefined();
  });

  test('an elastic policy with bounds, restarts and metrics', () => {
    const job = synthJob({
      workers: 2,
      elastic: {
        minWorkers: 1,
        maxWorkers: 4,
        maxRestarts: 3,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      },
    });
    expect(job.spec.elasticPolicy).toEqual({
      minReplicas: 1,
      maxReplicas: 4,
      maxRestarts: 3,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
    expect(synthJob({ elastic: { minWorkers: 1, maxWorkers: 1 } }).spec.elasticPolicy).toEqual({ minReplicas: 1, maxReplicas: 1 });
  });
});

describe('parameter-server mode', () => {
  test('parameter servers are the Master replica type, with their own options', () => {
    const job = synthJob({
      mode: PaddleMode.PARAMETER_SERVER,
      parameterServers: 2,
      workers: 3,
      resources: { cpu: kplus.Cpu.units(2) },
      parameterServer: { resources: { memory: Size.gibibytes(16) }, restartPolicy: RestartPolicy.NEVER },
      worker: { args: ['--trainer'] },
    });
    const { Master, Worker } = job.spec.paddleReplicaSpecs;
    expect(Master.replicas).toBe(2);
    expect(Master.restartPolicy).toBe('Never');
    expect(Master.template.spec.containers[0].name).toBe('paddle');
    expect(Master.template.spec.containers[0].ports).toEqual([{ containerPort: 36543, name: 'master' }]);
    expect(Master.template.spec.containers[0].resources.limits).toEqual({ memory: '16Gi' });
    expect(Master.template.spec.containers[0].args).toBeUndefined();
    expect(Worker.replicas).toBe(3);
    expect(Worker.restartPolicy).toBe('OnFailure');
    expect(Worker.template.spec.containers[0].resources.limits).toEqual({ cpu: '2' });
    expect(Worker.template.spec.containers[0].args).toEqual(['--trainer']);
  });

  test('mounts added after construction land in both roles', () => {
    const job = synthJob({ parameterServers: 1, workers: 2 }, (j, chart) => {
      const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Data', 'criteo');
      j.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'DataVolume', claim, { readOnly: true }), { readOnly: true });
    });
    for (const role of ['Master', 'Worker']) {
      expect(job.spec.paddleReplicaSpecs[role].template.spec.containers[0].volumeMounts).toEqual([{ mountPath: '/data', name: 'pvc-criteo', readOnly: true }]);
    }
  });
});

describe('validation', () => {
  const chart = () => new Chart(Testing.app(), 'test');

  test('counts and ports that can never be right fail at once', () => {
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, workers: 0 }))
      .toThrow(new Error(`test/job: workers is 0; ${WHOLE_NUMBER_1_OR_MORE}`));
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, parameterServers: 0 }))
      .toThrow(new Error(`test/job: parameterServers is 0; ${WHOLE_NUMBER_1_OR_MORE}`));
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, port: 65536 }))
      .toThrow(new Error(`test/job: port is 65536; ${PORT_NUMBER}`));
  });

  test('parameter-server settings in collective mode fail at once', () => {
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, mode: PaddleMode.COLLECTIVE, parameterServers: 2 }))
      .toThrow(new Error('test/job: parameterServers is 2; expected none in collective mode; use mode PaddleMode.PARAMETER_SERVER for a job with parameter servers'));
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, mode: PaddleMode.COLLECTIVE, parameterServer: { image: 'x' } }))
      .toThrow(new Error('test/job: parameterServer is "set"; expected no parameter-server options in collective mode; use mode PaddleMode.PARAMETER_SERVER for a job with parameter servers'));
  });

  test('elastic bounds: min at most max, each at least 1', () => {
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, elastic: { minWorkers: 4, maxWorkers: 2 } }))
      .toThrow(new Error('test/job: elastic.minWorkers is 4; expected at most elastic.maxWorkers (2)'));
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, elastic: { minWorkers: 0, maxWorkers: 2 } }))
      .toThrow(new Error(`test/job: elastic.minWorkers is 0; ${WHOLE_NUMBER_1_OR_MORE}`));
    expect(() => new DistributedPaddle(chart(), 'job', { image: IMAGE, elastic: { minWorkers: 1, maxWorkers: 2, maxRestarts: -1 } }))
      .toThrow(new Error(`test/job: elastic.maxRestarts is -1; ${WHOLE_NUMBER_0_OR_MORE}`));
  });

  test('a worker count outside the elastic bounds fails at once, also when scaled', () => {
    expect(() => new DistributedPaddle(chart(), 'job', { metadata: { name: 'ctr' }, image: IMAGE, workers: 5, elastic: { minWorkers: 1, maxWorkers: 4 } }))
      .toThrow(new Error('test/job: workers is 5; expected a count between elastic.minWorkers (1) and elastic.maxWorkers (4)'));
    const job = new DistributedPaddle(chart(), 'job', { metadata: { name: 'ctr' }, image: IMAGE, workers: 2, elastic: { minWorkers: 1, maxWorkers: 4 } });
    expect(() => job.worker.scale(5)).toThrow(new Error('test/job/Worker: replicas is 5; expected a count between elastic.minWorkers (1) and elastic.maxWorkers (4)'));
    job.worker.scale(4);
  });

  test('roles cannot be scaled to zero', () => {
    expect(() => new DistributedPaddle(chart(), 'job', { metadata: { name: 'ctr' }, image: IMAGE }).worker.scale(0))
      .toThrow(new Error('test/job/Worker: replicas is 0; expected at least 1; a PaddleJob needs a trainer, and in collective mode worker 0 is the rendezvous endpoint'));
    expect(() => new DistributedPaddle(chart(), 'job', { metadata: { name: 'ctr' }, image: IMAGE, parameterServers: 1 }).parameterServer!.scale(0))
      .toThrow(new Error('test/job/Master: replicas is 0; expected at least 1 in parameter-server mode; parameter server 0 is the rendezvous endpoint'));
  });

  test('variables the operator injects are rejected', () => {
    for (const name of ['PADDLE_MASTER', 'PADDLE_NNODES', 'PADDLE_JOB_ID', 'PADDLE_SERVER_NUM', 'PADDLE_TRAINER_NUM', 'POD_IP_DUMMY']) {
      expect(synthErrors(c => new DistributedPaddle(c, 'job', { metadata: { name: 'ctr' }, image: IMAGE }).worker.addEnv(name, kplus.EnvValue.fromValue('1'))))
        .toBe(`${REPORT}  [test/job] spec.paddleReplicaSpecs.Worker.template.spec.containers[paddle].env[${name}] is {"name":"${name}","value":"1"}; ${INJECTED_ENV}`);
    }
    expect(synthErrors(c => new DistributedPaddle(c, 'job', {
      metadata: { name: 'ctr' }, image: IMAGE, parameterServers: 1, parameterServer: { env: { PADDLE_SERVER_NUM: kplus.EnvValue.fromValue('2') } },
    }))).toBe(`${REPORT}  [test/job] spec.paddleReplicaSpecs.Master.template.spec.containers[paddle].env[PADDLE_SERVER_NUM] (parameterServer.env) is {"name":"PADDLE_SERVER_NUM","value":"2"}; ${INJECTED_ENV}`);
    expect(synthErrors(c => new DistributedPaddle(c, 'job', { metadata: { name: 'ctr' }, image: IMAGE, env: { PADDLE_TRAINER_ID: kplus.EnvValue.fromValue('0') } }))).toBeUndefined();
  });

  test('the pod-name length check counts the elastic maximum', () => {
    const name = 'x'.repeat(54);
    expect(synthErrors(c => new DistributedPaddle(c, 'job', { metadata: { name }, image: IMAGE, workers: 2, elastic: { minWorkers: 1, maxWorkers: 100 } })))
      .toBe(`${REPORT}  [test/job] metadata.name is "${name}"; expected a name of at most 53 characters, so that the pod and service name "${name}-worker-99" fits in 63`);
  });
});
