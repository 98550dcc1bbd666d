import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { expectDeterministic } from './determinism';
import { DUMP_DIR_ENV, dumpFileName, dumpManifests, intentFileOf } from './manifest-dump';
import { Accelerator, MlPolicy, TrainingRuntime, TrainJob } from '../../src';

describe('manifest dump for the Go conformance run', () => {
  const saved = process.env[DUMP_DIR_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[DUMP_DIR_ENV];
    else process.env[DUMP_DIR_ENV] = saved;
  });

  test('names files after the test file and a zero-padded counter', () => {
    expect(dumpFileName('test/training/pytorch.test.ts', 7)).toBe('test-training-pytorch.test.ts-0007.yaml');
    expect(dumpFileName('test/properties/a b.test.ts', 12)).toBe('test-properties-a-b.test.ts-0012.yaml');
  });

  test('writes nothing when the variable is unset', () => {
    delete process.env[DUMP_DIR_ENV];
    expect(dumpManifests([{ kind: 'ConfigMap' }])).toBeUndefined();
  });

  test('writes each document set as one multi-document YAML file, in order', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dump-'));
    process.env[DUMP_DIR_ENV] = dir;
    const first = dumpManifests([{ kind: 'A', metadata: { name: 'a' } }, { kind: 'B', metadata: { name: 'b' } }])!;
    const second = dumpManifests([{ kind: 'C', metadata: { name: 'c' } }])!;
    expect(path.basename(first)).toMatch(/^test-harness-manifest-dump\.test\.ts-\d{4}\.yaml$/);
    expect(Number(path.basename(second).slice(-9, -5))).toBe(Number(path.basename(first).slice(-9, -5)) + 1);
    expect(yaml.loadAll(fs.readFileSync(first, 'utf8'))).toEqual([{ kind: 'A', metadata: { name: 'a' } }, { kind: 'B', metadata: { name: 'b' } }]);
    expect(yaml.loadAll(fs.readFileSync(second, 'utf8'))).toEqual([{ kind: 'C', metadata: { name: 'c' } }]);
  });

  /** A TrainJob asking for most of what a record holds. */
  const trainJob = (chart: Chart) => {
    const runtime = new TrainingRuntime(chart, 'rt', {
      metadata: { name: 'torch-init', namespace: 'ml' },
      mlPolicy: MlPolicy.torch(),
      image: 'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime',
      datasetInitializer: { image: 'ghcr.io/kubeflow/trainer/dataset-initializer' },
    });
    const job = new TrainJob(chart, 'job', {
      metadata: { name: 'bert', namespace: 'ml' },
      runtime: runtime.ref,
      image: 'example.com/train:1',
      command: ['torchrun', 'train.py'],
      numNodes: 2,
      resourcesPerNode: { accelerator: Accelerator.nvidia(4) },
      env: { BASE: kplus.EnvValue.fromValue('/data') },
      podLabels: { team: 'nlp' },
      datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca' },
    });
    job.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'v', kplus.PersistentVolumeClaim.fromClaimName(chart, 'c', 'datasets')), { readOnly: true });
  };

  /** What the job's props asked for, as the Go oracle reads it (conformance/trainer/intent.go). */
  const bertIntent = {
    'ml/bert': {
      source: 'recorded',
      image: 'example.com/train:1',
      command: ['torchrun', 'train.py'],
      resourcesPerNode: { requests: { 'nvidia.com/gpu': 4 }, limits: { 'nvidia.com/gpu': 4 } },
      acceleratorsPerNode: 4,
      numNodes: 2,
      env: [{ name: 'BASE', value: '/data' }],
      pods: [{
        labels: { team: 'nlp' },
        mounts: [{ path: '/data', volume: { name: 'pvc-datasets', persistentVolumeClaim: { claimName: 'datasets', readOnly: false } }, readOnly: true }],
      }],
      initializers: { 'dataset-initializer': { storageUri: 'hf://tatsu-lab/alpaca' } },
    },
  };

  test('writes beside a set with a TrainJob what its props asked for, keyed by namespace/name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dump-'));
    process.env[DUMP_DIR_ENV] = dir;
    const chart = new Chart(Testing.app(), 'test');
    trainJob(chart);
    const docs = Testing.synth(chart);
    const file = dumpManifests(docs)!;
    expect(yaml.loadAll(fs.readFileSync(file, 'utf8'))).toEqual(docs);
    expect(JSON.parse(fs.readFileSync(intentFileOf(file), 'utf8'))).toEqual(bertIntent);
  });

  test('documents parsed back from the YAML a synth wrote keep the app\'s intents', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dump-'));
    process.env[DUMP_DIR_ENV] = dir;
    const docs = expectDeterministic(app => trainJob(new Chart(app, 'test')));
    const file = dumpManifests(docs)!;
    expect(JSON.parse(fs.readFileSync(intentFileOf(file), 'utf8'))).toEqual(bertIntent);
  });

  test('no sidecar for documents the library did not render', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dump-'));
    process.env[DUMP_DIR_ENV] = dir;
    const file = dumpManifests([{ apiVersion: 'trainer.kubeflow.org/v1alpha1', kind: 'TrainJob', metadata: { name: 'bert' } }])!;
    expect(fs.existsSync(intentFileOf(file))).toBe(false);
    expect(intentFileOf('a/b.yaml')).toBe('a/b.intent.json');
  });
});
