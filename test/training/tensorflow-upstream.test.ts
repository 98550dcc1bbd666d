/**
 * Fidelity to the upstream examples: every TFJob example of the Training Operator is written with
 * ParameterServerTF, and every leaf field of the upstream manifest must appear in the synthesized
 * one with the same value (ours may hold more, such as the Istio opt-out or the port).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { UPSTREAM_EXAMPLES } from '../../scripts/upstream/pins';
import { Accelerator, CleanPodPolicy, ParameterServerTF, RestartPolicy } from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';
import { missingLeaves, yamlFilesUnder } from '../harness/fidelity';

const UPSTREAM = path.join(UPSTREAM_EXAMPLES, 'training-operator', 'tensorflow');

const MNIST_WITH_SUMMARIES = 'ghcr.io/kubeflow/training-v1/tf-mnist-with-summaries:latest';

/** The PVC `claimName`, as the volume `volumeName` mounted at `mountPath` into every replica. */
function mountClaim(chart: Chart, job: ParameterServerTF, mountPath: string, volumeName: string, claimName: string): void {
  const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Claim', claimName);
  job.mount(mountPath, kplus.Volume.fromPersistentVolumeClaim(chart, 'Storage', claim, { name: volumeName }));
}

/**
 * Each upstream example written with the L2, as a user would write it from the manifest. Keys are
 * paths below `training-operator/tensorflow/`.
 */
const EXPRESSED: { [file: string]: (chart: Chart) => void } = {
  'dist-mnist/tf_job_mnist.yaml': chart => {
    new ParameterServerTF(chart, 'job', {
      metadata: { name: 'dist-mnist-for-e2e-test' },
      image: 'ghcr.io/kubeflow/training-v1/tf-dist-mnist-test:latest',
      chief: {},
      parameterServers: 1,
      workers: 2,
    });
  },
  'distribution_strategy/multi_worker_tfjob.yaml': chart => {
    const job = new ParameterServerTF(chart, 'job', {
      metadata: { name: 'multi-worker' },
      image: 'ghcr.io/kubeflow/training-v1/tf-multi-worker-strategy:latest',
      runPolicy: { cleanPodPolicy: CleanPodPolicy.NONE },
      workers: 2,
      resources: { accelerator: Accelerator.nvidia(1) },
    });
    mountClaim(chart, job, '/train', 'training', 'strategy-volume');
  },
  'mnist_with_summaries/tf_job_mnist.yaml': chart => {
    const job = new ParameterServerTF(chart, 'job', {
      metadata: { name: 'mnist', namespace: 'kubeflow' },
      image: MNIST_WITH_SUMMARIES,
      command: ['python', '/var/tf_mnist/mnist_with_summaries.py', '--log_dir=/train/logs', '--learning_rate=0.01', '--batch_size=150'],
      runPolicy: { cleanPodPolicy: CleanPodPolicy.NONE },
      workers: 1,
    });
    mountClaim(chart, job, '/train', 'training', 'tfevent-volume');
  },
  'simple.yaml': chart => {
    new ParameterServerTF(chart, 'job', {
      metadata: { name: 'tfjob-simple', namespace: 'kubeflow' },
      image: MNIST_WITH_SUMMARIES,
      command: ['python', '/var/tf_mnist/mnist_with_summaries.py'],
      restartPolicy: RestartPolicy.ON_FAILURE,
      workers: 2,
    });
  },
};

const upstreamFiles = () => yamlFilesUnder(UPSTREAM);

test('every upstream TFJob example has an L2 expression', () => {
  expect(upstreamFiles()).toEqual(Object.keys(EXPRESSED).sort());
});

test.each(Object.keys(EXPRESSED).sort())('%s is expressible with ParameterServerTF', file => {
  const upstream = yaml.loadAll(fs.readFileSync(path.join(UPSTREAM, file), 'utf8')).filter(d => d);
  expect(upstream).toHaveLength(1);
  const docs = expectDeterministic(app => EXPRESSED[file](new Chart(app, 'upstream')));
  expectValidManifests(docs);
  expect(docs).toHaveLength(1);
  expect(missingLeaves(upstream[0], docs[0])).toEqual([]);
});

test('a changed leaf of a TFJob is reported', () => {
  const chart = new Chart(Testing.app(), 'upstream');
  EXPRESSED['simple.yaml'](chart);
  const [doc] = Testing.synth(chart);
  const changed = JSON.parse(JSON.stringify(doc));
  changed.spec.tfReplicaSpecs.Worker.restartPolicy = 'Never';
  changed.spec.tfReplicaSpecs.Worker.template.spec.containers[0].name = 'tf';
  expect(missingLeaves(changed, doc)).toEqual([
    'spec.tfReplicaSpecs.Worker.restartPolicy: expected "Never", got "OnFailure"',
    'spec.tfReplicaSpecs.Worker.template.spec.containers[0].name: expected "tf", got "tensorflow"',
  ]);
});
