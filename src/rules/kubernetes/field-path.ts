/**
 * Field paths from the document root, as findings show them: `spec.template.metadata.labels.app`,
 * `metadata.labels["team name"]`, `containers[pytorch].ports[0]` (containers and volumes by name,
 * other lists by index).
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Paths are built for every field visited, findings or not: the segment of each key is computed
// once (keys repeat across documents) and joined by concatenation.
const SEGMENTS = new Map<string, string>();
const MAX_SEGMENTS = 10000;

function segment(key: string): string {
  let s = SEGMENTS.get(key);
  if (s === undefined) {
    s = IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    if (SEGMENTS.size >= MAX_SEGMENTS) SEGMENTS.clear();
    SEGMENTS.set(key, s);
  }
  return s;
}

/** The path of a property or map key under `at`. */
export function child(at: string, key: string): string {
  const s = segment(key);
  return at === '' && s.charCodeAt(0) === 46 /* . */ ? s.slice(1) : at + s;
}

/** The path of a list item named by its `name` (containers, volumes), or by index when it has none. */
export function named(at: string, item: any, index: number): string {
  const name = item?.name;
  return typeof name === 'string' && name !== '' ? `${at}[${name}]` : `${at}[${index}]`;
}

/** The path of a list item by index. */
export function indexed(at: string, index: number): string {
  return `${at}[${index}]`;
}
