/** The project's examples, synthesized once per test file into a temporary folder (one YAML file per chart). */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { YamlOutputType } from 'cdk8s';
import { buildExamples } from '../../examples/main';
import { StableFileNamesApp } from '../../src';

/** Synthesizes the examples into a new temporary folder and returns it. */
export function synthesizeExamples(): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-examples-'));
  buildExamples(new StableFileNamesApp({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART })).synth();
  return outdir;
}

/** Writes files into a new temporary folder and returns it. */
export function tempFolder(files: { [name: string]: string }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-input-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
