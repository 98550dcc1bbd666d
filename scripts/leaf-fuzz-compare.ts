/**
 * The verdicts of the leaf-path fuzz run compared (conformance/README.md, "Leaf-path fuzzing"):
 * the library's (`lint` and the constructs, from cases.json) against the Go validators' (the
 * verdicts-<module>.json files the conformance modules write beside it), per source and overall.
 *
 * A document is refused upstream when any source refuses it. Every document where the library and
 * upstream disagree fails the run, unless a decision in conformance/testdata/fuzz-decided.json
 * covers it (its kind and path pattern, mutation and direction) with a reason and the inventory row
 * it belongs to. A difference between `lint` and the constructs fails too: both are the library.
 *
 * Usage: ts-node --transpile-only --project tsconfig.dev.json scripts/leaf-fuzz-compare.ts
 * Environment: FUZZ_DIR (default test-reports/fuzz), FUZZ_DECIDED (default the file above),
 * FUZZ_WRITE_UNDECIDED=<file> writes the undecided disagreements grouped, in the decisions' shape.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FuzzCase, LibraryVerdict } from './fuzz/leaves';

type Direction = 'library-stricter' | 'library-lenient';

/** A family of disagreements the project has decided: why it stands, and its inventory row. */
export interface Decision {
  readonly direction: Direction;
  /** Regular expression over `<Kind> <leaf path>` (`PyTorchJob spec.pytorchReplicaSpecs.*.replicas`). */
  readonly path: string;
  /** Regular expression over the mutation's name. */
  readonly mutation: string;
  readonly reason: string;
  readonly inventory: string;
}

type Verdicts = { [file: string]: { [source: string]: string[] } };

/**
 * Upstream sources in report order: the validators of the document itself, then Kubernetes'
 * validation of the objects each controller builds from it (conformance/kube/fuzz_test.go,
 * contract C1: the training operator's Pods and Services, the JobSet's Jobs and their Pods, the
 * notebooks controller's StatefulSet, Service and pod).
 */
export const SOURCES = ['kubernetes', 'crd-schema', 'training-operator', 'trainer', 'jobset', 'derived-training-operator', 'derived-jobset', 'derived-notebooks'];

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

/** What a decision is matched against: a document's kind, leaf path and mutation. */
export interface FuzzedLeaf {
  readonly kind: string;
  readonly path: string;
  readonly mutation: string;
}

/** The decision covering a disagreement, if any. */
export function decisionFor(decisions: readonly Decision[], c: FuzzedLeaf, direction: Direction): Decision | undefined {
  const whole = (pattern: string, value: string) => new RegExp(`^(?:${pattern})$`).test(value);
  return decisions.find(d => d.direction === direction && whole(d.path, `${c.kind} ${c.path}`) && whole(d.mutation, c.mutation));
}

function main(): number {
  const dir = process.env.FUZZ_DIR ?? path.join('test-reports', 'fuzz');
  const decidedFile = process.env.FUZZ_DECIDED ?? path.join('conformance', 'testdata', 'fuzz-decided.json');
  const { figures, cases } = readJson<{ figures: any; cases: FuzzCase[] }>(path.join(dir, 'cases.json'));
  const verdicts: Verdicts = {};
  for (const module of ['kube', 'kubeflow', 'trainer']) {
    const file = path.join(dir, `verdicts-${module}.json`);
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run the ${module} module's TestLeafFuzz first`);
    for (const [doc, bySource] of Object.entries(readJson<Verdicts>(file))) verdicts[doc] = { ...verdicts[doc], ...bySource };
  }
  const decisions = readJson<{ decisions: Decision[] }>(decidedFile).decisions;
  for (const d of decisions) {
    if (!d.reason || !d.inventory) throw new Error(`${decidedFile}: the decision for ${d.path} (${d.mutation}) needs a reason and an inventory row`);
  }

  // Per source: [library refuses & source refuses, library accepts & source accepts, library refuses & source accepts, library accepts & source refuses]
  const table = new Map<string, [number, number, number, number]>();
  const count = (source: string, lib: boolean, up: boolean) => {
    const row = table.get(source) ?? [0, 0, 0, 0];
    row[lib && up ? 0 : !lib && !up ? 1 : lib ? 2 : 3]++;
    table.set(source, row);
  };
  const parity: string[] = [];
  const undecided = new Map<string, { example: string; n: number; direction: Direction; kind: string; path: string; mutation: string }>();
  const decidedCounts = new Map<Decision, number>();
  for (const c of cases) {
    const bySource = verdicts[c.file];
    if (!bySource) throw new Error(`${c.file}: no module judged it`);
    const lib = c.lint.refused;
    if (c.constructs.refused !== lib) {
      parity.push(`${c.file} ${c.kind} ${c.concrete} = ${JSON.stringify(c.value)} (${c.mutation}): lint ${verdictText(c.lint)}; constructs ${verdictText(c.constructs)}`);
    }
    // A source no row reports would judge in silence.
    const unknown = Object.keys(bySource).filter(s => !SOURCES.includes(s));
    if (unknown.length > 0) throw new Error(`${c.file}: verdicts of ${unknown.join(', ')}, which SOURCES does not list`);
    let up = false;
    for (const source of SOURCES) {
      const errs = bySource[source];
      if (errs === undefined) continue;
      count(source, lib, errs.length > 0);
      up ||= errs.length > 0;
    }
    count('any upstream source', lib, up);
    if (lib === up) continue;
    const direction: Direction = lib ? 'library-stricter' : 'library-lenient';
    const decision = decisionFor(decisions, c, direction);
    if (decision) {
      decidedCounts.set(decision, (decidedCounts.get(decision) ?? 0) + 1);
      continue;
    }
    const key = `${direction} ${c.kind} ${c.path} ${c.mutation}`;
    const upstream = Object.entries(bySource).filter(([, e]) => e.length > 0).map(([s, e]) => `${s}: ${e[0]}`).join(' | ') || 'every source accepts';
    const example = `${c.file} ${c.concrete} = ${JSON.stringify(c.value).slice(0, 60)}: library ${verdictText(c.lint)}; upstream ${upstream}`;
    const seen = undecided.get(key);
    undecided.set(key, seen ? { ...seen, n: seen.n + 1 } : { example, n: 1, direction, kind: c.kind, path: c.path, mutation: c.mutation });
  }

  console.log(`leaf-fuzz: seed ${figures.seed} (from ${figures.seedFrom}): ${figures.pathsKnown} leaf paths known, ${figures.pathsFuzzed} fuzzed, ${figures.documents} documents`);
  console.log(`leaf-fuzz: replay this run with: ${figures.replay}`);
  console.log('leaf-fuzz: source: both refuse / both accept / only the library refuses / only the source refuses');
  for (const source of [...SOURCES, 'any upstream source']) {
    const row = table.get(source);
    if (!row) continue;
    const total = row.reduce((a, b) => a + b, 0);
    console.log(`leaf-fuzz:   ${source}: ${row[0]} / ${row[1]} / ${row[2]} / ${row[3]} of ${total} (agreement ${(100 * (row[0] + row[1]) / total).toFixed(1)}%)`);
  }
  console.log(`leaf-fuzz: lint and the constructs differ on ${parity.length} documents`);
  for (const p of parity) console.log(`leaf-fuzz:   parity: ${p}`);
  for (const [d, n] of decidedCounts) console.log(`leaf-fuzz: decided (${d.inventory}): ${n} documents, ${d.direction} on ${d.path} (${d.mutation})`);
  const undecidedDocs = [...undecided.values()].reduce((a, u) => a + u.n, 0);
  console.log(`leaf-fuzz: disagreements undecided: ${undecidedDocs} documents in ${undecided.size} families`);
  for (const [key, u] of undecided) console.log(`leaf-fuzz:   ${key} (${u.n}): ${u.example}`);
  if (process.env.FUZZ_WRITE_UNDECIDED) {
    const shaped = [...undecided.values()].map(u => ({ direction: u.direction, path: escape(`${u.kind} ${u.path}`), mutation: u.mutation, reason: '', inventory: '', example: u.example }));
    fs.writeFileSync(process.env.FUZZ_WRITE_UNDECIDED, `${JSON.stringify(shaped, null, 2)}\n`);
  }
  return undecided.size > 0 || parity.length > 0 ? 1 : 0;
}

function verdictText(v: LibraryVerdict): string {
  return v.refused ? `refuses (${v.rules.join(', ')}: ${v.messages[0] ?? ''})` : 'accepts';
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

if (require.main === module) process.exitCode = main();
