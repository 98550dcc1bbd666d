/**
 * The app docs/own-repo.md sets up, made by following the page literally: every block marked
 * `<!-- own-repo: run -->` is run and every block marked `<!-- own-repo: file <path> -->` is
 * written, in page order, in one shell inside a temporary folder of the system's (nowhere near this
 * checkout), with `PACKAGE` set to the tarball `npm pack` makes of this checkout (so `lib/` must be
 * compiled). The guide's app runs `node main.ts` through Node's type stripping, which the machine's
 * Node 20 lacks, so the user's shell has Node 24 first on its PATH (scripts/node-binary.sh), whichever
 * Node runs jest. Shared by the guide's own test (own-repo.test.ts) and the test of the CI snippets the
 * README and docs/cli.md show (ci-snippets.test.ts), which run in that app.
 */
import { spawnSync, SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const ROOT = path.join(__dirname, '..', '..');
export const guide = fs.readFileSync(path.join(ROOT, 'docs', 'own-repo.md'), 'utf8');

export interface Block { readonly kind: 'run' | 'file'; readonly file?: string; readonly code: string }

export function blocks(): Block[] {
  const re = /^<!-- own-repo: (run|file (\S+)) -->\n```[^\n]*\n([\s\S]*?)^```$/gm;
  return [...guide.matchAll(re)].map(m => (m[1] === 'run'
    ? { kind: 'run', code: m[3] }
    : { kind: 'file', file: m[2], code: m[3] }));
}

/** The guide as one bash script: run blocks as they are, file blocks as quoted here-documents. */
export function script(all: Block[]): string {
  const steps = all.map(b => (b.kind === 'run' ? b.code
    : `mkdir -p "$(dirname '${b.file}')"\ncat > '${b.file}' <<'OWN_REPO_FILE'\n${b.code}OWN_REPO_FILE\n`));
  return ['set -euo pipefail', ...steps].join('\n');
}

/** A temporary folder for one test file: `ml-jobs` (the app), a home folder and the packed tarball's folder. */
export interface Workspace { readonly work: string; readonly app: string; readonly home: string; readonly packed: string }

export function workspace(): Workspace {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'own-repo-'));
  const home = path.join(work, 'home');
  fs.mkdirSync(home);
  const packed = path.join(work, 'packed');
  fs.mkdirSync(packed);
  return { work, app: path.join(work, 'ml-jobs'), home, packed };
}

/**
 * The environment of a new user's shell: no npm_* variables inherited from `npm test` (they would
 * point npm at this project), a home folder of its own (so no cdk8s-cli version cache hides an
 * upgrade check the guide should have turned off), the machine's npm cache with `prefer-offline`
 * so npm takes what the cache holds instead of asking the registry again, and a git identity.
 */
const npmCache = process.env.npm_config_cache ?? path.join(os.homedir(), '.npm');
export const NODE_24 = spawnSync(path.join(ROOT, 'scripts', 'node-binary.sh'), ['24'], { encoding: 'utf8' }).stdout.trim();
export function userEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return {
    ...env,
    PATH: `${NODE_24}${path.delimiter}${env.PATH}`,
    HOME: home,
    npm_config_cache: npmCache,
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    GIT_AUTHOR_NAME: 'own-repo test',
    GIT_AUTHOR_EMAIL: 'own-repo@example.com',
    GIT_COMMITTER_NAME: 'own-repo test',
    GIT_COMMITTER_EMAIL: 'own-repo@example.com',
  };
}

export function bash(code: string, cwd: string, env: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
  return spawnSync('bash', ['-c', code], { cwd, env, encoding: 'utf8', timeout: 300_000 });
}

/** `npm pack` of this checkout into the workspace's folder, as the guide says to make a tarball. */
export function pack(ws: Workspace): string {
  const result = spawnSync('npm', ['pack', '--pack-destination', ws.packed, ROOT], { cwd: ws.work, env: userEnv(ws.home), encoding: 'utf8', timeout: 300_000 });
  expect({ status: result.status, stderr: result.stderr.split('\n').filter(l => /ERR!/.test(l)) }).toEqual({ status: 0, stderr: [] });
  const name = result.stdout.trim().split('\n').pop()!;
  expect(name).toMatch(/^cdk8s-kubeflow-[\d.]+\.tgz$/);
  return path.join(ws.packed, name);
}

/** Follows the whole guide in `ws` (the library compiled first: the guide packs lib/). */
export function followGuide(ws: Workspace): SpawnSyncReturns<string> {
  // The guide packs the compiled library; `npm test` compiles first, a bare `npx jest` may not have.
  const compiled = path.join(ROOT, 'lib', 'src', 'index.js');
  expect({ compiled: fs.existsSync(compiled), hint: 'run `npx projen compile` first' }).toEqual({ compiled: true, hint: 'run `npx projen compile` first' });
  return bash(script(blocks()), ws.work, { ...userEnv(ws.home), PACKAGE: pack(ws) });
}
