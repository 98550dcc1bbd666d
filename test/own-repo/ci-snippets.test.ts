import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { ROOT, Workspace, bash, followGuide, userEnv, workspace } from './guide-app';

/**
 * The CI snippets the README and docs/cli.md show (GitHub Actions steps: synthesize, `lint --format
 * github`, `plan --against` a `git worktree` of the target branch, `gh pr comment`), taken from the
 * pages and run in the app docs/own-repo.md sets up (guide-app.ts follows the guide), on a pull
 * request branch that grows the guide's job from two workers to four.
 *
 * What stands in for GitHub, and nothing else: the `uses:` steps are not run (the app folder is the
 * checkout, with the target branch fetched from a local bare repository as `origin`, as
 * `fetch-depth: 0` gives; the machine's Node is setup-node's); `${{ ... }}` expressions are the
 * pull request's values (base_ref `main`, number 7, a token); `gh` is a script first on PATH that
 * records its arguments and the body file it was given. `git worktree add`, `npm ci`, the app's
 * synth script and the `cdk8s-kubeflow` command are the real ones.
 */
const ws: Workspace = workspace();
const stubs = path.join(ws.work, 'stub-bin');
const ghLog = path.join(ws.work, 'gh.log');
const PULL_REQUEST = 7;
const EXPRESSIONS: { readonly [expression: string]: string } = {
  'github.token': 'stub-token',
  'github.base_ref': 'main',
  'github.event.pull_request.number': String(PULL_REQUEST),
};

function env(): NodeJS.ProcessEnv {
  const base = userEnv(ws.home);
  return { ...base, PATH: `${stubs}${path.delimiter}${base.PATH}`, GH_LOG: ghLog };
}

/** `${{ expression }}` as GitHub would fill it in for the pull request; an unknown one fails the test. */
function expand(text: string): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e: string) => {
    expect({ expression: e, known: e in EXPRESSIONS }).toEqual({ expression: e, known: true });
    return EXPRESSIONS[e];
  });
}

/** The ```yaml block of `page` that holds `marker`, and the text before it. */
function yamlBlock(page: string, marker: string): { code: string; before: string } {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const found = [...text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].filter(m => m[1].includes(marker));
  expect(found.length).toBe(1);
  return { code: found[0][1], before: text.slice(0, found[0].index) };
}

interface Step { readonly name?: string; readonly run?: string; readonly uses?: string; readonly env?: { [k: string]: string } }

/** The README's steps, after the synth command its lead-in names (`after `...``). */
function readmeSteps(): Step[] {
  const { code, before } = yamlBlock('README.md', 'gh pr comment');
  const synth = /after\s+`([^`]+)`/.exec(before.trimEnd().split('\n\n').pop()!);
  expect(synth?.[1]).toBe('npm ci && npm run synth');
  return [{ name: 'synth (the lead-in)', run: synth![1] }, ...yaml.load(code) as Step[]];
}

/** docs/cli.md's workflow, every step of its one job. */
function cliSteps(): Step[] {
  const workflow = yaml.load(yamlBlock('docs/cli.md', 'gh pr comment').code) as any;
  expect(Object.keys(workflow.jobs)).toEqual(['lint-and-plan']);
  return workflow.jobs['lint-and-plan'].steps;
}

interface Ran { readonly step: string; readonly status: number | null; readonly output: string }

/** Runs every `run:` step in the app as GitHub's bash does (`-eo pipefail`), with its `env:`. */
function runSteps(steps: readonly Step[]): Ran[] {
  return steps.filter(s => s.run !== undefined).map(s => {
    const stepEnv = Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, expand(String(v))]));
    const r = bash(`set -eo pipefail\n${expand(s.run!)}`, ws.app, { ...env(), ...stepEnv });
    return { step: s.name ?? s.run!, status: r.status, output: r.stdout + r.stderr };
  });
}

beforeAll(() => {
  const guide = followGuide(ws);
  expect({ status: guide.status, stderr: guide.stderr }).toEqual({ status: 0, stderr: '' });
  fs.mkdirSync(stubs);
  // The GitHub CLI's stand-in: the arguments one a line, whether a token was there, the body file's text.
  fs.writeFileSync(path.join(stubs, 'gh'), [
    '#!/bin/sh',
    'printf \'%s\\n\' "$@" > "$GH_LOG"',
    'echo "GH_TOKEN=${GH_TOKEN:+set}" >> "$GH_LOG"',
    'while [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" "$GH_LOG.body"; shift; done',
    '',
  ].join('\n'), { mode: 0o755 });
  // The target branch on a remote, and the pull request's branch: four workers, synthesized and committed.
  const setup = bash([
    'set -euo pipefail',
    'git branch -M main',
    'git init -q --bare ../origin.git',
    'git remote add origin ../origin.git',
    'git push -q origin main',
    'git fetch -q origin',
    'git checkout -q -b grow-resnet',
    "sed -i 's/workers: 2,/workers: 4,/' main.ts",
    'npm run synth --silent',
    'git commit -qam "Four workers"',
  ].join('\n'), ws.app, env());
  expect({ status: setup.status, stderr: setup.stderr }).toEqual({ status: 0, stderr: '' });
}, 600_000);

afterAll(() => fs.rmSync(ws.work, { recursive: true, force: true }));

/** A fresh start for each snippet: no base worktree, no plan, no gh record. */
afterEach(() => {
  bash('git worktree remove --force ../base 2>/dev/null; rm -f plan.md "$GH_LOG" "$GH_LOG.body"', ws.app, env());
});

/** What every snippet must do in the guide's app: each step passes, the plan shows two more GPUs, gh posts it. */
function expectPosted(ran: Ran[]): void {
  expect(ran.map(r => [r.step, r.status])).toEqual(ran.map(r => [r.step, 0]));
  // The guide's job has no finding: no annotation, the summary alone.
  expect(ran.find(r => r.step === 'Lint every manifest')!.output).toBe('1 document checked; no findings\n');
  // The plan is all on standard output, into plan.md: the job grew by two workers of one GPU each.
  expect(ran.find(r => r.step === 'Plan against the target branch')!.output).not.toMatch(/Change/);
  const plan = fs.readFileSync(path.join(ws.app, 'plan.md'), 'utf8');
  expect(plan).toMatch(/^## Change: 0 added, 0 removed, 1 changed$/m);
  expect(plan).toMatch(/^\| changed \| team-vision\/resnet \| PyTorchJob \|.*\| Master 1, Worker 2 -> Master 1, Worker 4 \| \+2 nvidia\.com\/gpu \|/m);
  expect(fs.readFileSync(ghLog, 'utf8').split('\n')).toEqual(['pr', 'comment', String(PULL_REQUEST), '--body-file', 'plan.md', 'GH_TOKEN=set', '']);
  expect(fs.readFileSync(`${ghLog}.body`, 'utf8')).toBe(plan);
  // The base is the target branch's commit, synthesized in its own worktree: two workers there.
  expect(fs.readFileSync(path.join(ws.work, 'base', 'dist', 'training.k8s.yaml'), 'utf8')).toMatch(/^ {6}replicas: 2$/m);
}

test('the README\'s steps run in the guide\'s app: lint, plan against the target branch, gh pr comment', () => {
  const steps = readmeSteps();
  expect(steps.map(s => s.name ?? s.run)).toEqual(['synth (the lead-in)', 'Lint every manifest', 'Plan against the target branch']);
  const ran = runSteps(steps);
  expectPosted(ran);
  plans.readme = fs.readFileSync(path.join(ws.app, 'plan.md'), 'utf8');
}, 600_000);

test('docs/cli.md\'s workflow runs in the guide\'s app, every run: step', () => {
  const steps = cliSteps();
  expect(steps.map(s => s.uses ?? s.name ?? s.run)).toEqual([
    'actions/checkout@v4', 'actions/setup-node@v4', 'npm ci && npm run synth', 'Lint every manifest', 'Plan against the target branch',
  ]);
  const ran = runSteps(steps);
  expectPosted(ran);
  plans.cli = fs.readFileSync(path.join(ws.app, 'plan.md'), 'utf8');
}, 600_000);

const plans: { readme?: string; cli?: string } = {};
test('both snippets post the same plan', () => {
  expect(plans.readme).toBeDefined();
  expect(plans.cli).toBe(plans.readme);
});
