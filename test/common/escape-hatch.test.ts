/**
 * Escape hatches: a JSON patch on a construct's L1 applies to the final manifest (after the typed
 * serializer), and the patched manifest is validated strictly against the pinned CRD at synth. A
 * field the CRD lacks fails with a message that says how to allow it; allowed, it is written.
 */
import { Chart, JsonPatch } from 'cdk8s';
import { DistributedPyTorch, EscapeHatch } from '../../src';
import { REPORT, expectDeterministic, synthErrors, synthKind, validateManifest } from '../harness';
import { PYTORCH_IMAGE as IMAGE } from '../harness/job-fixtures';
import { PINNED_CRD_FIELDS } from '../harness/messages';

const WORKER_SPEC = '/spec/pytorchReplicaSpecs/Worker/template/spec';

test('a field the L2 has no prop for, written with a JSON patch, reaches the manifest', () => {
  const job = synthKind('PyTorchJob', chart => {
    const j = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 2 });
    j.apiObject.addJsonPatch(JsonPatch.add(`${WORKER_SPEC}/runtimeClassName`, 'nvidia'));
    j.apiObject.addJsonPatch(JsonPatch.replace('/spec/pytorchReplicaSpecs/Worker/replicas', 4));
  });
  expect(job.spec.pytorchReplicaSpecs.Worker.template.spec.runtimeClassName).toBe('nvidia');
  expect(job.spec.pytorchReplicaSpecs.Worker.replicas).toBe(4);
});

test('a misspelt or unknown field from a patch fails at synth instead of vanishing', () => {
  expect(synthErrors(chart => {
    const j = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 1 });
    j.apiObject.addJsonPatch(JsonPatch.add(`${WORKER_SPEC}/runtimeClass`, 'nvidia'));
  })).toBe(`${REPORT}  [test/job] spec.pytorchReplicaSpecs.Worker.template.spec.runtimeClass is "nvidia"; ${PINNED_CRD_FIELDS}; `
    + 'if the field is meant (a newer operator\'s), allow it with '
    + 'EscapeHatch.allowUnknownField(apiObject, "/spec/pytorchReplicaSpecs/Worker/template/spec/runtimeClass")');
});

test('a patch that writes a wrong type fails at synth', () => {
  expect(synthErrors(chart => {
    const j = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 1 });
    j.apiObject.addJsonPatch(JsonPatch.replace('/spec/pytorchReplicaSpecs/Worker/replicas', 'four'));
  })).toContain('[test/job] spec.pytorchReplicaSpecs.Worker.replicas is "four"; expected a value of type integer');
});

test('an unknown field the user allows by its pointer is written, with everything below it', () => {
  const docs = expectDeterministic(app => {
    const j = new DistributedPyTorch(new Chart(app, 'test'), 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 1 });
    j.apiObject.addJsonPatch(JsonPatch.add('/spec/runPolicy', { futurePolicy: { mode: 'fast' } }));
    EscapeHatch.allowUnknownField(j.apiObject, '/spec/runPolicy/futurePolicy');
  });
  expect(docs[0].spec.runPolicy.futurePolicy).toEqual({ mode: 'fast' });
  // The strict schema check of the tests sees exactly the one field the user allowed.
  expect(validateManifest(docs[0]).map(e => e.split(':')[0])).toEqual(['spec.runPolicy.futurePolicy']);
});

test('an allowed pointer must be a JSON pointer', () => {
  const chartJob = (chart: any) => new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0 });
  let job: DistributedPyTorch | undefined;
  synthErrors(chart => { job = chartJob(chart); });
  expect(() => EscapeHatch.allowUnknownField(job!.apiObject, 'spec.runPolicy')).toThrow(
    new Error('test/job/Resource: pointer is "spec.runPolicy"; expected a JSON pointer such as "/spec/newField"'));
});
