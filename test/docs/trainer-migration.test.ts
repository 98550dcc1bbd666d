import * as fs from 'fs';
import { migrationPage, PAGE } from '../../scripts/trainer-migration-doc';

/** docs/constructs/trainer-v1-to-v2.md is what examples/trainer-migration.ts synthesizes today. */
test('the v1-to-v2 page is generated from the example (run scripts/trainer-migration-doc.ts to refresh)', () => {
  expect(fs.readFileSync(PAGE, 'utf8')).toBe(migrationPage());
});

test('the page shows both kinds of the v2 pair and the v1 job', () => {
  const page = migrationPage();
  expect(page.match(/^kind: (\w+)$/gm)).toEqual(['kind: PyTorchJob', 'kind: ClusterTrainingRuntime', 'kind: TrainJob']);
});
