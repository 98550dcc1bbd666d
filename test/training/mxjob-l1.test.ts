/**
 * MXJob has no L2 (upstream removed it in v1.9); docs/constructs/xgboost-paddle-jax-mxjob.md shows
 * how to write one with the generated L1. The code between the `doc:mxjob` markers below is the
 * documented snippet, and the first test proves the document holds it verbatim, so what is shown
 * is what is tested.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { core, kubeflow } from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';

const DOC = path.join(__dirname, '..', '..', 'docs', 'constructs', 'xgboost-paddle-jax-mxjob.md');

function build(app: App): void {
  // doc:mxjob:begin
  const chart = new Chart(app, 'mxnet', { namespace: 'training' });

  /** One MXNet role's pods: the operator looks for the container `mxnet` and the port `mxjob-port`. */
  const mxnetPod = (container: Partial<core.Container> = {}): core.PodTemplateSpec => ({
    metadata: { annotations: { 'sidecar.istio.io/inject': 'false' } },
    spec: {
      automountServiceAccountToken: false,
      containers: [{
        name: 'mxnet',
        image: 'mxjob/mxnet:gpu',
        ports: [{ containerPort: 9091, name: 'mxjob-port' }],
        securityContext: { allowPrivilegeEscalation: false, privileged: false },
        ...container,
      }],
    },
  });

  new kubeflow.MxJob(chart, 'job', {
    metadata: { name: 'mxnet-job' },
    spec: {
      jobMode: 'MXTrain', // Scheduler, Server and Worker; MXTune uses TunerTracker, TunerServer and Tuner
      runPolicy: { cleanPodPolicy: 'Running', ttlSecondsAfterFinished: 3600 },
      mxReplicaSpecs: {
        Scheduler: { replicas: 1, restartPolicy: 'Never', template: mxnetPod() },
        Server: { replicas: 1, restartPolicy: 'Never', template: mxnetPod() },
        Worker: {
          replicas: 2,
          restartPolicy: 'Never',
          template: mxnetPod({
            command: ['python'],
            args: ['/incubator-mxnet/example/image-classification/train_mnist.py',
              '--num-epochs', '10', '--num-layers', '2', '--kv-store', 'dist_device_sync', '--gpus', '0'],
            // Quantities must be k8s.Quantity: the typed L1 drops plain strings and numbers.
            resources: { limits: { 'nvidia.com/gpu': k8s.Quantity.fromNumber(1) } },
          }),
        },
      },
    },
  });
  // doc:mxjob:end
}

/** The snippet between the markers, without the indentation it has inside `build`. */
function snippet(): string {
  const source = fs.readFileSync(__filename, 'utf8');
  const begin = source.indexOf('// doc:mxjob:begin\n');
  const end = source.indexOf('  // doc:mxjob:end');
  const lines = source.slice(source.indexOf('\n', begin) + 1, end).split('\n');
  return lines.map(l => l.replace(/^ {2}/, '')).join('\n').trimEnd();
}

test('the document shows exactly the code this test synthesizes', () => {
  expect(fs.readFileSync(DOC, 'utf8')).toContain(snippet());
});

test('the documented MXJob synthesizes deterministically and validates against the v1.8.1 MXJob CRD', () => {
  const docs = expectDeterministic(build);
  expect(expectValidManifests(docs)).toBe(1);
  const [job] = docs;
  expect(job.apiVersion).toBe('kubeflow.org/v1');
  expect(job.kind).toBe('MXJob');
  expect(job.metadata).toEqual({ name: 'mxnet-job', namespace: 'training' });
  expect(job.spec.jobMode).toBe('MXTrain');
  expect(job.spec.runPolicy).toEqual({ cleanPodPolicy: 'Running', ttlSecondsAfterFinished: 3600 });
  const specs = job.spec.mxReplicaSpecs;
  expect(Object.keys(specs).sort()).toEqual(['Scheduler', 'Server', 'Worker']);
  for (const role of ['Scheduler', 'Server', 'Worker']) {
    const container = specs[role].template.spec.containers[0];
    expect(container.name).toBe('mxnet');
    expect(container.ports).toEqual([{ containerPort: 9091, name: 'mxjob-port' }]);
    expect(specs[role].restartPolicy).toBe('Never');
  }
  expect(specs.Worker.replicas).toBe(2);
  // The GPU limit survived the typed serializer (a plain value would have been dropped).
  expect(specs.Worker.template.spec.containers[0].resources).toEqual({ limits: { 'nvidia.com/gpu': 1 } });
  expect(specs.Worker.template.spec.containers[0].args).toHaveLength(9);
  expect(specs.Scheduler.template.spec.containers[0].command).toBeUndefined();
});
