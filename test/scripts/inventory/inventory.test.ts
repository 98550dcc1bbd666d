import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { InventoryFile, InventoryRow, loadInventory, rowProblems } from '../../../scripts/inventory/model';
import { rulesPages } from '../../../scripts/inventory/rules-page';
import { LINT_RULES } from '../../../src/cli/rules/rules';

/**
 * The rules inventory (inventory/*.yaml): every row is covered by catalogue rules and a test that
 * exists, or says why it cannot be judged; ids are unique; every rule `cdk8s-kubeflow rules` lists is
 * cited by a row (an upstream check it mirrors, or inventory/library.yaml's row for the library's own
 * rules). The rules pages are generated from it and may not drift.
 */

const root = path.resolve(__dirname, '..', '..', '..');
const files = loadInventory(root);
const known = new Set(LINT_RULES.map(r => r.id));

/** Every problem of a whole inventory; the test asserts none, the cases below that each is found. */
function inventoryProblems(inventory: readonly InventoryFile[], at: string): string[] {
  const out: string[] = [];
  const seen = new Map<string, string>();
  for (const f of inventory) {
    for (const row of f.rows) {
      out.push(...rowProblems(row, f.file, known, at));
      const first = seen.get(row.id);
      if (first !== undefined) out.push(`inventory/${f.file} row ${JSON.stringify(row.id)}: the id is used already in inventory/${first}`);
      else seen.set(row.id, f.file);
    }
  }
  // Rules of a source whose inventory file is not there yet (the Kubernetes part is written apart)
  // are not asked for: a rule is looked for only when its source has a file.
  const sources = new Set(inventory.map(f => f.source));
  const cited = new Set(inventory.flatMap(f => f.rows.flatMap(r => r.rules ?? [])));
  for (const rule of LINT_RULES) {
    if (sources.has(rule.source) && !cited.has(rule.id)) out.push(`rule ${rule.id} (source ${rule.source}) is cited by no row of the inventory`);
  }
  return out;
}

test('every row is covered by known rules and an existing test, or has a reason; ids unique; every rule cited', () => {
  expect(files.map(f => f.file)).toEqual(expect.arrayContaining([
    'crd-schema.generated.yaml', 'jobset.yaml', 'kueue.yaml', 'library.yaml', 'notebooks.yaml', 'trainer.yaml', 'training-operator.yaml',
  ]));
  expect(inventoryProblems(files, root)).toEqual([]);
});

test('the test a covered row names mentions each of its rules (the proof is about that rule)', () => {
  const text = new Map<string, string>();
  const read = (file: string) => text.get(file) ?? text.set(file, fs.readFileSync(path.join(root, file), 'utf8')).get(file)!;
  const unproven = files.flatMap(f => f.rows).flatMap(r => (r.rules ?? []).filter(id => !read(r.test!).includes(`${id}`)).map(id => `${r.id}: ${id} in ${r.test}`));
  expect(unproven).toEqual([]);
});

test('the library.yaml rows are the rules whose source is the library\'s own', () => {
  const library = files.find(f => f.file === 'library.yaml')!;
  const own = LINT_RULES.filter(r => r.source === 'library').map(r => r.id).sort();
  expect([...new Set(library.rows.flatMap(r => r.rules ?? []))].sort()).toEqual(expect.arrayContaining(own));
});

describe('the check finds each kind of bad row', () => {
  const good: InventoryRow = { id: 'x/one', where: 'a.go f', checks: 'something', rules: ['library/schema'], test: 'test/scripts/inventory/inventory.test.ts' };
  // crd-schema: a source no catalogue rule has, so that only the rows' own problems show.
  const of = (rows: InventoryRow[], source: InventoryFile['source'] = 'crd-schema') => inventoryProblems([{ file: 'x.yaml', source, pinned: 'p', rows }], root);

  test('a good row has no problem', () => {
    expect(of([good])).toEqual([]);
  });
  test('neither rules+test nor reason', () => {
    expect(of([{ id: 'x/none', where: 'w', checks: 'c' }])).toEqual(['inventory/x.yaml row "x/none": has neither rules and test nor a reason']);
  });
  test('both rules and a reason', () => {
    expect(of([{ ...good, reason: 'r' }])).toEqual(['inventory/x.yaml row "x/one": has both rules and a reason; a row is covered or it is not']);
  });
  test('an unknown rule id', () => {
    expect(of([{ ...good, rules: ['kubeflow/no-such-rule'] }])).toEqual(['inventory/x.yaml row "x/one": rule "kubeflow/no-such-rule" is not a rule of the catalogue']);
  });
  test('a missing test file, and rules without a test', () => {
    expect(of([{ ...good, test: 'test/no-such.test.ts' }])).toEqual(['inventory/x.yaml row "x/one": test test/no-such.test.ts does not exist']);
    expect(of([{ ...good, test: undefined }])).toEqual(['inventory/x.yaml row "x/one": lists rules but no test that proves them']);
  });
  test('a duplicate id', () => {
    expect(of([good, good])).toEqual(['inventory/x.yaml row "x/one": the id is used already in inventory/x.yaml']);
  });
  test('a rule of a source with a file, cited by no row; a source without a file is not asked for', () => {
    const trainer = LINT_RULES.filter(r => r.source === 'trainer').map(r => `rule ${r.id} (source trainer) is cited by no row of the inventory`);
    expect(of([good], 'trainer')).toEqual(trainer);
    expect(of([{ ...good, rules: ['kueue/multikueue-queue'] }], 'kueue')).toEqual([
      'rule kueue/topology (source kueue) is cited by no row of the inventory', 'rule kueue/slice-size (source kueue) is cited by no row of the inventory',
      'rule kueue/cluster-queue-resources (source kueue) is cited by no row of the inventory',
      'rule kueue/cluster-queue-flavors (source kueue) is cited by no row of the inventory',
      'rule kueue/cluster-queue-quotas (source kueue) is cited by no row of the inventory',
      'rule kueue/fair-sharing-weight (source kueue) is cited by no row of the inventory',
      'rule kueue/cohort-resource-groups (source kueue) is cited by no row of the inventory',
      'rule kueue/resource-flavor-taints (source kueue) is cited by no row of the inventory',
      'rule kueue/api-version-served (source kueue) is cited by no row of the inventory',
      'rule kueue/queue-name (source kueue) is cited by no row of the inventory',
      'rule kueue/reference (source kueue) is cited by no row of the inventory',
      'rule kueue/cohort-cycle (source kueue) is cited by no row of the inventory', 'rule kueue/never-admitted (source kueue) is cited by no row of the inventory',
      'rule kueue/trainjob-placement (source kueue) is cited by no row of the inventory',
      'rule kueue/namespace-selector (source kueue) is cited by no row of the inventory',
    ]);
  });
  test('a file that is not an inventory', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-'));
    fs.mkdirSync(path.join(dir, 'inventory'));
    fs.writeFileSync(path.join(dir, 'inventory', 'bad.yaml'), 'source: nowhere\npinned: x\nrows: []\n');
    expect(() => loadInventory(dir)).toThrow('inventory/bad.yaml: source "nowhere" is not one of kubernetes, crd-schema, training-operator, jobset, trainer, notebooks, kueue, library');
  });
});

test.each(Object.keys(rulesPages(root)))('the committed %s is what scripts/inventory.ts generates (run `npx projen inventory`)', file => {
  expect(fs.readFileSync(path.join(root, file), 'utf8')).toBe(rulesPages(root)[file]);
});

test('the checks not judged yet are named: each is judgeable and lacks a rule, so it is listed, not hidden behind a reason', () => {
  const gaps = files.flatMap(f => f.rows).filter(r => r.reason?.startsWith('not judged yet (a gap)')).map(r => r.id);
  expect(gaps).toEqual([]);
});
