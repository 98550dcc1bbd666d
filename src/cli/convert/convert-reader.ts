/**
 * What `convert` reads: the documents of each input file, grouped into one chart per file. A file
 * is the unit a GitOps repository already has (and one `cdk8s synth` file per chart puts each back
 * in a file of its own), and a namespace is not: objects of several namespaces, and cluster-scoped
 * ones, often share a file, so each object keeps its own `metadata.namespace` as written.
 */
import * as path from 'path';
import { InputDocument, STDIN } from '../base/input';

/** The objects of one input file. */
export interface ChartInput {
  /** The file as the user named it. */
  readonly file: string;
  /**
   * The chart's construct id: the file's name without `.yaml` (and without `.k8s`, so that the
   * synthesized chart is written to a file of the input's name), made unique.
   */
  readonly id: string;
  /** The variable that holds the chart in the generated code. */
  readonly variable: string;
  readonly objects: ReadonlyArray<{ readonly doc: any; readonly id: string; readonly line: number }>;
}

/** A document `convert` cannot turn into an object, with where it is. */
export class ConvertInputError extends Error {}

/** The charts of the documents, in input order; empty documents are skipped. */
export function chartInputs(docs: readonly InputDocument[]): ChartInput[] {
  const byFile = new Map<string, InputDocument[]>();
  for (const d of docs) {
    if (d.error !== undefined) throw new ConvertInputError(`${d.file}:${d.line}: not YAML: ${d.error}`);
    if (d.doc === null || d.doc === undefined) continue;
    const what = d.pathPrefix === undefined ? 'the document' : d.pathPrefix;
    if (typeof d.doc !== 'object' || Array.isArray(d.doc) || typeof d.doc.apiVersion !== 'string' || typeof d.doc.kind !== 'string') {
      throw new ConvertInputError(`${d.file}:${d.line}: ${what} is not a Kubernetes object (it needs an apiVersion and a kind, both strings)`);
    }
    byFile.set(d.file, [...byFile.get(d.file) ?? [], d]);
  }
  const chartIds = new Set<string>();
  const variables = new Set<string>();
  return [...byFile].map(([file, fileDocs]) => {
    const id = unique(chartId(file), chartIds, '-');
    const variable = unique(variableName(id), variables, '');
    const objectIds = new Set<string>();
    const objects = fileDocs.map(d => ({ doc: d.doc, line: d.line, id: unique(objectId(d.doc), objectIds, '-') }));
    return { file, id, variable, objects };
  });
}

function unique(base: string, taken: Set<string>, separator: string): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${separator}${n}`;
  taken.add(name);
  return name;
}

function chartId(file: string): string {
  if (file === STDIN) return 'stdin';
  const base = path.basename(file).replace(/(\.k8s)?\.ya?ml$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return base === '' ? 'chart' : base;
}

/** `<kind in lower case>-<name>`: unique within a file unless the file repeats an object. */
function objectId(doc: any): string {
  const name = typeof doc.metadata?.name === 'string' ? doc.metadata.name : typeof doc.metadata?.generateName === 'string' ? doc.metadata.generateName.replace(/-$/, '') : 'unnamed';
  return `${String(doc.kind).toLowerCase()}-${name}`.replace(/\//g, '-');
}

/** A camel-case variable for a chart id: `pytorch_job_mnist` is `pytorchJobMnistChart`. */
function variableName(id: string): string {
  const words = id.split(/[^A-Za-z0-9]+/).filter(w => w !== '');
  const camel = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
  return /^[A-Za-z]/.test(camel) ? `${camel}Chart` : `chart${camel.charAt(0).toUpperCase()}${camel.slice(1)}`;
}
