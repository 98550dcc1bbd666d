/**
 * `convert` gives each object the findings lint reports on its own document (matched by the
 * document and the rule id, never by the message or by the object's names): two objects of one
 * kind, name and namespace in one file each name their own finding.
 */
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../run-cli';

const JOB = fs.readFileSync(path.join(path.dirname(__dirname), 'fixtures', 'small-pytorchjob.yaml'), 'utf8');
const LABELLED = JOB.replace('  name: train\n', '  name: train\n  labels:\n    team: "no spaces allowed"\n');

test('each of two objects of the same kind, name and namespace is refused for its own finding', () => {
  const result = runCli(['convert', '-'], `${LABELLED}---\n${JOB}`);
  expect(result.status).toBe(0);
  expect(result.stdout.split('\n').filter(l => l.trimStart().startsWith('//')).map(l => l.trim())).toEqual([
    '// <stdin>',
    '// The DistributedPyTorch construct would refuse it at synth (metadata.labels.team is "no spaces allowed"; expected a',
    '// label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit);',
    '// its typed L1 class says it.',
    '// The DistributedPyTorch construct would refuse it at synth (metadata.name is "train"; expected a name no other',
    '// PyTorchJob in namespace "ml" has (<stdin>:1 is also PyTorchJob "train", and one would replace the other)); its',
    '// typed L1 class says it.',
  ]);
});

test('the finding that v1beta1 is not served is not one a construct refuses: convert writes v1beta2', () => {
  const flavor = 'apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: default\n';
  expect(runCli(['lint', '-'], flavor).status).toBe(1);
  const result = runCli(['convert', '-'], flavor);
  expect([result.status, result.stdout.includes('new ResourceFlavor(stdinChart, \'resourceflavor-default\'')]).toEqual([0, true]);
});
