/**
 * docs/config-driven.md: the template library of examples/config-driven builds its teams' jobs from
 * teams.yaml; its manifests are valid and deterministic, and a config with mistakes gives one report
 * at synth: each misspelt value with its config key, the values known and the closest, beside the
 * constructs' own mistakes (a volume name used twice).
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import { teamsFromConfig } from '../../examples/config-driven/teams-library';
import { expectDeterministic, expectValidManifests } from '../harness';
import { REPORT, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';

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
  expect(worker.template.spec.containers[0].resources.limits).toEqual({ 'cpu': '16', 'memory': '64Gi', 'nvidia.com/gpu': 8 });
  expect(worker.template.spec.volumes).toContainEqual({ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '16384Mi' } }); // cdk8s-plus writes an emptyDir limit in Mi

  expect(vit.spec.elasticPolicy).toMatchObject({ minReplicas: 2, maxReplicas: 8, rdzvBackend: 'c10d' });
  expect(vit.spec.runPolicy).toEqual({ activeDeadlineSeconds: 5400, ttlSecondsAfterFinished: 86400 });
  const vitPod = vit.spec.pytorchReplicaSpecs.Worker.template.spec;
  expect(vitPod.containers[0].resources.requests.cpu).toBe('3500m');
  expect(vitPod.containers[0].volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }, { name: 'checkpoints', mountPath: '/checkpoints' }]);
  expect(vitPod.volumes).toEqual([
    { name: 'checkpoints', persistentVolumeClaim: { claimName: 'vit-checkpoints', readOnly: false } },
    { name: 'data', persistentVolumeClaim: { claimName: 'imagenet', readOnly: false } },
  ]);

  expect(bert.spec.successPolicy).toBe('AllWorkers');
  expect(bert.spec.runPolicy.ttlSecondsAfterFinished).toBe(5400);
  expect(bert.spec.tfReplicaSpecs.PS.replicas).toBe(1);
  expect(bert.spec.tfReplicaSpecs.Worker.restartPolicy).toBe('ExitCode');
  expect(bert.spec.tfReplicaSpecs.Worker.template.spec.containers[0].image).toBe('registry.example.com/ml/tf:2.16');
});

/** The one report synthesis gives for a config: every mistake, each with its config key or construct path. */
function report(config: string): string {
  const app = Testing.app();
  build(config)(app);
  try {
    app.synth();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the config was accepted');
}

/** The config with three mistakes the page shows: a CPU with a space, a misspelt policy, a volume name used twice. */
const THREE_MISTAKES = CONFIG
  .replace('cpu: 3500m', 'cpu: 3500 m')
  .replace('restartPolicy: ExitCode', 'restartPolicy: ExitCodes')
  .replace('{ name: checkpoints, claim: vit-checkpoints', '{ name: data, claim: vit-checkpoints');

/** What synthesis says of it, once. */
const THREE_MISTAKES_REPORT = REPORT
  + '  [config] teams.vision.jobs[1].cpu is "3500 m"; expected cores such as "2" or "1.5", or whole millicores such as "500m" (0 or more, at most 3 decimals of a core): did you mean "3500m"?\n'
  + '  [config] teams.nlp.jobs[0].restartPolicy is "ExitCodes"; expected "Always", "OnFailure", "Never" or "ExitCode", the values training-operator v1.9.4 knows '
  + '(for a newer operator\'s value, use RestartPolicy.of(value) and list the value in the cdk8s context key "cdk8s-kubeflow/accept-unknown-values"): did you mean "ExitCode"?\n'
  + '  [vision/vit-elastic] volumes is "data"; expected each volume name to stand for one volume; it stands for claim "imagenet" and claim "vit-checkpoints": give one of them another name';

test('a config with three mistakes gives one report: each refused value with its config key, and the constructs\' own mistakes', () => {
  expect(THREE_MISTAKES.split('\n').filter((line, i) => line !== CONFIG.split('\n')[i])).toHaveLength(3);
  expect(report(THREE_MISTAKES)).toBe(THREE_MISTAKES_REPORT);
});

test('a decimal size names the config key and suggests the binary unit', () => {
  expect(report(CONFIG.replace('memory: 64Gi', 'memory: 64G'))).toBe(REPORT
    + '  [config] teams.vision.jobs[0].memory is "64G"; expected a number with a binary unit Ki, Mi, Gi, Ti or Pi, such as "512Mi" or "16Gi": did you mean "64Gi"?');
});

test('a bad count of GPUs names its own key', () => {
  expect(report(CONFIG.replace('gpus: 8', 'gpus: 0'))).toBe(REPORT
    + `  [config] teams.vision.jobs[0].gpus is 0; ${WHOLE_NUMBER_1_OR_MORE}`);
});

test('the page shows the three mistakes and their report as the test makes them', () => {
  const changed = THREE_MISTAKES.split('\n').filter((line, i) => line !== CONFIG.split('\n')[i]);
  for (const line of changed) expect(DOC).toContain(line.trim());
  expect(DOC).toContain(THREE_MISTAKES_REPORT);
});

test('the page shows the config and the library as they are (the library as a user imports the package)', () => {
  expect(DOC).toContain(CONFIG.trim());
  expect(DOC).toContain(LIBRARY.trim().replace("from '../../src';", "from 'cdk8s-kubeflow';"));
});
