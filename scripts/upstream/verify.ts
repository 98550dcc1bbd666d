/**
 * `npx projen import:verify`: checks that upstream/ is what upstream/pins.json pins.
 *
 * 1. Offline: every pinned file is present with its pinned size and git blob SHA-1, and nothing
 *    else but the READMEs and pins.json is in the folder.
 * 2. Unless `--offline` is given: each pinned release that the Go module proxy serves
 *    (training-operator v1.9.4 and v1.8.1, Trainer v2.3.0, Kueue v0.15.2) is downloaded with `go mod download`
 *    (into the default module cache, or GOMODCACHE if set), and every file pinned to it must be at
 *    its recorded upstream path there with the same blob. Files of a repository that is not a Go
 *    module of the proxy (Kubeflow Notebooks v2) are checked by the offline step only, and the
 *    output says so.
 *
 * Exits 1 on any difference, naming each file.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { gitBlobSha1, Pin, pinProblems, PINS_FILE, readPins, UPSTREAM_DIR } from './pins';

/** Downloads a module version and returns the folder with its source. */
export type ModuleDownloader = (module: string, version: string) => string;

/** `go mod download -json module@version`, outside any Go module, with GOFLAGS=-mod=mod. */
export const goModDownload: ModuleDownloader = (module, version) => {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'import-verify-'));
  try {
    const run = spawnSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
      cwd, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' },
    });
    if (run.error) throw new Error(`go mod download ${module}@${version}: ${run.error.message}`);
    let info: any;
    try {
      info = JSON.parse(run.stdout);
    } catch {
      throw new Error(`go mod download ${module}@${version} exited ${run.status}: ${(run.stderr || run.stdout).trim()}`);
    }
    if (info.Error || !info.Dir) throw new Error(`go mod download ${module}@${version}: ${info.Error ?? 'no Dir in its output'}`);
    return info.Dir;
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
};

/** The outcome of comparing the pins with the releases they name. */
export interface UpstreamReport {
  /** One line per release: what was checked and where. */
  readonly lines: string[];
  /** One line per file that is missing upstream or differs from its pin. */
  readonly problems: string[];
}

/** Compares every pin that names a Go module with the file at its upstream path in that module. */
export function upstreamProblems(pins: readonly Pin[], download: ModuleDownloader = goModDownload): UpstreamReport {
  const lines: string[] = [];
  const problems: string[] = [];
  const groups = new Map<string, Pin[]>();
  for (const pin of pins) {
    const key = pin.module ? `${pin.module}@${pin.ref}` : `${pin.repository}@${pin.ref}`;
    groups.set(key, [...(groups.get(key) ?? []), pin]);
  }
  for (const [key, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const { module, ref, repository, commit } = group[0];
    if (!module) {
      lines.push(`${key} (${group.length} files, commit ${commit}): ${repository} is not served by the Go module proxy; `
        + 'verified by SHA only (offline step)');
      continue;
    }
    let dir: string;
    try {
      dir = download(module, ref);
    } catch (e: any) {
      problems.push(`${key}: ${e.message}`);
      continue;
    }
    const before = problems.length;
    for (const pin of group) {
      const file = path.join(dir, pin.upstreamPath);
      if (!fs.existsSync(file)) {
        problems.push(`${pin.path}: ${pin.upstreamPath} does not exist in ${key}`);
        continue;
      }
      const blob = gitBlobSha1(fs.readFileSync(file));
      if (blob !== pin.blob) problems.push(`${pin.path}: ${key} ${pin.upstreamPath} is blob ${blob}; pinned ${pin.blob}`);
    }
    const drifted = problems.length - before;
    lines.push(`${key} (${group.length} file${group.length === 1 ? '' : 's'}): ${drifted === 0 ? 'every file at its upstream path with the pinned blob' : `${drifted} differ`} (${dir})`);
  }
  return { lines, problems };
}

function main(args: readonly string[]): number {
  const unknown = args.filter(a => a !== '--offline');
  if (unknown.length > 0) {
    console.error(`import:verify: unknown argument ${unknown.join(' ')}; the only option is --offline`);
    return 2;
  }
  const pins = readPins(UPSTREAM_DIR);
  const problems = pinProblems(UPSTREAM_DIR, pins);
  console.log(`upstream/${PINS_FILE}: ${pins.length} files; ${problems.length === 0 ? 'each has its pinned size and blob' : `${problems.length} problems`}`);
  if (!args.includes('--offline')) {
    const upstream = upstreamProblems(pins);
    for (const line of upstream.lines) console.log(line);
    problems.push(...upstream.problems);
  }
  for (const p of problems) console.error(`import:verify: ${p}`);
  return problems.length === 0 ? 0 : 1;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
