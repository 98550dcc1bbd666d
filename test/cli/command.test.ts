/**
 * The command as users run it: `node bin/cdk8s-kubeflow ...` in a child process, which runs the
 * command's bundle (lib/cli/cdk8s-kubeflow.js, written by `npx projen compile` from the compiled
 * modules, which `npx projen build` runs before the tests).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { buildApp } from './app-versions';
import { synthesizeExamples } from './examples-output';
import { CASES, TOO_DEEP } from './lint-cases';
import { runCli } from './run-cli';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'cdk8s-kubeflow');
const COMPILED = path.join(ROOT, 'lib', 'src', 'cli', 'main.js');

function command(args: readonly string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, input, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('cdk8s-kubeflow in a child process', () => {
  const outdir = synthesizeExamples();
  const v1 = buildApp(new App({ outdir: fs.mkdtempSync(`${outdir}-v1-`) }), 1);
  const v2 = buildApp(new App({ outdir: fs.mkdtempSync(`${outdir}-v2-`) }), 2);
  v1.synth();
  v2.synth();
  afterAll(() => [outdir, v1.outdir, v2.outdir].forEach(d => fs.rmSync(d, { recursive: true, force: true })));

  test('the library is compiled (npx projen compile)', () => {
    expect(fs.existsSync(COMPILED)).toBe(true);
  });

  test('lint loads no construct, no cdk8s and none of plan\'s modules: only the rules, its own modules and js-yaml', () => {
    // The command's compiled modules, what its bundle is made of (scripts/bundle-cli.ts), listing
    // every module the process loaded.
    const code = `process.exitCode = require(${JSON.stringify(COMPILED)}).main(['lint', '-']);`
      + 'process.on("exit", () => process.stderr.write(Object.keys(require.cache).join("\\n")));';
    const r = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, input: CASES['training-operator/mpi-np'], encoding: 'utf8' });
    expect(r.status).toBe(1);
    const loaded = r.stderr.split('\n').map(f => path.relative(ROOT, f));
    const packages = [...new Set(loaded.filter(f => f.startsWith('node_modules/')).map(f => f.split('/')[1]))].sort();
    // The `yaml` package (cdk8s's own copy) is read for the positions of the findings only.
    expect(packages).toEqual(['cdk8s', 'js-yaml']);
    expect(loaded.filter(f => f.startsWith('node_modules/cdk8s/')).every(f => f.startsWith('node_modules/cdk8s/node_modules/yaml/'))).toBe(true);
    const layers = [...new Set(loaded.filter(f => f.startsWith('lib/src/')).map(f => f.split('/')[2]))].sort();
    // The kind table (src/kinds/) is below the rules, which read it.
    expect(layers).toEqual(['cli', 'kinds', 'rules', 'util']);
    // Of plan, rules and convert, only their definitions (the dispatcher's table and the help).
    expect(loaded.filter(f => /lib\/src\/cli\/(plan|rules|convert)\//.test(f)).sort())
      .toEqual(['lib/src/cli/convert/convert-command.js', 'lib/src/cli/plan/plan-command.js', 'lib/src/cli/rules/rules-command.js']);
  });

  test('lint on the examples passes with status 0', () => {
    expect(command(['lint', outdir])).toEqual({
      status: 0, stdout: '47 documents checked, 5 skipped (kinds not known: ConfigMap, PersistentVolumeClaim); no findings\n', stderr: '',
    });
  });

  test('lint of standard input with findings: status 1, GitHub annotations', () => {
    const input = CASES['training-operator/mpi-np'];
    const result = command(['lint', '--format', 'github', '-'], input);
    expect(result).toEqual({ ...runCli(['lint', '--format', 'github', '-'], input), status: 1 });
    expect(result.stdout).toMatch(/^::error file=<stdin>,line=17,col=15,title=training-operator\/mpi-np \(MPIJob ml\/train\)::MPIJob ml\/train: /);
  });

  test('plan --against prints what the in-process command prints', () => {
    const result = command(['plan', v2.outdir, '--against', v1.outdir]);
    expect(result).toEqual({ ...runCli(['plan', v2.outdir, '--against', v1.outdir]), status: 0 });
    expect(result.stdout).toContain('| research | +6 | +62 nvidia.com/gpu | +253 | +4093Gi |');
  });

  test('lint with no findings: status 0; of an input without documents: status 2, unless --allow-empty', () => {
    expect(command(['lint', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n').status).toBe(0);
    expect(command(['lint', '-'], '').status).toBe(2);
    expect(command(['lint', '--allow-empty', '-'], '').status).toBe(0);
  });

  test('a usage error: status 2 and the usage on standard error', () => {
    const result = command([]);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n').slice(0, 2)).toEqual(['cdk8s-kubeflow: a command is needed', 'Usage:']);
  });

  test('an internal error: status 3, named as one, with the stack', () => {
    const result = command(['lint', '-'], TOO_DEEP);
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([
      'cdk8s-kubeflow: internal error (a fault of the command, not a finding): RangeError: Maximum call stack size exceeded',
      'RangeError: Maximum call stack size exceeded',
    ]);
    expect(result.stderr).toMatch(/\n {4}at .*yaml/);
  });

  test('the npm package has the launcher and the bundled command, not the command\'s modules', () => {
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' });
    const files: string[] = JSON.parse(pack.stdout)[0].files.map((f: { path: string }) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/cdk8s-kubeflow', 'lib/cli/cdk8s-kubeflow.js']));
    expect(files.filter(f => f.startsWith('lib/src/cli/'))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ 'cdk8s-kubeflow': 'bin/cdk8s-kubeflow' });
  });
});
