import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * The README's main command (`npm run synth`, scripts/safe-synth.ts around `cdk8s synth`) in real
 * child processes: a failed synthesis leaves the output folder exactly as it was, and two
 * separate processes write byte-identical YAML.
 */
const root = path.join(__dirname, '..', '..');
const tsNode = path.join(root, 'node_modules', '.bin', 'ts-node');
const safeSynth = ['--transpile-only', '--project', path.join(root, 'tsconfig.dev.json'), path.join(root, 'scripts', 'safe-synth.ts')];

function runSynth(outdir: string, ...args: string[]) {
  return spawnSync(tsNode, [...safeSynth, ...args], { cwd: root, env: { ...process.env, SYNTH_OUTDIR: outdir }, encoding: 'utf8' });
}

function tree(dir: string): { [file: string]: string } {
  return Object.fromEntries(fs.readdirSync(dir).sort().map(f => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-output-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

test('two separate processes write byte-identical YAML', () => {
  const a = path.join(scratch, 'a');
  const b = path.join(scratch, 'b');
  expect(runSynth(a).status).toBe(0);
  expect(runSynth(b).status).toBe(0);
  expect(Object.keys(tree(a)).length).toBeGreaterThanOrEqual(4);
  expect(tree(b)).toEqual(tree(a));
});

test('a synthesis that fails validation leaves the output folder as it was', () => {
  const out = path.join(scratch, 'kept');
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'previous.k8s.yaml'), 'kind: PreviousGoodOutput\n');
  const app = path.join(scratch, 'bad-app.ts');
  fs.writeFileSync(app, [
    `import { App, Chart } from '${path.join(root, 'node_modules', 'cdk8s').split(path.sep).join('/')}';`,
    `import { DistributedPyTorch } from '${path.join(root, 'src').split(path.sep).join('/')}';`,
    'const app = new App();',
    "new DistributedPyTorch(new Chart(app, 'good'), 'ok', { metadata: { name: 'fine' }, image: 'img' });",
    "new DistributedPyTorch(new Chart(app, 'bad'), 'job', { metadata: { name: 'Not_A_Label' }, image: 'img' });",
    'app.synth();',
  ].join('\n'));
  const result = runSynth(out, '--app', `${tsNode} --transpile-only --project ${path.join(root, 'tsconfig.dev.json')} ${app}`);
  expect(result.status).not.toBe(0);
  expect(result.stderr).toContain('[bad/job] metadata.name is "Not_A_Label"; expected a DNS-1035 label');
  expect(result.stderr).toContain('synth failed; ');
  expect(tree(out)).toEqual({ 'previous.k8s.yaml': 'kind: PreviousGoodOutput\n' });
  expect(fs.readdirSync(root).filter(f => f.startsWith('.synth-staging-'))).toEqual([]);
});

test('the examples app also runs under the plain cdk8s CLI, as users run it', () => {
  const out = path.join(scratch, 'cli');
  execFileSync(path.join(root, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade', '--output', out], { cwd: root, stdio: 'pipe' });
  expect(tree(out)).toEqual(tree(path.join(scratch, 'a')));
});
