/**
 * The proof of `convert`: every file of the three upstream corpora and every file the examples
 * synthesize converts to a module that type checks, passes the project's ESLint configuration and,
 * run, synthesizes the same objects as the file, compared as data.
 *
 * One normalisation is applied to the input before the comparison, and it is cdk8s's own: a member
 * whose value is null is left out of what cdk8s writes (`creationTimestamp: null`, an empty
 * `resources:` in YAML), so the expected object has null members dropped too. Key order is not
 * compared (cdk8s sorts keys; a Kubernetes object has no key order). Nothing else is accepted.
 */
import * as fs from 'fs';
import * as path from 'path';
import { lintMessages, scratchFolder, synthesizeCharts, synthesizeModule, typeErrors } from './convert-harness';
import { synthesizeExamples } from './examples-output';
import { convert } from '../../src/cli/convert';
import { Tier } from '../../src/cli/convert-mappers';
import { normalised } from '../../src/cli/convert-typed';
import { readDocuments } from '../../src/cli/input';

const ROOT = path.join(__dirname, '..', '..');
const UPSTREAM = path.join(ROOT, 'upstream', 'examples');
const examples = synthesizeExamples();
const scratch = scratchFolder('converted');
afterAll(() => {
  fs.rmSync(examples, { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Every YAML file of the corpora, named relative to the repository, and of the examples' output. */
const inputs: Array<{ readonly name: string; readonly file: string }> = [
  ...yamlUnder(UPSTREAM).map(f => ({ name: path.relative(ROOT, f), file: f })),
  ...fs.readdirSync(examples).filter(f => f.endsWith('.yaml')).sort().map(f => ({ name: `dist/${f}`, file: path.join(examples, f) })),
];

function yamlUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? yamlUnder(p) : /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

/** Per input: the generated module, and what the input holds (objects, nulls dropped). */
const converted = inputs.map(({ name, file }) => {
  const docs = readDocuments([file]).filter(d => d.doc !== null && d.doc !== undefined);
  return { name, expected: docs.map(d => normalised(d.doc)), conversion: convert(docs) };
});
/** The examples' output converted as one module, as a repository of them would be. */
const dist = converted.filter(c => c.name.startsWith('dist/'));
const wholeDist = convert(readDocuments([examples]).filter(d => d.doc !== null && d.doc !== undefined));
const TIERS: readonly Tier[] = ['l2', 'l2+patch', 'l1', 'l1+patch', 'api-object'];
const moduleName = (name: string) => `${name.replace(/[^A-Za-z0-9]+/g, '_')}.ts`;

describe('every file of the corpora and of the examples\' output converts', () => {
  test('the inputs are the three upstream corpora and the examples', () => {
    const corpora = new Set(inputs.map(i => i.name.split(path.sep).slice(0, 3).join('/')));
    expect([...corpora].filter(c => c.startsWith('upstream')).sort()).toEqual(['upstream/examples/upstream', 'upstream/examples/upstream-v2']);
    expect(inputs.filter(i => i.name.includes('notebooks-v2')).length).toBe(2);
    expect(inputs.filter(i => i.name.startsWith('dist/')).length).toBeGreaterThanOrEqual(20);
  });

  test.each(converted.map(c => [c.name, c]))('%s synthesizes the same objects', (_name, c) => {
    expect(c.expected.length).toBeGreaterThan(0);
    expect(synthesizeModule(c.conversion.code)).toStrictEqual(c.expected);
  });

  test('the examples\' output as one module: the Kueue objects link up across files, and each chart synthesizes its file', () => {
    const byChart = synthesizeCharts(wholeDist.code);
    const files = new Map(dist.map(c => [path.basename(c.name).replace(/\.k8s\.yaml$/, ''), c.expected]));
    expect(byChart.map(([id]) => id).sort()).toEqual([...files.keys()].sort());
    for (const [id, objects] of byChart) expect([id, objects]).toStrictEqual([id, files.get(id)]);
    // Every Kueue object of the examples by its L2, the LocalQueues linked to the platform's ClusterQueues.
    expect(wholeDist.tiers.filter(t => t.kind.startsWith('kueue.x-k8s.io/')).map(t => `${t.kind.split(' ')[1]}: ${t.tier} ${t.objects}`)).toEqual([
      'ClusterQueue: l2 5', 'LocalQueue: l2 5', 'ResourceFlavor: l2 2', 'Topology: l2 1', 'WorkloadPriorityClass: l2 2',
    ]);
  });

  test('every generated module type checks (strict, no unused names)', () => {
    const modules = new Map([...converted.map(c => [moduleName(c.name), c.conversion.code] as const), ['dist_as_one.ts', wholeDist.code]]);
    expect(typeErrors(modules, scratch)).toEqual([]);
  });

  test('every generated module passes the project\'s ESLint configuration, warnings included', async () => {
    for (const c of converted) fs.writeFileSync(path.join(scratch, moduleName(c.name)), c.conversion.code);
    fs.writeFileSync(path.join(scratch, 'dist_as_one.ts'), wholeDist.code);
    expect(await lintMessages([...converted.map(c => path.join(scratch, moduleName(c.name))), path.join(scratch, 'dist_as_one.ts')])).toEqual([]);
  });

  test('the figures: files, objects, and how each kind is said', () => {
    const byKind = new Map<string, Map<Tier, number>>();
    for (const c of converted) {
      for (const t of c.conversion.tiers) {
        const tiers = byKind.get(t.kind) ?? new Map<Tier, number>();
        tiers.set(t.tier, (tiers.get(t.tier) ?? 0) + t.objects);
        byKind.set(t.kind, tiers);
      }
    }
    const table = [...byKind].sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, tiers]) => `${kind}: ${TIERS.filter(t => tiers.has(t)).map(t => `${t} ${tiers.get(t)}`).join(', ')}`);
    const upstream = converted.filter(c => c.name.startsWith('upstream'));
    const count = (cs: typeof converted) => `${cs.length} files, ${cs.reduce((n, c) => n + c.conversion.objects, 0)} objects`;
    expect({ upstream: count(upstream), dist: count(dist), kinds: table }).toMatchSnapshot();

    // docs/cli.md quotes these figures.
    const objects = (tier: Tier) => converted.reduce((n, c) => n + c.conversion.tiers.filter(t => t.tier === tier)
      .reduce((m, t) => m + t.objects, 0), 0);
    const total = converted.reduce((n, c) => n + c.conversion.objects, 0);
    const sentence = `${count(upstream).replace(/ files, (\d+) objects/, ' upstream files ($1 objects)')} and ${count(dist).replace(/ files, (\d+) objects/, ' example files ($1 objects)')}, all identical. `
      + `Of the ${total} objects, ${objects('l2') + objects('l2+patch')} are said by an L2 construct (${objects('l2+patch')} of them with JSON patches: `
      + 'upstream\'s torch, JAX and XGBoost runtimes, written without the security settings and Istio opt-out the construct writes), '
      + `${objects('l1') + objects('l1+patch')} by their typed L1 class `
      + `(${objects('l1+patch')} of them with JSON patches: an XGBoostJob whose pod templates carry an \`apiVersion\` and a \`kind\`) and ${objects('api-object')} by an ApiObject`;
    const flat = (s: string) => s.replace(/\s+/g, ' ');
    expect(flat(fs.readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8'))).toContain(sentence);
  });
});
