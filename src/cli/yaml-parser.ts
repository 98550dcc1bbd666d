/**
 * The YAML parser of the command: the `yaml` package that cdk8s bundles (cdk8s lists it in
 * bundledDependencies, so every install of cdk8s has it under cdk8s's own node_modules). It is
 * resolved from cdk8s's folder, so the command needs no dependency of its own; YAML 1.1 is what
 * cdk8s's `Yaml.load` and kubectl read (`yes`, `on`, octal `0755`).
 */
import * as path from 'path';

/** The part of the `yaml` package's API the command uses. */
interface YamlPackage {
  LineCounter: new () => LineCounter;
  parseAllDocuments(text: string, options: { version: '1.1'; lineCounter: LineCounter; uniqueKeys: boolean }): ParsedDocument[] | { empty: true };
}

interface LineCounter {
  linePos(offset: number): { line: number; col: number };
}

interface ParsedDocument {
  readonly contents: { readonly range?: readonly number[] } | null;
  readonly range: readonly number[];
  readonly errors: ReadonlyArray<{ readonly message: string; readonly pos: readonly number[] }>;
  toJS(options: { maxAliasCount: number }): unknown;
}

/** One document of a YAML stream: its value, or the first syntax error, and its first line. */
export interface ParsedYaml {
  readonly value?: unknown;
  readonly error?: string;
  /** 1-based line of the document's content (of the error, when there is one). */
  readonly line: number;
}

let yamlPackage: YamlPackage | undefined;

function load(): YamlPackage {
  if (yamlPackage === undefined) {
    let cdk8sFolder: string;
    try {
      cdk8sFolder = path.dirname(require.resolve('cdk8s'));
    } catch {
      // cdk8s is a peer dependency, installed with the library by npm 7 and later.
      throw new Error('cdk8s-kubeflow reads YAML with the parser of the cdk8s package, which is not installed here: npm install cdk8s');
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    yamlPackage = require(require.resolve('yaml', { paths: [cdk8sFolder] })) as YamlPackage;
  }
  return yamlPackage;
}

/** Every document of a multi-document YAML text, empty documents left out. */
export function parseYamlStream(text: string): ParsedYaml[] {
  const yaml = load();
  const lines = new yaml.LineCounter();
  const docs = yaml.parseAllDocuments(text, { version: '1.1', lineCounter: lines, uniqueKeys: true });
  if (!Array.isArray(docs)) return [];
  const out: ParsedYaml[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      // The position is the finding's line; the message keeps only what went wrong.
      out.push({ error: e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''), line: lines.linePos(e.pos[0]).line });
      continue;
    }
    if (doc.contents === null) continue;
    const value = doc.toJS({ maxAliasCount: 1000 });
    if (value === null || value === undefined) continue;
    out.push({ value, line: lines.linePos(doc.contents.range?.[0] ?? doc.range[0]).line });
  }
  return out;
}
