/**
 * Trainer v2 constructs at the boundary: one prop, or one method argument, at a time set to an
 * arbitrary value (wrong types from JavaScript callers and configuration included) ends in the
 * library's own error or in a manifest that keeps the value.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { MethodCase, PROPERTY_RUNS, methodsProperty, propsProperty } from './boundary-arbitraries';
import { ClusterTrainingRuntime, MlPolicy, TrainingRuntime, TrainingRuntimeRef, TrainJob } from '../../src';
import { CLASSES } from '../../src/boundary/schema.generated';

const IMAGE = 'registry.example.com/train:1.0';
const RUNTIME = { metadata: { name: 'torch-gpu' }, mlPolicy: MlPolicy.torch(), image: IMAGE };
const JOB = { metadata: { name: 'train', namespace: 'research' }, runtime: TrainingRuntimeRef.cluster('torch-distributed') };

test(`ClusterTrainingRuntime: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('ClusterTrainingRuntime', 'TrainingRuntimeProps', RUNTIME, (chart, props) => new ClusterTrainingRuntime(chart, 'job', props));
  expect(fields).toBe(104);
});

test(`TrainingRuntime: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const props = { ...RUNTIME, metadata: { name: 'torch-gpu', namespace: 'research' } };
  const fields = propsProperty('TrainingRuntime', 'TrainingRuntimeProps', props, (chart, p) => new TrainingRuntime(chart, 'job', p));
  expect(fields).toBe(104);
});

test(`TrainJob: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('TrainJob', 'TrainJobProps', JOB, (chart, props) => new TrainJob(chart, 'job', props));
  expect(fields).toBe(43);
});

const volume = (chart: Chart, name: string) => kplus.Volume.fromEmptyDir(chart, `volume-${name}`, name);
const TRAIN_JOB: MethodCase[] = [
  { method: 'addToleration', args: () => [{ key: 'gpu', operator: 'Exists' }] },
  { method: 'mount', args: c => ['/data', volume(c, 'data'), { readOnly: true }] },
];

test(`TrainJob: ${PROPERTY_RUNS} arbitrary arguments of its methods end in the library's error or a manifest that keeps them`, () => {
  expect(TRAIN_JOB.map(c => c.method).sort()).toEqual(Object.keys(CLASSES.TrainJob.methods ?? {}).sort());
  expect(methodsProperty('TrainJob', 'TrainJob', TRAIN_JOB, c => new TrainJob(c, 'job', JOB), 'test/job')).toBe(4);
});

test('the base props of the properties above synthesize, so right-typed values are judged against a working construct', () => {
  const chart = Testing.chart();
  new ClusterTrainingRuntime(chart, 'cluster-runtime', RUNTIME);
  new TrainingRuntime(chart, 'runtime', { ...RUNTIME, metadata: { name: 'torch-gpu', namespace: 'research' } });
  new TrainJob(chart, 'job', JOB);
  expect(Testing.synth(chart).map((d: any) => `${d.kind} ${d.metadata.name}`)).toEqual([
    'ClusterTrainingRuntime torch-gpu', 'TrainingRuntime torch-gpu', 'TrainJob train',
  ]);
});
