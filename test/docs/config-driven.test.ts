/**
 * docs/config-driven.md: the template library of examples/config-driven builds its teams' jobs from
 * teams.yaml; its manifests are valid and deterministic, and a misspelt value in the config is
 * refused with the config key, the values known and the closest.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import { teamsFromConfig } from '../../examples/config-driven/teams-library';
import { expectDeterministic, expectValidManifests } from '../harness';

const ROOT = path.join(__dirname, '..', '..');
const CONFIG = fs.readFileSync(path.join(ROOT, 'examples', 'config-driven', 'teams.yaml'), 'utf8');
const LIBRARY = fs.readFileSync(path.join(ROOT, 'examples', 'config-driven', 'teams-library.ts'), 'utf8');
const DOC = fs.readFileSync(path.join(ROOT, 'docs', 'config-driven.md'), 'utf8');

/** What the library makes of a config. */
const build = (config: string) => (app: App) => teamsFromConfig(app, config);

test('the config gives one job per entry, each valid against its CRD, the same bytes every run', () => {
  const docs = expectDeterministic(build(CONFIG));
  expect(expectValidManifests(docs)).toBe(3);
  expect(docs.map(d => [d.kind, d.metadata.namespace, d.metadata.name])).toEqual([
    ['TFJob', 'nlp', 'bert-ps'],
    ['PyTorchJob', 'vision', 'resnet50'],
    ['PyTorchJob', 'vision', 'vit-elastic'],
  ]);
  const [bert, resnet, vit] = docs;

  // Defaults and each entry's own values, parsed.
  expect(resnet.spec.runPolicy).toEqual({ cleanPodPolicy: 'Running', ttlSecondsAfterFinished: 86400 });
  expect(resnet.spec.nprocPerNode).toBe('gpu');
  expect(resnet.metadata.labels['kueue.x-k8s.io/queue-name']).toBe('vision');
  const worker = resnet.spec.pytorchReplicaSpecs.Worker;
  expect([worker.replicas, worker.restartPolicy]).toEqual([4, 'OnFailure']);
  expect(worker.template.spec.containers[0].resources.limits).toEqual({ 'memory': '64Gi', 'nvidia.com/gpu': 8 });
  expect(worker.template.spec.volumes).toContainEqual({ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '16384Mi' } }); // cdk8s-plus writes an emptyDir limit in Mi

  expect(vit.spec.elasticPolicy).toMatchObject({ minReplicas: 2, maxReplicas: 8, rdzvBackend: 'c10d' });
  expect(vit.spec.runPolicy).toEqual({ activeDeadlineSeconds: 5400, ttlSecondsAfterFinished: 86400 });

  expect(bert.spec.successPolicy).toBe('AllWorkers');
  expect(bert.spec.runPolicy.ttlSecondsAfterFinished).toBe(5400);
  expect(bert.spec.tfReplicaSpecs.PS.replicas).toBe(1);
  expect(bert.spec.tfReplicaSpecs.Worker.restartPolicy).toBe('ExitCode');
  expect(bert.spec.tfReplicaSpecs.Worker.template.spec.containers[0].image).toBe('registry.example.com/ml/tf:2.16');
});

test('a misspelt restart policy names the config key, the values the operator knows and the closest', () => {
  const config = CONFIG.replace('restartPolicy: ExitCode', 'restartPolicy: ExitCodes');
  expect(() => build(config)(Testing.app())).toThrow(
    'RestartPolicy.parse: teams.nlp.jobs[0].restartPolicy is "ExitCodes"; expected "Always", "OnFailure", "Never" or "ExitCode", the values training-operator v1.9.4 knows '
    + '(for a newer operator\'s value, use RestartPolicy.of(value) and list the value in the cdk8s context key "cdk8s-kubeflow/accept-unknown-values"): did you mean "ExitCode"?');
});

test('a decimal size names the config key and suggests the binary unit', () => {
  const config = CONFIG.replace('memory: 64Gi', 'memory: 64G');
  expect(() => build(config)(Testing.app())).toThrow(
    'Parse.size: teams.vision.jobs[0].memory is "64G"; expected a number with a binary unit Ki, Mi, Gi, Ti or Pi, such as "512Mi" or "16Gi": did you mean "64Gi"?');
});

test('the page shows the config and the library as they are (the library as a user imports the package)', () => {
  expect(DOC).toContain(CONFIG.trim());
  expect(DOC).toContain(LIBRARY.trim().replace("from '../../src';", "from 'cdk8s-kubeflow';"));
});
