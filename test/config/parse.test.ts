/**
 * The config path: `parse(value, key?)` on every enum-like class, `Parse.size`, `Parse.duration`
 * and `Accelerator.parse`. Each takes the spelling a configuration file holds and refuses anything
 * else at once, naming the key, the values known and the closest of them.
 */
import { Duration, Size } from 'cdk8s';
import * as api from '../../src';
import { CLASSES } from '../../src/boundary/schema.generated';
import { WHOLE_NUMBER_0_OR_MORE, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';

/** Every enum-like class with the raw value of each constant, in the order the message lists them. */
const RAW_VALUES: { [cls: string]: { [member: string]: string } } = {
  CleanPodPolicy: { NONE: 'None', RUNNING: 'Running', ALL: 'All' },
  RestartPolicy: { ALWAYS: 'Always', ON_FAILURE: 'OnFailure', NEVER: 'Never', EXIT_CODE: 'ExitCode' },
  ManagedBy: { TRAINING_OPERATOR: 'kubeflow.org/training-operator', MULTI_KUEUE: 'kueue.x-k8s.io/multikueue' },
  RdmaDevice: { SHARED_DEVICE_A: 'rdma/rdma_shared_device_a', HCA: 'rdma/hca', ROCE_GDR: 'nvidia.com/roce_gdr' },
  NcclDebug: { VERSION: 'VERSION', WARN: 'WARN', INFO: 'INFO', TRACE: 'TRACE' },
  NodeHealth: { AUTOPILOT: 'autopilot' },
  GangScheduler: { VOLCANO: 'volcano', SCHEDULER_PLUGINS: 'scheduler-plugins-scheduler' },
  PodSecurity: { DEFAULT: 'default', RESTRICTED: 'restricted' },
  FilterScope: { WORKSPACE_KIND: 'WORKSPACE_KIND', IMAGE_CONFIG: 'IMAGE_CONFIG', POD_CONFIG: 'POD_CONFIG' },
  RedirectLevel: { INFO: 'Info', WARNING: 'Warning', DANGER: 'Danger' },
  PaddleMode: { COLLECTIVE: 'Collective', PARAMETER_SERVER: 'ParameterServer' },
  NprocPerNode: { AUTO: 'auto', CPU: 'cpu', GPU: 'gpu' },
  RendezvousBackend: { C10D: 'c10d', ETCD: 'etcd', ETCD_V2: 'etcd-v2' },
  SuccessPolicy: { DEFAULT: '', ALL_WORKERS: 'AllWorkers' },
  PreemptionPolicy: { NEVER: 'Never', LOWER_PRIORITY: 'LowerPriority', LOWER_OR_NEWER_EQUAL_PRIORITY: 'LowerOrNewerEqualPriority', ANY: 'Any' },
  QueueingStrategy: { BEST_EFFORT_FIFO: 'BestEffortFIFO', STRICT_FIFO: 'StrictFIFO' },
};

/** The library's enum-like classes, from the assembly: classes with constant instances (`NONE`, not `of(value)`). */
const enumLike = Object.entries(CLASSES)
  .filter(([fqn, entry]) => !fqn.includes('.') && (entry.make ?? []).some(m => !m.includes('(')))
  .map(([fqn]) => fqn)
  .sort();

test('the table above covers every enum-like class of the assembly, each with a parse(value, key) static', () => {
  expect(enumLike).toEqual(Object.keys(RAW_VALUES).sort());
  expect(enumLike).toHaveLength(16);
  for (const cls of enumLike) expect(CLASSES[cls].statics?.parse).toEqual(['value:string', 'key:?string']);
});

describe.each(Object.entries(RAW_VALUES))('%s.parse', (cls, members) => {
  const klass = (api as any)[cls];

  test('returns the constant for each raw value', () => {
    for (const [member, raw] of Object.entries(members)) expect(klass.parse(raw)).toBe(klass[member]);
  });

  test('refuses another spelling, naming the key, listing the known values and the closest', () => {
    const raws = Object.values(members).filter(r => r !== '');
    const raw = raws[raws.length - 1];
    const misspelt = raw.slice(0, -1); // one letter short
    const listed = Object.values(members).map(r => JSON.stringify(r));
    const list = listed.length < 2 ? listed[0] : `${listed.slice(0, -1).join(', ')} or ${listed[listed.length - 1]}`;
    expect(() => klass.parse(misspelt, 'config.key')).toThrow(`${cls}.parse: config.key is ${JSON.stringify(misspelt)}; expected ${list}, `);
    expect(() => klass.parse(misspelt, 'config.key')).toThrow(`: did you mean ${JSON.stringify(raw)}?`);
  });

  test('refuses a value that is not a string (a YAML number or boolean) with the boundary\'s message', () => {
    expect(() => klass.parse(3)).toThrow(`${cls}.parse: value is 3; expected a string`);
  });
});

test('exact messages of the enum-like parse', () => {
  expect(() => api.RestartPolicy.parse('OnFailre', 'workers.restartPolicy')).toThrow(
    'RestartPolicy.parse: workers.restartPolicy is "OnFailre"; expected "Always", "OnFailure", "Never" or "ExitCode", the values training-operator v1.9.4 knows '
    + '(for a newer operator\'s value, use RestartPolicy.of(value) and list the value in the cdk8s context key "cdk8s-kubeflow/accept-unknown-values"): did you mean "OnFailure"?');
  expect(() => api.PaddleMode.parse('collective')).toThrow(
    'PaddleMode.parse: value is "collective"; expected "Collective" or "ParameterServer", the PaddlePaddle modes: did you mean "Collective"?');
  // Far from every known value: no guess.
  expect(() => api.PodSecurity.parse('privileged', 'security')).toThrow(
    /^PodSecurity\.parse: security is "privileged"; expected "default" or "restricted", the security presets$/);
});

test('NprocPerNode.parse takes a whole number of processes as text', () => {
  expect(api.NprocPerNode.parse('8').processes).toBe(8);
  expect(api.NprocPerNode.parse('8').value).toBe('8');
  expect(() => api.NprocPerNode.parse('0', 'nprocPerNode')).toThrow(
    'NprocPerNode.parse: nprocPerNode is "0"; expected "auto", "cpu" or "gpu", the values torchrun knows, or a whole number of processes above 0 such as "8"');
});

describe('Parse.size', () => {
  test.each([
    ['512Mi', Size.mebibytes(512)], ['16Gi', Size.gibibytes(16)], ['1.5Ti', Size.tebibytes(1.5)], ['64Ki', Size.kibibytes(64)], ['1Pi', Size.pebibyte(1)],
  ])('%s', (text, size) => {
    expect(api.Parse.size(text).toKibibytes()).toBe(size.toKibibytes());
  });

  test.each([['16G', '16Gi'], ['16GB', '16Gi'], ['16gi', '16Gi'], ['512 Mi', '512Mi'], ['2TiB', '2Ti']])('%s is refused with %s suggested', (text, guess) => {
    expect(() => api.Parse.size(text, 'resources.memory')).toThrow(
      `Parse.size: resources.memory is ${JSON.stringify(text)}; expected a number with a binary unit Ki, Mi, Gi, Ti or Pi, such as "512Mi" or "16Gi": did you mean "${guess}"?`);
  });

  test('a value with no unit gets no guess', () => {
    expect(() => api.Parse.size('lots')).toThrow(/^Parse\.size: value is "lots"; expected a number with a binary unit Ki, Mi, Gi, Ti or Pi, such as "512Mi" or "16Gi"$/);
  });
});

describe('Parse.duration', () => {
  test.each([
    ['1d', Duration.days(1)], ['90m', Duration.minutes(90)], ['1h30m', Duration.minutes(90)], ['30s', Duration.seconds(30)],
    ['2d12h', Duration.hours(60)], ['1h0m5s', Duration.seconds(3605)], ['PT1H30M', Duration.minutes(90)],
  ])('%s', (text, duration) => {
    expect(api.Parse.duration(text).toSeconds()).toBe(duration.toSeconds());
  });

  test('reads in the largest whole unit', () => {
    expect(api.Parse.duration('1d').toHumanString()).toBe('1 day');
    expect(api.Parse.duration('90m').toHumanString()).toBe('1 hour 30 minutes');
  });

  test.each(['1h 30m', '1H30M'])('%s is refused with the compact form suggested', text => {
    expect(() => api.Parse.duration(text, 'runPolicy.ttlAfterFinished')).toThrow(
      `Parse.duration: runPolicy.ttlAfterFinished is ${JSON.stringify(text)}; expected whole numbers with d, h, m or s, largest first, such as "90m", "1h30m" or "1d" (or ISO 8601 such as "PT1H30M"): did you mean "1h30m"?`);
  });

  test.each(['', '30m1h', '1.5h', '90 minutes', 'P1X'])('%j is refused', text => {
    expect(() => api.Parse.duration(text)).toThrow(`Parse.duration: value is ${JSON.stringify(text)}; expected whole numbers with d, h, m or s`);
  });
});

describe('Accelerator.parse', () => {
  test.each([
    ['nvidia', 'nvidia.com/gpu'], ['nvidia.com/gpu', 'nvidia.com/gpu'], ['amd', 'amd.com/gpu'], ['amd.com/gpu', 'amd.com/gpu'],
    ['intel', 'gpu.intel.com/i915'], ['gpu.intel.com/i915', 'gpu.intel.com/i915'], ['habana.ai/gaudi', 'habana.ai/gaudi'], ['aws.amazon.com/neuron', 'aws.amazon.com/neuron'],
  ])('%s', (text, resourceName) => {
    const accelerator = api.Accelerator.parse(text, 2);
    expect([accelerator.resourceName, accelerator.count]).toEqual([resourceName, 2]);
  });

  const allowed = 'expected "nvidia", "amd" or "intel", one of their resource names "nvidia.com/gpu", "amd.com/gpu" or "gpu.intel.com/i915", or another extended resource name with its domain such as "habana.ai/gaudi"';
  test.each([['nvidai', 'nvidia'], ['nvidia.com/gpus', 'nvidia.com/gpu'], ['NVIDIA', 'nvidia'], ['amd.com/gpuu', 'amd.com/gpu']])('%s is refused as a typo of %s', (text, guess) => {
    expect(() => api.Accelerator.parse(text, 1, 'workers.accelerator')).toThrow(`Accelerator.parse: workers.accelerator is ${JSON.stringify(text)}; ${allowed}: did you mean "${guess}"?`);
  });

  test('a bare name the library does not know is refused without a guess', () => {
    expect(() => api.Accelerator.parse('gaudi', 1)).toThrow(new RegExp(`^Accelerator\\.parse: value is "gaudi"; ${allowed.replace(/[.()]/g, '\\$&')}$`));
  });
});

describe('Parse.cpu', () => {
  test.each([
    ['500m', '500m'], ['2', '2'], ['1.5', '1.5'], ['0.25', '0.25'], ['.5', '0.5'], ['0', '0'], ['1000m', '1000m'], [2, '2'], [1.5, '1.5'],
  ])('%j is written %s', (value, amount) => {
    expect(api.Parse.cpu(value).amount).toBe(amount);
  });

  test.each([
    ['500 m', '500m'], ['500M', '500m'], ['-1', '1'], [-1, '1'], ['0.5m', '0.5'], ['1.0005', '1001m'], ['2 cores', '2'], ['4cpu', '4'], [' 2 ', '2'], ['250millicores', '250m'],
  ])('%j is refused with %s suggested', (value, guess) => {
    expect(() => api.Parse.cpu(value, 'resources.cpu')).toThrow(new Error(
      `Parse.cpu: resources.cpu is ${typeof value === 'string' ? JSON.stringify(value) : value}; expected cores such as "2" or "1.5", or whole millicores such as "500m" (0 or more, at most 3 decimals of a core): did you mean "${guess}"?`));
  });

  test.each([['lots'], ['1Gi'], [true], [Number.NaN]])('%j is refused without a guess', value => {
    expect(() => api.Parse.cpu(value)).toThrow(/^Parse\.cpu: value is .*; expected cores such as "2" or "1\.5", or whole millicores such as "500m" \(0 or more, at most 3 decimals of a core\)$/);
  });
});

describe('Parse.count', () => {
  test.each([[4, 0, 4], ['4', 0, 4], [0, 0, 0], ['12', 1, 12]])('%j (minimum %d) is %d', (value, minimum, count) => {
    expect(api.Parse.count(value, 'workers', minimum)).toBe(count);
  });

  test('refuses fractions, text and counts below the minimum, with the whole number meant when there is one', () => {
    expect(() => api.Parse.count(2.5, 'teams.vision.jobs[0].workers', 1)).toThrow(new Error(`Parse.count: teams.vision.jobs[0].workers is 2.5; ${WHOLE_NUMBER_1_OR_MORE}`));
    expect(() => api.Parse.count('four', 'workers')).toThrow(new Error(`Parse.count: workers is "four"; ${WHOLE_NUMBER_0_OR_MORE}`));
    expect(() => api.Parse.count(0, 'gpus', 1)).toThrow(new Error(`Parse.count: gpus is 0; ${WHOLE_NUMBER_1_OR_MORE}`));
    expect(() => api.Parse.count(-2)).toThrow(new Error(`Parse.count: value is -2; ${WHOLE_NUMBER_0_OR_MORE}`));
    expect(() => api.Parse.count(' 4', 'workers')).toThrow(new Error(`Parse.count: workers is " 4"; ${WHOLE_NUMBER_0_OR_MORE}: did you mean "4"?`));
    expect(() => api.Parse.count('4.0', 'workers')).toThrow(new Error(`Parse.count: workers is "4.0"; ${WHOLE_NUMBER_0_OR_MORE}: did you mean "4"?`));
  });
});

describe('Accelerator.parse checks the count, naming its key', () => {
  test('with countKey, the count\'s own key; without, the accelerator\'s', () => {
    expect(() => api.Accelerator.parse('nvidia', 0, 'teams.vision.jobs[0].accelerator', 'teams.vision.jobs[0].gpus')).toThrow(new Error(
      'Accelerator.parse: teams.vision.jobs[0].gpus is 0; expected a whole number of devices, 1 or more'));
    expect(() => api.Accelerator.parse('nvidia', 1.5, 'workers.accelerator')).toThrow(new Error(
      'Accelerator.parse: count of workers.accelerator is 1.5; expected a whole number of devices, 1 or more'));
    expect(() => api.Accelerator.parse('nvidia', -1)).toThrow(new Error('Accelerator.parse: count is -1; expected a whole number of devices, 1 or more'));
  });
});
