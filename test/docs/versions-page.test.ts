import * as fs from 'fs';
import { PAGE, versionsPage } from '../../scripts/versions-page';

/** docs/versions.md is the support window as src/rules/support-window.ts has it today. */
test('docs/versions.md is generated from the window table (run `npx projen docs:versions` to refresh)', () => {
  expect(fs.readFileSync(PAGE, 'utf8')).toBe(versionsPage());
});

test('the page has a row per upstream and every versioned rule', () => {
  const page = versionsPage();
  expect(page).toContain('| Kueue | `kueue` | v0.15.2 | v0.20 | v0.15.2, v0.19.2 |');
  expect(page).toContain('| Kubeflow Trainer | `trainer` | v2.2.0 | v2.4.0 | v2.2.0, v2.3.0 |');
  expect(page).toContain('| Kubeflow Notebooks v2 | `notebooks` | 8b61057 | 8b61057 | none |');
  expect(page).toContain('| v2.4.0 | read from its release notes only: not proven against running code |');
  for (const id of ['trainer/replicated-job-name-length', 'trainer/prte-env', 'trainer/mpi-launcher-image', 'trainer/mpi-node-image']) expect(page).toContain(`| \`${id}\` |`);
});
