/**
 * Where a finding's field is in the file: the line and column of the YAML node a finding's path
 * names, for `file:line:column` and GitHub's annotations. Paths are the rules' own
 * (`spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[WORLD_SIZE]`): `.key`,
 * `["key"]`, `[index]`, and `[name]` for the list item whose `name` is that. A key is matched whole, the
 * longest first, so label keys with dots (`metadata.labels.app.kubernetes.io/name`) are found. A
 * field that is not in the document (a missing `replicas`) is placed at the nearest part of its
 * path that is: its parent.
 *
 * Only documents with findings are asked, so the document is read again here by the `yaml`
 * package, the parser that keeps positions.
 */
import { DocumentSource, YamlNode, YamlPackage, documentTree } from './yaml-parser';

/** 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** The position of `field` (after `prefix`, the path of the document inside its file's value, such as `items[2]`) in the document. */
export function fieldPosition(source: DocumentSource, field: string, prefix = ''): Position | undefined {
  const tree = documentTree(source);
  if (tree === undefined) return undefined;
  const path = prefix === '' ? field : field === 'document' ? prefix : `${prefix}.${field}`;
  const offset = nodeOffset(tree.yaml, tree.contents, path === 'document' ? '' : path, tree.start);
  const at = tree.lines.linePos(offset);
  return { line: at.line + source.firstLine - 1, column: at.col };
}

const QUOTED_KEY = /^\[("(?:[^"\\]|\\.)*")\]/;

/** The offset of the deepest node of `path` under `node`; `at` is the offset of `node` itself (its key's, when it is a map value). */
function nodeOffset(yaml: YamlPackage, node: unknown, path: string, at: number): number {
  if (path === '') return at;
  if (path.startsWith('.')) return nodeOffset(yaml, node, path.slice(1), at);
  const quoted = QUOTED_KEY.exec(path);
  if (quoted !== null) {
    // The schema's form for a key that is not a plain name: `metadata.labels["app.kubernetes.io/name"]`.
    const pair = yaml.isMap(node) ? node.items.find(p => yaml.isScalar(p.key) && String(p.key.value) === JSON.parse(quoted[1])) : undefined;
    const start = start0(pair?.key as YamlNode | undefined);
    return start === undefined ? at : nodeOffset(yaml, pair!.value, path.slice(quoted[0].length), start);
  }
  if (path.startsWith('[')) {
    const close = path.indexOf(']');
    if (close === -1 || !yaml.isSeq(node)) return at;
    const selector = path.slice(1, close);
    const item = /^\d+$/.test(selector) ? node.items[Number(selector)] : node.items.find(i => nameOf(yaml, i) === selector);
    const start = start0(item as YamlNode | undefined);
    return start === undefined ? at : nodeOffset(yaml, item, path.slice(close + 1), start);
  }
  if (!yaml.isMap(node)) return at;
  let best: { key: string; value: unknown; start: number } | undefined;
  for (const pair of node.items) {
    if (!yaml.isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const fits = path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[`);
    const start = start0(pair.key as YamlNode);
    if (fits && start !== undefined && (best === undefined || key.length > best.key.length)) best = { key, value: pair.value, start };
  }
  return best === undefined ? at : nodeOffset(yaml, best.value, path.slice(best.key.length), best.start);
}

function start0(node: YamlNode | undefined): number | undefined {
  return node?.range?.[0] ?? undefined;
}

/** The `name` of a list item that is a map (containers, env variables, volumes). */
function nameOf(yaml: YamlPackage, item: unknown): unknown {
  if (!yaml.isMap(item)) return undefined;
  const pair = item.items.find(p => yaml.isScalar(p.key) && p.key.value === 'name');
  return pair !== undefined && yaml.isScalar(pair.value) ? String(pair.value.value) : undefined;
}
