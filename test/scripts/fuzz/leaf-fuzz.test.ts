/**
 * The leaf fuzzer's pieces (scripts/fuzz/leaves.ts, scripts/leaf-fuzz-compare.ts): the leaf paths
 * of a schema, the values tried per leaf, the documents filled in along a path, the rotation of
 * paths per seed, and the decisions file, whose every entry names an inventory row.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { KEY_LANDINGS, LANDINGS } from '../../../scripts/fuzz/landings';
import { applyMutation, concretePath, fuzzSeed, FuzzLeaf, leafPaths, materialize, mutationsFor, replayCommand, rotation, seedSlot, setAt } from '../../../scripts/fuzz/leaves';
import { Decision, decisionFor, SOURCES } from '../../../scripts/leaf-fuzz-compare';
import { lint } from '../../../src/cli/lint/lint';
import { kindSchemas } from '../../harness';

const ROOT = path.join(__dirname, '..', '..', '..');
const schema = kindSchemas().get('kubeflow.org/v1 PyTorchJob')!;
const leaves = leafPaths(schema, {});
const leaf = (p: string): FuzzLeaf => {
  const found = leaves.find(l => l.path === p);
  if (!found) throw new Error(`no leaf ${p}`);
  return found;
};
const seed = {
  apiVersion: 'kubeflow.org/v1',
  kind: 'PyTorchJob',
  metadata: { name: 'mnist', namespace: 'ml' },
  spec: {
    pytorchReplicaSpecs: {
      Master: { replicas: 1, restartPolicy: 'OnFailure', template: { spec: { containers: [{ name: 'pytorch', image: 'pytorch:2' }] } } },
      Worker: { replicas: 1, restartPolicy: 'OnFailure', template: { spec: { containers: [{ name: 'pytorch', image: 'pytorch:2' }] } } },
    },
  },
};

describe('leaf paths', () => {
  test('the metadata fields lint reads come first, then the spec, into the pod template', () => {
    expect(leaves.slice(0, 6).map(l => l.path)).toEqual([
      'metadata.name', 'metadata.namespace', 'metadata.labels.*', 'metadata.labels.{key}', 'metadata.annotations.*', 'metadata.annotations.{key}',
    ]);
    expect(leaves.every(l => l.kindKey === 'kubeflow.org/v1 PyTorchJob')).toBe(true);
    expect(leaves.map(l => l.path)).toEqual(expect.arrayContaining([
      'spec.pytorchReplicaSpecs.*.replicas',
      'spec.pytorchReplicaSpecs.*.template.spec.containers[].ports[].containerPort',
      'spec.pytorchReplicaSpecs.*.template.spec.initContainers[].volumeMounts[].readOnly',
    ]));
    // Leaves only: no path is the prefix of another.
    const paths = new Set(leaves.map(l => l.path));
    expect([...paths].filter(p => [...paths].some(q => q !== p && (q.startsWith(`${p}.`) || q.startsWith(`${p}[`))))).toEqual([]);
  });
});

describe('values per leaf', () => {
  test('a container port: out of range both ways, int32 overflow, a fraction, a string, and 65535 accepted', () => {
    expect(mutationsFor(leaf('spec.pytorchReplicaSpecs.*.template.spec.containers[].ports[].containerPort'))).toEqual([
      { name: 'out-of-range', value: 65536 },
      { name: 'zero', value: 0 },
      { name: 'boundary', value: 65535, mustAccept: true },
      { name: 'negative', value: -1 },
      { name: 'too-large', value: 2147483648 },
      { name: 'fraction', value: 1.5 },
      { name: 'wrong-type', value: 'one' },
    ]);
  });

  test('a name: empty, too long for a subdomain, the longest label accepted, a wrong pattern, a number; then what the derived names refuse', () => {
    expect(mutationsFor(leaf('metadata.name')).map(m => [m.name, typeof m.value === 'string' ? m.value.length : m.value, m.mustAccept === true])).toEqual([
      ['empty', 0, false], ['too-long', 254, false], ['boundary', 63, true], ['wrong-pattern', 10, false], ['wrong-type', 12345, false],
      ['derived-name/leading-digit', 5, false], ['derived-name/dot', 6, false], ['derived-name/label-value-too-long', 64, false], ['derived-name/short', 1, true],
    ]);
  });

  test('a quantity: a bad suffix, a negative value, a wrong type, and "1" accepted', () => {
    expect(mutationsFor(leaf('spec.pytorchReplicaSpecs.*.template.spec.containers[].resources.limits.*'))).toEqual([
      { name: 'wrong-pattern', value: '1Gx' },
      { name: 'negative', value: '-1' },
      { name: 'boundary', value: '1', mustAccept: true },
      { name: 'wrong-type', value: true },
      // Where it lands: a container's resources (a fraction of an extended resource, zero, an exponent, sub-milli precision).
      { name: 'quantity/milli', value: '500m' },
      { name: 'quantity/zero', value: '0' },
      { name: 'quantity/exponent', value: '1e3', mustAccept: true },
      { name: 'quantity/too-precise', value: '0.0001' },
    ]);
  });

  test('an unbounded string gets a plain value the schema allows, not a boundary', () => {
    expect(mutationsFor(leaf('spec.runPolicy.cleanPodPolicy'))).toEqual([
      { name: 'empty', value: '' },
      { name: 'wrong-type', value: 12345 },
      { name: 'schema-valid', value: 'fuzz', mustAccept: true },
    ]);
  });
});

describe('where a leaf lands', () => {
  const trainJob = leafPaths(kindSchemas().get('trainer.kubeflow.org/v1alpha1 TrainJob')!, {});
  const trainJobLeaf = (p: string) => trainJob.find(l => l.path === p)!;
  const patchLabels = 'spec.runtimePatches[].trainingRuntimeSpec.template.spec.replicatedJobs[].template.spec.template.metadata.labels';

  test("a leaf the CRD leaves a plain string gets the rules of the derived field: a runtime patch's pod label", () => {
    expect(trainJobLeaf(`${patchLabels}.*`).landing).toBe('label-value');
    expect(mutationsFor(trainJobLeaf(`${patchLabels}.*`)).map(m => [m.name, m.value])).toEqual([
      ['empty', ''], ['wrong-type', 12345], ['schema-valid', 'fuzz'],
      ['label-value/too-long', 'a'.repeat(64)], ['label-value/wrong-pattern', 'Not_Valid-'], ['label-value/slash', 'a/b'],
      ['label-value/boundary', `a${'-_.'.repeat(20)}a`],
    ]);
  });

  test("a map whose keys land is a leaf of its own: the pod label's key, with a qualified name's rules", () => {
    const key = trainJobLeaf(`${patchLabels}.{key}`);
    expect(key.landing).toBe('label-key');
    expect(mutationsFor(key).map(m => m.name)).toEqual([
      'label-key/name-too-long', 'label-key/wrong-pattern', 'label-key/two-slashes', 'label-key/bad-prefix', 'label-key/prefix-too-long', 'label-key/empty', 'label-key/boundary',
    ]);
    expect(mutationsFor(trainJobLeaf('spec.trainer.resourcesPerNode.limits.{key}')).map(m => m.value)).toEqual(['fuzz', 'Not_Valid-', 'kubernetes.io/fuzz', 'example.com/fuzz']);
  });

  test('env names, images and port names of the pods the leaves end up in', () => {
    expect(mutationsFor(trainJobLeaf('spec.trainer.env[].name')).filter(m => m.name.startsWith('env-name/')).map(m => m.value))
      .toEqual(['FUZZ=1', 'FUZZ\tNAME', 'FÜZZ', '1fuzz.env-name x']);
    // Surrounding spaces are tried already (an `image` field's wrong pattern): the landing adds a trailing newline and a digest reference.
    expect(mutationsFor(trainJobLeaf('spec.trainer.image')).filter(m => typeof m.value === 'string' && m.value.trim() !== m.value).map(m => [m.name, m.value]))
      .toEqual([['wrong-pattern', ' image:1 '], ['container-image/trailing-newline', 'image:1\n']]);
    expect(mutationsFor(leaf('spec.pytorchReplicaSpecs.*.template.spec.containers[].ports[].name')).filter(m => m.name.startsWith('port-name/')).map(m => m.value))
      .toEqual(['a'.repeat(16), '1234', 'fuzz_port', 'fuzz--port', `p${'1'.repeat(14)}`]);
    // A port the type already tries at 0, 65536 and 65535 is not tried again.
    expect(mutationsFor(leaf('spec.pytorchReplicaSpecs.*.template.spec.containers[].ports[].containerPort')).filter(m => m.name.startsWith('port/'))).toEqual([]);
    expect(mutationsFor(leaf('spec.elasticPolicy.rdzvPort')).filter(m => m.name.startsWith('port/')).map(m => m.value)).toEqual([0, 65536, 65535]);
  });

  test('every row of the table names leaves of some kind', () => {
    const all = [...kindSchemas()].flatMap(([, s]) => leafPaths(s, {}));
    const kindOf = (l: FuzzLeaf) => l.kindKey.split(' ')[1];
    for (const row of LANDINGS) expect([row.landing, all.some(l => !l.path.endsWith('{key}') && row.pattern.test(`${kindOf(l)} ${l.path}`))]).toEqual([row.landing, true]);
    for (const row of KEY_LANDINGS) expect([row.landing, all.some(l => l.path.endsWith('{key}') && row.pattern.test(`${kindOf(l)} ${l.path.slice(0, -'.{key}'.length)}`))]).toEqual([row.landing, true]);
  });

  test('the base a landing is tried on is valid: a new resource entry is cpu (storage in a claim), a runtime patch names a domain-prefixed manager', () => {
    const cpu = materialize(seed, leaf('spec.pytorchReplicaSpecs.*.template.spec.containers[].resources.limits.*'))!;
    expect(concretePath(cpu.concrete, cpu)).toBe('spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.cpu');
    const claim = materialize(seed, leaf('spec.pytorchReplicaSpecs.*.template.spec.volumes[].ephemeral.volumeClaimTemplate.spec.resources.requests.{key}'))!;
    expect(concretePath(claim.concrete, claim)).toBe('spec.pytorchReplicaSpecs.Master.template.spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests.{storage}');
    const patch = materialize({ spec: {} }, trainJobLeaf(`${patchLabels}.*`))!;
    expect(patch.doc.spec.runtimePatches[0].manager).toBe('fuzz.example.io/fuzz');
    expect(lint([{ file: 'f.yaml', line: 1, doc: applyMutation(cpu, '500m') }]).findings).toEqual([]);
  });

  test('a key is renamed in place, its value kept, and lint judges the key', () => {
    const base = materialize(seed, leaf('spec.pytorchReplicaSpecs.*.template.metadata.labels.{key}'))!;
    expect(concretePath(base.concrete, base)).toBe('spec.pytorchReplicaSpecs.Master.template.metadata.labels.{fuzz-key}');
    const doc = applyMutation(base, 'Not_Valid.io/a');
    expect(doc.spec.pytorchReplicaSpecs.Master.template.metadata.labels).toEqual({ 'Not_Valid.io/a': 'fuzz' });
    expect(lint([{ file: 'f.yaml', line: 1, doc }]).findings.map(f => `${f.field} ${f.rule}`))
      .toEqual(['spec.pytorchReplicaSpecs.Master.template.metadata.labels["Not_Valid.io/a"] kubernetes/label-key']);
  });
});

describe('documents', () => {
  test('a path the seed does not reach is filled in with what Kubernetes needs on the way (a map value: the first key)', () => {
    const base = materialize(seed, leaf('spec.pytorchReplicaSpecs.*.template.spec.initContainers[].volumeMounts[].readOnly'))!;
    expect(concretePath(base.concrete)).toBe('spec.pytorchReplicaSpecs.Master.template.spec.initContainers[0].volumeMounts[0].readOnly');
    expect(base.doc.spec.pytorchReplicaSpecs.Master.template.spec.initContainers).toEqual([
      { name: 'fuzz', image: 'fuzz:1', volumeMounts: [{ mountPath: '/fuzz', name: 'fuzz' }] },
    ]);
    // The seed is not changed.
    expect(seed.spec.pytorchReplicaSpecs.Master.template.spec).toEqual({ containers: [{ name: 'pytorch', image: 'pytorch:2' }] });
  });

  test('a mutated document is what lint judges: port 65536 is refused, 65535 accepted', () => {
    const base = materialize(seed, leaf('spec.pytorchReplicaSpecs.*.template.spec.containers[].ports[].containerPort'))!;
    // Named as the operator's own port: an unnamed one beside the port it adds makes a Service it cannot create.
    base.doc.spec.pytorchReplicaSpecs.Master.template.spec.containers[0].ports[0].name = 'pytorchjob-port';
    const rules = (value: number) => lint([{ file: 'f.yaml', line: 1, doc: setAt(base.doc, base.concrete, value) }]).findings.map(f => `${f.field} ${f.rule}`);
    expect(rules(65536)).toEqual(['spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].ports[0].containerPort kubernetes/port-number']);
    expect(rules(65535)).toEqual([]);
  });
});

describe('rotation', () => {
  test('a permutation of every path, the same for one seed, starting elsewhere for another', () => {
    const a = rotation(1000, 20261202);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(rotation(1000, 20261202)).toEqual(a);
    // A date seed is its day since 1970 (2026-12-02 is day 20789); the window is one path wide here.
    expect(seedSlot(20261202)).toBe(20789);
    expect(a[0]).toBe((20789 * 7919) % 1000);
    expect(rotation(1000, 7)[0]).toBe((7 * 7919) % 1000);
    // A stride, not a walk: the paths of one window are spread over the list (one run spans every kind).
    expect(a.slice(0, 10).filter((p, i) => i > 0 && p === a[i - 1] + 1)).toEqual([]);
    expect(Math.max(...a.slice(0, 10)) - Math.min(...a.slice(0, 10))).toBeGreaterThan(500);
  });
});

describe('the seed of a run and its window', () => {
  test('successive dates take successive windows, which tile every path before one repeats', () => {
    const width = 50;
    const windows = Array.from({ length: 20 }, (_, d) => {
      const day = new Date(Date.UTC(2026, 11, 2 + d)).toISOString().slice(0, 10).replace(/-/g, '');
      return rotation(1000, Number(day), width).slice(0, width);
    });
    const covered = windows.flat();
    expect(new Set(covered).size).toBe(1000);
    // The twenty-first day starts over where the first began.
    expect(rotation(1000, 20261222, width).slice(0, width)).toEqual(windows[0]);
    // Not a calendar date: the number itself is the slot.
    expect(seedSlot(20261340)).toBe(20261340);
    expect(seedSlot(7)).toBe(7);
  });

  test('LEAF_FUZZ_SEED, else the UTC date in CI, else the default; with the one command that replays it', () => {
    const now = new Date(Date.UTC(2026, 11, 3, 23, 59));
    expect(fuzzSeed({ LEAF_FUZZ_SEED: '7', CI: 'true' }, now)).toEqual({ seed: 7, from: 'LEAF_FUZZ_SEED' });
    expect(fuzzSeed({ CI: 'true' }, now)).toEqual({ seed: 20261203, from: 'the UTC date (CI)' });
    expect(fuzzSeed({ CI: 'false' }, now)).toEqual({ seed: 20261202, from: 'the default' });
    expect(fuzzSeed({}, now)).toEqual({ seed: 20261202, from: 'the default' });
    expect(() => fuzzSeed({ LEAF_FUZZ_SEED: 'today' }, now)).toThrow('leaf-fuzz: LEAF_FUZZ_SEED is "today"; expected a whole number such as 20261202');
    expect(replayCommand(20261203, 3000)).toBe('LEAF_FUZZ_SEED=20261203 npx projen test:conformance');
    expect(replayCommand(7, 500)).toBe('LEAF_FUZZ_SEED=7 FUZZ_BUDGET=500 npx projen test:conformance');
  });
});

describe('decisions', () => {
  const decisions: Decision[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'conformance', 'testdata', 'fuzz-decided.json'), 'utf8')).decisions;
  const rowIds = new Set(fs.readdirSync(path.join(ROOT, 'inventory')).filter(f => f.endsWith('.yaml') && !f.endsWith('.generated.yaml'))
    .flatMap(f => (yaml.load(fs.readFileSync(path.join(ROOT, 'inventory', f), 'utf8')) as any).rows.map((r: any) => r.id)));

  test('each decision has a reason and names a row of the inventory', () => {
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions.filter(d => !d.reason || !rowIds.has(d.inventory)).map(d => d.inventory)).toEqual([]);
  });

  test('a decision covers its direction, whole paths and whole mutation names only', () => {
    const d: Decision = { direction: 'library-stricter', path: '[A-Za-z]+ .*\\.workingDir', mutation: 'schema-valid', reason: 'runtime', inventory: 'x' };
    const c = { kind: 'PyTorchJob', path: 'spec.pytorchReplicaSpecs.*.template.spec.containers[].workingDir', mutation: 'schema-valid' };
    expect(decisionFor([d], c, 'library-stricter')).toBe(d);
    expect(decisionFor([d], c, 'library-lenient')).toBeUndefined();
    expect(decisionFor([d], { ...c, path: `${c.path}Other` }, 'library-stricter')).toBeUndefined();
    expect(decisionFor([d], { ...c, mutation: 'schema-valid-2' }, 'library-stricter')).toBeUndefined();
  });
});

describe('sources', () => {
  test('every source a Go module writes a verdict of is one the comparison reports, the derived objects of each controller included', () => {
    const conformance = path.join(ROOT, 'conformance');
    const written = new Set<string>();
    for (const module of ['kube', 'kubeflow', 'trainer']) {
      const go = fs.readFileSync(path.join(conformance, module, 'fuzz_test.go'), 'utf8');
      for (const m of go.matchAll(/verdicts\.Judged\([^,]+, "([a-z-]+)",/g)) written.add(m[1]);
    }
    // kube/ writes derived-<controller> for each producer and the notebooks model.
    const kube = fs.readFileSync(path.join(conformance, 'kube', 'fuzz_test.go'), 'utf8');
    const producers = /derivedFuzzProducers = map\[string\]string\{([^}]*)\}/.exec(kube)![1];
    for (const m of producers.matchAll(/"([a-z-]+)": "[a-z]+"/g)) written.add(`derived-${m[1]}`);
    written.add('derived-notebooks');
    expect([...written].sort()).toEqual([...SOURCES].sort());
  });
});
