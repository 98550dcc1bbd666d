/**
 * The YAML parsers of the command. Two read the same YAML 1.1 (what cdk8s's `Yaml.load` and kubectl
 * read: `yes`, `on`, octal `0755`):
 *
 * - the fast one, js-yaml with the `yaml` package's 1.1 scalars (yaml-1-1.ts), reads every
 *   document of a file on its own (documents are split at their `---` and `...` lines);
 * - the full one, the `yaml` package that cdk8s bundles (cdk8s lists it in bundledDependencies, so
 *   every install of cdk8s has it; it is resolved from cdk8s's folder). It reads a file that the
 *   fast one refuses (a syntax error, a duplicate key, anchors, tags, directives, merge keys), so
 *   errors and every rarer construct read exactly as they always have, and it gives the positions
 *   of fields, asked for only for the documents that have findings (field-position.ts).
 *
 * Positions are wanted for few documents, and the full parser is some ten times slower than the
 * fast one: that is the reason for two. They sit behind this one module: the command reads YAML
 * through `parseYamlStream` alone, which picks the parser, and asks for a document's tree (for the
 * positions of its fields) through `documentTree` alone; which parser read what stays here.
 * `fastParse` and `fullParse` are exported for test/cli/base/yaml-parser.test.ts, which holds the pair
 * to one answer.
 */
import * as path from 'path';
import * as jsYaml from 'js-yaml';
import { YAML_1_1 } from './yaml-1-1';

/** The part of the `yaml` package's API the command uses. */
export interface YamlPackage {
  LineCounter: new () => LineCounter;
  parseAllDocuments(text: string, options: { version: '1.1'; lineCounter: LineCounter; uniqueKeys: boolean }): ParsedDocument[] | { empty: true };
  isMap(node: unknown): node is YamlCollection<YamlPair>;
  isSeq(node: unknown): node is YamlCollection<YamlNode>;
  isScalar(node: unknown): node is YamlNode & { readonly value: unknown };
}

export interface LineCounter {
  linePos(offset: number): { line: number; col: number };
}

export interface YamlNode {
  readonly range?: readonly number[] | null;
}

export interface YamlPair {
  readonly key: unknown;
  readonly value: unknown;
}

export interface YamlCollection<T> extends YamlNode {
  readonly items: readonly T[];
}

export interface ParsedDocument {
  readonly contents: YamlNode | null;
  readonly range: readonly number[];
  readonly errors: ReadonlyArray<{ readonly message: string; readonly pos: readonly number[] }>;
  toJS(options: { maxAliasCount: number }): unknown;
}

/** Where a document's text is: for the full parser to read it again, for the positions of fields. */
export interface DocumentSource {
  /** The document's own text (from the fast parser), or the whole file's (from the full parser). */
  readonly text: string;
  /** Which document of `text` it is, empty ones counted. */
  readonly index: number;
  /** The line number, in the file, of the first line of `text`. */
  readonly firstLine: number;
}

/** One document of a YAML stream: its value, or the first syntax error, and its first line. */
export interface ParsedYaml {
  readonly value?: unknown;
  readonly error?: string;
  /** 1-based line of the document's content (of the error, when there is one). */
  readonly line: number;
  /** 1-based column of the error. */
  readonly column?: number;
  /** The document's text, for the positions of its fields (not for errors). */
  readonly source?: DocumentSource;
}

let yamlPackage: YamlPackage | undefined;

/** The `yaml` package that cdk8s bundles. */
function fullParser(): YamlPackage {
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

/** The one entry point: every document of a multi-document YAML text, empty documents left out. */
export function parseYamlStream(text: string): ParsedYaml[] {
  return fastParse(text) ?? fullParse(text);
}

/**
 * Directives (`%YAML`), anchors and aliases (`&a`, `*a`: the full parser also limits alias
 * expansion) and tags (`!!binary`, `!Ref`) send the file to the full parser: rare in manifests, and
 * a false alarm (`- *.py`) costs only time. A character scan: a regular expression that tries every
 * position took a tenth of a lint run.
 */
function fullParserOnly(text: string): boolean {
  if (text.startsWith('%') || text.includes('\n%')) return true;
  for (const marker of ['&', '*', '!']) {
    for (let i = text.indexOf(marker); i !== -1; i = text.indexOf(marker, i + 1)) {
      if (i === 0 || ' \t\r\n[{,'.includes(text[i - 1])) return true;
    }
  }
  return false;
}
const DOCUMENT_START = /^---(?:[ \t\r\n]|$)/;
const DOCUMENT_END = /^\.\.\.(?:[ \t\r\n]|$)/;

/** The documents read by js-yaml one by one, or undefined when the full parser must read the text. */
export function fastParse(text: string): ParsedYaml[] | undefined {
  if (fullParserOnly(text)) return undefined;
  const out: ParsedYaml[] = [];
  for (const segment of documentTexts(text)) {
    let value: unknown;
    try {
      value = jsYaml.load(segment.text, { schema: YAML_1_1 });
    } catch {
      // A syntax error, a duplicate key, a merge key: the full parser reads the file and says
      // what is wrong the way it always has.
      return undefined;
    }
    if (value === null || value === undefined) continue;
    out.push({ value, line: contentLine(segment), source: { text: segment.text, index: 0, firstLine: segment.firstLine } });
  }
  return out;
}

interface DocumentText {
  readonly text: string;
  readonly firstLine: number;
}

/**
 * The text of each document: a `---` line starts one, a `...` line ends one. YAML forbids both
 * markers at the start of a line inside a document's content, quoted or block scalars included, so
 * lines are enough to split on.
 */
function documentTexts(text: string): DocumentText[] {
  const out: DocumentText[] = [];
  let start = 0;
  let startLine = 1;
  let offset = 0;
  let line = 1;
  const cut = (end: number, nextLine: number) => {
    if (end > start) out.push({ text: text.slice(start, end), firstLine: startLine });
    start = end;
    startLine = nextLine;
  };
  while (offset < text.length) {
    const newline = text.indexOf('\n', offset);
    const next = newline === -1 ? text.length : newline + 1;
    const c = text.charCodeAt(offset);
    if (c === 45 /* - */ && DOCUMENT_START.test(text.slice(offset, offset + 4))) cut(offset, line);
    else if (c === 46 /* . */ && DOCUMENT_END.test(text.slice(offset, offset + 4))) cut(next, line + 1);
    offset = next;
    line++;
  }
  cut(text.length, line);
  return out;
}

/** The line of a document's first content: its `---` line when content follows the marker, else the first line that is not blank or a comment. */
function contentLine(d: DocumentText): number {
  let offset = 0;
  for (let line = d.firstLine; offset < d.text.length; line++) {
    const newline = d.text.indexOf('\n', offset);
    const end = newline === -1 ? d.text.length : newline;
    const l = d.text.slice(DOCUMENT_START.test(d.text.slice(offset, offset + 4)) ? offset + 3 : offset, end).trim();
    if (l !== '' && !l.startsWith('#')) return line;
    offset = end + 1;
  }
  return d.firstLine;
}

/** The documents read by the `yaml` package, errors and all. */
export function fullParse(text: string): ParsedYaml[] {
  const { docs, lines } = parseWithPositions(text);
  const out: ParsedYaml[] = [];
  docs.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const at = lines.linePos(e.pos[0]);
      // The position is the finding's; the message keeps only what went wrong.
      out.push({ error: e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''), line: at.line, column: at.col });
      return;
    }
    if (doc.contents === null) return;
    const value = doc.toJS({ maxAliasCount: 1000 });
    if (value === null || value === undefined) return;
    out.push({ value, line: lines.linePos(doc.contents.range?.[0] ?? doc.range[0]).line, source: { text, index, firstLine: 1 } });
  });
  return out;
}

/** A document as the full parser reads it: its nodes keep their offsets in the source's text. */
export interface DocumentTree {
  /** The `yaml` package's node tests (`isMap`, `isSeq`, `isScalar`) for walking `contents`. */
  readonly yaml: YamlPackage;
  readonly contents: YamlNode;
  /** The offset of the document's first node (its contents', else the document's). */
  readonly start: number;
  /** The 1-based line and column, in the source's text, of an offset. */
  readonly lines: LineCounter;
}

/** The tree of the document a source names (from `parseYamlStream`'s `source`), or undefined for an empty one. */
export function documentTree(source: DocumentSource): DocumentTree | undefined {
  const { docs, lines } = parseWithPositions(source.text);
  const doc = docs[source.index];
  if (doc === undefined || doc.contents === null) return undefined;
  return { yaml: fullParser(), contents: doc.contents, start: doc.contents.range?.[0] ?? doc.range[0], lines };
}

let lastParse: { text: string; docs: ParsedDocument[]; lines: LineCounter } | undefined;

/** The `yaml` package's documents of a text, with its line counter; the last text's are kept. */
function parseWithPositions(text: string): { docs: ParsedDocument[]; lines: LineCounter } {
  if (lastParse?.text !== text) {
    const yaml = fullParser();
    const lines = new yaml.LineCounter();
    const docs = yaml.parseAllDocuments(text, { version: '1.1', lineCounter: lines, uniqueKeys: true });
    lastParse = { text, docs: Array.isArray(docs) ? docs : [], lines };
  }
  return lastParse;
}
