/**
 * What the command reads: YAML files, folders of them (searched recursively, in name order), and
 * standard input (`-`, for `helm template ... | cdk8s-kubeflow lint -`). Every document keeps where
 * it came from, so that findings name the file and the line.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DocumentSource, parseYamlStream } from './yaml-parser';

/** One document of the input. */
export interface InputDocument {
  /** The file as the user named it (or found it under a folder they named); `<stdin>` for `-`. */
  readonly file: string;
  /** 1-based line where the document starts. */
  readonly line: number;
  /** The parsed document; undefined when it could not be parsed (see `error`). */
  readonly doc?: any;
  /** The YAML syntax error, when there is one. */
  readonly error?: string;
  /** 1-based column of the syntax error. */
  readonly column?: number;
  /** The document's text, for the positions of the fields findings name (field-position.ts). */
  readonly source?: DocumentSource;
  /** The path of the document in the parsed value: `items[2]` for an item of a `kind: List`. */
  readonly pathPrefix?: string;
}

/** A path the user gave that does not exist or cannot be read: a usage error (exit status 2). */
export class InputError extends Error {}

export const STDIN = '<stdin>';
const YAML_FILE = /\.ya?ml$/i;

/** The YAML files of the paths, in the order given, folders expanded in name order. */
export function inputFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push('-');
      continue;
    }
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      throw new InputError(`${p}: no such file or folder`);
    }
    if (stat.isDirectory()) out.push(...yamlFilesUnder(p));
    else out.push(p);
  }
  return out;
}

function yamlFilesUnder(folder: string): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    // Hidden folders (.git) and installed packages are not manifests.
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = path.join(folder, e.name);
    if (e.isDirectory()) out.push(...yamlFilesUnder(p));
    else if (e.isFile() && YAML_FILE.test(e.name)) out.push(p);
  }
  return out;
}

/** Every document of the paths; `readStdin` gives standard input's text for `-`. */
export function readDocuments(paths: readonly string[], readStdin: () => string = () => fs.readFileSync(0, 'utf8')): InputDocument[] {
  const out: InputDocument[] = [];
  for (const file of inputFiles(paths)) {
    const text = file === '-' ? readStdin() : readFile(file);
    const name = file === '-' ? STDIN : file;
    for (const parsed of parseYamlStream(text)) {
      if (parsed.error !== undefined) {
        out.push({ file: name, line: parsed.line, column: parsed.column, error: parsed.error });
        continue;
      }
      // A `kind: List` (kubectl get -o yaml) holds its objects under `items`.
      const value: any = parsed.value;
      if (isList(value)) {
        value.items.forEach((item, i) => out.push({ file: name, line: parsed.line, doc: item, source: parsed.source, pathPrefix: `items[${i}]` }));
      } else {
        out.push({ file: name, line: parsed.line, doc: value, source: parsed.source });
      }
    }
  }
  return out;
}

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: ${(e as Error).message}`);
  }
}

function isList(value: any): value is { items: unknown[] } {
  return typeof value === 'object' && value !== null && typeof value.kind === 'string' && value.kind.endsWith('List')
    && value.apiVersion === 'v1' && Array.isArray(value.items);
}
