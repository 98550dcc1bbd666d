/**
 * Real documents for the rule tests: what the examples render (examples/main.ts), so the tests
 * start from what the library writes.
 */
import * as os from 'os';
import { App } from 'cdk8s';
import { buildExamples } from '../../examples/main';

let charts: Map<string, string> | undefined;

function exampleCharts(): Map<string, string> {
  if (charts === undefined) {
    const app = buildExamples(new App({ outdir: os.tmpdir() }));
    charts = new Map(app.charts.map(c => [`${c.node.id}.k8s.yaml`, JSON.stringify(c.toJson())]));
  }
  return charts;
}

/** The file name of every example chart. */
export function exampleFiles(): string[] {
  return [...exampleCharts().keys()].sort();
}

/** Every document of one example chart (by its file name), as a fresh copy the test may change. */
export function exampleDocuments(file: string): any[] {
  const json = exampleCharts().get(file);
  if (json === undefined) throw new Error(`no example chart ${file}`);
  return JSON.parse(json);
}

/** The first document of a kind in an example chart. */
export function exampleDocument(file: string, kind: string, name?: string): any {
  const doc = exampleDocuments(file).find(d => d.kind === kind && (name === undefined || d.metadata.name === name));
  if (doc === undefined) throw new Error(`no ${kind} ${name ?? ''} in ${file}`);
  return doc;
}

/** The reference PyTorchJob: Master and 3 Workers, container "pytorch", volume "dshm". */
export function pytorchJob(): any {
  return exampleDocument('pytorch-reference.k8s.yaml', 'PyTorchJob');
}

/** The reference WorkspaceKind "jupyterlab". */
export function workspaceKind(): any {
  return exampleDocument('notebooks-platform.k8s.yaml', 'WorkspaceKind');
}

/** Path of the Worker pod spec of `pytorchJob()`. */
export const WORKER = 'spec.pytorchReplicaSpecs.Worker.template.spec';
/** Path of the Worker container of `pytorchJob()`. */
export const CONTAINER = `${WORKER}.containers[pytorch]`;

/** The Worker pod spec of a PyTorchJob document. */
export function workerSpec(doc: any): any {
  return doc.spec.pytorchReplicaSpecs.Worker.template.spec;
}

/** The Worker container of a PyTorchJob document. */
export function workerContainer(doc: any): any {
  return workerSpec(doc).containers[0];
}
