/**
 * Every rule message a bad prop value produces names the prop, as well as the rendered field: the
 * test walks the public props of the L2 constructs (from the jsii assembly's table), gives each
 * prop of a type a rule judges a bad value, and checks every message of the refusal, whether it is
 * thrown at once (a construct's own check) or reported at synth (a rule over the rendered document).
 */
import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as api from '../../src';
import { STRUCTS } from '../../src/boundary/schema.generated';
import { REPORT } from '../harness';

/** The constructs, each with props that synthesize cleanly. */
const CONSTRUCTS: { [cls: string]: { props: string; base: (chart: Chart) => any } } = {
  DistributedPyTorch: { props: 'DistributedPyTorchProps', base: () => ({ image: 'train:1', workers: 1 }) },
  ParameterServerTF: { props: 'ParameterServerTFProps', base: () => ({ image: 'train:1', workers: 1 }) },
  DistributedXGBoost: { props: 'DistributedXGBoostProps', base: () => ({ image: 'train:1', workers: 1 }) },
  DistributedPaddle: { props: 'DistributedPaddleProps', base: () => ({ image: 'train:1', workers: 1 }) },
  DistributedJax: { props: 'DistributedJaxProps', base: () => ({ image: 'train:1', workers: 1 }) },
  MpiAllReduce: { props: 'MpiAllReduceProps', base: () => ({ image: 'train:1', workers: 1 }) },
  TrainJob: { props: 'TrainJobProps', base: () => ({ runtime: api.TrainingRuntimeRef.cluster('torch-distributed'), image: 'train:1', numNodes: 1 }) },
  TrainingRuntime: { props: 'TrainingRuntimeProps', base: () => ({ mlPolicy: api.MlPolicy.torch(), image: 'train:1' }) },
  Workspace: { props: 'WorkspaceProps', base: () => ({ kind: api.WorkspaceKind.fromName('jupyterlab'), imageConfig: 'jupyter', podConfig: 'small' }) },
};

/** Bad values per type string of the table: values some rule or construct check refuses. */
const BAD: { [type: string]: unknown[] } = {
  'string': ['Bad Value!', ''],
  'number': [-1, 1e10, 0.5],
  'cdk8s.Duration': [Duration.days(100000), Duration.millis(1500)],
  'cdk8s.Size': [Size.kibibytes(1)],
  'string{}': [{ 'bad key!': 'v' }, { key: 'bad value!' }],
  'string[]': [[]],
  'RestartPolicy': [api.RestartPolicy.of('Sometimes')],
  'CleanPodPolicy': [api.CleanPodPolicy.of('Finished')],
  'NprocPerNode': [api.NprocPerNode.of(0)],
  'GangScheduler': [api.GangScheduler.of('Bad Name')],
};

/** Structs whose fields are walked one level down (`runPolicy.ttlAfterFinished`, `worker.priorityClassName`). */
const NESTED = new Set(['RunPolicy', 'RoleOptions', 'GangScheduling', 'ElasticOptions', 'ElasticBounds', 'Resources', 'MpiLauncherOptions']);

/** Required fields of nested structs, so that one bad field is the only thing wrong. */
const NESTED_BASE: { [struct: string]: object } = {
  ElasticOptions: { minWorkers: 1, maxWorkers: 2 },
  ElasticBounds: { minWorkers: 1, maxWorkers: 2 },
  GangScheduling: { scheduler: api.GangScheduler.VOLCANO },
};

interface Case { readonly cls: string; readonly path: string; readonly value: unknown; readonly props: any }

function cases(): Case[] {
  const out: Case[] = [];
  for (const [cls, { props, base }] of Object.entries(CONSTRUCTS)) {
    const chart = new Chart(Testing.app(), 'probe');
    for (const [prop, spec] of Object.entries(STRUCTS[props])) {
      const type = spec.replace(/^\?/, '');
      if (NESTED.has(type)) {
        for (const [inner, innerSpec] of Object.entries(STRUCTS[type])) {
          for (const value of BAD[innerSpec.replace(/^\?/, '')] ?? []) {
            out.push({ cls, path: `${prop}.${inner}`, value, props: { ...base(chart), [prop]: { ...NESTED_BASE[type], [inner]: value } } });
          }
        }
      }
      for (const value of BAD[type] ?? []) out.push({ cls, path: prop, value, props: { ...base(chart), [prop]: value } });
    }
  }
  return out;
}

/** The messages of a refusal: the error thrown at once, or each line of the synth report. */
function messages(c: Case): string[] {
  const app = Testing.app();
  const chart = new Chart(app, 'test');
  try {
    new (api as any)[c.cls](chart, 'it', { ...c.props });
    app.synth();
    return [];
  } catch (e: any) {
    const text: string = e.message;
    return text.startsWith(REPORT) ? text.slice(REPORT.length).split('\n').map(l => l.trim()) : [text];
  }
}

const ALL = cases();

test('the walk covers every construct and a bad value of each prop type a rule judges', () => {
  expect(new Set(ALL.map(c => c.cls)).size).toBe(Object.keys(CONSTRUCTS).length);
  expect(ALL.length).toBeGreaterThan(300);
});

test('every message produced from a bad prop value names the prop', () => {
  const unnamed: string[] = [];
  let refused = 0;
  for (const c of ALL) {
    const found = messages(c);
    if (found.length) refused++;
    for (const m of found) {
      // The prop path as a field of a construct check (`runPolicy.ttlAfterFinished is`), or after
      // the rendered field (`spec.runPolicy.ttlSecondsAfterFinished (runPolicy.ttlAfterFinished) is`).
      // A message about the struct that holds the prop (`parameterServer is "set"; expected no
      // parameter server options ...`) names the prop's parent, which is what is wrong.
      const paths = c.path.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'));
      const named = paths.some(p => m.includes(` ${p} is `) || m.includes(`: ${p} is `) || m.includes(`(${p})`) || m.includes(`(${p}.`)
        || m.includes(` ${p}.`) || m.includes(`: ${p}[`) || m.includes(` ${p}[`));
      if (!named) unnamed.push(`${c.cls} ${c.path}=${JSON.stringify(c.value)}: ${m}`);
    }
  }
  expect(unnamed).toEqual([]);
  expect(refused).toBeGreaterThan(100);
});
