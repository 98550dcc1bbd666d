/**
 * Writes the manifests the tests validate to a folder, for the Go conformance module
 * (conformance/kube and conformance/kubeflow), which runs Kubernetes' own validation and the
 * training operator's webhooks on them.
 *
 * Off unless MANIFESTS_DUMP_DIR is set. File names come from the test file's path and a counter
 * that jest restarts with every test file, so two runs write the same names (no clock, no random).
 *
 * Beside a set with TrainJobs the library rendered, `<name>.intent.json` holds what each job's
 * props asked for (src/trainer/internal/intent.ts), keyed by `namespace/name`, for the Trainer
 * oracle in conformance/trainer.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Yaml } from 'cdk8s';
import { IConstruct } from 'constructs';
import { intentOf, TrainJobIntent } from '../../src/trainer/internal/intent';

/** The environment variable that names the folder; unset means no dump. */
export const DUMP_DIR_ENV = 'MANIFESTS_DUMP_DIR';

let counter = 0;

/** The current jest test file relative to the repository, or `unknown` outside jest. */
function testFile(): string {
  const state = (globalThis as any).expect?.getState?.();
  const file: string | undefined = state?.testPath;
  return file ? path.relative(path.join(__dirname, '..', '..'), file) : 'unknown';
}

/** The dump file name of the n-th document set of a test file: `test-foo.test.ts-0003.yaml`. */
export function dumpFileName(file: string, n: number): string {
  return `${file.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+/, '')}-${String(n).padStart(4, '0')}.yaml`;
}

/** Writes one document set as a multi-document YAML file when dumping is on; returns its path. */
export function dumpManifests(docs: readonly any[]): string | undefined {
  const dir = process.env[DUMP_DIR_ENV];
  if (!dir || docs.length === 0) return undefined;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, dumpFileName(testFile(), counter++));
  // cdk8s's own serializer, so the Go run reads the bytes `cdk8s synth` would write.
  fs.writeFileSync(file, Yaml.stringify(...docs));
  const intents = intentsOf(docs);
  if (intents) fs.writeFileSync(intentFileOf(file), JSON.stringify(intents, null, 2) + '\n');
  return file;
}

/** The sidecar of a manifest file: `x.yaml` -> `x.intent.json`. */
export function intentFileOf(file: string): string {
  return file.replace(/\.ya?ml$/, '') + '.intent.json';
}

/**
 * The recorded intents of the documents, keyed by `namespace/name` (no namespace: `default`, where
 * kubectl apply sends it), or undefined when none has one (a set the library did not render, or
 * documents parsed back from YAML).
 */
export function intentsOf(docs: readonly any[]): { [key: string]: TrainJobIntent } | undefined {
  const out: { [key: string]: TrainJobIntent } = {};
  for (const doc of docs) {
    const intent = intentOf(doc) ?? parsedIntents.get(doc);
    if (intent) out[intentKey(doc)] = intent;
  }
  return Object.keys(out).length ? out : undefined;
}

function intentKey(doc: any): string {
  return `${doc?.metadata?.namespace ?? 'default'}/${doc?.metadata?.name}`;
}

/** Intents of documents parsed back from a synth's YAML (which are not the rendered objects). */
const parsedIntents = new WeakMap<object, TrainJobIntent>();

/**
 * Gives documents parsed from the YAML an app wrote the intents of the app's TrainJobs (a
 * namespace and name is one job in an app, as in a cluster). Only when dumping: it renders each
 * TrainJob of the app once more.
 */
export function keepIntents(app: IConstruct, docs: readonly any[]): void {
  if (!process.env[DUMP_DIR_ENV]) return;
  const byKey = new Map<string, TrainJobIntent>();
  for (const c of app.node.findAll()) {
    if (!(c instanceof ApiObject) || c.kind !== 'TrainJob') continue;
    const json = c.toJson();
    const intent = intentOf(json);
    if (intent) byKey.set(intentKey(json), intent);
  }
  for (const doc of docs) {
    const intent = doc?.kind === 'TrainJob' ? byKey.get(intentKey(doc)) : undefined;
    if (intent) parsedIntents.set(doc, intent);
  }
}
