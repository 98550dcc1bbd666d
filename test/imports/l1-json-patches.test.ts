/**
 * JSON patches on a generated L1 apply to the manifest as written: after the typed serializer, with
 * the field names of the schema. cdk8s's ApiObject applies them to the resolved props instead,
 * before the serializer, which dropped every field the pinned types lack, so a patch adding one
 * vanished without a word (issue 12).
 */
import { App, Chart, JsonPatch, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { DistributedPyTorch, kubeflow } from '../../src';
import { validateManifest } from '../harness';

function pytorchJob(chart: Chart): kubeflow.PyTorchJob {
  return new kubeflow.PyTorchJob(chart, 'job', {
    metadata: { name: 'train' },
    spec: {
      runPolicy: { cleanPodPolicy: 'None', backoffLimit: 2 },
      pytorchReplicaSpecs: {
        Master: {
          replicas: 1,
          restartPolicy: 'OnFailure',
          template: { spec: { containers: [{ name: 'pytorch', image: 'trainer:1' }] } },
        },
        Worker: {
          replicas: 2,
          restartPolicy: 'OnFailure',
          template: { spec: { containers: [{ name: 'pytorch', image: 'trainer:1', resources: { limits: { cpu: k8s.Quantity.fromString('2') } } }] } },
        },
      },
    },
  });
}

test('a patch adds a known field, replaces one, removes one and adds an unknown one: all four are in the manifest', () => {
  const chart = new Chart(Testing.app(), 'test');
  const job = pytorchJob(chart);
  job.addJsonPatch(
    JsonPatch.add('/spec/runPolicy/activeDeadlineSeconds', 600),
    JsonPatch.replace('/spec/pytorchReplicaSpecs/Worker/replicas', 4),
    JsonPatch.remove('/spec/runPolicy/cleanPodPolicy'),
    JsonPatch.add('/spec/pytorchReplicaSpecs/Worker/template/spec/runtimeClassNameX', 'nvidia'),
  );
  // The document as written: synth refuses it (below).
  const doc = job.toJson();
  expect(doc.spec.runPolicy).toEqual({ backoffLimit: 2, activeDeadlineSeconds: 600 });
  expect(doc.spec.pytorchReplicaSpecs.Worker.replicas).toBe(4);
  expect(doc.spec.pytorchReplicaSpecs.Worker.template.spec.runtimeClassNameX).toBe('nvidia');
  // A replaced field keeps its place; added ones come last in their object.
  expect(Object.keys(doc.spec.pytorchReplicaSpecs.Worker)).toEqual(['replicas', 'restartPolicy', 'template']);
  expect(Object.keys(doc.spec.pytorchReplicaSpecs.Worker.template.spec)).toEqual(['containers', 'runtimeClassNameX']);
  // The unknown field survives to the strict schema check, which names it.
  expect(validateManifest(doc)).toEqual(['spec.pytorchReplicaSpecs.Worker.template.spec.runtimeClassNameX: unknown field']);
  // An L1 a program constructs is checked at synth as `lint` checks its document (src/synth/l1-documents.ts).
  expect(() => Testing.synth(chart)).toThrow('[test/job] spec.pytorchReplicaSpecs.Worker.template.spec.runtimeClassNameX is "nvidia"; expected only fields the pinned CRD declares (did you mean "runtimeClassName"?); if the field is meant (a newer operator\'s), allow it with EscapeHatch.allowUnknownField(apiObject, "/spec/pytorchReplicaSpecs/Worker/template/spec/runtimeClassNameX")');
});

test('patch paths use the field names of the schema, not the property names of the typed props', () => {
  const chart = new Chart(Testing.app(), 'test');
  const job = pytorchJob(chart);
  // The props call it hostIpc; the manifest, and therefore the patch, hostIPC.
  job.addJsonPatch(JsonPatch.add('/spec/pytorchReplicaSpecs/Worker/template/spec/hostIPC', true));
  const [doc] = Testing.synth(chart);
  expect(doc.spec.pytorchReplicaSpecs.Worker.template.spec.hostIPC).toBe(true);
  expect(validateManifest(doc)).toEqual([]);
});

test('without patches the manifest is what the typed serializer writes', () => {
  const chart = new Chart(Testing.app(), 'test');
  const job = pytorchJob(chart);
  expect(job.toJson()).toEqual({
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'train' },
    spec: {
      pytorchReplicaSpecs: {
        Master: {
          replicas: 1,
          restartPolicy: 'OnFailure',
          template: { spec: { containers: [{ image: 'trainer:1', name: 'pytorch' }] } },
        },
        Worker: {
          replicas: 2,
          restartPolicy: 'OnFailure',
          template: { spec: { containers: [{ image: 'trainer:1', name: 'pytorch', resources: { limits: { cpu: '2' } } }] } },
        },
      },
      runPolicy: { backoffLimit: 2, cleanPodPolicy: 'None' },
    },
  });
});

test('a patch that cannot apply fails with the construct path', () => {
  const chart = new Chart(Testing.app(), 'test');
  const job = pytorchJob(chart);
  job.addJsonPatch(JsonPatch.add('/spec/elasticPolicy/maxReplicas', 4));
  expect(() => job.toJson()).toThrow("Failed serializing construct at path 'test/job' with name 'train': TypeError: Cannot set properties of undefined (setting 'maxReplicas')");
});

test('a patch on an L2 job\'s apiObject reaches the manifest (the L2 adds its late labels after)', () => {
  const app = new App();
  const chart = new Chart(app, 'test');
  const job = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: 'trainer:1' });
  job.apiObject.addJsonPatch(JsonPatch.add('/spec/pytorchReplicaSpecs/Master/template/spec/runtimeClassName', 'nvidia'));
  const doc = Testing.synth(chart).find(d => d.kind === 'PyTorchJob');
  expect(doc.spec.pytorchReplicaSpecs.Master.template.spec.runtimeClassName).toBe('nvidia');
});
