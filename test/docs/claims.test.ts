import * as fs from 'fs';
import * as path from 'path';
import { App, Chart, JsonPatch, Testing } from 'cdk8s';
import { DistributedPyTorch, SpawnerImage, TrainingRuntimeRef, TrainJob, WorkspaceKind, WorkspaceKindProps } from '../../src';
import { LINT_RULES } from '../../src/cli/rules/rules';
import { RULE_SETS } from '../../src/rules/rule-sets';
import { PINNED_CRD_FIELDS, WHOLE_NUMBER_0_OR_MORE } from '../harness/messages';

/**
 * The docs' claims that a test can hold to: each claim quotes the page's words (so rewording the page
 * makes the claim be read again) and proves them against the library. Snippets are run by
 * test/docs/readme.test.ts; this file holds the statements around them.
 */
const root = path.join(__dirname, '..', '..');
const page = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const docs = ['README.md', ...fs.readdirSync(path.join(root, 'docs'), { recursive: true })
  .map(f => path.join('docs', String(f))).filter(f => f.endsWith('.md')).sort()];

/** The page says this, with line breaks and indentation taken as single spaces. */
function expectPageSays(file: string, words: string): void {
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  expect({ file, says: flat(page(file)).includes(flat(words)) }).toEqual({ file, says: true });
}

function synthError(build: (chart: Chart) => void): string {
  const app = Testing.app();
  try {
    build(new Chart(app, 'vision'));
    app.synth();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('synth succeeded');
}

describe('README: what is checked', () => {
  /** The rules table between the markers: source title, family, count. */
  function tableRows(): Array<[string, string, number]> {
    const text = page('README.md');
    const block = text.slice(text.indexOf('<!-- rules:begin'), text.indexOf('<!-- rules:end -->'));
    return [...block.matchAll(/^ *\| ([^|]+) \| ([^|]+) \| (\d+) \|/gm)].map(m => [m[1].trim(), m[2].trim(), Number(m[3])]);
  }
  const SOURCE_OF: Record<string, string> = {
    'Kubernetes': 'kubernetes',
    'JobSet': 'jobset',
    'Trainer': 'trainer',
    'Training Operator': 'training-operator',
    'Notebooks': 'notebooks',
    'Kueue': 'kueue',
    'library': 'library',
  };

  test('the rules table counts every family of every source exactly as `cdk8s-kubeflow rules` does', () => {
    const fromCatalogue = new Map<string, number>();
    for (const r of LINT_RULES) fromCatalogue.set(`${r.source} ${r.family}`, (fromCatalogue.get(`${r.source} ${r.family}`) ?? 0) + 1);
    const fromReadme = new Map(tableRows().map(([title, family, n]) => [`${SOURCE_OF[title] ?? `unknown source ${title}`} ${family}`, n]));
    expect(Object.fromEntries([...fromReadme].sort())).toEqual(Object.fromEntries([...fromCatalogue].sort()));
  });

  test('every source the table names is a rule source, named as the paragraph below it names them', () => {
    const sources = new Set<string>(RULE_SETS.map(s => s.source));
    for (const title of Object.keys(SOURCE_OF)) expect(sources.has(SOURCE_OF[title])).toBe(true);
    expectPageSays('README.md', 'Each rule belongs to the component whose refusal it mirrors: Kubernetes, JobSet, Trainer, the Training Operator, Notebooks, Kueue, or the library itself');
  });

  test('the message shape and the two examples are what the library says', () => {
    expectPageSays('README.md', `\`vision/resnet: workers is -1; ${WHOLE_NUMBER_0_OR_MORE}\``);
    expect(synthError(chart => new DistributedPyTorch(chart, 'resnet', { image: 'pytorch/pytorch:2.5.0', workers: -1 })))
      .toBe(`vision/resnet: workers is -1; ${WHOLE_NUMBER_0_OR_MORE}`);

    expectPageSays('README.md', '`vision/resnet/Master: replicas is 2; expected 1: a static PyTorchJob has exactly one Master, which the operator makes rank 0 and the rendezvous address`');
    expect(synthError(chart => new DistributedPyTorch(chart, 'resnet', { image: 'pytorch/pytorch:2.5.0', workers: 1 }).master!.scale(2)))
      .toBe('vision/resnet/Master: replicas is 2; expected 1: a static PyTorchJob has exactly one Master, which the operator makes rank 0 and the rendezvous address');
  });

  test('the CRD schema with its CEL rules runs on every document, at synth too', () => {
    expectPageSays('README.md', "CEL rules (`x-kubernetes-validations`, with the schema's defaults filled in; rules that compare with `oldSelf` apply to updates only and are skipped)");
    // A TrainJob without any patch, whose args the typed class accepts and the CRD's maxItems refuses.
    const message = synthError(chart => new TrainJob(chart, 'job', {
      metadata: { name: 'job' },
      runtime: TrainingRuntimeRef.providedByCluster('torch-distributed'),
      args: Array.from({ length: 129 }, (_, i) => String(i)),
    }));
    expect(message).toMatch(/\[vision\/job\] spec\.trainer\.args(?: \(args\))? is .*; expected at most 128 items$/);
  });
});

describe('docs/constructs/pytorch.md: patches are checked', () => {
  test('the page says so', () => {
    expectPageSays('docs/constructs/pytorch.md', 'Patches are checked: the patched manifest goes through the same rules as any other');
  });

  const worker = '/spec/pytorchReplicaSpecs/Worker/template/spec';
  const job = (chart: Chart) => new DistributedPyTorch(chart, 'resnet', { image: 'pytorch/pytorch:2.5.0', workers: 1 });

  test('a misspelt field written by a patch fails at synth, naming the field', () => {
    expect(synthError(chart => job(chart).apiObject.addJsonPatch(JsonPatch.add(`${worker}/runtimeClasName`, 'nvidia')))).toBe([
      'Validation failed with the following errors:',
      `  [vision/resnet] spec.pytorchReplicaSpecs.Worker.template.spec.runtimeClasName is "nvidia"; ${PINNED_CRD_FIELDS} (did you mean "runtimeClassName"?); if the field is meant (a newer operator's), allow it with EscapeHatch.allowUnknownField(apiObject, "/spec/pytorchReplicaSpecs/Worker/template/spec/runtimeClasName")`,
    ].join('\n'));
  });

  test('a value the API server refuses, written by a patch, fails at synth', () => {
    expect(synthError(chart => job(chart).apiObject.addJsonPatch(JsonPatch.add(`${worker}/runtimeClassName`, 'Nvidia_GPU')))).toBe([
      'Validation failed with the following errors:',
      '  [vision/resnet] spec.pytorchReplicaSpecs.Worker.template.spec.runtimeClassName is "Nvidia_GPU"; expected a runtime class name: a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit',
    ].join('\n'));
  });
});

describe('docs/constructs/notebooks.md: the spawner fields', () => {
  test('displayName, description and icon are required, logo defaults to the icon', () => {
    expectPageSays('docs/constructs/notebooks.md', '`displayName`, `description` and `icon` (all three required by the CRD), `logo` (defaults to the icon)');
    const props: WorkspaceKindProps = {
      metadata: { name: 'jupyterlab' },
      displayName: 'JupyterLab',
      description: 'JupyterLab',
      icon: SpawnerImage.fromUrl('https://example.com/icon.png'),
      ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }],
    };
    for (const field of ['displayName', 'description', 'icon'] as const) {
      const { [field]: _left, ...without } = props;
      const app = new App();
      expect(() => new WorkspaceKind(new Chart(app, 'platform'), 'jupyterlab', without as WorkspaceKindProps))
        .toThrow(`platform/jupyterlab: ${field} is not set; expected ${field === 'icon' ? 'a SpawnerImage' : 'a string'}`);
    }
    const app = Testing.app();
    const platform = new Chart(app, 'platform');
    const kind = new WorkspaceKind(platform, 'jupyterlab', props);
    kind.addImageConfig('scipy', { displayName: 'SciPy', image: 'quay.io/jupyter/scipy-notebook:2024-10-07', ports: [{ id: 'jupyterlab', port: 8888 }] });
    kind.addPodConfig('cpu', { displayName: 'CPU' });
    const spawner = (Testing.synth(platform)[0] as { spec: { spawner: { icon: unknown; logo: unknown } } }).spec.spawner;
    expect(spawner.logo).toEqual(spawner.icon);
    expect(spawner.icon).toEqual({ url: 'https://example.com/icon.png' });
  });
});

describe('every page', () => {
  const ruleIds = new Set(LINT_RULES.map(r => r.id));
  /** Names of the same shape that are not rules: the library's rows of the inventory (a rule cites them). */
  const NOT_RULES = new Set(fs.readFileSync(path.join(root, 'inventory', 'library.yaml'), 'utf8').match(/(?<=- id: )library\/[a-z0-9-]+/g));

  test('every rule id a page names is a rule of the catalogue', () => {
    const unknown: string[] = [];
    for (const file of docs) {
      for (const m of page(file).matchAll(/`((?:kubernetes|training-operator|notebooks|trainer|kueue|jobset|library)\/[a-z0-9-]+)`/g)) {
        if (!ruleIds.has(m[1]) && !NOT_RULES.has(m[1])) unknown.push(`${file}: ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  test('every relative link of a page points at a file of the repository', () => {
    const broken: string[] = [];
    for (const file of docs) {
      for (const m of page(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/.test(target)) continue;
        if (!fs.existsSync(path.join(root, path.dirname(file), target))) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('every `npm run` and `npx projen` task a page names exists', () => {
    const scripts = JSON.parse(page('package.json')).scripts as Record<string, string>;
    const tasks = JSON.parse(page('.projen/tasks.json')).tasks as Record<string, unknown>;
    const missing: string[] = [];
    for (const file of docs) {
      for (const m of page(file).matchAll(/npm run ([a-z][\w:-]*)/g)) if (!(m[1] in scripts)) missing.push(`${file}: npm run ${m[1]}`);
      for (const m of page(file).matchAll(/npx projen ([a-z][\w:-]*)/g)) if (!(m[1] in tasks)) missing.push(`${file}: npx projen ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  test('every context key a page names is one the library reads', () => {
    const sources = fs.readdirSync(path.join(root, 'src'), { recursive: true }).map(String).filter(f => f.endsWith('.ts'))
      .map(f => fs.readFileSync(path.join(root, 'src', f), 'utf8')).join('\n');
    const unknown: string[] = [];
    for (const file of docs) {
      for (const m of page(file).matchAll(/`(cdk8s-kubeflow\/[a-z-]+)(?:\/<\w+>)?`/g)) {
        if (!sources.includes(`'${m[1]}`) && !sources.includes(`\`${m[1]}`)) unknown.push(`${file}: ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
