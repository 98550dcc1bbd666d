/**
 * upstream/ holds the pinned CRDs and example corpora, each file pinned in upstream/pins.json by
 * its git blob SHA-1 (scripts/upstream). The offline check must find every changed byte, missing
 * and unpinned file; the comparison with the releases (`npx projen import:verify`, which downloads
 * Go modules) is exercised here on a fake module folder, so no test needs the network.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MODULES } from '../../../scripts/l1/generate';
import { gitBlobSha1, Pin, pinProblems, readPins, UPSTREAM_DIR } from '../../../scripts/upstream/pins';
import { upstreamProblems } from '../../../scripts/upstream/verify';

const ROOT = path.join(__dirname, '..', '..', '..');
const pins = readPins();

let scratch: string;
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-pins-'));
});
afterEach(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A copy of upstream/ (files, READMEs and pins.json) in the scratch folder. */
function copyUpstream(): string {
  const copy = path.join(scratch, 'upstream');
  fs.cpSync(UPSTREAM_DIR, copy, { recursive: true });
  return copy;
}

test('git blob SHA-1s as `git hash-object` computes them', () => {
  expect(gitBlobSha1(Buffer.alloc(0))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  expect(gitBlobSha1(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
});

test('every file in upstream/ is the pinned upstream blob, and nothing unpinned is there', () => {
  expect(pinProblems()).toEqual([]);
});

test('the pins: 64 files from five releases, the Notebooks v2 ones not from a Go module', () => {
  const releases: Record<string, number> = {};
  for (const p of pins) {
    const key = `${p.module ?? p.repository}@${p.ref}`;
    releases[key] = (releases[key] ?? 0) + 1;
  }
  expect(releases).toEqual({
    'github.com/kubeflow/training-operator@v1.9.4': 32,
    'github.com/kubeflow/training-operator@v1.8.1': 1,
    'github.com/kubeflow/trainer/v2@v2.3.0': 21,
    'kubeflow/notebooks@notebooks-v2': 4,
    'sigs.k8s.io/kueue@v0.15.2': 6,
  });
  for (const p of pins) {
    expect(p.blob).toMatch(/^[0-9a-f]{40}$/);
    expect(p.commit).toMatch(/^[0-9a-f]{40}$/);
  }
});

test('the CRDs the generator reads are exactly the pinned ones', () => {
  const pinnedCrds = pins.filter(p => p.path.startsWith('crds/')).map(p => p.path).sort();
  expect(pinnedCrds).toEqual(MODULES.flatMap(m => m.files).map(f => `crds/${f}`).sort());
});

test('every pinned file is in its folder\'s README table with its bytes and blob', () => {
  const missing: string[] = [];
  for (const pin of pins) {
    // The nearest README above the file, inside upstream/.
    let dir = path.posix.dirname(pin.path);
    while (!fs.existsSync(path.join(UPSTREAM_DIR, dir, 'README.md'))) dir = path.posix.dirname(dir);
    const relative = path.posix.relative(dir, pin.path);
    const listed = fs.readFileSync(path.join(UPSTREAM_DIR, dir, 'README.md'), 'utf8').split('\n')
      .some(l => l.startsWith(`| \`${relative}\` |`) && l.includes(` ${pin.bytes} |`) && l.includes(` ${pin.blob} |`));
    if (!listed) missing.push(`${dir}/README.md: ${relative}`);
  }
  expect(missing).toEqual([]);
});

describe('the offline check on a copy', () => {
  const file = 'crds/training-operator/kubeflow.org_pytorchjobs.yaml';
  const pin = pins.find(p => p.path === file)!;

  test('the copy passes as it is', () => {
    expect(pinProblems(copyUpstream())).toEqual([]);
  });

  test('one changed byte (same size) fails, naming the file, both blobs and the release', () => {
    const copy = copyUpstream();
    const content = fs.readFileSync(path.join(copy, file));
    const at = content.indexOf('PyTorchJob');
    content[at] = 'p'.charCodeAt(0);
    fs.writeFileSync(path.join(copy, file), content);
    expect(pinProblems(copy)).toEqual([
      `${file}: blob ${gitBlobSha1(content)} (${pin.bytes} bytes); pinned ${pin.blob} (${pin.bytes} bytes) of kubeflow/trainer@v1.9.4 manifests/base/crds/kubeflow.org_pytorchjobs.yaml`,
    ]);
  });

  test('a missing file and a file that is not pinned fail; another README does not', () => {
    const copy = copyUpstream();
    fs.rmSync(path.join(copy, file));
    fs.writeFileSync(path.join(copy, 'crds', 'training-operator', 'kubeflow.org_extra.yaml'), 'kind: CustomResourceDefinition\n');
    fs.writeFileSync(path.join(copy, 'examples', 'README.md'), 'notes\n');
    expect(pinProblems(copy)).toEqual([
      `${file}: missing (pinned as blob ${pin.blob} of kubeflow/trainer@v1.9.4 manifests/base/crds/kubeflow.org_pytorchjobs.yaml)`,
      'crds/training-operator/kubeflow.org_extra.yaml: not in pins.json',
    ]);
  });
});

describe('the comparison with the pinned releases, on fake module folders', () => {
  /** Each module version as a folder holding the pinned files at their upstream paths. */
  function fakeModules(): Map<string, string> {
    const dirs = new Map<string, string>();
    for (const pin of pins.filter(p => p.module)) {
      const dir = path.join(scratch, 'modules', `${pin.module}@${pin.ref}`);
      dirs.set(`${pin.module}@${pin.ref}`, dir);
      fs.mkdirSync(path.dirname(path.join(dir, pin.upstreamPath)), { recursive: true });
      fs.copyFileSync(path.join(UPSTREAM_DIR, pin.path), path.join(dir, pin.upstreamPath));
    }
    return dirs;
  }
  const downloader = (dirs: Map<string, string>) => (module: string, version: string) => {
    const dir = dirs.get(`${module}@${version}`);
    if (!dir) throw new Error(`no module ${module}@${version}`);
    return dir;
  };

  test('the releases as pinned: one line per release, the Notebooks v2 files by SHA only', () => {
    const dirs = fakeModules();
    const report = upstreamProblems(pins, downloader(dirs));
    expect(report.problems).toEqual([]);
    expect(report.lines).toEqual([
      `github.com/kubeflow/trainer/v2@v2.3.0 (21 files): every file at its upstream path with the pinned blob (${dirs.get('github.com/kubeflow/trainer/v2@v2.3.0')})`,
      `github.com/kubeflow/training-operator@v1.8.1 (1 file): every file at its upstream path with the pinned blob (${dirs.get('github.com/kubeflow/training-operator@v1.8.1')})`,
      `github.com/kubeflow/training-operator@v1.9.4 (32 files): every file at its upstream path with the pinned blob (${dirs.get('github.com/kubeflow/training-operator@v1.9.4')})`,
      'kubeflow/notebooks@notebooks-v2 (4 files, commit 8b6105775132f4ea0af2a1dc3833519789651233): kubeflow/notebooks is not served by the Go module proxy; '
        + 'verified by SHA only (offline step)',
      `sigs.k8s.io/kueue@v0.15.2 (6 files): every file at its upstream path with the pinned blob (${dirs.get('sigs.k8s.io/kueue@v0.15.2')})`,
    ]);
  });

  test('a file that changed upstream, one that moved, and a release that cannot be downloaded', () => {
    const dirs = fakeModules();
    const trainer = dirs.get('github.com/kubeflow/trainer/v2@v2.3.0')!;
    const changed = pins.find(p => p.path === 'examples/upstream-v2/runtimes/torch_distributed.yaml')!;
    fs.appendFileSync(path.join(trainer, changed.upstreamPath), '# upstream edit\n');
    const moved = pins.find(p => p.path === 'crds/trainer-v2/trainer.kubeflow.org_trainjobs.yaml')!;
    fs.rmSync(path.join(trainer, moved.upstreamPath));
    dirs.delete('github.com/kubeflow/training-operator@v1.8.1');

    const report = upstreamProblems(pins, downloader(dirs));
    expect(report.problems).toEqual([
      'crds/trainer-v2/trainer.kubeflow.org_trainjobs.yaml: manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml does not exist in github.com/kubeflow/trainer/v2@v2.3.0',
      'examples/upstream-v2/runtimes/torch_distributed.yaml: github.com/kubeflow/trainer/v2@v2.3.0 manifests/base/runtimes/torch_distributed.yaml is blob '
        + `${gitBlobSha1(fs.readFileSync(path.join(trainer, changed.upstreamPath)))}; pinned ${changed.blob}`,
      'github.com/kubeflow/training-operator@v1.8.1: no module github.com/kubeflow/training-operator@v1.8.1',
    ]);
    expect(report.lines[0]).toBe(`github.com/kubeflow/trainer/v2@v2.3.0 (21 files): 2 differ (${trainer})`);
  });

  test('a pin without a module is never downloaded', () => {
    const notebooks: Pin[] = pins.filter(p => !p.module);
    expect(notebooks.map(p => p.repository)).toEqual(['kubeflow/notebooks', 'kubeflow/notebooks', 'kubeflow/notebooks', 'kubeflow/notebooks']);
    const report = upstreamProblems(notebooks, () => {
      throw new Error('downloaded');
    });
    expect(report.problems).toEqual([]);
  });
});

test('`import:verify --offline` passes on the repository, and refuses an unknown option', () => {
  const run = (...args: string[]) => spawnSync('npx', ['ts-node', '--transpile-only', '--project', 'tsconfig.dev.json', 'scripts/upstream/verify.ts', ...args], {
    cwd: ROOT, encoding: 'utf8', timeout: 60_000,
  });
  const ok = run('--offline');
  expect({ status: ok.status, stdout: ok.stdout, stderr: ok.stderr }).toEqual({
    status: 0, stdout: 'upstream/pins.json: 64 files; each has its pinned size and blob\n', stderr: '',
  });
  const bad = run('--online');
  expect({ status: bad.status, stderr: bad.stderr }).toEqual({
    status: 2, stderr: 'import:verify: unknown argument --online; the only option is --offline\n',
  });
});
