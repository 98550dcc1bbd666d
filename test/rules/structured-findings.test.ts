/**
 * No logic on message text: the places that once derived or recognised a message from another
 * message's text now work on data (a reason, a schema problem, a document label). Each test pins
 * the exact output that the text-based code gave, so the change of mechanism changed no message.
 */
import { Chart, JsonPatch, Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { DistributedPyTorch, EscapeHatch, MpiAllReduce, PlatformDefaults, Topology } from '../../src';
import { runCli } from '../cli/run-cli';
import { REPORT, synthErrors } from '../harness';
import { pytorchJob } from '../harness/example-documents';
import { PINNED_CRD_FIELDS } from '../harness/messages';

const IMAGE = 'registry.example.com/train:1.0';
const BLOCK = 'cloud.provider.com/topology-block';
const WHY = 'Kueue\'s kubeflow.org/mpijob integration serves the MPI Operator\'s v2beta1 MPIJob, not the Training Operator\'s v1 MPIJob, '
  + 'so this job would run unqueued; for a queued MPI job use Trainer v2\'s MPI runtime (a TrainJob) or the MPI Operator';
const TRAIN = ['python', 'train.py'];

describe('a kind Kueue cannot queue: one reason, each message leading with what it expects', () => {
  const chart = () => new Chart(Testing.app(), 'test');

  test('queue', () => {
    expect(() => new MpiAllReduce(chart(), 'job', { metadata: { name: 'train' }, image: IMAGE, trainingCommand: TRAIN, queue: 'research' }))
      .toThrow(new Error(`test/job: queue is "research"; expected no Kueue queue: ${WHY}`));
  });

  test('workloadPriorityClass', () => {
    expect(() => new MpiAllReduce(chart(), 'job', { metadata: { name: 'train' }, image: IMAGE, trainingCommand: TRAIN, workloadPriorityClass: 'high' }))
      .toThrow(new Error(`test/job: workloadPriorityClass is "high"; expected no Kueue queue: ${WHY}`));
  });

  test('the platform default queue', () => {
    expect(synthErrors(c => {
      PlatformDefaults.set(c, { queue: 'research' });
      new MpiAllReduce(c, 'job', { metadata: { name: 'train' }, image: IMAGE, trainingCommand: TRAIN });
    })).toBe(`${REPORT}  [test/job] queue (platform default) is "research"; expected no Kueue queue: ${WHY}`);
  });

  test('a topology (once derived from the queue message by replacing its start)', () => {
    expect(synthErrors(c => new MpiAllReduce(c, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 2, worker: { topology: Topology.required(BLOCK) } })))
      .toBe(`${REPORT}  [test/job] Worker.topology is "required ${BLOCK}"; expected no Kueue topology (Kueue cannot admit this kind): ${WHY}`);
  });
});

describe('JSON patches against the strict schema: the EscapeHatch hint follows the schema problem, not the message', () => {
  const job = (c: Chart) => new DistributedPyTorch(c, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 1 });

  test('an unknown field close to a known one: the suggestion, then the hint', () => {
    expect(synthErrors(c => job(c).apiObject.addJsonPatch(JsonPatch.add('/spec/pytorchReplicaSpecs/Worker/replica', 3))))
      .toBe(`${REPORT}  [test/job] spec.pytorchReplicaSpecs.Worker.replica is 3; ${PINNED_CRD_FIELDS} (did you mean "replicas"?); `
        + 'if the field is meant (a newer operator\'s), allow it with EscapeHatch.allowUnknownField(apiObject, "/spec/pytorchReplicaSpecs/Worker/replica")');
  });

  test('a wrong type: no hint (allowing an unknown field would not help)', () => {
    expect(synthErrors(c => job(c).apiObject.addJsonPatch(JsonPatch.replace('/spec/pytorchReplicaSpecs/Worker/replicas', 'four'))))
      .toBe(`${REPORT}  [test/job] spec.pytorchReplicaSpecs.Worker.replicas is "four"; expected a value of type integer`);
  });

  test('an allowed field and everything below it: no finding', () => {
    expect(synthErrors(c => {
      const j = job(c);
      j.apiObject.addJsonPatch(JsonPatch.add('/spec/pytorchReplicaSpecs/Worker/newPolicy', { a: [1] }));
      EscapeHatch.allowUnknownField(j.apiObject, '/spec/pytorchReplicaSpecs/Worker/newPolicy');
    })).toBeUndefined();
  });
});

describe('lint: the rules across documents name the other document by its label, items of one List apart', () => {
  test('the same PyTorchJob twice in one List: the second names the first by file and line', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [pytorchJob(), pytorchJob()] };
    const result = runCli(['lint', '-'], yaml.dump(list, { lineWidth: -1 }));
    expect(result.stdout.split('\n')).toEqual([
      '<stdin>:99:7: PyTorchJob training/resnet: metadata.name is "resnet"; expected a name no other PyTorchJob in namespace "training" has '
        + '(<stdin>:1 is also PyTorchJob "resnet", and one would replace the other) [kubernetes/duplicate-object]',
      '2 documents checked; 1 finding',
      '',
    ]);
    expect(result.status).toBe(1);
  });
});
