/**
 * The command ships as one bundled file (lib/cli/cdk8s-kubeflow.js, scripts/bundle-cli.ts) that
 * bin/cdk8s-kubeflow runs through V8's code cache. Here: the bundle answers exactly as the compiled
 * modules it is made of, loads nothing else for `lint`, carries the licence of what it bundles, and
 * the code cache is written once, used, rewritten when V8 refuses it, and never changes an answer.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { synthesizeExamples } from './examples-output';
import { CASES, TOO_DEEP } from './lint-cases';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'cdk8s-kubeflow');
const BUNDLE = path.join(ROOT, 'lib', 'cli', 'cdk8s-kubeflow.js');
const MODULES = path.join(ROOT, 'lib', 'src', 'cli', 'main.js');
const FIXTURES = path.join(__dirname, 'fixtures');

interface Run { readonly status: number | null; readonly stdout: string; readonly stderr: string }

/** Environment without any cache setting of the caller's. */
function cleanEnv(extra: { [name: string]: string } = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.CDK8S_KUBEFLOW_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  return { ...env, ...extra };
}

function bundled(args: readonly string[], input = '', env = cleanEnv()): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, input, encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same call on the compiled modules, as the launcher ran them before the bundle. */
function modules(args: readonly string[], input = ''): Run {
  const code = `process.exitCode = require(${JSON.stringify(MODULES)}).main(${JSON.stringify(args)});`;
  const r = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, input, encoding: 'utf8', env: cleanEnv() });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A run without the frames of its stack. */
function withoutStack(run: Run): Run {
  return { ...run, stderr: run.stderr.split('\n').filter(l => !/^ {4}at /.test(l)).join('\n') };
}

/** A PyTorchJob with no finding (the file the bench's row 8 lints). */
const CLEAN_JOB = path.join(FIXTURES, 'small-pytorchjob.yaml');

describe('the bundled command', () => {
  const examples = synthesizeExamples();
  afterAll(() => fs.rmSync(examples, { recursive: true, force: true }));

  test('is built, minified, with the licence of js-yaml, the one package it holds', () => {
    const text = fs.readFileSync(BUNDLE, 'utf8');
    expect(text.length).toBeLessThan(1024 * 1024);
    expect(text.slice(0, 13)).toBe('"use strict";');
    const notice = text.slice(text.lastIndexOf('/*!'));
    expect(notice).toMatch(/^\/\*!\n \* cdk8s-kubeflow command bundle\. It contains the following packages, under their licences:\n\njs-yaml 4\.\d+\.\d+ \(MIT\):\n\n/);
    expect(notice).toContain('Permission is hereby granted, free of charge');
    expect(notice.endsWith(' */\n')).toBe(true);
    // cdk8s and cdk8s-plus-28 (for convert) and cdk8s's yaml are required where they are installed.
    // Checked as booleans: a failure would otherwise print the whole bundle.
    for (const name of ['cdk8s', 'cdk8s-plus-28']) expect([name, text.includes(`require("${name}")`)]).toEqual([name, true]);
    expect(text.includes('class ApiObject')).toBe(false);
  });

  test.each(Object.keys(CASES))('lint of the %s case answers as the compiled modules do', name => {
    const run = bundled(['lint', '--format', 'json', '-'], CASES[name]);
    expect(run).toEqual(modules(['lint', '--format', 'json', '-'], CASES[name]));
    expect(run.status).toBe(name === 'library/yaml-syntax' ? 1 : run.status);
  });

  test.each([
    ['lint of the examples', ['lint', '<examples>']],
    ['lint of the examples, GitHub annotations', ['lint', '--format', 'github', '<examples>']],
    ['lint with a group of rules off', ['lint', '--rules-off', 'kubernetes', '<examples>']],
    ['plan of a Kueue platform against its earlier state', ['plan', path.join(FIXTURES, 'kueue-platform'), '--against', path.join(FIXTURES, 'kueue-platform-before.yaml')]],
    ['plan of workspaces', ['plan', path.join(FIXTURES, 'plan-workspaces.yaml'), '--against', path.join(FIXTURES, 'plan-workspaces-before.yaml')]],
    ['convert of a PyTorchJob', ['convert', path.join(FIXTURES, 'convert', 'pytorch.yaml')]],
    ['convert of a TrainJob', ['convert', path.join(FIXTURES, 'convert', 'trainer.yaml')]],
    ['the rule list', ['rules']],
    ['the help', ['--help']],
    ['a usage error', ['lint', '--format', 'xml', '-']],
    ['a missing file', ['lint', path.join(FIXTURES, 'no-such-file.yaml')]],
  ])('%s answers as the compiled modules do', (_, args) => {
    const resolved = args.map(a => (a === '<examples>' ? examples : a));
    const run = bundled(resolved);
    expect(run).toEqual(modules(resolved));
    expect(run.stdout.length + run.stderr.length).toBeGreaterThan(0);
  });

  test('an internal error is reported as the compiled modules report it, with its stack', () => {
    // The parser of positions (cdk8s's yaml, loaded where it is installed) overflows in both; the
    // frame where the stack runs out differs from run to run, so the frames are compared by place.
    const run = bundled(['lint', '-'], TOO_DEEP);
    expect(run.status).toBe(3);
    expect(withoutStack(run)).toEqual(withoutStack(modules(['lint', '-'], TOO_DEEP)));
    expect(run.stderr).toMatch(/\n {4}at .*node_modules\/cdk8s\/node_modules\/yaml\//);
  });

  test('lint of a clean file loads no module file: the launcher runs the bundle, which holds the rules and the parser', () => {
    const probe = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-probe-')), 'probe.js');
    fs.writeFileSync(probe, 'process.on("exit", () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));\n');
    try {
      const r = spawnSync(process.execPath, ['-r', probe, BIN, 'lint', CLEAN_JOB], { cwd: ROOT, encoding: 'utf8', env: cleanEnv() });
      expect(r.stdout).toBe('1 document checked; no findings\n');
      expect(JSON.parse(r.stderr)).toEqual([probe, BIN]);
    } finally {
      fs.rmSync(path.dirname(probe), { recursive: true, force: true });
    }
  });
});

test('the launcher without its bundle (a checkout not compiled) says so: status 3', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-'));
  try {
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.copyFileSync(BIN, path.join(dir, 'bin', 'cdk8s-kubeflow'));
    const r = spawnSync(process.execPath, [path.join(dir, 'bin', 'cdk8s-kubeflow'), 'lint', '-'], { input: '', encoding: 'utf8', env: cleanEnv() });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 3, stdout: '', stderr: `cdk8s-kubeflow: ${path.join(dir, 'lib', 'cli', 'cdk8s-kubeflow.js')} is missing: compile the project first (npx projen compile)\n`,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('the code cache of the bundled command', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  const input = CASES['training-operator/mpi-np'];
  const expected = modules(['lint', '-'], input);
  const cacheFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

  test('the first call writes one cache file, the next ones use it as it is, and the answers stay the same', () => {
    const dir = path.join(folder, 'first');
    const env = cleanEnv({ CDK8S_KUBEFLOW_COMPILE_CACHE: dir });
    expect(bundled(['lint', '-'], input, env)).toEqual(expected);
    const files = cacheFiles(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.bin$/);
    const file = path.join(dir, files[0]);
    const written = fs.readFileSync(file);
    expect(written.length).toBeGreaterThan(100 * 1024);
    expect(bundled(['lint', '-'], input, env)).toEqual(expected);
    expect(bundled(['plan', path.join(FIXTURES, 'plan-workspaces.yaml')], '', env).status).toBe(0);
    expect(cacheFiles(dir)).toEqual(files);
    expect(fs.readFileSync(file).equals(written)).toBe(true);
  });

  test('a cache V8 refuses (damaged) changes no answer and is written again', () => {
    const dir = path.join(folder, 'damaged');
    const env = cleanEnv({ CDK8S_KUBEFLOW_COMPILE_CACHE: dir });
    bundled(['lint', '-'], input, env);
    const [name] = cacheFiles(dir);
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.alloc(4096, 7));
    expect(bundled(['lint', '-'], input, env)).toEqual(expected);
    expect(cacheFiles(dir)).toEqual([name]);
    expect(fs.readFileSync(file).length).toBeGreaterThan(100 * 1024);
  });

  test('NODE_DISABLE_COMPILE_CACHE=1 turns it off', () => {
    const dir = path.join(folder, 'off');
    expect(bundled(['lint', '-'], input, cleanEnv({ CDK8S_KUBEFLOW_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '1' }))).toEqual(expected);
    expect(fs.existsSync(dir)).toBe(false);
  });

  test('a folder that cannot be made leaves the command as it is, without a cache', () => {
    const blocker = path.join(folder, 'a-file');
    fs.writeFileSync(blocker, 'not a folder\n');
    expect(bundled(['lint', '-'], input, cleanEnv({ CDK8S_KUBEFLOW_COMPILE_CACHE: path.join(blocker, 'cache') }))).toEqual(expected);
  });

  test('by default, a folder of the user\'s own under the temporary folder, readable by the user alone', () => {
    const tmp = path.join(folder, 'tmp');
    fs.mkdirSync(tmp);
    expect(bundled(['lint', '-'], input, cleanEnv({ TMPDIR: tmp }))).toEqual(expected);
    const uid = process.getuid!();
    const dir = path.join(tmp, `cdk8s-kubeflow-compile-cache-${uid}`);
    expect(cacheFiles(tmp)).toEqual([path.basename(dir)]);
    expect((fs.statSync(dir).mode % 0o1000).toString(8)).toBe('700');
    expect(cacheFiles(dir)).toHaveLength(1);
    expect((fs.statSync(path.join(dir, cacheFiles(dir)[0])).mode % 0o1000).toString(8)).toBe('600');
  });
});
