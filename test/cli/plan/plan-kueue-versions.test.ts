/**
 * `plan` reads Kueue's queues of both served versions alike: the platform of
 * fixtures/kueue-platform (two ClusterQueues in one cohort, their LocalQueues and flavors, five
 * jobs) planned as written (v1beta1: `spec.cohort`) and in its v1beta2 form (`spec.cohortName`,
 * admission checks under `admissionChecksStrategy`) gives the same plan, as Markdown and as JSON.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { kueueV1beta2Form } from '../../../src/rules/kueue/v1beta2-form';
import { tempFolder } from '../examples-output';
import { runCli } from '../run-cli';

const PLATFORM = path.join(path.dirname(__dirname), 'fixtures', 'kueue-platform');

/** The files of the platform, each Kueue object in its v1beta2 form; a MultiKueue admission check added to team-b's queue in both. */
function platformFiles(v1beta2: boolean): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of ['jobs.yaml', 'queues/flavors.yaml', 'queues/teams.yaml']) {
    const docs = yaml.loadAll(fs.readFileSync(path.join(PLATFORM, file), 'utf8')).map((d: any) =>
      (d?.kind === 'ClusterQueue' && d.metadata?.name === 'team-b' ? { ...d, spec: { ...d.spec, admissionChecks: ['provisioning'] } } : d));
    files[file.replace('/', '-')] = docs.map(d => yaml.dump(v1beta2 ? kueueV1beta2Form(d).doc : d)).join('---\n');
  }
  return files;
}

test('the same platform in v1beta1 and in v1beta2: the same plan', () => {
  const before = tempFolder(platformFiles(false));
  const after = tempFolder(platformFiles(true));
  try {
    expect(fs.readFileSync(path.join(before, 'queues-teams.yaml'), 'utf8')).toContain('cohort: research');
    const teams = fs.readFileSync(path.join(after, 'queues-teams.yaml'), 'utf8');
    expect(teams).toContain('cohortName: research');
    expect(teams).toContain('admissionChecksStrategy:\n    admissionChecks:\n      - name: provisioning');
    expect(teams).not.toContain('v1beta1');
    for (const format of [[], ['--format', 'json']]) {
      const old = runCli(['plan', ...format, before]);
      const current = runCli(['plan', ...format, after]);
      // The platform's llama-pretrain is never admitted in either form: the plan fails alike.
      expect(old.status).toBe(1);
      expect(current.status).toBe(1);
      // The cohort is read from either field: the plan names it and its members.
      expect(old.stdout).toMatch(/from cohort .{1,2}research/);
      expect(current.stdout.split(after).join(before)).toBe(old.stdout);
    }
  } finally {
    fs.rmSync(before, { recursive: true, force: true });
    fs.rmSync(after, { recursive: true, force: true });
  }
});
