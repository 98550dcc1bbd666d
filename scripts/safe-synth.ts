/**
 * `npm run synth`: runs `cdk8s synth` (the examples app in cdk8s.yaml) into a staging folder and
 * swaps it into dist/ only when synthesis succeeded. The cdk8s CLI empties its output folder
 * before it runs the app, so synthesizing straight into dist/ would leave it empty or half
 * written when a construct's validation fails; this keeps the last good output instead.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';

const root = path.join(__dirname, '..');
const target = path.resolve(root, process.env.SYNTH_OUTDIR ?? 'dist');
const staging = fs.mkdtempSync(path.join(root, '.synth-staging-'));
const cli = path.join(root, 'node_modules', '.bin', 'cdk8s');
const relative = path.relative(root, target);
const shown = relative.startsWith('..') || path.isAbsolute(relative) ? target : relative || '.';

// Extra arguments go to `cdk8s synth` (for example `--app "<command>"` to synthesize another app).
// `--no-check-upgrade`: the CLI would otherwise ask the npm registry for a newer version of itself
// (and print a stack trace when it cannot reach it). Its output is captured: on success the CLI
// only lists the files under the staging folder's temporary name, which this script replaces with
// the files as they end up; on failure its errors are passed on with that name replaced.
const result = spawnSync(cli, ['synth', '--no-check-upgrade', '--output', staging, ...process.argv.slice(2)],
  { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], encoding: 'utf8' });
if (result.status !== 0) {
  const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.split(staging).join(shown);
  // A construct's validation errors are what the user needs; the stack traces of cdk8s's
  // `validate`, of ts-node and of the CLI's child process say nothing about them. Any other
  // failure (a TypeError in the app, a missing module) is passed on whole, stack and all.
  // A construct's error thrown at once (`<path>: <field> is <value>; expected ...`) is one line.
  const validation = /^Error: (Validation failed with the following errors:\n(?: {2}(?!\s*at ).*\n?)+)/m.exec(output);
  const thrown = /^Error: (\S+: .* is .*; expected .*)$/m.exec(output);
  if (validation) process.stderr.write(validation[1].trimEnd() + '\n');
  else if (thrown) process.stderr.write(thrown[1] + '\n');
  else process.stderr.write(output.trim() + '\n');
  fs.rmSync(staging, { recursive: true, force: true });
  console.error(`synth failed; ${shown}/ was left as it was`);
  process.exit(result.status ?? 1);
}

const old = `${staging}-old`;
if (fs.existsSync(target)) fs.renameSync(target, old);
fs.renameSync(staging, target);
fs.rmSync(old, { recursive: true, force: true });

// One line per written file with its objects, then the total by kind: what a reviewer checks
// before committing dist/.
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const kinds = new Map<string, number>();
const files = fs.readdirSync(target).filter(f => f.endsWith('.yaml')).sort();
const width = Math.max(...files.map(f => `${shown}/${f}`.length));
let total = 0;
for (const file of files) {
  const objects = yaml.loadAll(fs.readFileSync(path.join(target, file), 'utf8')).filter(Boolean) as Array<{ kind?: string }>;
  for (const o of objects) kinds.set(o.kind ?? '(no kind)', (kinds.get(o.kind ?? '(no kind)') ?? 0) + 1);
  total += objects.length;
  console.log(`${`${shown}/${file}`.padEnd(width)}  ${plural(objects.length, 'object')}`);
}
const byKind = [...kinds].sort(([a, m], [b, n]) => n - m || a.localeCompare(b)).map(([kind, n]) => `${n} ${kind}`);
console.log(`${plural(total, 'object')} in ${plural(files.length, 'file')}: ${byKind.join(', ')}`);
