/**
 * The guard of src/synth/cdk8s-adapter.ts: every behaviour of cdk8s the adapter relies on,
 * checked against the installed cdk8s. If an upgrade changes one, this fails by name; read the
 * adapter's comment before changing either.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, ImplicitTokenResolver, JsonPatch, Lazy, LazyResolver, NumberStringUnionResolver, ResolutionContext, YamlOutputType } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { DistributedPyTorch } from '../../src';
import { aroundEachChartRender, aroundEachSynth, kubeContainer, kubeVolume, propsRenderedByDefault } from '../../src/synth/cdk8s-adapter';
import { addRenderStep } from '../../src/synth/render-hook';

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

  test('4. Chart.toJson is a plain method of Chart.prototype; it validates the app, then renders the chart\'s objects', () => {
    const descriptor = Object.getOwnPropertyDescriptor(Chart.prototype, 'toJson');
    expect(typeof descriptor?.value).toBe('function');
    const app = tempApp();
    const events: string[] = [];
    app.node.addValidation({ validate: () => { events.push('validate'); return []; } });
    const charts = ['a', 'b'].map(id => {
      const chart = new Chart(app, id);
      const object = new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
      const render = object.toJson.bind(object);
      Object.defineProperty(object, 'toJson', { value: () => { events.push(`render ${id}`); return render(); } });
      return chart;
    });
    expect(Object.prototype.hasOwnProperty.call(charts[0], 'toJson')).toBe(false);
    charts[1].toJson();
    expect(events).toEqual(['validate', 'render b']);
  });

  test('2. a validation error stops synth before any file is written', () => {
    const app = tempApp();
    new ApiObject(new Chart(app, 'a'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    new Construct(app, 'bad').node.addValidation({ validate: () => ['wrong'] });
    expect(() => app.synth()).toThrow('[bad] wrong');
    expect(written(app)).toEqual([]);
  });
});

/** The versions the lock file pins: the adapter's assumptions are checked against these. */
const LOCK = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package-lock.json'), 'utf8')).packages;
const LOCKED_CDK8S: string = LOCK['node_modules/cdk8s'].version;
const LOCKED_PLUS: string = LOCK['node_modules/cdk8s-plus-28'].version;

describe(`what the one-walk rendering assumes of cdk8s ${LOCKED_CDK8S} (the lock file's)`, () => {
  test(`the installed cdk8s is ${LOCKED_CDK8S}, the lock file's`, () => {
    expect(JSON.parse(fs.readFileSync(require.resolve('cdk8s/package.json'), 'utf8')).version).toBe(LOCKED_CDK8S);
  });

  test('5. an ApiObject keeps the props it renders in the private field props, and its JSON patches in the private array patches', () => {
    const spec = { replicas: 2 };
    const object = new ApiObject(new Chart(tempApp(), 'a'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, spec } as any);
    const internals = object as any;
    expect(internals.props.spec).toBe(spec);
    expect(internals.patches).toEqual([]);
    expect(propsRenderedByDefault(object)).toBe(internals.props);
    object.addJsonPatch(JsonPatch.add('/spec/paused', true));
    expect(internals.patches).toHaveLength(1);
    expect(propsRenderedByDefault(object)).toBeUndefined();
    // A later change to the field is what toJson() renders: it is read, not copied, at construction.
    internals.patches.length = 0;
    internals.props.spec = { replicas: 3 };
    expect(object.toJson().spec).toEqual({ replicas: 3 });
  });

  test('5. toJson() resolves the props with the metadata, sorts keys and drops null and undefined, unless CDK8S_DISABLE_SORT is set', () => {
    const object = new ApiObject(new Chart(tempApp(), 'a'), 'cm', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { zeta: 'z', alpha: Lazy.any({ produce: () => 'a' }), gone: null, unset: undefined },
    } as any);
    expect(propsRenderedByDefault(object)).toBeDefined();
    const json = object.toJson();
    expect(Object.keys(json)).toEqual(['apiVersion', 'kind', 'metadata', 'data']);
    expect(json.data).toEqual({ alpha: 'a', zeta: 'z' });
    expect(Object.keys(json.data)).toEqual(['alpha', 'zeta']);
    process.env.CDK8S_DISABLE_SORT = '1';
    try {
      expect(propsRenderedByDefault(object)).toBeUndefined();
      expect(Object.keys(object.toJson().data)).toEqual(['zeta', 'alpha']);
    } finally {
      delete process.env.CDK8S_DISABLE_SORT;
    }
  });

  test('6. a new App resolves with LazyResolver, ImplicitTokenResolver and NumberStringUnionResolver, in that order; another resolver leaves rendering to cdk8s', () => {
    const app = tempApp();
    expect(app.resolvers.map(r => r.constructor)).toEqual([LazyResolver, ImplicitTokenResolver, NumberStringUnionResolver]);
    const own = new App({ outdir: app.outdir, resolvers: [{ resolve: (_: ResolutionContext) => undefined }, ...app.resolvers] });
    const object = new ApiObject(new Chart(own, 'a'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(propsRenderedByDefault(object)).toBeUndefined();
  });
});

describe(`what the library's pods assume of cdk8s-plus-28 ${LOCKED_PLUS} (the lock file's)`, () => {
  test(`the installed cdk8s-plus-28 is ${LOCKED_PLUS}, the lock file's`, () => {
    expect(JSON.parse(fs.readFileSync(require.resolve('cdk8s-plus-28/package.json'), 'utf8')).version).toBe(LOCKED_PLUS);
  });

  test('7. a Volume and a Container give, with _toKube(), the Kubernetes form cdk8s-plus\'s own pod writes', () => {
    const chart = new Chart(tempApp(), 'a');
    const volume = kplus.Volume.fromEmptyDir(chart, 'scratch', 'scratch', { medium: kplus.EmptyDirMedium.MEMORY });
    const pod = new kplus.Pod(chart, 'pod', { containers: [{ image: 'registry.example.com/app:1', volumeMounts: [{ path: '/scratch', volume }] }], volumes: [volume] });
    const podSpec = ApiObject.of(pod).toJson().spec;
    expect(kplus.k8s.toJson_Volume(kubeVolume(volume))).toEqual(podSpec.volumes[0]);
    expect(kubeVolume(volume)).toEqual({ name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: undefined } });
    const json = kplus.k8s.toJson_Container(kubeContainer(pod.containers[0]));
    expect(JSON.parse(JSON.stringify(json))).toEqual(podSpec.containers[0]);
    expect(json?.image).toBe('registry.example.com/app:1');
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

  test('brackets each toJson of the one chart, also when it throws, and inside synth', () => {
    const app = tempApp();
    const events: string[] = [];
    const chart = new Chart(app, 'a');
    aroundEachChartRender(chart, { begin: () => events.push('begin'), end: () => events.push('end') });
    aroundEachChartRender(chart, { begin: () => events.push('second begin'), end: () => events.push('second end') });
    app.node.addValidation({ validate: () => { events.push('validate'); return []; } });
    new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(chart.toJson().map(o => o.kind)).toEqual(['ConfigMap']);
    expect(events).toEqual(['begin', 'validate', 'end']);
    events.length = 0;
    app.synth();
    expect(events).toEqual(['validate', 'begin', 'validate', 'end']);
    events.length = 0;
    new Construct(app, 'bad').node.addValidation({ validate: () => ['wrong'] });
    expect(() => chart.toJson()).toThrow('[bad] wrong');
    expect(events).toEqual(['begin', 'validate', 'end']);
    // Other charts are untouched.
    expect(Object.prototype.hasOwnProperty.call(new Chart(app, 'b'), 'toJson')).toBe(false);
  });

  test('with it, chart.toJson() renders each of the library\'s objects once, and afresh on the next call', () => {
    const app = tempApp();
    const renders: string[] = [];
    const charts = ['a', 'b'].map(id => {
      const chart = new Chart(app, id);
      const job = new DistributedPyTorch(chart, 'job', { metadata: { name: `job-${id}` }, image: IMAGE, workers: 1 });
      addRenderStep(job.apiObject, json => { renders.push(id); return json; });
      return { chart, job };
    });
    const first = charts[0].chart.toJson();
    // The validation renders every object of the app; the chart returns what it rendered.
    expect(renders.sort()).toEqual(['a', 'b']);
    expect(first[0].spec.pytorchReplicaSpecs.Worker.replicas).toBe(1);
    charts[0].job.replicaGroups.find(g => g.replicaType === 'Worker')!.scale(3);
    renders.length = 0;
    const second = charts[0].chart.toJson();
    expect(renders.sort()).toEqual(['a', 'b']);
    expect(second[0].spec.pytorchReplicaSpecs.Worker.replicas).toBe(3);
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
