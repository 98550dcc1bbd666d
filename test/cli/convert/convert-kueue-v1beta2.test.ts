/**
 * `convert` writes Kueue objects as v1beta2 L2 code, from v1beta1 and v1beta2 input alike (issue
 * 39): a multi-file setup whose flavors are in another file, quotas written as plain numbers and a
 * flavor without spec, all by their L2 constructs; a v1beta1 setup with a cohort, by the Cohort
 * construct (a cohort of the input by its variable, one outside it by `Cohort.fromName`); and an
 * L1 enum field whose values two enums share written as the field's own enum member.
 * The generated modules are compared with the text in fixtures/convert-kueue/*.expected.ts.txt,
 * read above, and synthesized (compared as Kueue reads both: kueueAsRead).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yamlText from 'js-yaml';
import { scratchFolder, synthesizeCharts, typeErrors } from './convert-harness';
import { readDocuments } from '../../../src/cli/base/input';
import { print } from '../../../src/cli/convert/convert-code';
import { kueueAsRead } from '../../../src/cli/convert/convert-kueue';
import { mapTyped, normalised } from '../../../src/cli/convert/convert-typed';
import { EXIT } from '../../../src/cli/main';
import { kueueV1beta2Form } from '../../../src/rules/kueue/v1beta2-form';
import { runCli } from '../run-cli';

const FIXTURES = path.join(path.dirname(__dirname), 'fixtures', 'convert-kueue');
const scratch = scratchFolder('converted-kueue-v1beta2');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** What `convert` prints for `args`, run from the repository root so that the files' names in the module are relative. */
function convertAt(args: string[]) {
  const cwd = process.cwd();
  process.chdir(path.join(path.dirname(__dirname), '..', '..'));
  try {
    return runCli(['convert', ...args]);
  } finally {
    process.chdir(cwd);
  }
}

const expected = (name: string) => fs.readFileSync(path.join(FIXTURES, `${name}.expected.ts.txt`), 'utf8');
const asRead = (docs: any[]) => docs.map(d => kueueAsRead(normalised(d)));

describe('a platform in two files: flavors in one (one without spec), a queue with plain-number quotas in the other', () => {
  const result = convertAt([path.join('test', 'cli', 'fixtures', 'convert-kueue', 'platform')]);

  test('every object by its L2 construct, written as v1beta2', () => {
    expect(result.status).toBe(EXIT.OK);
    expect(result.stderr).toBe([
      'cdk8s-kubeflow: converted 4 objects from 2 files',
      '  kueue.x-k8s.io/v1beta2 ClusterQueue: 1 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 LocalQueue: 1 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 ResourceFlavor: 2 by its L2 construct',
      '',
    ].join('\n'));
    expect(result.stdout).toBe(expected('platform'));
  });

  test('the charts synthesize the files\' objects as Kueue reads them (cpu 9 is "9", no spec is spec {})', () => {
    const files = ['flavors', 'queues'];
    const input = files.map(f => [f, asRead(readDocuments([path.join(FIXTURES, 'platform', `${f}.yaml`)]).map(d => d.doc))]);
    expect(synthesizeCharts(result.stdout).map(([id, docs]) => [id, asRead(docs)])).toStrictEqual(input);
    expect(asRead(synthesizeCharts(result.stdout)[1][1])[0].spec.resourceGroups[0].flavors[0].resources[0]).toEqual({ name: 'cpu', nominalQuota: '9' });
  });

  test('the module type checks', () => {
    expect(typeErrors(new Map([['kueue_platform_files.ts', result.stdout]]), scratch)).toEqual([]);
  });
});

describe('a v1beta1 setup with a cohort', () => {
  const file = path.join('test', 'cli', 'fixtures', 'convert-kueue', 'cohort-v1beta1.yaml');
  const result = convertAt([file]);

  test('the Cohort by its construct (its parent, outside the input, by name), the ClusterQueue naming it by variable', () => {
    expect(result.status).toBe(EXIT.OK);
    expect(result.stderr).toBe([
      'cdk8s-kubeflow: converted 4 objects from 1 file',
      '  kueue.x-k8s.io/v1beta2 ClusterQueue: 1 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 Cohort: 1 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 LocalQueue: 1 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 ResourceFlavor: 1 by its L2 construct',
      '',
    ].join('\n'));
    expect(result.stdout).toBe(expected('cohort-v1beta1'));
  });

  test('the same objects written as v1beta2 give the same module', () => {
    const v1beta2 = fs.readFileSync(path.join(FIXTURES, 'cohort-v1beta1.yaml'), 'utf8').split(/^---$/m)
      .map(d => yamlText.dump(kueueV1beta2Form(yamlText.load(d)).doc)).join('---\n');
    const dir = fs.mkdtempSync(path.join(scratch, 'v1beta2-'));
    fs.writeFileSync(path.join(dir, 'cohort-v1beta1.yaml'), v1beta2);
    expect(v1beta2).toContain('cohortName: research');
    expect(v1beta2).toContain('admissionChecksStrategy:');
    const again = runCli(['convert', path.join(dir, 'cohort-v1beta1.yaml')]);
    expect(again.stdout.split(path.join(dir, 'cohort-v1beta1.yaml')).join(file)).toBe(result.stdout);
  });

  // Needs the Cohort construct and ClusterQueueProps.cohort: ICohort (the kueue-core branch).
  test('the module type checks and synthesizes the v1beta2 form of the input', () => {
    expect(typeErrors(new Map([['cohort_v1beta1.ts', result.stdout]]), scratch)).toEqual([]);
    expect(asRead(synthesizeCharts(result.stdout)[0][1])).toStrictEqual(asRead(readDocuments([file]).map(d => d.doc)));
  });
});

test('an L1 enum field whose values two enums share (a ClusterQueue\'s and a LocalQueue\'s stopPolicy) takes its own enum\'s member', () => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const module = () => require('../../../imports/kueue');
  /* eslint-enable @typescript-eslint/no-require-imports */
  for (const [kind, props] of [['ClusterQueue', { namespaceSelector: {}, stopPolicy: 'Hold' }], ['LocalQueue', { clusterQueue: 'q', stopPolicy: 'Hold' }]] as const) {
    const apiVersion = module()[kind].GVK.apiVersion;
    const doc = { apiVersion, kind, metadata: { name: 'x' }, spec: props };
    const mapped = mapTyped(doc, { namespace: 'kueue', className: kind, module, load: () => module()[kind] });
    expect(print(mapped.props)).toContain(`stopPolicy: kueue.${kind}SpecStopPolicy.HOLD,`);
    expect(mapped.patches).toEqual([]);
  }
});

test('a Cohort tree of v1beta2 input: the parent of the input by its variable, a Cohort\'s quotas by flavor construct', () => {
  const text = [
    'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: a100}\n',
    'apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: org}\nspec:\n  resourceGroups:\n    - coveredResources: [nvidia.com/gpu]\n'
      + '      flavors:\n        - name: a100\n          resources: [{name: nvidia.com/gpu, nominalQuota: 16}]\n',
    'apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: research}\nspec: {parentName: org}\n',
  ].join('---\n');
  const result = runCli(['convert', '-'], text);
  expect(result.stderr).toBe('cdk8s-kubeflow: converted 3 objects from 1 file\n  kueue.x-k8s.io/v1beta2 Cohort: 2 by its L2 construct\n'
    + '  kueue.x-k8s.io/v1beta2 ResourceFlavor: 1 by its L2 construct\n');
  expect(result.stdout).toContain([
    '  const cohortOrg = new Cohort(stdinChart, \'cohort-org\', {',
    '    metadata: {',
    '      name: \'org\',',
    '    },',
    '    resourceGroups: [',
    '      {',
    '        flavors: [',
    '          {',
    '            flavor: flavorA100,',
    '            quotas: [ResourceQuota.accelerator(Accelerator.nvidia(16))],',
    '          },',
    '        ],',
    '      },',
    '    ],',
    '  });',
    '  new Cohort(stdinChart, \'cohort-research\', {',
    '    metadata: {',
    '      name: \'research\',',
    '    },',
    '    parent: cohortOrg,',
    '  });',
    '}',
    '',
  ].join('\n'));
});
