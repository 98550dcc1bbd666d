import { Chart, Testing } from 'cdk8s';
import {
  ClusterTrainingRuntime, DistributedPyTorch, KubeflowResource, MlPolicy, TrainingRuntimeRef, TrainJob, Workspace, WorkspaceKind,
} from '../../src';
import { REPORT, expectDeterministic } from '../harness';
import { JUPYTERLAB_KIND, SCIPY_IMAGE } from '../harness/notebook-fixtures';

/*
 * The keyed `add*` methods the five top-level constructs share (KubeflowResource) have one
 * meaning: a key holds one value; the same value again changes nothing; another value is reported
 * at synth (beside the app's other mistakes) with the construct path, the key and both values.
 */

const IMAGE = 'registry.example.com/train:1.0';

interface Row {
  /** Makes the construct in the chart (and whatever it needs beside it). */
  readonly make: (chart: Chart) => KubeflowResource;
  /** The rendered document of the construct. */
  readonly doc: (docs: any[]) => any;
  /** The rendered metadata of its pods. */
  readonly podMetadata: (doc: any) => any;
}

const kind = (chart: Chart, id = 'kind') => {
  const k = new WorkspaceKind(chart, id, JUPYTERLAB_KIND);
  k.addImageConfig('scipy', SCIPY_IMAGE);
  k.addPodConfig('cpu');
  return k;
};

const ROWS: { [construct: string]: Row } = {
  'TrainingJob (DistributedPyTorch)': {
    make: chart => new DistributedPyTorch(chart, 'it', { metadata: { name: 'train' }, image: IMAGE }),
    doc: docs => docs.find(d => d.kind === 'PyTorchJob'),
    podMetadata: doc => doc.spec.pytorchReplicaSpecs.Master.template.metadata,
  },
  'TrainJob': {
    make: chart => new TrainJob(chart, 'it', { metadata: { name: 'train' }, runtime: TrainingRuntimeRef.cluster('torch-distributed') }),
    doc: docs => docs.find(d => d.kind === 'TrainJob'),
    podMetadata: doc => doc.spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.metadata,
  },
  'TrainingRuntimeBase (ClusterTrainingRuntime)': {
    make: chart => new ClusterTrainingRuntime(chart, 'it', { metadata: { name: 'torch' }, mlPolicy: MlPolicy.torch(), image: IMAGE }),
    doc: docs => docs.find(d => d.kind === 'ClusterTrainingRuntime'),
    podMetadata: doc => doc.spec.template.spec.replicatedJobs[0].template.spec.template.metadata,
  },
  'Workspace': {
    make: chart => new Workspace(chart, 'it', { metadata: { name: 'ws' }, kind: kind(chart) }),
    doc: docs => docs.find(d => d.kind === 'Workspace'),
    podMetadata: doc => doc.spec.podTemplate.podMetadata,
  },
  'WorkspaceKind': {
    make: chart => kind(chart, 'it'),
    doc: docs => docs.find(d => d.kind === 'WorkspaceKind'),
    podMetadata: doc => doc.spec.podTemplate.podMetadata,
  },
};

const rows = Object.entries(ROWS);

/** The construct's document after `add` ran on it. */
function render(row: Row, add: (c: KubeflowResource) => void): any {
  const docs = expectDeterministic(app => add(row.make(new Chart(app, 'test', { namespace: 'ml' }))));
  return row.doc(docs);
}

/** The report of synthesizing a fresh construct after `add`: nothing is thrown before synth. */
function reported(row: Row, add: (c: KubeflowResource) => void): string {
  const app = Testing.app();
  add(row.make(new Chart(app, 'test')));
  try {
    app.synth();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('nothing was reported');
}

describe.each(rows)('%s', (_name, row) => {
  test('addLabel: the object\'s label, once; the same value again is a no-op; another value is refused at synth', () => {
    const doc = render(row, c => { c.addLabel('team', 'vision'); c.addLabel('team', 'vision'); });
    expect(doc.metadata.labels.team).toBe('vision');
    expect(reported(row, c => { c.addLabel('team', 'vision'); c.addLabel('team', 'nlp'); }))
      .toBe(`${REPORT}  [test/it] metadata.labels["team"] is "nlp"; expected one value per key; it is already "vision"`);
  });

  test('addAnnotation: the object\'s annotation, once; the same value again is a no-op; another value is refused at synth', () => {
    const doc = render(row, c => { c.addAnnotation('owner', 'ml-platform'); c.addAnnotation('owner', 'ml-platform'); });
    expect(doc.metadata.annotations.owner).toBe('ml-platform');
    expect(reported(row, c => { c.addAnnotation('owner', 'ml-platform'); c.addAnnotation('owner', 'research'); }))
      .toBe(`${REPORT}  [test/it] metadata.annotations["owner"] is "research"; expected one value per key; it is already "ml-platform"`);
  });

  test('addPodLabel: the pods\' label, once; the same value again is a no-op; another value is refused at synth', () => {
    const doc = render(row, c => { c.addPodLabel('team', 'vision'); c.addPodLabel('team', 'vision'); });
    expect(row.podMetadata(doc).labels.team).toBe('vision');
    expect(reported(row, c => { c.addPodLabel('team', 'vision'); c.addPodLabel('team', 'nlp'); }))
      .toBe(`${REPORT}  [test/it] podLabels["team"] is "nlp"; expected one value per key; it is already "vision"`);
  });

  test('addPodAnnotation: the pods\' annotation, once; the same value again is a no-op; another value is refused at synth', () => {
    const doc = render(row, c => { c.addPodAnnotation('owner', 'ml-platform'); c.addPodAnnotation('owner', 'ml-platform'); });
    expect(row.podMetadata(doc).annotations.owner).toBe('ml-platform');
    expect(reported(row, c => { c.addPodAnnotation('owner', 'ml-platform'); c.addPodAnnotation('owner', 'research'); }))
      .toBe(`${REPORT}  [test/it] podAnnotations["owner"] is "research"; expected one value per key; it is already "ml-platform"`);
  });

  test('a label already on the metadata counts as the first value', () => {
    expect(reported(row, c => { c.metadata.addLabel('tier', 'gold'); c.addLabel('tier', 'silver'); }))
      .toBe(`${REPORT}  [test/it] metadata.labels["tier"] is "silver"; expected one value per key; it is already "gold"`);
  });
});

test('every top-level construct shares the base, so the table covers them all', () => {
  expect(rows.map(([, row]) => row.make(new Chart(Testing.app(), 'test')) instanceof KubeflowResource)).toEqual([true, true, true, true, true]);
});
