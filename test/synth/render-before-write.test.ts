/**
 * Render-time errors cannot happen after validation: one pass renders every object of the app
 * before anything is written, so plain `app.synth()` into an existing folder never leaves some
 * charts rewritten and others not.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, JsonPatch, Lazy, YamlOutputType } from 'cdk8s';
import { DistributedPyTorch } from '../../src';
import { PYTORCH_IMAGE as IMAGE } from '../harness/job-fixtures';


function build(outdir: string, crash: boolean): App {
  const app = new App({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART });
  new DistributedPyTorch(new Chart(app, 'first'), 'job', { metadata: { name: 'train' }, image: IMAGE, workers: crash ? 2 : 1 });
  new ApiObject(new Chart(app, 'second'), 'settings', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    data: Lazy.any({ produce: () => { if (crash) throw new Error('the value could not be computed'); return { a: 'b' }; } }),
  });
  return app;
}

test('an object that fails to render in a later chart stops synthesis before the first chart is rewritten', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-'));
  try {
    build(outdir, false).synth();
    const before = fs.readFileSync(path.join(outdir, 'first.k8s.yaml'), 'utf8');
    expect(before).toContain('replicas: 1');
    expect(() => build(outdir, true).synth()).toThrow(/^second\/settings: the object could not be rendered: .*the value could not be computed/);
    expect(fs.readFileSync(path.join(outdir, 'first.k8s.yaml'), 'utf8')).toBe(before);
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});

test('a library object that fails to render is reported with its construct path', () => {
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'render-')) });
  const job = new DistributedPyTorch(new Chart(app, 'first'), 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 1 });
  // A patch whose path does not exist fails when the manifest renders.
  job.apiObject.addJsonPatch(JsonPatch.replace('/spec/missing/deep', 1));
  expect(() => app.synth()).toThrow(/\[first\/job\] PyTorchJob is "train"; expected an object that renders; rendering failed: /);
  expect(fs.readdirSync(app.outdir)).toEqual([]);
});
