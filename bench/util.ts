/** Small helpers shared by the benchmark modules. */
import { SpawnSyncOptions, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** The project root (bench/..). */
export const ROOT = path.resolve(__dirname, '..');

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * A 95% interval for the ratio of two medians (`a`'s over `b`'s): each side's runs resampled with
 * replacement, 2,000 times, with a fixed seed so the same runs always give the same interval. On a
 * shared machine one run can land a ratio either side of a target; the interval says how far the
 * verdict can be trusted.
 */
export function ratioInterval(a: number[], b: number[], resamples = 2000): [number, number] {
  if (a.length === 0 || b.length === 0) return [NaN, NaN];
  let seed = 20261202;
  // Park and Miller's minimal standard generator: deterministic, exact in doubles, and good enough
  // to pick indices.
  const next = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const resample = (xs: number[]) => median(xs.map(() => xs[Math.floor(next() * xs.length)]));
  const ratios: number[] = [];
  for (let i = 0; i < resamples; i++) ratios.push(resample(a) / resample(b));
  ratios.sort((x, y) => x - y);
  return [ratios[Math.floor(resamples * 0.025)], ratios[Math.ceil(resamples * 0.975) - 1]];
}

/** Median absolute deviation relative to the median, as a spread indicator. */
export function relativeMad(values: number[]): number {
  const m = median(values);
  return median(values.map(v => Math.abs(v - m))) / m;
}

/** Runs a command, throws with its output when it fails. */
export function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}\n${String(result.stdout).slice(-4000)}\n${String(result.stderr).slice(-4000)}`);
  }
  return String(result.stdout);
}

/** A local binary of the project (node_modules/.bin). */
export function bin(name: string): string {
  return path.join(ROOT, 'node_modules', '.bin', name);
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Every file below `dir` whose name passes `keep`. */
export function walk(dir: string, keep: (file: string) => boolean = () => true): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p, keep) : keep(p) ? [p] : [];
  });
}

export function lineCount(files: string[]): number {
  return files.reduce((n, f) => n + fs.readFileSync(f, 'utf8').split('\n').length - 1, 0);
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;
}

export function fmtBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'n/a';
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

export function fmtInt(n: number): string {
  return n.toLocaleString('en-US');
}
