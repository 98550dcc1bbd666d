/**
 * One rule set, not two: an operator rule that the constructs and `lint` both need lives once, in
 * the document rules (`src/rules/training-operator/`), and the engine runs it on what the
 * constructs render. For every rule that moved out of the constructs, a construct with the mistake
 * gives exactly one message, the document rule's, at the construct path; and `lint` of the very
 * document the construct rendered gives the same rule, field and message (without the prop name
 * the construct adds). A mistake forced in with an escape hatch is caught by the same rule.
 */
import { ApiObject, App, Chart, JsonPatch, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { Accelerator, DistributedPaddle, DistributedPyTorch, MpiAllReduce, WorkspaceKind, WorkspaceKindProps } from '../../src';
import { collectFindings } from '../../src/synth/engine';
import { lintFindings } from '../cli/run-cli';
import { REPORT, synthErrors } from '../harness';
import { INJECTED_ENV } from '../harness/messages';
import { JUPYTERLAB_KIND as KIND, SCIPY_IMAGE as SCIPY } from '../harness/notebook-fixtures';

const IMAGE = 'registry.example.com/train:1.0';
const value = (v: string) => kplus.EnvValue.fromValue(v);

/** A valid kind with one image and one pod config; `props` and `after` make it wrong. */
function kind(props: Partial<WorkspaceKindProps> = {}, after?: (k: WorkspaceKind) => void) {
  return (c: Chart): WorkspaceKind => {
    const k = new WorkspaceKind(c, 'res', { ...KIND, ...props });
    k.addImageConfig('scipy', SCIPY);
    k.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
    after?.(k);
    return k;
  };
}

interface Case {
  /** The document rule that now reports the mistake. */
  readonly rule: string;
  /** The construct it used to be checked in. */
  readonly was: string;
  /** Builds the construct with the mistake, as `res` in the chart `test`. */
  readonly build: (chart: Chart) => { readonly apiObject: ApiObject };
  /** The one message, after `[test/res] `. */
  readonly message: string;
  /** The prop the construct names after the document field, if any. */
  readonly prop?: string;
}

const CASES: Case[] = [
  {
    rule: 'training-operator/injected-env',
    was: 'TrainingJob.validateJob (Worker.env)',
    build: c => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 1, worker: { env: { WORLD_SIZE: value('2') } } }),
    message: `spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[WORLD_SIZE] (worker.env) is {"name":"WORLD_SIZE","value":"2"}; ${INJECTED_ENV}`,
    prop: 'worker.env',
  },
  {
    rule: 'training-operator/pod-name-length',
    was: 'TrainingJob.validateJob (lastPodName)',
    build: c => new DistributedPyTorch(c, 'res', { metadata: { name: 'a'.repeat(55) }, image: IMAGE, workers: 16 }),
    message: `metadata.name is "${'a'.repeat(55)}"; expected a name of at most 53 characters, so that the pod and service name "${'a'.repeat(55)}-worker-15" fits in 63`,
  },
  {
    rule: 'training-operator/pod-name-length',
    was: 'DistributedPaddle._maxReplicasOf (elastic workers counted to maxWorkers)',
    build: c => new DistributedPaddle(c, 'res', { metadata: { name: 'x'.repeat(54) }, image: IMAGE, workers: 2, elastic: { minWorkers: 1, maxWorkers: 100 } }),
    message: `metadata.name is "${'x'.repeat(54)}"; expected a name of at most 53 characters, so that the pod and service name "${'x'.repeat(54)}-worker-99" fits in 63`,
  },
  {
    rule: 'training-operator/pod-name-length',
    was: 'MpiAllReduce TrainingKind.podName (the launcher is <job>-launcher)',
    build: c => new MpiAllReduce(c, 'res', { metadata: { name: 'm'.repeat(55) }, image: IMAGE, workers: 0, launcherCommand: ['mpirun', 'hostname'] }),
    message: `metadata.name is "${'m'.repeat(55)}"; expected a name of at most 54 characters, so that the pod and service name "${'m'.repeat(55)}-launcher" fits in 63`,
  },
  {
    rule: 'training-operator/mpi-launcher-gpu-env',
    was: 'MpiAllReduce._validateKind (Launcher.env)',
    build: c => new MpiAllReduce(c, 'res', { metadata: { name: 'train' }, image: IMAGE, launcherCommand: ['mpirun', 'hostname'], launcher: { env: { NVIDIA_VISIBLE_DEVICES: value('all') } } }),
    message: 'spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].env[NVIDIA_VISIBLE_DEVICES] (launcher.env) is {"name":"NVIDIA_VISIBLE_DEVICES","value":"all"}; '
      + 'expected a variable the operator does not set itself; it sets this one to "" in a launcher without GPUs, so a user value would be lost',
    prop: 'launcher.env',
  },
  {
    rule: 'training-operator/mpi-np',
    was: 'MpiAllReduce._validateKind (launcherCommand)',
    build: c => new MpiAllReduce(c, 'res', {
      metadata: { name: 'train' }, image: IMAGE, workers: 2, resources: { accelerator: Accelerator.nvidia(2) }, launcherCommand: ['mpirun', '-np', '8', 'python', 'train.py'],
    }),
    message: 'spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].command (launcherCommand) is "-np 8"; expected at most 4 processes (2 workers x 2 slotsPerWorker); '
      + 'mpirun cannot start more processes than the hostfile has slots (add --oversubscribe if that is meant)',
    prop: 'launcherCommand',
  },
  {
    rule: 'notebooks/option-default',
    was: 'OptionCatalogue.findings (defaultImageConfig)',
    build: kind({ defaultImageConfig: 'scipy-2025' }),
    message: 'spec.podTemplate.options.imageConfig.spawner.default (defaultImageConfig) is "scipy-2025"; expected the id of an option: "scipy"',
    prop: 'defaultImageConfig',
  },
  {
    rule: 'notebooks/option-default',
    was: 'OptionCatalogue.findings (a redirected defaultPodConfig)',
    build: kind({ defaultPodConfig: 'old' }, k => { k.addPodConfig('old', { redirect: { to: 'small' } }); }),
    message: 'spec.podTemplate.options.podConfig.spawner.default (defaultPodConfig) is "old"; expected an option that is not redirected (it redirects to "small"); '
      + 'the spawner does not show redirected options',
    prop: 'defaultPodConfig',
  },
  {
    rule: 'notebooks/option-redirect',
    was: 'OptionCatalogue.findings (podConfig[old].redirect.to)',
    build: kind({}, k => { k.addPodConfig('old', { redirect: { to: 'new' } }); k.addPodConfig('new', { redirect: { to: 'old' } }); }),
    message: 'spec.podTemplate.options.podConfig.values[old].redirect.to is "new"; expected redirects that end at an option without one, but old -> new -> old is a cycle',
  },
  {
    rule: 'notebooks/image-port',
    was: 'WorkspaceKind.validateKind (imageConfig[code].ports.id)',
    build: kind({}, k => k.addImageConfig('code', { ...SCIPY, ports: [{ id: 'vscode', port: 8080 }] })),
    message: 'spec.podTemplate.options.imageConfig.values[code].spec.ports[0].id is "vscode"; expected the id of a port in spec.podTemplate.ports: "jupyterlab"',
  },
];

/** The findings `lint --format json` gives for documents, as `rule message`. */
/** `lint` on the documents, written as one YAML stream. */
function lintDocuments(docs: any[]): string[] {
  return lintFindings(docs.map(d => yaml.dump(d, { noRefs: true, lineWidth: -1 })).join('---\n'));
}

describe.each(CASES.map(c => [`${c.rule}, once in ${c.was}`, c] as const))('%s', (_name, c) => {
  test('a construct with the mistake gives one message, the document rule\'s', () => {
    expect(synthErrors(c.build)).toBe(`${REPORT}  [test/res] ${c.message}`);
    const app = Testing.app();
    c.build(new Chart(app, 'test'));
    expect(collectFindings(app).map(f => `${f.path} ${f.finding.rule}`)).toEqual([`test/res ${c.rule}`]);
  });

  test('lint of the document the construct rendered gives the same rule and message', () => {
    const chart = new Chart(Testing.app(), 'test');
    const doc = c.build(chart).apiObject.toJson();
    const message = c.prop === undefined ? c.message : c.message.replace(` (${c.prop})`, '');
    expect(lintDocuments([doc])).toEqual([`${c.rule} ${message}`]);
  });
});

describe('a mistake forced in with an escape hatch is the document rule\'s too', () => {
  /** Builds a valid job, applies the patch, and returns the report and the patched document. */
  function patched(build: (chart: Chart) => { readonly apiObject: ApiObject }, patch: JsonPatch): { errors?: string; doc: any } {
    const errors = synthErrors(chart => build(chart).apiObject.addJsonPatch(patch));
    const chart = new Chart(new App({ outdir: Testing.app().outdir }), 'test');
    const res = build(chart);
    res.apiObject.addJsonPatch(patch);
    return { errors, doc: res.apiObject.toJson() };
  }

  test('training-operator/replica-count: a second MPI launcher', () => {
    const { errors, doc } = patched(c => new MpiAllReduce(c, 'res', { metadata: { name: 'train' }, image: IMAGE, trainingCommand: ['python', 'train.py'] }),
      JsonPatch.replace('/spec/mpiReplicaSpecs/Launcher/replicas', 2));
    const message = 'spec.mpiReplicaSpecs.Launcher.replicas is 2; expected 1; an MPIJob has exactly one launcher (the controller refuses it otherwise, with only a warning event)';
    expect(errors).toBe(`${REPORT}  [test/res] ${message}`);
    expect(lintDocuments([doc])).toEqual([`training-operator/replica-count ${message}`]);
  });

  test('training-operator/injected-env: RANK patched into a worker', () => {
    const { errors, doc } = patched(c => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 1 }),
      JsonPatch.add('/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env', [{ name: 'RANK', value: '0' }]));
    const message = `spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[RANK] is {"name":"RANK","value":"0"}; ${INJECTED_ENV}`;
    expect(errors).toBe(`${REPORT}  [test/res] ${message}`);
    expect(lintDocuments([doc])).toEqual([`training-operator/injected-env ${message}`]);
  });
});
