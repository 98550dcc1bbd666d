/**
 * The examples app. Every other file in this folder exports `default (app: App) => void`, which
 * adds its charts; they are added in file-name order so the output is the same on every run.
 * `npm run synth` writes one YAML file per chart to dist/, named after the chart: a
 * StableFileNamesApp keeps `<chart>.k8s.yaml` when a chart comes to depend on another (cdk8s's App
 * would number every file then), so a GitOps repository sees no renames.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, YamlOutputType } from 'cdk8s';
import { StableFileNamesApp } from '../src';

/** Every example module's file name, sorted. */
export function exampleFiles(): string[] {
  return fs.readdirSync(__dirname)
    .filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'main.ts')
    .sort();
}

/** Builds the app with every example in it. */
export function buildExamples(app: App): App {
  for (const file of exampleFiles()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const example = require(path.join(__dirname, file));
    example.default(app);
  }
  return app;
}

if (require.main === module) {
  buildExamples(new StableFileNamesApp({ outdir: process.env.CDK8S_OUTDIR ?? 'dist', yamlOutputType: YamlOutputType.FILE_PER_CHART })).synth();
}
