/**
 * The public surface of the package, as the compiled jsii assembly and the JavaScript entry point
 * show it: every type of the root module with its public members, listed in test/package/public-api.txt.
 * A new export or member is a promise in four languages, so adding one means updating that list
 * in the same change (the L1 submodules are listed by test/imports/l1-public-names.test.ts).
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const LIST = path.join(__dirname, 'public-api.txt');

/** `Type (kind): member, member, ...` per root type, sorted; plus the JavaScript exports. */
export function publicSurface(): string[] {
  const assembly = JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf8'));
  const lines: string[] = [];
  for (const type of Object.values<any>(assembly.types)) {
    if (type.namespace) continue; // the L1 submodules
    const kind = type.kind === 'interface' && type.datatype ? 'struct' : type.kind;
    const members = [
      ...(type.initializer && !type.initializer.protected ? ['constructor'] : []),
      ...(type.properties ?? []).filter((p: any) => !p.protected).map((p: any) => (p.static ? `static ${p.name}` : p.name)),
      ...(type.methods ?? []).filter((m: any) => !m.protected).map((m: any) => (m.static ? `static ${m.name}()` : `${m.name}()`)),
    ].sort();
    lines.push(`${type.name} (${kind}): ${members.join(', ')}`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const entry = require(path.join(ROOT, 'lib', 'src', 'index.js'));
  lines.push(`exports: ${Object.keys(entry).sort().join(', ')}`);
  return lines.sort();
}

test('the public API is exactly the listed one', () => {
  const surface = publicSurface();
  const listed = fs.readFileSync(LIST, 'utf8').trim().split('\n');
  expect(surface).toEqual(listed);
});

test('no plumbing is exported', () => {
  const exports = publicSurface().find(l => l.startsWith('exports: '))!;
  for (const name of ['PodRenderContext', 'FrameworkContainer', 'ReplicaGroupProps', 'dropUndefined', 'mergeMaps', 'unique', 'presetSecurity', 'resourceQuantities',
    'amountProblems', 'sizeQuantity', 'checkElasticBounds', 'KUEUE_QUEUE_LABEL']) {
    expect(exports.split(/, |: /)).not.toContain(name);
  }
  expect(publicSurface().some(l => /problems\(\)/.test(l))).toBe(false);
});
