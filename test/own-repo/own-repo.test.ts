import { SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { bash, blocks, followGuide, guide, userEnv as envOf, workspace } from './guide-app';
import { expectValidManifests } from '../harness';

/**
 * Follows docs/own-repo.md literally (guide-app.ts: every `run` block run and every `file` block
 * written, in page order, in a temporary folder, with `PACKAGE` the tarball of this checkout).
 * Then it makes the guide's deliberate mistake (the findings, no stack trace) and runs the guide's
 * CI workflow, once on the committed output (passes) and once after a code change without a new
 * synth (fails). Needs no network beyond the npm registry, and not even that when the npm cache
 * holds the pinned versions.
 */
const all = blocks();
const ws = workspace();
const { work, app } = ws;
const userEnv = () => envOf(ws.home);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Runs every `run:` step of the guide's workflow after checkout and setup-node, in the app. */
function ciSteps(): SpawnSyncReturns<string>[] {
  const workflow = yaml.load(fs.readFileSync(path.join(app, '.github', 'workflows', 'manifests.yaml'), 'utf8')) as any;
  const job = workflow.jobs.synth;
  const results: SpawnSyncReturns<string>[] = [];
  for (const step of job.steps.filter((s: any) => s.run)) {
    const result = bash(`set -eo pipefail\n${step.run}`, app, { ...userEnv(), ...job.env, ...step.env });
    results.push(result);
    if (result.status !== 0) break;
  }
  return results;
}

test('the user\'s shell runs Node 24', () => {
  expect(bash('node --version', work, userEnv()).stdout).toMatch(/^v24\.\d+\.\d+\n$/);
});

test('the guide marks its steps and files', () => {
  expect(all.map(b => b.file ?? b.kind)).toEqual([
    'run', 'package.json', 'run', 'tsconfig.json', '.gitignore', 'main.ts', 'run',
    '.github/workflows/manifests.yaml',
  ]);
});

test('following the guide, with PACKAGE a tarball, synthesizes the PyTorchJob', () => {
  const result = followGuide(ws);
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  // npm's own lines (`added N packages`), and nothing from the app: it writes its files quietly.
  expect(result.stdout).toMatch(/^\nadded \d+ packages in [\d.]+m?s\n\nadded \d+ packages in [\d.]+m?s\n$/);
  // The tarball was copied into the repository, and the lock file names that copy.
  const lock = JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8'));
  expect(lock.packages[''].dependencies['cdk8s-kubeflow']).toMatch(/^file:cdk8s-kubeflow-[\d.]+\.tgz$/);

  expect(fs.readdirSync(path.join(app, 'dist'))).toEqual(['training.k8s.yaml']);
  const docs = yaml.loadAll(fs.readFileSync(path.join(app, 'dist', 'training.k8s.yaml'), 'utf8')) as any[];
  expect(docs.map(d => `${d.apiVersion} ${d.kind} ${d.metadata.namespace}/${d.metadata.name}`))
    .toEqual(['kubeflow.org/v1 PyTorchJob team-vision/resnet']);
  expect(expectValidManifests(docs)).toBe(1);
  const spec = docs[0].spec;
  expect(spec.nprocPerNode).toBe('1');
  expect(spec.runPolicy).toEqual({ cleanPodPolicy: 'Running' });
  expect(Object.keys(spec.pytorchReplicaSpecs)).toEqual(['Master', 'Worker']);
  for (const [role, replicas] of [['Master', 1], ['Worker', 2]] as const) {
    const replica = spec.pytorchReplicaSpecs[role];
    expect(replica.replicas).toBe(replicas);
    const pod = replica.template.spec;
    const container = pod.containers[0];
    expect(container.name).toBe('pytorch');
    expect(container.image).toBe('pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime');
    expect(container.command).toEqual(['torchrun', '/workspace/train.py']);
    expect(container.ports).toEqual([{ containerPort: 23456, name: 'pytorchjob-port' }]);
    expect(container.resources.limits['nvidia.com/gpu']).toBe(1);
    expect(container.resources.requests['nvidia.com/gpu']).toBe(1);
    expect(container.volumeMounts).toContainEqual(expect.objectContaining({ mountPath: '/dev/shm' }));
    expect(pod.volumes).toContainEqual(expect.objectContaining({ emptyDir: { medium: 'Memory', sizeLimit: '2048Mi' } }));
  }
}, 300_000);

test('a mistake prints the findings the guide shows, no stack trace, status 1', () => {
  const main = path.join(app, 'main.ts');
  const good = fs.readFileSync(main, 'utf8');
  fs.writeFileSync(main, good.replace('workers: 2,', "workers: 2,\n    env: { WORLD_SIZE: kplus.EnvValue.fromValue('4') },"));
  try {
    const result = bash('node main.ts', app, userEnv());
    const shown = /A mistake stops it[\s\S]*?```text\n([\s\S]*?)```/.exec(guide)![1];
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ status: 1, stdout: '', stderr: shown });
    expect(result.stderr).not.toMatch(/^\s+at /m);
    // main.ts empties dist/ before it synthesizes (as `cdk8s synth` does): a failed run writes no file.
    expect(fs.readdirSync(path.join(app, 'dist'))).toEqual([]);
  } finally {
    fs.writeFileSync(main, good);
    bash('git checkout -- dist', app, userEnv());
  }
}, 300_000);

test('the CI step passes on the committed output, without banners or warnings', () => {
  const results = ciSteps();
  expect(results.map(r => r.status)).toEqual([0, 0, 0]);
  const output = results.map(r => r.stdout + r.stderr).join('');
  expect(output).not.toMatch(/new version|upgrade|http error|404|end-of-life|Error|Warning/i);
}, 300_000);

/** Writes `files` into the app, runs `code` there, and removes them again. */
function withFiles(files: Record<string, string>, code: string, env = userEnv()): SpawnSyncReturns<string> {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(app, name), text);
  try {
    return bash(code, app, env);
  } finally {
    for (const name of Object.keys(files)) fs.rmSync(path.join(app, name));
  }
}

test('what Node cannot strip, `npx tsc` refuses with the codes the guide names', () => {
  const typeImport = "import { DistributedPyTorchProps } from 'cdk8s-kubeflow';\nexport const props: DistributedPyTorchProps | undefined = undefined;\n";
  const enumFile = 'export enum Team { Vision }\n';
  const result = withFiles({ 'type-import.ts': typeImport, 'team.ts': enumFile }, 'npx tsc');
  expect(result.status).toBe(2);
  expect(result.stdout.trim().split('\n').sort()).toEqual([
    "team.ts(1,13): error TS1294: This syntax is not allowed when 'erasableSyntaxOnly' is enabled.",
    "type-import.ts(1,10): error TS1484: 'DistributedPyTorchProps' is a type and must be imported using a type-only import when 'verbatimModuleSyntax' is enabled.",
  ]);
  // What `node` says without the check, as the guide quotes it.
  const run = withFiles({ 'type-import.ts': typeImport }, 'node type-import.ts');
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("SyntaxError: Named export 'DistributedPyTorchProps' not found.");
  // With `import type`, both pass; a relative import names the `.ts` file.
  const fixed = withFiles({
    'props.ts': typeImport.replace('import {', 'import type {'),
    'use.ts': "import { props } from './props.ts';\nconsole.log(props === undefined);\n",
  }, 'npx tsc && node use.ts');
  expect({ status: fixed.status, stdout: fixed.stdout, stderr: fixed.stderr }).toEqual({ status: 0, stdout: 'true\n', stderr: '' });
}, 300_000);

test('on the Node that runs jest, the compiled way of the guide writes the same YAML', () => {
  // "On an older Node.js": the guide's Node 20 way. CI runs jest on 20, 22 and 24, so each runs it.
  const expected = fs.readFileSync(path.join(app, 'dist', 'training.k8s.yaml'), 'utf8');
  const env = { ...userEnv(), PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` };
  try {
    const result = bash('node --version && npx tsc --noEmit false --outDir build && node build/main.js', app, env);
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr })
      .toEqual({ status: 0, stdout: `${process.version}\n`, stderr: '' });
    expect(fs.readFileSync(path.join(app, 'dist', 'training.k8s.yaml'), 'utf8')).toBe(expected);
  } finally {
    fs.rmSync(path.join(app, 'build'), { recursive: true, force: true });
  }
}, 300_000);

test('the CI step fails when the code changed and dist/ was not synthesized again', () => {
  const main = path.join(app, 'main.ts');
  fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace('workers: 2,', 'workers: 3,'));
  const results = ciSteps();
  expect(results.map(r => r.status)).toEqual([0, 0, 1]);
  expect(results[2].stdout).toMatch(/^-\s+replicas: 2\n\+\s+replicas: 3$/m);
}, 300_000);
