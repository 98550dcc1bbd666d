/**
 * The npm tarball holds what users need whatever the working tree holds: package.json's `files`
 * (set in .projenrc.ts) is an allowlist. A copy of the tree (every tracked file, the compiled lib/
 * and .jsii) with build outputs and junk of the kinds a working tree gathers is packed with
 * `npm pack --dry-run --json`, and the list is checked exactly.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { linkedFiles, relativeLinks } from '../../projenrc/linked-files';

const ROOT = path.join(__dirname, '..', '..');
/** The tarball's files, as the packing test lists them. */
const packed: string[] = [];

/** Junk a working tree gathers: test and build outputs, scratch folders, logs, a stray file. */
const JUNK: { [file: string]: string } = {
  'conformance/kube/scratch_test.go': 'package kube\n',
  'test-reports/junit.xml': '<testsuites/>\n',
  'test-reports/manifests/a.yaml': 'kind: PyTorchJob\n',
  'dist/app.k8s.yaml': 'kind: PyTorchJob\n',
  'dist-packages/js/cdk8s-kubeflow@0.0.0.jsii.tgz': 'not a tarball\n',
  '.bench/results.json': '{}\n',
  'npm-debug.log': 'log\n',
  'build.log': 'log\n',
  'upstream/crds/extra.yaml': 'kind: CustomResourceDefinition\n',
  'notes.txt': 'a stray file\n',
  '.env': 'TOKEN=x\n',
  'coverage/lcov.info': '\n',
  'lib/tsconfig.tsbuildinfo': '{}\n',
  'lib/src/cli/debug.log': 'log\n',
  'lib/src/cli/scratch.ts': 'export {};\n',
  'bin/old-launcher': '#!/bin/sh\n',
  'docs/draft.md': '# draft\n',
};

function walk(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => (e.isDirectory()
    ? walk(path.join(dir, e.name), `${prefix}${e.name}/`)
    : [`${prefix}${e.name}`]));
}

describe('the npm tarball', () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-package-'));
  afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

  test('the library is compiled (npx projen compile)', () => {
    expect(fs.existsSync(path.join(ROOT, 'lib', 'src', 'cli', 'main.js'))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'lib', 'cli', 'cdk8s-kubeflow.js'))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, '.jsii'))).toBe(true);
  });

  test('holds the compiled library, .jsii, the launcher and the README, licence and API reference: nothing of the junk', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(f => f !== '');
    for (const file of tracked) {
      if (!fs.existsSync(path.join(ROOT, file))) continue;
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(copy, file));
    }
    fs.cpSync(path.join(ROOT, 'lib'), path.join(copy, 'lib'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, '.jsii'), path.join(copy, '.jsii'));
    for (const [file, text] of Object.entries(JUNK)) {
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      fs.writeFileSync(path.join(copy, file), text);
    }

    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: copy, encoding: 'utf8' });
    expect(pack.status).toBe(0);
    const files: string[] = JSON.parse(pack.stdout)[0].files.map((f: { path: string }) => f.path).sort();

    packed.push(...files);
    // Outside lib/: exactly these, and the pages the README links to with what they link to
    // (projenrc/linked-files.ts; the junk docs/draft.md is linked from nowhere).
    expect(files.filter(f => !f.startsWith('lib/'))).toEqual([
      '.jsii', 'API.md', 'LICENSE', 'README.md', 'bin/cdk8s-kubeflow', ...linkedFiles(ROOT), 'package.json',
    ].sort());
    expect(files).toEqual(expect.arrayContaining(['docs/cli.md', 'docs/own-repo.md', 'docs/kueue.md', 'examples/pytorch-production.ts']));
    expect(files).not.toContain('docs/draft.md');
    // In lib/: every compiled module with its declarations and source map, and nothing else, but
    // the command's modules: it ships as one bundle, lib/cli/cdk8s-kubeflow.js (scripts/bundle-cli.ts).
    const compiled = walk(path.join(ROOT, 'lib')).map(f => `lib/${f}`).filter(f => /\.(js|d\.ts|js\.map)$/.test(f))
      .filter(f => !f.startsWith('lib/src/cli/')).sort();
    expect(files.filter(f => f.startsWith('lib/'))).toEqual(compiled);
    const modules = compiled.filter(f => f.endsWith('.js'));
    expect(modules.length).toBeGreaterThan(100);
    // Each with its declarations and source map, but the entry point (scripts/lazy-entry.ts writes
    // it after jsii, and it has no line of src/ to map to) and the bundle (no declarations, no map).
    expect(compiled.length).toBe(3 * modules.length - 3);
    expect(files).not.toContain('lib/src/index.js.map');
    expect(files).toEqual(expect.arrayContaining(['lib/src/index.js', 'lib/src/index.d.ts', 'lib/cli/cdk8s-kubeflow.js', 'lib/imports/kubeflow.js']));
    expect(files.filter(f => f.startsWith('lib/cli/'))).toEqual(['lib/cli/cdk8s-kubeflow.js']);
  });

  test('every relative link of the README and of the pages shipped with it resolves to a file in the tarball (run `npx projen` after linking a new page)', () => {
    expect(packed.length).toBeGreaterThan(0);
    const inTarball = new Set(packed);
    const pages = packed.filter(f => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    expect(pages.length).toBeGreaterThan(15);
    const dead = pages.flatMap(page => relativeLinks(fs.readFileSync(path.join(ROOT, page), 'utf8'))
      .map(link => ({ page, link, target: path.posix.normalize(path.posix.join(path.posix.dirname(page), link)) }))
      .filter(l => !inTarball.has(l.target) && !inTarball.has(`${l.target.replace(/\/$/, '')}/README.md`)));
    expect(dead).toEqual([]);
  });

  test('has no dependency: the library needs only its peers, and the command carries its parser in its bundle', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.bundledDependencies).toBeUndefined();
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['cdk8s', 'cdk8s-plus-28', 'constructs']);
  });
});
