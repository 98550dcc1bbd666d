/**
 * StableFileNamesApp: a chart that starts to depend on another renames no file. cdk8s's App numbers
 * every file once any chart depends on another (`0000-<chart>.k8s.yaml`), unrelated charts included;
 * this app writes the same content under the charts' own names.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, AppProps, Chart, YamlOutputType } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { ClusterTrainingRuntime, DistributedPyTorch, MlPolicy, StableFileNamesApp, TrainJob, TrainingRuntimeRef } from '../../src';
import { expectValidManifests } from '../harness';
import { PYTORCH_IMAGE as IMAGE } from '../harness/job-fixtures';


/**
 * Three charts: a platform runtime, a job on a runtime built into Trainer, and an unrelated
 * PyTorchJob. With `depend`, the job's chart depends on the runtime's (`chart.addDependency`, as
 * when a team's jobs move onto the platform's runtime).
 */
function build(app: App, depend: boolean): App {
  const runtimes = new Chart(app, 'runtimes');
  new ClusterTrainingRuntime(runtimes, 'torch', { metadata: { name: 'torch-a100' }, mlPolicy: MlPolicy.torch(), image: IMAGE });
  const jobs = new Chart(app, 'jobs', { namespace: 'team-a' });
  new TrainJob(jobs, 'sft', { metadata: { name: 'sft' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), numNodes: 2 });
  const other = new Chart(app, 'vision', { namespace: 'team-b' });
  new DistributedPyTorch(other, 'resnet', { metadata: { name: 'resnet' }, image: IMAGE, workers: 2, resources: { cpu: kplus.Cpu.units(2) } });
  if (depend) jobs.addDependency(runtimes);
  return app;
}

const folders: string[] = [];
afterAll(() => folders.forEach(f => fs.rmSync(f, { recursive: true, force: true })));

/** Every file (and file in a folder) of the output, with its content. */
function synth(make: (props: AppProps) => App, depend: boolean, props: AppProps = {}): Map<string, string> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'stable-names-'));
  folders.push(outdir);
  build(make({ ...props, outdir }), depend).synth();
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(path.relative(outdir, p), fs.readFileSync(p, 'utf8'));
    }
  };
  walk(outdir);
  return files;
}

test('cdk8s\'s App renames every file, the unrelated chart\'s too, once a chart depends on another', () => {
  expect([...synth(p => new App(p), false).keys()]).toEqual(['jobs.k8s.yaml', 'runtimes.k8s.yaml', 'vision.k8s.yaml']);
  expect([...synth(p => new App(p), true).keys()]).toEqual(['0000-runtimes.k8s.yaml', '0001-jobs.k8s.yaml', '0002-vision.k8s.yaml']);
});

test('StableFileNamesApp: the same file names and byte-identical content with and without the dependency', () => {
  const before = synth(p => new StableFileNamesApp(p), false);
  const after = synth(p => new StableFileNamesApp(p), true);
  expect([...before.keys()]).toEqual(['jobs.k8s.yaml', 'runtimes.k8s.yaml', 'vision.k8s.yaml']);
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [file, text] of before) expect({ file, text: after.get(file) }).toEqual({ file, text });
  // The content is cdk8s's own: what App writes under the numbered names.
  const numbered = synth(p => new App(p), true);
  expect(after.get('jobs.k8s.yaml')).toBe(numbered.get('0001-jobs.k8s.yaml'));
  const docs = [...after.values()].flatMap(t => yaml.loadAll(t) as any[]);
  expect(docs.map(d => `${d.kind} ${d.metadata.name}`)).toEqual(['TrainJob sft', 'ClusterTrainingRuntime torch-a100', 'PyTorchJob resnet']);
  expect(expectValidManifests(docs)).toBe(3);
});

test('a numbered file left from an earlier run is not taken for this run\'s, and folders per chart keep their names too', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'stable-names-'));
  folders.push(outdir);
  fs.writeFileSync(path.join(outdir, '0000-runtimes.k8s.yaml'), 'stale\n');
  build(new StableFileNamesApp({ outdir }), false).synth();
  expect(fs.readFileSync(path.join(outdir, 'runtimes.k8s.yaml'), 'utf8')).toContain('kind: ClusterTrainingRuntime');
  expect(fs.readFileSync(path.join(outdir, '0000-runtimes.k8s.yaml'), 'utf8')).toBe('stale\n');

  const perResource = { yamlOutputType: YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE };
  const before = synth(p => new StableFileNamesApp(p), false, perResource);
  const after = synth(p => new StableFileNamesApp(p), true, perResource);
  expect([...after.keys()]).toEqual(['jobs/TrainJob.sft.k8s.yaml', 'runtimes/ClusterTrainingRuntime.torch-a100.k8s.yaml', 'vision/PyTorchJob.resnet.k8s.yaml']);
  expect(after).toEqual(before);
});
