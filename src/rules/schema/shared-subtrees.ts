/**
 * The compact schemas repeat large subtrees (every training job kind embeds the same pod template),
 * so the generator stores each repeated subtree once, in crds/shared.ts, and writes
 * `{ "$ref": "<name>" }` where it occurs. Loading a kind's schema puts the shared objects back in
 * place, so the validator and every reader see plain, complete schema trees.
 */

/** A schema node that stands for a shared subtree. */
export interface SharedRef {
  readonly $ref: string;
}

/**
 * The places in a schema node that hold further schema nodes, by container and key: the values of
 * `properties`, `items`, an object `additionalProperties`, and the branches of `anyOf`. The generator
 * shares subtrees only at these places, and `inflate` looks only there (never inside `default` or
 * `enum` values).
 */
export function schemaChildren(node: any): Array<[container: any, key: string | number]> {
  const out: Array<[any, string | number]> = [];
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return out;
  if (isPlainObject(node.properties)) for (const name of Object.keys(node.properties)) out.push([node.properties, name]);
  if (isPlainObject(node.items)) out.push([node, 'items']);
  if (isPlainObject(node.additionalProperties)) out.push([node, 'additionalProperties']);
  if (Array.isArray(node.anyOf)) node.anyOf.forEach((_: unknown, i: number) => out.push([node.anyOf, i]));
  return out;
}

/** Whether a node is a reference to a shared subtree. */
export function isSharedRef(node: unknown): node is SharedRef {
  return isPlainObject(node) && typeof node.$ref === 'string' && Object.keys(node).length === 1;
}

/**
 * Replaces every shared reference below `node` (and `node` itself) with its subtree, in place.
 * Each shared subtree is completed once and then used by reference wherever it occurs.
 */
export function inflate(node: any, definitions: { readonly [name: string]: unknown }, done = new Map<string, unknown>()): any {
  if (isSharedRef(node)) {
    let subtree = done.get(node.$ref);
    if (subtree === undefined) {
      const raw = definitions[node.$ref];
      if (raw === undefined) throw new Error(`compact schema refers to the unknown shared subtree ${node.$ref}`);
      subtree = inflate(raw, definitions, done);
      done.set(node.$ref, subtree);
    }
    return subtree;
  }
  for (const [container, key] of schemaChildren(node)) container[key] = inflate(container[key], definitions, done);
  return node;
}

function isPlainObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
