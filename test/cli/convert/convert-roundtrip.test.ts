/**
 * The proof of `convert`: every file of the three upstream corpora and every file the examples
 * synthesize converts to a module that type checks, passes the project's ESLint configuration and,
 * run, synthesizes the same objects as the file, compared as data.
 *
 * One normalisation is applied to the input before the comparison, and it is cdk8s's own: a member
 * whose value is null is left out of what cdk8s writes (`creationTimestamp: null`, an empty
 * `resources:` in YAML), so the expected object has null members dropped too. Key order is not
 * compared (cdk8s sorts keys; a Kubernetes object has no key order). A v1 job said by its L2
 * construct is compared after upstream's defaulting on both sides (convert-v1-defaults.ts says
 * which fields and cites the code); the paths where the two differ before it are checked to be
 * those fields alone. Nothing else is accepted.
 */
import * as fs from 'fs';
import * as path from 'path';
import { lintMessages, scratchFolder, synthesizeCharts, synthesizeModule, typeErrors } from './convert-harness';
import { readDocuments } from '../../../src/cli/base/input';
import { convert } from '../../../src/cli/convert/convert';
import { kueueAsRead } from '../../../src/cli/convert/convert-kueue';
import { Tier } from '../../../src/cli/convert/convert-mappers';
import { differences, normalised } from '../../../src/cli/convert/convert-typed';
import { withUpstreamDefaults } from '../../../src/cli/convert/convert-v1-defaults';
import { synthesizeExamples } from '../examples-output';

const ROOT = path.join(path.dirname(__dirname), '..', '..');
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
  // Kueue objects as Kueue reads them (kueueAsRead): convert writes v1beta1 input as v1beta2.
  return { name, expected: docs.map(d => kueueAsRead(normalised(d.doc))), conversion: convert(docs) };
});
/** The examples' output converted as one module, as a repository of them would be. */
const dist = converted.filter(c => c.name.startsWith('dist/'));
const wholeDist = convert(readDocuments([examples]).filter(d => d.doc !== null && d.doc !== undefined));
const TIERS: readonly Tier[] = ['l2', 'l2+patch', 'l1', 'l1+patch', 'api-object'];
/** The synthesized objects of each input, in input order. */
const synthesized = new Map(converted.map(c => [c.name, synthesizeModule(c.conversion.code).map(kueueAsRead)]));

/**
 * The fields where an object synthesized from a v1 job's construct may differ from the input as
 * written, because upstream's defaulting writes them when the input leaves them out (the list of
 * convert-v1-defaults.ts, as paths): replicas and restart policy of a replica spec, the framework
 * port, a resource request that equals its limit or a quantity spelled as a number, an empty pod
 * template metadata, a claim volume's or mount's `readOnly: false`, the run policy's
 * cleanPodPolicy, a PyTorchJob's nprocPerNode "auto", the MPI launcher's service account, and an
 * emptyDir's sizeLimit in Gi written in Mi.
 */
const ACCEPTED = [
  /^spec\/\w+ReplicaSpecs\/\w+\/(replicas|restartPolicy)$/,
  /^spec\/\w+ReplicaSpecs\/\w+\/template\/spec\/containers\/0\/ports$/,
  /^spec\/\w+ReplicaSpecs\/\w+\/template\/spec\/containers\/0\/resources\/(limits|requests)(\/[^/]+)?$/,
  /^spec\/\w+ReplicaSpecs\/\w+\/template\/metadata$/,
  /^spec\/\w+ReplicaSpecs\/\w+\/template\/spec\/(volumes\/\d+\/persistentVolumeClaim|containers\/0\/volumeMounts\/\d+)\/readOnly$/,
  /^spec\/runPolicy(\/cleanPodPolicy)?$/,
  /^spec\/nprocPerNode$/,
  /^spec\/mpiReplicaSpecs\/Launcher\/template\/spec\/serviceAccountName$/,
  /^spec\/\w+ReplicaSpecs\/\w+\/template\/spec\/volumes\/\d+\/emptyDir\/sizeLimit$/,
];
const moduleName = (name: string) => `${name.replace(/[^A-Za-z0-9]+/g, '_')}.ts`;

describe('every file of the corpora and of the examples\' output converts', () => {
  test('the inputs are the three upstream corpora and the examples', () => {
    const corpora = new Set(inputs.map(i => i.name.split(path.sep).slice(0, 3).join('/')));
    expect([...corpora].filter(c => c.startsWith('upstream')).sort()).toEqual(['upstream/examples/upstream', 'upstream/examples/upstream-v2']);
    expect(inputs.filter(i => i.name.includes('notebooks-v2')).length).toBe(2);
    expect(inputs.filter(i => i.name.startsWith('dist/')).length).toBeGreaterThanOrEqual(20);
  });

  test.each(converted.map(c => [c.name, c]))('%s synthesizes the same objects', (name, c) => {
    expect(c.expected.length).toBeGreaterThan(0);
    const objects = synthesized.get(name)!;
    expect(objects.map(withUpstreamDefaults)).toStrictEqual(c.expected.map(withUpstreamDefaults));
    // Before the defaulting, a v1 job may differ in the accepted fields only, and any other object not at all.
    const strict = objects.flatMap((o, i) => differences(c.expected[i], o).map(p => ({ kind: o.kind, path: p.join('/') })));
    expect(strict.filter(d => !(d.kind.endsWith('Job') && ACCEPTED.some(a => a.test(d.path))))).toEqual([]);
  });

  test('the examples\' output as one module: the Kueue objects link up across files, and each chart synthesizes its file', () => {
    const byChart = synthesizeCharts(wholeDist.code);
    const files = new Map(dist.map(c => [path.basename(c.name).replace(/\.k8s\.yaml$/, ''), c.expected]));
    expect(byChart.map(([id]) => id).sort()).toEqual([...files.keys()].sort());
    for (const [id, objects] of byChart) expect([id, objects.map(kueueAsRead)]).toStrictEqual([id, files.get(id)]);
    // Every Kueue object of the examples by its L2, the LocalQueues linked to the platform's ClusterQueues.
    expect(wholeDist.tiers.filter(t => t.kind.startsWith('kueue.x-k8s.io/')).map(t => `${t.kind.split(' ')[1]}: ${t.tier} ${t.objects}`)).toEqual([
      'ClusterQueue: l2 5', 'Cohort: l2 3', 'LocalQueue: l2 5', 'ResourceFlavor: l2 2', 'Topology: l2 1', 'WorkloadPriorityClass: l2 2',
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
    const asWritten = converted.reduce((n, c) => n + synthesized.get(c.name)!.filter((o, i) => differences(c.expected[i], o).length === 0).length, 0);
    const figures = { upstream: count(upstream), dist: count(dist), kinds: table, identicalAsWritten: asWritten, v1Fallbacks: v1Fallbacks() };
    expect(figures).toMatchSnapshot();

    // docs/cli.md quotes these figures.
    const objects = (tier: Tier) => converted.reduce((n, c) => n + c.conversion.tiers.filter(t => t.tier === tier)
      .reduce((m, t) => m + t.objects, 0), 0);
    const total = converted.reduce((n, c) => n + c.conversion.objects, 0);
    const sentence = `${count(upstream).replace(/ files, (\d+) objects/, ' upstream files ($1 objects)')} and ${count(dist).replace(/ files, (\d+) objects/, ' example files ($1 objects)')}, all identical `
      + `(${asWritten} as written, the other ${total - asWritten} after upstream's defaulting). `
      + `Of the ${total} objects, ${objects('l2') + objects('l2+patch')} are said by an L2 construct (${objects('l2+patch')} of them with JSON patches), `
      + `${objects('l1') + objects('l1+patch')} by their typed L1 class `
      + `(${objects('l1+patch')} of them with JSON patches: an XGBoostJob whose pod templates carry an \`apiVersion\` and a \`kind\`) and ${objects('api-object')} by an ApiObject`;
    const flat = (s: string) => s.replace(/\s+/g, ' ');
    // (Its figures of v1 jobs are the snapshot's v1Fallbacks and kinds rows.)
    expect(flat(fs.readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8'))).toContain(sentence);
  });
});

/**
 * Why the v1 jobs left to their L1 are, grouped: the comment above each, with the fields named
 * (which differ per job) left out of the group.
 */
function v1Fallbacks(): { [why: string]: number } {
  const groups: { [why: string]: number } = {};
  for (const c of converted) {
    const text = c.conversion.code.replace(/\n\s*\/\/ /g, ' ');
    for (const m of text.matchAll(/The (DistributedPyTorch|ParameterServerTF|MpiAllReduce|DistributedXGBoost|DistributedPaddle|DistributedJax) construct (.*?); its typed L1 class says it\./g)) {
      const fields = /^does not say (.*) \(\d+ fields, one patched alike in several pods counted once; convert patches at most \d+\)$/.exec(m[2]);
      const why = m[2].startsWith('would refuse it at synth') ? 'would refuse it at synth (lint finds fault with it)'
        : fields ? `more than 2 fields to patch: ${[...new Set(fields[1].split(', ').map(f => f.replace(/^[A-Z]\w*\.template\./, 'pods: ')))].sort().join(', ')}`
          : m[2];
      groups[why] = (groups[why] ?? 0) + 1;
    }
  }
  return Object.fromEntries(Object.entries(groups).sort(([a], [b]) => a.localeCompare(b)));
}
