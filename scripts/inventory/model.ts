/**
 * The rules inventory (inventory/*.yaml at the repository's top level): for every object the library
 * writes or `lint` reads, each check an upstream component makes, and the library rule that covers
 * it with the test that proves it, or why it cannot be judged from manifests. One file per source.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';

/** The sources, in the order the rules page lists them. */
export const INVENTORY_SOURCES = [
  'kubernetes', 'crd-schema', 'training-operator', 'jobset', 'trainer', 'notebooks', 'kueue', 'library',
] as const;
export type InventorySource = typeof INVENTORY_SOURCES[number];

/** One upstream check (or one of the library's own rules, in library.yaml). */
export interface InventoryRow {
  /** Unique across the inventory and stable: `<source>/<function or schema path>/<check>`. */
  readonly id: string;
  /** File and function (or schema path) at the pinned version. */
  readonly where: string;
  /** What is checked, in our words. */
  readonly checks: string;
  /** The library rule ids (as `cdk8s-kubeflow rules` lists them) that cover the check. */
  readonly rules?: readonly string[];
  /** A test file that proves the rules refuse what the check refuses. */
  readonly test?: string;
  /** Why the check cannot be judged from manifests (instead of rules and test). */
  readonly reason?: string;
}

/** One inventory file. */
export interface InventoryFile {
  /** The file name under inventory/. */
  readonly file: string;
  readonly source: InventorySource;
  /** The module and version (or repository and commit) the rows were read from. */
  readonly pinned: string;
  readonly rows: readonly InventoryRow[];
}

/** The inventory directory of a checkout. */
export function inventoryDir(root: string): string {
  return path.join(root, 'inventory');
}

/** Every inventory file, sorted by name; throws on a file that is not an inventory. */
export function loadInventory(root: string): InventoryFile[] {
  const dir = inventoryDir(root);
  return fs.readdirSync(dir).filter(f => f.endsWith('.yaml')).sort().map(file => {
    const doc = yaml.load(fs.readFileSync(path.join(dir, file), 'utf8')) as any;
    if (typeof doc !== 'object' || doc === null || !Array.isArray(doc.rows)) throw new Error(`inventory/${file}: expected source, pinned and rows`);
    if (!(INVENTORY_SOURCES as readonly string[]).includes(doc.source)) {
      throw new Error(`inventory/${file}: source ${JSON.stringify(doc.source)} is not one of ${INVENTORY_SOURCES.join(', ')}`);
    }
    if (typeof doc.pinned !== 'string' || doc.pinned === '') throw new Error(`inventory/${file}: pinned must name the module and version read`);
    return { file, source: doc.source, pinned: doc.pinned, rows: doc.rows };
  });
}

/** Whether a row is covered by rules (as opposed to carrying a reason). */
export function isCovered(row: InventoryRow): boolean {
  return (row.rules?.length ?? 0) > 0;
}

/**
 * The problems of one row, as sentences naming its id: neither rules+test nor reason (or both),
 * a rule id the catalogue does not know, a test file that does not exist, a missing field.
 */
export function rowProblems(row: InventoryRow, file: string, knownRules: ReadonlySet<string>, root: string): string[] {
  const out: string[] = [];
  const label = `inventory/${file} row ${JSON.stringify(row.id ?? '(no id)')}`;
  for (const field of ['id', 'where', 'checks'] as const) {
    if (typeof row[field] !== 'string' || row[field] === '') out.push(`${label}: ${field} must be a non-empty string`);
  }
  const covered = isCovered(row);
  const hasReason = typeof row.reason === 'string' && row.reason.trim() !== '';
  if (!covered && !hasReason) out.push(`${label}: has neither rules and test nor a reason`);
  if (covered && hasReason) out.push(`${label}: has both rules and a reason; a row is covered or it is not`);
  if (covered && (typeof row.test !== 'string' || row.test === '')) out.push(`${label}: lists rules but no test that proves them`);
  if (!covered && row.test !== undefined) out.push(`${label}: names a test but no rules`);
  for (const id of row.rules ?? []) if (!knownRules.has(id)) out.push(`${label}: rule ${JSON.stringify(id)} is not a rule of the catalogue`);
  if (typeof row.test === 'string' && row.test !== '' && !fs.existsSync(path.join(root, row.test))) {
    out.push(`${label}: test ${row.test} does not exist`);
  }
  return out;
}
