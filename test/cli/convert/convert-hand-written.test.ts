/**
 * `convert` on jobs written by hand as a user would (test/cli/fixtures/hand-written: a PyTorchJob of
 * a Master and three workers with eight GPUs each, shared memory in Gi, the accelerator's toleration
 * left out, Istio opted out; a TFJob of a parameter server and four GPU workers, restartPolicy
 * OnFailure; an MPIJob of a launcher and two GPU workers; an XGBoostJob of a master and three
 * workers): each is said by its L2 construct, the module synthesizes the same job (after
 * upstream's defaulting, as the round-trip test compares), and the comment beside the job names
 * what the construct writes that the input left to upstream's defaulting.
 */
import * as path from 'path';
import { synthesizeModule } from './convert-harness';
import { readDocuments } from '../../../src/cli/base/input';
import { convert } from '../../../src/cli/convert/convert';
import { differences, normalised } from '../../../src/cli/convert/convert-typed';
import { withUpstreamDefaults } from '../../../src/cli/convert/convert-v1-defaults';

const FIXTURES = path.join(path.dirname(__dirname), 'fixtures', 'hand-written');
const convertFile = (file: string) => {
  const docs = readDocuments([path.join(FIXTURES, file)]);
  return { expected: docs.map(d => normalised(d.doc)), conversion: convert(docs) };
};

test.each([
  ['pytorchjob.yaml', 'kubeflow.org/v1 PyTorchJob', 'DistributedPyTorch'],
  ['tfjob.yaml', 'kubeflow.org/v1 TFJob', 'ParameterServerTF'],
  ['mpijob.yaml', 'kubeflow.org/v1 MPIJob', 'MpiAllReduce'],
  ['xgboostjob.yaml', 'kubeflow.org/v1 XGBoostJob', 'DistributedXGBoost'],
])('%s converts to its L2 construct and synthesizes the same job', (file, kind, construct) => {
  const { expected, conversion } = convertFile(file);
  expect(conversion.tiers).toEqual([{ kind, tier: 'l2+patch', objects: 1 }]);
  expect(conversion.code).toContain(`new ${construct}(`);
  const objects = synthesizeModule(conversion.code);
  expect(objects.map(withUpstreamDefaults)).toStrictEqual(expected.map(withUpstreamDefaults));
  // Before the defaulting, they differ where the comment says, but for an empty pod template
  // metadata and a quantity written as a number that the construct writes as a string.
  const comment = /\/\/ Upstream's defaulting[\s\S]*?\n(?! *\/\/)/.exec(conversion.code)![0].replace(/\n *\/\/ ?/g, ' ');
  const valueAt = (o: any, at: string[]) => at.reduce((v, k) => v?.[k], o);
  const unremarked = (at: string[]) => at[at.length - 1] === 'metadata' || String(valueAt(expected[0], at)) === String(valueAt(objects[0], at));
  for (const at of differences(expected[0], objects[0]).filter(a => !unremarked(a))) {
    expect({ at: at.join('/'), named: comment.includes(at.slice(at[1].endsWith('ReplicaSpecs') ? 3 : 0).join('.')) })
      .toEqual({ at: at.join('/'), named: true });
  }
});

test('the PyTorchJob: 57 lines by its L2 (160 by its L1 before), its shared memory and patches as a reviewer reads them', () => {
  const { code } = convertFile('pytorchjob.yaml').conversion;
  expect(code.split('\n').length).toBe(57);
  expect(code).toContain('    sharedMemory: Size.gibibytes(64),\n');
  expect(code).toContain('// template.spec.volumes.0.emptyDir.sizeLimit: 65536Mi (written 64Gi) in Master and Worker.');
  expect(code).toContain('synthesized YAML has them where the input has not: spec.nprocPerNode: auto;');
  expect(code.match(/JsonPatch\.remove/g)!.length).toBe(6);
});
