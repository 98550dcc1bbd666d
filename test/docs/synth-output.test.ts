import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { DNS_1035_LABEL, INJECTED_ENV } from '../harness/messages';

/**
 * What `npm run synth` (scripts/safe-synth.ts) prints: one line per written file with its number
 * of objects and a total by kind on success, only the validation errors on failure; never the
 * staging folder's name, a stack trace or the CLI's upgrade check.
 */
const root = path.join(__dirname, '..', '..');
const tsNode = path.join(root, 'node_modules', '.bin', 'ts-node');
const safeSynth = ['--transpile-only', '--project', path.join(root, 'tsconfig.dev.json'), path.join(root, 'scripts', 'safe-synth.ts')];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-output-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function runSynth(outdir: string, ...args: string[]) {
  return spawnSync(tsNode, [...safeSynth, ...args], { cwd: root, env: { ...process.env, SYNTH_OUTDIR: outdir }, encoding: 'utf8' });
}

test('a successful synth lists each file with its objects, then the objects by kind', () => {
  const out = path.join(scratch, 'dist');
  const result = runSynth(out);
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });

  // The expected lines, counted here from the files the run wrote.
  const files = fs.readdirSync(out).sort();
  const kinds: Record<string, number> = {};
  const counts = files.map(f => {
    const objects = yaml.loadAll(fs.readFileSync(path.join(out, f), 'utf8')) as Array<{ kind: string }>;
    for (const o of objects) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
    return objects.length;
  });
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(files.length + 1);
  files.forEach((f, i) => expect(lines[i]).toMatch(new RegExp(`^${out}/${f.replace(/\./g, '\\.')} +${counts[i]} objects?$`)));
  const total = counts.reduce((a, b) => a + b, 0);
  const byKind = Object.entries(kinds).sort(([a, m], [b, n]) => n - m || a.localeCompare(b)).map(([k, n]) => `${n} ${k}`);
  expect(lines[files.length]).toBe(`${total} objects in ${files.length} files: ${byKind.join(', ')}`);
  expect(lines[files.length]).toMatch(/ \d+ PyTorchJob, /);
  expect(result.stdout).not.toMatch(/synth-staging|Synthesizing application|new version/);
}, 120_000);

test('a failed synth prints the validation errors without stack traces', () => {
  const app = path.join(scratch, 'bad-app.ts');
  fs.writeFileSync(app, [
    `import { App, Chart } from '${path.join(root, 'node_modules', 'cdk8s').split(path.sep).join('/')}';`,
    `import * as kplus from '${path.join(root, 'node_modules', 'cdk8s-plus-28').split(path.sep).join('/')}';`,
    `import { DistributedPyTorch } from '${path.join(root, 'src').split(path.sep).join('/')}';`,
    'const app = new App();',
    "new DistributedPyTorch(new Chart(app, 'bad'), 'job', { metadata: { name: 'Not_A_Label' }, image: 'img' });",
    "new DistributedPyTorch(new Chart(app, 'bad2'), 'job', { metadata: { name: 'fine' }, image: 'img', env: { RANK: kplus.EnvValue.fromValue('0') } });",
    'app.synth();',
  ].join('\n'));
  const out = path.join(scratch, 'kept');
  const result = runSynth(out, '--app', `${tsNode} --transpile-only --project ${path.join(root, 'tsconfig.dev.json')} ${app}`);
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe([
    'Validation failed with the following errors:',
    `  [bad/job] metadata.name is "Not_A_Label"; ${DNS_1035_LABEL}`,
    `  [bad2/job] spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].env[RANK] (env) is {"name":"RANK","value":"0"}; ${INJECTED_ENV}`,
    `  [bad2/job] spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[RANK] (env) is {"name":"RANK","value":"0"}; ${INJECTED_ENV}`,
    `synth failed; ${out}/ was left as it was`,
    '',
  ].join('\n'));
}, 120_000);

test('a value refused at once prints its one-line message without a stack trace', () => {
  const app = path.join(scratch, 'bad-at-once.ts');
  fs.writeFileSync(app, [
    `import { App, Chart } from '${path.join(root, 'node_modules', 'cdk8s').split(path.sep).join('/')}';`,
    `import { DistributedPyTorch } from '${path.join(root, 'src').split(path.sep).join('/')}';`,
    'const app = new App();',
    "new DistributedPyTorch(new Chart(app, 'bad'), 'job', { metadata: { name: 'fine' }, image: 'img', workers: 2, elastic: { minWorkers: 1, maxWorkers: 1 } });",
    'app.synth();',
  ].join('\n'));
  const out = path.join(scratch, 'kept-once');
  const result = runSynth(out, '--app', `${tsNode} --transpile-only --project ${path.join(root, 'tsconfig.dev.json')} ${app}`);
  expect(result.status).toBe(1);
  expect(result.stderr).toBe([
    'bad/job: workers is 2; expected a count between elastic.minWorkers (1) and elastic.maxWorkers (1)',
    `synth failed; ${out}/ was left as it was`,
    '',
  ].join('\n'));
}, 120_000);
