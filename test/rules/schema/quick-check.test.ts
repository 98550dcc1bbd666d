/**
 * The schema's quick check (src/rules/schema/quick-check.ts) decides whether the full walk runs, so
 * it must never pass a document the full walk refuses. Held here on every document of the upstream
 * corpora and on the leaf fuzzer's mutations (plus null, empty, wrong-typed values and an undeclared
 * field) of up to 200 leaves of one seed per kind: what the validator returns with
 * the quick check equals what the full walk alone returns, and on the corpora the quick check
 * agrees with the full walk exactly (it passes every document the walk passes, so the fast path is
 * the one taken).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { leafPaths, materialize, mutationsFor, setAt } from '../../../scripts/fuzz/leaves';
import { UPSTREAM_EXAMPLES, UPSTREAM_EXAMPLES_V2 } from '../../../scripts/upstream/pins';
import { quickCheck } from '../../../src/rules/schema/quick-check';
import { KindSchema, manifestViolations } from '../../../src/rules/schema/validator';
import { kindSchemas } from '../../harness';
import { yamlFilesUnder } from '../../harness/fidelity';

const schemas = kindSchemas();
const keyOf = (doc: any) => `${doc.apiVersion} ${doc.kind}`;

const corpus: any[] = [UPSTREAM_EXAMPLES, UPSTREAM_EXAMPLES_V2].flatMap(root => yamlFilesUnder(root)
  .flatMap(file => yaml.loadAll(fs.readFileSync(path.join(root, file), 'utf8')) as any[]))
  .filter(doc => doc && typeof doc === 'object' && schemas.has(keyOf(doc)));

/** Whether the quick check passes the document's body (what the validator gives it: all but metadata). */
function quickPasses(doc: any, kind: KindSchema): boolean {
  const { metadata: _metadata, ...rest } = doc;
  const required = (kind.schema.required ?? []).filter(r => r !== 'metadata');
  const properties = { ...kind.schema.properties };
  delete properties.metadata;
  const { 'x-kubernetes-validations': _rules, ...schema } = { ...kind.schema, properties };
  return quickCheck(schema, false, required)(rest);
}

describe('the quick check against the full walk', () => {
  test('on the upstream corpora: the same violations, and the quick check passes exactly the documents the walk passes', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(48);
    const disagreements: string[] = [];
    let passed = 0;
    for (const doc of corpus) {
      const kind = schemas.get(keyOf(doc))!;
      const full = manifestViolations(doc, kind, false);
      expect(manifestViolations(doc, kind)).toEqual(full);
      const bodyProblems = full.filter(v => !v.at.startsWith('metadata') && v.at !== '');
      if (quickPasses(doc, kind) !== (bodyProblems.length === 0)) disagreements.push(`${keyOf(doc)} ${doc.metadata?.name}`);
      if (bodyProblems.length === 0) passed++;
    }
    expect(disagreements).toEqual([]);
    expect(passed).toBeGreaterThan(corpus.length / 2);
  });

  const seeds = new Map<string, any>();
  for (const doc of corpus) {
    if (!seeds.has(keyOf(doc)) && manifestViolations(doc, schemas.get(keyOf(doc))!, false).length === 0) seeds.set(keyOf(doc), doc);
  }

  test.each([...seeds.keys()])('on leaf mutations of a seed of %s: the same violations', key => {
    const kind = schemas.get(key)!;
    const seed = seeds.get(key)!;
    let documents = 0;
    let refused = 0;
    // Every leaf of the small kinds, a stride through the large ones (the leaf fuzz covers them all
    // across its rotating runs; this keeps the test within seconds).
    const leaves = leafPaths(kind, seed);
    const stride = Math.ceil(leaves.length / 200);
    for (const leaf of leaves.filter((_, i) => i % stride === 0)) {
      const at = materialize(seed, leaf);
      if (!at) continue;
      const parent = at.concrete.slice(0, -1);
      const values = [
        ...mutationsFor(leaf).map(m => m.value),
        null, {}, [], '', 'a b', -1, 1.5, true,
      ];
      const docs = [
        ...values.map(v => setAt(at.doc, at.concrete, v)),
        // A field the schema does not declare, beside the leaf (unknown fields are errors).
        ...typeof parent[parent.length - 1] === 'number' ? [] : [setAt(at.doc, [...parent, 'notAField'], 'x')],
      ];
      for (const doc of docs) {
        const full = manifestViolations(doc, kind, false);
        const withQuick = manifestViolations(doc, kind);
        if (withQuick.length !== full.length) throw new Error(`${leaf.path}: ${JSON.stringify(full.map(v => v.at))} by the full walk, ${JSON.stringify(withQuick.map(v => v.at))} with the quick check`);
        expect(withQuick).toEqual(full);
        documents++;
        if (full.length > 0) refused++;
      }
    }
    expect(documents).toBeGreaterThan(50);
    // The mutations are mostly wrong values: most documents must be refused, or the test tests nothing.
    expect(refused).toBeGreaterThan(documents / 2);
  }, 30_000);
});
