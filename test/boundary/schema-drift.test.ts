/**
 * The committed boundary schema must be what scripts/boundary-schema.ts writes from today's jsii
 * assembly: a changed prop, method or struct without a regenerated table fails here. `npm test`
 * compiles with jsii first, so `.jsii` exists; a bare `npx jest` before any compile fails with the
 * reason.
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildSchema, renderSchema, SCHEMA_FILE } from '../../scripts/boundary-schema';

const ROOT = path.join(__dirname, '..', '..');

test('schema.generated.ts is what the generator writes from .jsii (regenerate: npx ts-node --transpile-only --project tsconfig.dev.json scripts/boundary-schema.ts)', () => {
  const hint = 'run `npx projen compile` first';
  expect({ assembly: fs.existsSync(path.join(ROOT, '.jsii')), hint }).toEqual({ assembly: true, hint });
  const committed = fs.readFileSync(path.join(ROOT, SCHEMA_FILE), 'utf8');
  const generated = renderSchema(buildSchema(ROOT));
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = b.findIndex((l, i) => l !== a[i]);
  expect(line === -1 && a.length === b.length ? 'same' : `differs at line ${line + 1}: ${b[line]?.slice(0, 200)}`).toBe('same');
});

