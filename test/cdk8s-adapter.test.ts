/**
 * The guard of src/rules/cdk8s-adapter.ts: every behaviour of cdk8s the adapter relies on,
 * checked against the installed cdk8s. If an upgrade changes one, this fails by name; read the
 * adapter's comment before changing either.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, YamlOutputType } from 'cdk8s';
import { Construct } from 'constructs';
import { DistributedPyTorch } from '../src';
import { aroundEachSynth } from '../src/rules/cdk8s-adapter';
import { addRenderStep } from '../src/rules/render-hook';

const IMAGE = 'registry.example.com/train:1.0';

function tempApp(props: { yamlOutputType?: YamlOutputType } = {}): App {
  return new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'adapter-')), ...props });
}

function written(app: App): string[] {
  return fs.existsSync(app.outdir) ? fs.readdirSync(app.outdir).sort() : [];
}

describe('what the adapter assumes of cdk8s', () => {
  test('1. synth and synthYaml are plain methods of App.prototype, which an own property of the instance shadows', () => {
    for (const method of ['synth', 'synthYaml'] as const) {
      const descriptor = Object.getOwnPropertyDescriptor(App.prototype, method);
      expect(typeof descriptor?.value).toBe('function');
      expect(Object.prototype.hasOwnProperty.call(tempApp(), method)).toBe(false);
    }
  });

  test('2. synth validates the root before the first file is written, and again for every chart it writes', () => {
    const app = tempApp();
    const seen: string[][] = [];
    app.node.addValidation({ validate: () => { seen.push(written(app)); return []; } });
    for (const id of ['a', 'b', 'c']) new ApiObject(new Chart(app, id), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    app.synth();
    // Once for the app, then once per chart (Chart.toJson validates the whole app before rendering it).
    expect(seen.length).toBe(4);
    expect(seen[0]).toEqual([]);
    expect(written(app)).toEqual(['a.k8s.yaml', 'b.k8s.yaml', 'c.k8s.yaml']);
  });

  test('2. synthYaml validates the root before it renders anything for output, and again per chart', () => {
    const app = tempApp();
    const events: string[] = [];
    app.node.addValidation({ validate: () => { events.push('validate'); return []; } });
    for (const id of ['a', 'b']) {
      const object = new ApiObject(new Chart(app, id), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
      const render = object.toJson.bind(object);
      Object.defineProperty(object, 'toJson', { value: () => { events.push(`render ${id}`); return render(); } });
    }
    app.synthYaml();
    expect(events).toEqual(['validate', 'validate', 'render a', 'validate', 'render b']);
  });

  test('2. a validation error stops synth before any file is written', () => {
    const app = tempApp();
    new ApiObject(new Chart(app, 'a'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    new Construct(app, 'bad').node.addValidation({ validate: () => ['wrong'] });
    expect(() => app.synth()).toThrow('[bad] wrong');
    expect(written(app)).toEqual([]);
  });
});

describe('the adapter', () => {
  test('brackets each synth and synthYaml of the one app, also when synthesis throws', () => {
    const app = tempApp();
    const events: string[] = [];
    aroundEachSynth(app, { begin: () => events.push('begin'), end: () => events.push('end') });
    aroundEachSynth(app, { begin: () => events.push('second begin'), end: () => events.push('second end') });
    app.node.addValidation({ validate: () => { events.push('validate'); return []; } });
    new ApiObject(new Chart(app, 'a'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    app.synth();
    expect(events).toEqual(['begin', 'validate', 'validate', 'end']);
    expect(written(app)).toEqual(['a.k8s.yaml']);
    events.length = 0;
    expect(app.synthYaml()).toContain('kind: ConfigMap');
    expect(events).toEqual(['begin', 'validate', 'validate', 'end']);
    events.length = 0;
    new Construct(app, 'bad').node.addValidation({ validate: () => ['wrong'] });
    expect(() => app.synth()).toThrow('[bad] wrong');
    expect(events).toEqual(['begin', 'validate', 'end']);
    // Other apps are untouched.
    expect(Object.prototype.hasOwnProperty.call(tempApp(), 'synth')).toBe(false);
  });

  test('with it, the library renders each object once per synth however many charts cdk8s writes', () => {
    for (const yamlOutputType of [YamlOutputType.FILE_PER_CHART, YamlOutputType.FILE_PER_APP, YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE]) {
      const app = tempApp({ yamlOutputType });
      const renders: string[] = [];
      for (const id of ['a', 'b', 'c']) {
        const job = new DistributedPyTorch(new Chart(app, id), 'job', { metadata: { name: `job-${id}` }, image: IMAGE, workers: 1 });
        addRenderStep(job.apiObject, json => { renders.push(id); return json; });
      }
      app.synth();
      expect(renders.sort()).toEqual(['a', 'b', 'c']);
      // Outside synth, each rendering is fresh (the objects may have changed in between).
      app.charts[0].toJson();
      expect(renders.filter(r => r === 'a').length).toBeGreaterThan(1);
    }
  });
});
