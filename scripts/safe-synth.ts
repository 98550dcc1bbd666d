/**
 * `npm run synth`: runs `cdk8s synth` (the examples app in cdk8s.yaml) into a staging folder and
 * swaps it into dist/ only when synthesis succeeded. The cdk8s CLI empties its output folder
 * before it runs the app, so synthesizing straight into dist/ would leave it empty or half
 * written when a construct's validation fails; this keeps the last good output instead.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const root = path.join(__dirname, '..');
const target = path.resolve(root, process.env.SYNTH_OUTDIR ?? 'dist');
const staging = fs.mkdtempSync(path.join(root, '.synth-staging-'));
const cli = path.join(root, 'node_modules', '.bin', 'cdk8s');

// Extra arguments go to `cdk8s synth` (for example `--app "<command>"` to synthesize another app).
// `--no-check-upgrade`: the CLI would otherwise ask the npm registry for a newer version of itself.
const result = spawnSync(cli, ['synth', '--no-check-upgrade', '--output', staging, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) {
  fs.rmSync(staging, { recursive: true, force: true });
  console.error(`synth failed; ${path.relative(root, target)}/ was left as it was`);
  process.exit(result.status ?? 1);
}

const old = `${staging}-old`;
if (fs.existsSync(target)) fs.renameSync(target, old);
fs.renameSync(staging, target);
fs.rmSync(old, { recursive: true, force: true });
console.log(`wrote ${fs.readdirSync(target).filter(f => f.endsWith('.yaml')).length} manifest files to ${path.relative(root, target)}/`);
