import * as fs from 'fs';
import * as path from 'path';

/**
 * Fidelity to upstream manifests: every leaf of the upstream document must appear in ours with the
 * same value. Ours may hold more (defaults the constructs add, such as the Istio opt-out).
 */

/**
 * The leaves of `expected` that `actual` lacks or holds with another value, as
 * `path: expected X, got Y`. Numbers and numeric strings compare equal when they print the same,
 * because quantities (`cpu: 4` and `cpu: "4"`) mean the same to the API server.
 */
export function missingLeaves(expected: unknown, actual: unknown, at = ''): string[] {
  if (expected === null || expected === undefined) return [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected a list, got ${JSON.stringify(actual)}`];
    return expected.flatMap((e, i) => missingLeaves(e, actual[i], `${at}[${i}]`));
  }
  if (typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    const entries = Object.entries(expected as object);
    if (entries.length === 0) return [];
    return entries.flatMap(([k, v]) => missingLeaves(v, (actual as any)[k], at ? `${at}.${k}` : k));
  }
  const same = expected === actual || ((typeof expected === 'number' || typeof actual === 'number') && String(expected) === String(actual));
  return same ? [] : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** Every YAML file below `root` (in `folders` of it, when given), relative to `root` with `/`, sorted. */
export function yamlFilesUnder(root: string, folders: readonly string[] = ['.']): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) visit(full);
      else if (/\.ya?ml$/.test(e.name)) out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  for (const folder of folders) visit(path.join(root, folder));
  return out.sort();
}
