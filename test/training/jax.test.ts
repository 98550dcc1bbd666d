import { Chart, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import reference from '../../examples/jax-reference';
import { Accelerator, CleanPodPolicy, DistributedJax, DistributedJaxProps, PodSecurity, RestartPolicy } from '../../src';
import { expectDeterministic, expectValidManifests, REPORT, synthErrors, synthKind } from '../harness';
import { DNS_1035_LABEL, INJECTED_ENV, PORT_NUMBER, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';

const IMAGE = 'ghcr.io/kubeflow/training-v1/jaxjob-simple:latest';

/** Synthesizes twice (asserting identical bytes), validates strictly, returns the JAXJob. */
function synthJob(props: Partial<DistributedJaxProps> = {}, after?: (job: DistributedJax, chart: Chart) => void): any {
  return synthKind('JAXJob', chart => {
    const job = new DistributedJax(chart, 'job', { metadata: { name: 'mnist' }, image: IMAGE, ...props });
    after?.(job, chart);
  });
}


describe('the example', () => {
  test('examples/jax-reference.ts: two GPU workers', () => {
    const docs = expectDeterministic(reference);
    expect(expectValidManifests(docs)).toBe(1);
    expect(docs[0].kind).toBe('JAXJob');
    expect(docs[0].spec.jaxReplicaSpecs.Worker.replicas).toBe(2);
  });
});

describe('DistributedJax', () => {
  test('defaults: one worker only, container jax, port 6666 named jaxjob-port, restart Never', () => {
    const job = synthJob();
    expect(job.apiVersion).toBe('kubeflow.org/v1');
    expect(Object.keys(job.spec.jaxReplicaSpecs)).toEqual(['Worker']);
    const worker = job.spec.jaxReplicaSpecs.Worker;
    expect(worker.replicas).toBe(1);
    expect(worker.restartPolicy).toBe('Never');
    expect(worker.template.spec.containers[0].name).toBe('jax');
    // The operator fails a JAXJob whose jax container does not expose this port, so it is always written.
    expect(worker.template.spec.containers[0].ports).toEqual([{ containerPort: 6666, name: 'jaxjob-port' }]);
    expect(worker.template.metadata.annotations).toEqual({ 'sidecar.istio.io/inject': 'false' });
  });

  test('workers, port, restart policy, GPUs and run policy', () => {
    const job = synthJob({
      workers: 4,
      port: 7777,
      worker: { restartPolicy: RestartPolicy.ON_FAILURE },
      resources: { accelerator: Accelerator.nvidia(8) },
      runPolicy: { cleanPodPolicy: CleanPodPolicy.ALL, ttlAfterFinished: Duration.hours(1), backoffLimit: 2 },
    });
    const worker = job.spec.jaxReplicaSpecs.Worker;
    expect(worker.replicas).toBe(4);
    expect(worker.restartPolicy).toBe('OnFailure');
    expect(worker.template.spec.containers[0].ports).toEqual([{ containerPort: 7777, name: 'jaxjob-port' }]);
    expect(worker.template.spec.containers[0].resources).toEqual({ limits: { 'nvidia.com/gpu': 8 }, requests: { 'nvidia.com/gpu': 8 } });
    expect(job.spec.runPolicy).toEqual({ cleanPodPolicy: 'All', ttlSecondsAfterFinished: 3600, backoffLimit: 2 });
  });

  test('the restricted security preset reaches the pod and the container', () => {
    const pod = synthJob({ security: PodSecurity.RESTRICTED }).spec.jaxReplicaSpecs.Worker.template.spec;
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers[0].securityContext).toMatchObject({ runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
  });

  test('sidecars and scaling after construction land', () => {
    const job = synthJob({}, j => {
      j.worker.scale(3);
      j.worker.addContainer({ name: 'log-shipper', image: 'fluent/fluent-bit:3.0' });
    });
    const worker = job.spec.jaxReplicaSpecs.Worker;
    expect(worker.replicas).toBe(3);
    expect(worker.template.spec.containers.map((c: any) => c.name)).toEqual(['jax', 'log-shipper']);
  });

  test('the construct exposes its worker group and port', () => {
    const job = new DistributedJax(new Chart(Testing.app(), 'test'), 'job', { image: IMAGE, workers: 2 });
    expect(job.worker.replicaType).toBe('Worker');
    expect(job.worker.replicas).toBe(2);
    expect(job.port).toBe(6666);
    expect(job.replicaGroups).toEqual([job.worker]);
  });
});

describe('validation', () => {
  const chart = () => new Chart(Testing.app(), 'test');

  test('counts and ports that can never be right fail at once', () => {
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, workers: 0 }))
      .toThrow(new Error(`test/job: workers is 0; ${WHOLE_NUMBER_1_OR_MORE}`));
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, port: 1.5 }))
      .toThrow(new Error(`test/job: port is 1.5; ${PORT_NUMBER}`));
  });

  test('workers cannot be scaled to zero', () => {
    expect(() => new DistributedJax(chart(), 'job', { metadata: { name: 'mnist' }, image: IMAGE }).worker.scale(0))
      .toThrow(new Error('test/job/Worker: replicas is 0; expected at least 1; worker 0 is the JAX coordinator'));
  });

  test('variables the operator injects are rejected, also on sidecars', () => {
    for (const name of ['COORDINATOR_ADDRESS', 'COORDINATOR_PORT', 'NUM_PROCESSES', 'PROCESS_ID']) {
      expect(synthErrors(c => new DistributedJax(c, 'job', { metadata: { name: 'mnist' }, image: IMAGE, env: { [name]: kplus.EnvValue.fromValue('1') } })))
        .toBe(`${REPORT}  [test/job] spec.jaxReplicaSpecs.Worker.template.spec.containers[jax].env[${name}] (env) is {"name":"${name}","value":"1"}; ${INJECTED_ENV}`);
    }
    expect(synthErrors(c => new DistributedJax(c, 'job', { metadata: { name: 'mnist' }, image: IMAGE }).worker.addContainer({
      name: 'helper', image: 'busybox', envVariables: { PROCESS_ID: kplus.EnvValue.fromValue('0') },
    }))).toBe(`${REPORT}  [test/job] spec.jaxReplicaSpecs.Worker.template.spec.containers[helper].env[PROCESS_ID] is {"name":"PROCESS_ID","value":"0"}; ${INJECTED_ENV}`);
    expect(synthErrors(c => new DistributedJax(c, 'job', { metadata: { name: 'mnist' }, image: IMAGE, env: { XLA_FLAGS: kplus.EnvValue.fromValue('--xla_dump_to=/tmp') } }))).toBeUndefined();
  });

  test('a name that is not a DNS-1035 label is reported', () => {
    expect(synthErrors(c => new DistributedJax(c, 'job', { metadata: { name: 'MNIST' }, image: IMAGE })))
      .toBe(`${REPORT}  [test/job] metadata.name is "MNIST"; ${DNS_1035_LABEL}`);
  });
});
