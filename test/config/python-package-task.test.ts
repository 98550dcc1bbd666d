/**
 * `npm run package:python-only` (docs/bindings.md): the Python package alone, written where git
 * does not look, without pacmak touching a tracked file. Running pacmak takes minutes, so this
 * test reads the task; test/bindings/run.sh runs pacmak and checks the checkout is as clean after
 * packaging as before.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const tasks = JSON.parse(fs.readFileSync(path.join(ROOT, '.projen', 'tasks.json'), 'utf8')).tasks;
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Whether git ignores a path of the checkout (git check-ignore exits 0 when it does). */
function ignored(file: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', file], { cwd: ROOT });
    return true;
  } catch {
    return false;
  }
}

test('the task compiles, then runs pacmak for Python alone without touching .npmignore', () => {
  const task = tasks['package:python-only'];
  expect(task.steps).toEqual([
    { spawn: 'compile' },
    { exec: 'jsii-pacmak --no-npmignore --force-subdirectory --target python' },
  ]);
  expect(pkg.scripts['package:python-only']).toBe('projen package:python-only');
});

test('everything the task writes is ignored by git: the package folder, the compiled library and the assembly', () => {
  const outdir: string = pkg.jsii.outdir;
  expect(outdir).toBe('dist-packages');
  for (const written of [`${outdir}/python/cdk8s_kubeflow-0.0.0-py3-none-any.whl`, 'lib/src/index.js', '.jsii', '.venv/bin/python']) {
    expect([written, ignored(written)]).toEqual([written, true]);
  }
  // The generated files the compile rewrites are tracked, and rewritten as they are committed
  // (test/boundary/schema-drift.test.ts and the API docs test hold them to that).
  expect(ignored('src/boundary/schema.generated.ts')).toBe(false);
});

test('run.sh checks the checkout after packaging and can build Python alone', () => {
  const script = fs.readFileSync(path.join(ROOT, 'test', 'bindings', 'run.sh'), 'utf8');
  expect(script).toContain('publish_and_check() { publish; check_artifacts; check_clean; }');
  expect(script).toContain('ONLY="${BINDINGS_ONLY:-}"');
});
