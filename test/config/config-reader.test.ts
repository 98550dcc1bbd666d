/**
 * ConfigReader: the parse functions, with every refused value of a config recorded (with its key)
 * instead of thrown, reported together by check() or at synth beside the constructs' own findings.
 */
import { Chart, Testing } from 'cdk8s';
import * as api from '../../src';
import { CLASSES } from '../../src/boundary/schema.generated';
import { REPORT } from '../harness';
import { DNS_1035_LABEL, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';

const IMAGE = 'registry.example.com/train:1.0';

/** The enum-like classes of the assembly (constant instances, a parse static). */
const enumLike = Object.entries(CLASSES)
  .filter(([fqn, entry]) => !fqn.includes('.') && (entry.make ?? []).some(m => !m.includes('(')))
  .map(([fqn]) => fqn);

test('the reader has a method for every parse function: Parse\'s, Accelerator.parse and each enum-like class\'s', () => {
  const methods = Object.getOwnPropertyNames(api.ConfigReader.prototype).filter(m => m !== 'constructor' && !m.startsWith('_'));
  const lower = (name: string) => name[0].toLowerCase() + name.slice(1);
  expect(enumLike.length).toBeGreaterThanOrEqual(16);
  for (const cls of enumLike) expect(methods).toContain(lower(cls));
  for (const parse of Object.keys(CLASSES.Parse.statics ?? {})) expect(methods).toContain(parse);
  expect(methods).toEqual(expect.arrayContaining(['accelerator', 'check', 'cpu', 'count', 'size', 'duration']));
});

test('values read as the parse functions read them; a value the config does not hold is nothing, and no mistake', () => {
  const reader = new api.ConfigReader(Testing.app(), 'config');
  expect(reader.cpu('500m', 'cpu')?.amount).toBe('500m');
  expect(reader.cpu(2, 'cpu')?.amount).toBe('2');
  expect(reader.size('16Gi', 'memory')?.toGibibytes()).toBe(16);
  expect(reader.duration('1h30m', 'ttl')?.toMinutes()).toBe(90);
  expect(reader.count('4', 'workers', 1)).toBe(4);
  expect(reader.restartPolicy('OnFailure', 'restartPolicy')).toBe(api.RestartPolicy.ON_FAILURE);
  expect(reader.nprocPerNode(8, 'nprocPerNode')?.value).toBe('8');
  const gpu = reader.accelerator('nvidia', 8, 'accelerator', 'gpus');
  expect([gpu?.resourceName, gpu?.count]).toEqual(['nvidia.com/gpu', 8]);
  expect(reader.accelerator('amd', undefined, 'accelerator')?.count).toBe(1);
  expect(reader.size(undefined, 'memory')).toBeUndefined();
  expect(reader.restartPolicy(null, 'restartPolicy')).toBeUndefined();
  expect(reader.errors).toEqual([]);
  expect(() => reader.check()).not.toThrow();
});

test('refused values are recorded with their keys, in the order read, and check() throws them in one error', () => {
  const reader = new api.ConfigReader(Testing.app(), 'config');
  expect(reader.cpu('500 m', 'jobs[0].cpu')).toBeUndefined();
  expect(reader.size('64G', 'jobs[0].memory')).toBeUndefined();
  expect(reader.restartPolicy('ExitCodes', 'jobs[1].restartPolicy')).toBeUndefined();
  expect(reader.count(2.5, 'jobs[1].workers', 1)).toBeUndefined();
  expect(reader.accelerator('nvida', 0, 'jobs[2].accelerator', 'jobs[2].gpus')).toBeUndefined();
  expect(reader.cleanPodPolicy(true, 'jobs[2].cleanPodPolicy')).toBeUndefined();
  expect(reader.duration(90, 'jobs[2].ttlAfterFinished')).toBeUndefined();
  expect(() => reader.check()).toThrow(new Error('config: the configuration has 8 mistakes:\n'
    + '  jobs[0].cpu is "500 m"; expected cores such as "2" or "1.5", or whole millicores such as "500m" (0 or more, at most 3 decimals of a core): did you mean "500m"?\n'
    + '  jobs[0].memory is "64G"; expected a number with a binary unit Ki, Mi, Gi, Ti or Pi, such as "512Mi" or "16Gi": did you mean "64Gi"?\n'
    + '  jobs[1].restartPolicy is "ExitCodes"; expected "Always", "OnFailure", "Never" or "ExitCode", the values training-operator v1.9.4 knows (for a newer operator\'s value, '
    + 'use RestartPolicy.of(value) and list the value in the cdk8s context key "cdk8s-kubeflow/accept-unknown-values"): did you mean "ExitCode"?\n'
    + `  jobs[1].workers is 2.5; ${WHOLE_NUMBER_1_OR_MORE}\n`
    + '  jobs[2].accelerator is "nvida"; expected "nvidia", "amd" or "intel", one of their resource names "nvidia.com/gpu", "amd.com/gpu" or "gpu.intel.com/i915", '
    + 'or another extended resource name with its domain such as "habana.ai/gaudi": did you mean "nvidia"?\n'
    + `  jobs[2].gpus is 0; ${WHOLE_NUMBER_1_OR_MORE}\n`
    + '  jobs[2].cleanPodPolicy is true; expected a string\n'
    + '  jobs[2].ttlAfterFinished is 90; expected a duration such as "90m"'));
});

test('one mistake reads as one', () => {
  const reader = new api.ConfigReader(Testing.app(), 'config');
  reader.podSecurity('privileged', 'security');
  expect(() => reader.check()).toThrow(new Error('config: the configuration has 1 mistake:\n  security is "privileged"; expected "default" or "restricted", the security presets'));
});

test('at synth, the refused values are reported with the constructs\' own findings, and nothing is written', () => {
  const app = Testing.app();
  const reader = new api.ConfigReader(app, 'config');
  const chart = new Chart(app, 'vision');
  const memory = reader.size('64G', 'teams.vision.jobs[0].memory');
  new api.DistributedPyTorch(chart, 'resnet', { metadata: { name: 'ResNet' }, image: IMAGE, resources: { memory } });
  expect(() => app.synth()).toThrow(new Error(`${REPORT}`
    + '  [config] teams.vision.jobs[0].memory is "64G"; expected a number with a binary unit Ki, Mi, Gi, Ti or Pi, such as "512Mi" or "16Gi": did you mean "64Gi"?\n'
    + `  [vision/resnet] metadata.name is "ResNet"; ${DNS_1035_LABEL}`));
});

test('an error that is not a refused value is thrown, not recorded', () => {
  const reader = new api.ConfigReader(Testing.app(), 'config');
  expect(() => reader.accelerator('nvidia', 1, 'accelerator', 'gpus')).not.toThrow();
  // The boundary's type check of a key is the program's mistake, not the config's.
  expect(() => reader.size('16Gi', 3 as any)).toThrow();
});
