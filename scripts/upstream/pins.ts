/**
 * The upstream files the project keeps in upstream/ (the pinned CRDs and the example corpora),
 * where they are, and the offline check that each is byte for byte the pinned upstream blob
 * (upstream/pins.json). The TypeScript readers of these files take their folders from here.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** The folder with the upstream files, pins.json and their READMEs. */
export const UPSTREAM_DIR = path.join(__dirname, '..', '..', 'upstream');

/** The pinned CRDs, one folder per upstream project (training-operator, notebooks-v2, trainer-v2, kueue). */
export const UPSTREAM_CRDS = path.join(UPSTREAM_DIR, 'crds');

/** The training-operator v1.9.4 examples and the Notebooks v2 samples. */
export const UPSTREAM_EXAMPLES = path.join(UPSTREAM_DIR, 'examples', 'upstream');

/** The Trainer v2.3.0 corpus: its built-in runtimes (runtimes/) and its example jobs (jobs/). */
export const UPSTREAM_EXAMPLES_V2 = path.join(UPSTREAM_DIR, 'examples', 'upstream-v2');

/** The pin file's name in the upstream folder. */
export const PINS_FILE = 'pins.json';

/** One pinned file. */
export interface Pin {
  /** Where the copy is, relative to the upstream folder. */
  readonly path: string;
  /** The upstream GitHub repository (owner/name). */
  readonly repository: string;
  /** The Go module that holds the file at `ref`, when the module proxy serves one. */
  readonly module?: string;
  /** The tag or branch the file was taken from. */
  readonly ref: string;
  /** The commit `ref` named when the file was taken. */
  readonly commit: string;
  /** The file's path in the repository (and in the module, which is the repository's root). */
  readonly upstreamPath: string;
  /** The file's size. */
  readonly bytes: number;
  /** The file's git blob SHA-1 (`git hash-object`). */
  readonly blob: string;
}

/** The git blob SHA-1 of some bytes, as `git hash-object` computes it. */
export function gitBlobSha1(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/** The pins of an upstream folder (its pins.json). */
export function readPins(dir: string = UPSTREAM_DIR): Pin[] {
  const parsed = JSON.parse(fs.readFileSync(path.join(dir, PINS_FILE), 'utf8'));
  if (!Array.isArray(parsed?.files)) throw new Error(`${path.join(dir, PINS_FILE)} has no "files" list`);
  return parsed.files;
}

/** Files of the folder that are not pinned: everything but pins.json and the READMEs. */
function unpinnedFiles(dir: string, pins: readonly Pin[]): string[] {
  const pinned = new Set(pins.map(p => p.path));
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true })
    .flatMap(e => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  return walk(dir)
    .map(f => path.relative(dir, f).split(path.sep).join('/'))
    .filter(f => f !== PINS_FILE && path.posix.basename(f) !== 'README.md' && !pinned.has(f))
    .sort();
}

/**
 * What differs between the folder and its pins, one line each: a pinned file that is missing, has
 * another size or another blob, and a file that is not pinned. Empty when they agree.
 */
export function pinProblems(dir: string = UPSTREAM_DIR, pins: readonly Pin[] = readPins(dir)): string[] {
  const problems: string[] = [];
  for (const pin of pins) {
    const file = path.join(dir, pin.path);
    if (!fs.existsSync(file)) {
      problems.push(`${pin.path}: missing (pinned as blob ${pin.blob} of ${pin.repository}@${pin.ref} ${pin.upstreamPath})`);
      continue;
    }
    const content = fs.readFileSync(file);
    const blob = gitBlobSha1(content);
    if (blob !== pin.blob || content.length !== pin.bytes) {
      problems.push(`${pin.path}: blob ${blob} (${content.length} bytes); pinned ${pin.blob} (${pin.bytes} bytes) of ${pin.repository}@${pin.ref} ${pin.upstreamPath}`);
    }
  }
  for (const extra of unpinnedFiles(dir, pins)) problems.push(`${extra}: not in ${PINS_FILE}`);
  return problems;
}
