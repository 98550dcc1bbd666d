/**
 * Determinism check: the same program must give the same bytes, because the YAML is committed to a
 * GitOps repository and any churn there is a diff someone has to review.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, AppProps, Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { keepIntents } from './manifest-dump';

/** A program under test: adds charts and constructs to the app it is given. */
export type Build = (app: App) => void;

/** The synthesized output folder: relative file path to its bytes, in sorted path order. */
type Output = Map<string, Buffer>;

/**
 * Builds the program twice, each time in a fresh app with its own temporary output folder,
 * synthesizes both, and throws unless the two folders hold the same files with the same bytes.
 * Returns the manifests of the first run, parsed, in file-path order.
 *
 * `props` reach both apps (for example another `yamlOutputType`); the output folder is always a
 * fresh temporary one.
 */
export function expectDeterministic(build: Build, props: Omit<AppProps, 'outdir'> = {}): any[] {
  const first = synthOnce(build, props);
  const second = synthOnce(build, props);
  const difference = compare(first.output, second.output);
  if (difference) throw new Error(`synthesis is not deterministic: ${difference}`);
  return parsedWithIntents(first);
}

/** Builds the program once and returns its manifests, parsed, in file-path order. */
export function synthManifests(build: Build, props: Omit<AppProps, 'outdir'> = {}): any[] {
  return parsedWithIntents(synthOnce(build, props));
}

function synthOnce(build: Build, props: Omit<AppProps, 'outdir'>): { app: App; output: Output } {
  const app = Testing.app({ ...props });
  try {
    build(app);
    app.synth();
    return { app, output: readTree(app.outdir) };
  } finally {
    fs.rmSync(app.outdir, { recursive: true, force: true });
  }
}

/** The manifests, parsed, with the app's recorded TrainJob intents kept for the manifest dump. */
function parsedWithIntents(run: { app: App; output: Output }): any[] {
  const docs = parse(run.output);
  keepIntents(run.app, docs);
  return docs;
}

function readTree(root: string): Output {
  const out: Output = new Map();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else out.set(path.relative(root, full).split(path.sep).join('/'), fs.readFileSync(full));
    }
  };
  visit(root);
  return out;
}

/** The first difference between two outputs, in words, or undefined when they are identical. */
function compare(a: Output, b: Output): string | undefined {
  const namesA = [...a.keys()];
  const namesB = [...b.keys()];
  if (namesA.join('\n') !== namesB.join('\n')) {
    return `the file lists differ: [${namesA.join(', ')}] then [${namesB.join(', ')}]`;
  }
  for (const name of namesA) {
    const x = a.get(name)!;
    const y = b.get(name)!;
    if (x.equals(y)) continue;
    const linesX = x.toString('utf8').split('\n');
    const linesY = y.toString('utf8').split('\n');
    const line = linesX.findIndex((l, i) => l !== linesY[i]);
    const at = line === -1 ? linesX.length : line;
    return `${name} differs at line ${at + 1}: ${JSON.stringify(linesX[at] ?? '(end of file)')} then ${JSON.stringify(linesY[at] ?? '(end of file)')}`;
  }
  return undefined;
}

function parse(output: Output): any[] {
  const docs: any[] = [];
  for (const [name, bytes] of output) {
    if (!/\.ya?ml$/.test(name)) continue;
    for (const doc of yaml.loadAll(bytes.toString('utf8'))) if (doc !== null && doc !== undefined) docs.push(doc);
  }
  return docs;
}
