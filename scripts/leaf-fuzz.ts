/**
 * Leaf-path differential fuzzing (conformance/README.md, "Leaf-path fuzzing"): invalid and boundary
 * values on the leaves of every pinned kind's schema, each in an otherwise valid document, judged
 * by the library two ways and written for the Go validators to judge too.
 *
 * 1. Seeds: one valid document per pinned kind, from the upstream corpora (upstream/examples).
 * 2. Leaves: every leaf path of each kind's schema (the compact schema of src/rules/schema, which
 *    the generated L1 props render 1:1), descending into the embedded pod templates; list items at
 *    index 0, map values under an existing key (else `fuzz-key`); plus the metadata fields `lint`
 *    reads (name, namespace, a label, an annotation).
 * 3. Paths, in a fixed stride, are taken from the seed's window, wrapping around, until FUZZ_BUDGET
 *    documents are written. The seed is LEAF_FUZZ_SEED, else in CI the UTC date (YYYYMMDD), else
 *    20261202; successive dates take successive windows (fuzz/leaves.ts `rotation`), so CI walks
 *    every path over the days. The seed and the command that replays it are printed.
 * 4. Per leaf, values that fit its type and bounds (mutations.ts): too long, out of range, wrong
 *    pattern, empty, an unknown enum value, a wrong type, and a boundary value that must be accepted.
 * 5. Each document is judged by `lint` (the CLI's engine, in-process) and by the constructs: the
 *    document's values as typed props of its L1 class, registered with the rules engine as the
 *    library's constructs register theirs, synthesized in an App.
 *
 * Output (FUZZ_DIR, default test-reports/fuzz): docs/<n>.yaml, one document each, seeds/<Kind>.yaml,
 * and cases.json (path, mutation, value, both library verdicts). The Go modules add their verdicts beside it;
 * scripts/leaf-fuzz-compare.ts compares.
 *
 * Usage: ts-node --transpile-only --project tsconfig.dev.json scripts/leaf-fuzz.ts
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Yaml } from 'cdk8s';
import * as yaml from 'js-yaml';
import {
  applyMutation, concretePath, DEFAULT_FUZZ_BUDGET, FuzzCase, FuzzLeaf, fuzzSeed, LibraryVerdict, leafPaths, materialize, Mutation, mutationsFor,
  replayCommand, rotation,
} from './fuzz/leaves';
import { UPSTREAM_EXAMPLES, UPSTREAM_EXAMPLES_V2 } from './upstream/pins';
import { lint } from '../src/cli/lint/lint';
import { checkRenderedDocument, collectFindings } from '../src/synth/engine';
import { l1KindFor, propsFromJson } from '../test/harness/l1-from-json';
import { kindSchemas } from '../test/harness/schema-validator';

type Verdict = LibraryVerdict;

function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .flatMap(e => (e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

function lintVerdict(doc: any): Verdict {
  const report = lint([{ file: 'fuzz.yaml', line: 1, doc }]);
  const rules = [...new Set(report.findings.map(f => f.rule))].sort();
  return { refused: report.findings.length > 0, rules, messages: report.findings.map(f => f.message) };
}

let scratchDir: string | undefined;
/** An outdir for the Apps (nothing is written: they are validated, not synthesized to files). */
function scratch(): string {
  scratchDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'leaf-fuzz-'));
  return scratchDir;
}

/** The constructs' verdict: the document through its L1's typed props, checked as constructs are. */
function constructVerdict(doc: any): Verdict {
  const kind = l1KindFor(doc.apiVersion, doc.kind);
  const schema = kindSchemas().get(`${doc.apiVersion} ${doc.kind}`);
  if (!kind || !schema) return { refused: true, rules: [], messages: [], error: `no L1 for ${doc.apiVersion} ${doc.kind}` };
  try {
    const app = new App({ outdir: scratch() });
    const chart = new Chart(app, 'fuzz');
    const { props } = propsFromJson(doc, schema);
    const apiObject = new kind.construct(chart, 'doc', props);
    checkRenderedDocument(chart, apiObject);
    const findings = collectFindings(app);
    const rules = [...new Set(findings.map(f => f.finding.rule ?? 'construct'))].sort();
    return { refused: findings.length > 0, rules, messages: findings.map(f => `${f.finding.field}: ${f.finding.allowed}`) };
  } catch (e) {
    const error = e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
    return { refused: true, rules: ['construct'], messages: [error], error };
  }
}

/** The seed of each kind: the first upstream document of the kind that the library accepts. */
function seeds(): Map<string, { file: string; doc: any }> {
  const out = new Map<string, { file: string; doc: any }>();
  const wanted = new Set(kindSchemas().keys());
  const roots = [UPSTREAM_EXAMPLES_V2, UPSTREAM_EXAMPLES];
  for (const root of roots) {
    for (const file of yamlFiles(root)) {
      for (const doc of yaml.loadAll(fs.readFileSync(file, 'utf8')) as any[]) {
        if (!doc || typeof doc !== 'object') continue;
        const key = `${doc.apiVersion} ${doc.kind}`;
        if (!wanted.has(key) || out.has(key)) continue;
        // MXJob is not served by training-operator v1.9.4 (no webhook, no controller): no seed.
        if (doc.kind === 'MXJob') continue;
        if (lintVerdict(doc).refused || constructVerdict(doc).refused) continue;
        out.set(key, { file: path.relative(process.cwd(), file), doc });
      }
    }
  }
  // The corpora hold no TrainingRuntime the library and the release both accept: the namespaced
  // twin of the torch-distributed ClusterTrainingRuntime, under its own name, is one.
  const cluster = out.get('trainer.kubeflow.org/v1alpha1 ClusterTrainingRuntime');
  const key = 'trainer.kubeflow.org/v1alpha1 TrainingRuntime';
  if (cluster && !out.has(key)) {
    const doc = JSON.parse(JSON.stringify(cluster.doc));
    doc.kind = 'TrainingRuntime';
    doc.metadata = { ...doc.metadata, name: `${doc.metadata.name}-namespaced`, namespace: 'default' };
    if (!lintVerdict(doc).refused && !constructVerdict(doc).refused) out.set(key, { file: `${cluster.file} (as a TrainingRuntime)`, doc });
  }
  return out;
}

function main() {
  const out = process.env.FUZZ_DIR ?? path.join('test-reports', 'fuzz');
  const { seed, from } = fuzzSeed(process.env, new Date());
  const budget = Number(process.env.FUZZ_BUDGET ?? DEFAULT_FUZZ_BUDGET);
  if (!Number.isInteger(budget) || budget < 1) throw new Error(`leaf-fuzz: FUZZ_BUDGET is "${process.env.FUZZ_BUDGET}"; expected a whole number of documents, 1 or more`);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'docs'), { recursive: true });
  fs.mkdirSync(path.join(out, 'seeds'), { recursive: true });

  const seedDocs = seeds();
  // The seeds too, one per kind (seeds/<Kind>.yaml): a document that needs a partner to be built
  // from (a Workspace its WorkspaceKind) is paired with the partner kind's seed (kube/fuzz_test.go).
  for (const { doc } of seedDocs.values()) fs.writeFileSync(path.join(out, 'seeds', `${doc.kind}.yaml`), Yaml.stringify(doc));
  // Kueue's kinds have no upstream corpus to seed from, and no Kueue webhook runs in the Go
  // conformance modules to judge them against: they are left out of the fuzz (their CRD rows are
  // checked one by one in test/scripts/inventory/crd-schema.test.ts, their webhook rules by exact-message tests).
  const missing = [...kindSchemas().keys()].filter(k => !seedDocs.has(k) && !k.endsWith(' MXJob') && !k.startsWith('kueue.x-k8s.io/'));
  if (missing.length > 0) throw new Error(`leaf-fuzz: no valid seed document for ${missing.join(', ')}`);
  const leaves: FuzzLeaf[] = [];
  for (const [key, { doc }] of [...seedDocs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    leaves.push(...leafPaths(kindSchemas().get(key)!, doc));
  }
  // A window is as many paths as the budget covers at the mean number of values tried per path.
  const meanMutations = leaves.reduce((n, leaf) => n + mutationsFor(leaf).length, 0) / Math.max(1, leaves.length);
  const width = Math.ceil(budget / meanMutations);
  const order = rotation(leaves.length, seed, width);
  const cases: FuzzCase[] = [];
  let fuzzedPaths = 0;
  for (const i of order) {
    if (cases.length >= budget) break;
    const leaf = leaves[i];
    const seedDoc = seedDocs.get(leaf.kindKey)!.doc;
    const base = materialize(seedDoc, leaf);
    if (base === undefined) continue;
    fuzzedPaths++;
    for (const m of mutationsFor(leaf)) {
      if (cases.length >= budget) break;
      const doc = applyMutation(base, m.value);
      const name = String(cases.length).padStart(5, '0');
      fs.writeFileSync(path.join(out, 'docs', `${name}.yaml`), Yaml.stringify(doc));
      cases.push(describeCase(name, leaf, concretePath(base.concrete, base), m, doc));
    }
  }
  const figures = {
    seed,
    seedFrom: from,
    replay: replayCommand(seed, budget),
    budget,
    window: width,
    kinds: seedDocs.size,
    pathsKnown: leaves.length,
    pathsFuzzed: fuzzedPaths,
    documents: cases.length,
    seeds: Object.fromEntries([...seedDocs].map(([k, v]) => [k, v.file])),
  };
  fs.writeFileSync(path.join(out, 'cases.json'), `${JSON.stringify({ figures, cases }, null, 1)}\n`);
  const parity = cases.filter(c => c.lint.refused !== c.constructs.refused).length;
  console.log(`leaf-fuzz: seed ${seed} (from ${from}); replay with: ${figures.replay}`);
  console.log(`leaf-fuzz: seed ${seed}, budget ${budget}: ${leaves.length} leaf paths known over ${seedDocs.size} kinds, window of ${width}, ` +
    `${fuzzedPaths} fuzzed this run, ${cases.length} documents -> ${out}`);
  console.log(`leaf-fuzz: library refuses ${cases.filter(c => c.lint.refused).length} (lint), ` +
    `${cases.filter(c => c.constructs.refused).length} (constructs); lint and constructs differ on ${parity}`);
}

function describeCase(name: string, leaf: FuzzLeaf, concrete: string, m: Mutation, doc: any): FuzzCase {
  return {
    file: `${name}.yaml`,
    kind: doc.kind,
    path: leaf.path,
    concrete,
    mutation: m.name,
    value: m.value,
    mustAccept: m.mustAccept === true,
    lint: lintVerdict(doc),
    constructs: constructVerdict(doc),
  };
}

main();
