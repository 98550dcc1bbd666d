/**
 * Writes the manifests the tests validate to a folder, for the Go conformance module
 * (conformance/kube and conformance/kubeflow), which runs Kubernetes' own validation and the
 * training operator's webhooks on them.
 *
 * Off unless MANIFESTS_DUMP_DIR is set. File names come from the test file's path and a counter
 * that jest restarts with every test file, so two runs write the same names (no clock, no random).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Yaml } from 'cdk8s';

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
  return file;
}
