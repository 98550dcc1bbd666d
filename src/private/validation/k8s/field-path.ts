/**
 * Field paths from the document root, as findings show them: `spec.template.metadata.labels.app`,
 * `metadata.labels["team name"]`, `containers[pytorch].ports[0]` (containers and volumes by name,
 * other lists by index).
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The path of a property or map key under `at`. */
export function child(at: string, key: string): string {
  if (IDENTIFIER.test(key)) return at === '' ? key : `${at}.${key}`;
  return `${at}[${JSON.stringify(key)}]`;
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
