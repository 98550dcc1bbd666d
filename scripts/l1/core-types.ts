import { coreType, externalRef, INT_OR_STRING, k8sType, QUANTITY } from './externals';
import { K8sCatalog, K8sPropType } from './k8s-catalog';
import { camel, isIntOrString, isQuantity, JsonSchema } from './schema';

/**
 * The Kubernetes core types that the CRDs embed. Each is typed by cdk8s-plus-28's `k8s` type when
 * that type (Kubernetes 1.28) already has every field the CRD has. Where the CRD is newer (the
 * training operator embeds pod templates from a later Kubernetes with fields such as
 * `appArmorProfile` or `recursiveReadOnly`), the type is declared again in our `core` module with
 * the CRD's fields; its unchanged parts still point at the `k8s` types, so only the types on the
 * way to a newer field are repeated.
 */
export class CoreTypes {
  private readonly occurrences = new Map<string, JsonSchema>();
  /** Where each type was first seen, for messages. */
  private readonly firstSeen = new Map<string, string>();
  /** Types whose occurrences disagree on a required field, with the refusal to throw if we declare them. */
  private readonly conflicts = new Map<string, RequiredFieldMergeError>();
  private readonly ownMemo = new Map<string, boolean>();

  public constructor(private readonly catalog: K8sCatalog) {}

  /** Records that `schema` embeds the k8s type `typeName`, with everything below it. */
  public collect(typeName: string, schema: JsonSchema, where: string, root = true): void {
    const props = this.catalog.props(typeName);
    if (!props) throw new Error(`${where}: cdk8s-plus-28 has no k8s type named ${typeName}`);
    // A rule that names the wrong type would silently produce a type of mostly new fields.
    const known = Object.keys(schema.properties ?? {}).filter(p => props.has(camel(p)));
    if (root && schema.properties && known.length * 2 < Object.keys(schema.properties).length) {
      throw new Error(`${where}: the schema does not look like k8s.${typeName} (fields: ${Object.keys(schema.properties).join(', ')})`);
    }
    const previous = this.occurrences.get(typeName);
    if (previous) {
      // Only the required lists this type emits itself matter: fields typed by another k8s type are
      // compared when that type's occurrences are merged.
      const conflict = requiredConflict(previous, schema, props);
      if (conflict && !this.conflicts.has(typeName)) {
        const [field, requiredIn, notIn] = conflict.inFirst
          ? [conflict.field, this.firstSeen.get(typeName)!, where]
          : [conflict.field, where, this.firstSeen.get(typeName)!];
        this.conflicts.set(typeName, new RequiredFieldMergeError(typeName, field, requiredIn, notIn));
      }
      this.occurrences.set(typeName, merge(previous, schema));
    } else {
      this.occurrences.set(typeName, schema);
      this.firstSeen.set(typeName, where);
    }
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      const kp = props.get(camel(name));
      if (kp) this.collectTyped(kp, sub, `${where}.${name}`);
    }
  }

  /**
   * The `$ref` for a field of the embedded type: our core type if the CRD is newer, else k8s.
   * Inside the core module itself, core types are local definitions.
   */
  public refFor(typeName: string, fromCoreModule = false): JsonSchema {
    if (!this.needsOwn(typeName)) return { ...externalRef(k8sType(typeName)[0]), 'x-type-name': `k8s.${typeName}` };
    if (fromCoreModule) return { '$ref': `#/definitions/${typeName}`, 'x-type-name': typeName };
    return { ...externalRef(coreType(typeName)[0]), 'x-type-name': `core.${typeName}` };
  }

  /** Every k8s type name the CRDs embed, sorted. */
  public embeddedTypes(): string[] {
    return [...this.occurrences.keys()].sort();
  }

  /** Names of the types our core module must declare, sorted. */
  public ownTypes(): string[] {
    return [...this.occurrences.keys()].filter(t => this.needsOwn(t)).sort();
  }

  /** The schema json2jsii turns into our core declaration of `typeName`. */
  public definition(typeName: string): JsonSchema {
    // A type typed by cdk8s-plus-28's k8s declaration takes its required fields from there, so a
    // disagreement only matters for a type we declare ourselves.
    const conflict = this.conflicts.get(typeName);
    if (conflict) throw conflict;
    const merged = this.occurrences.get(typeName)!;
    const props = this.catalog.props(typeName)!;
    const properties: { [name: string]: JsonSchema } = {};
    for (const [name, sub] of Object.entries(merged.properties ?? {})) {
      const kp = props.get(camel(name));
      properties[name] = kp ? this.typedLike(kp, sub) : plain(sub);
    }
    return { type: 'object', properties, ...(merged.required ? { required: merged.required } : {}) };
  }

  private needsOwn(typeName: string): boolean {
    const memo = this.ownMemo.get(typeName);
    if (memo !== undefined) return memo;
    this.ownMemo.set(typeName, false); // cycle guard: a type does not need itself
    const merged = this.occurrences.get(typeName);
    const props = this.catalog.props(typeName)!;
    let own = false;
    for (const [name, sub] of Object.entries(merged?.properties ?? {})) {
      const kp = props.get(camel(name));
      if (!kp || this.typedNeedsOwn(kp, sub)) {
        own = true;
        break;
      }
    }
    this.ownMemo.set(typeName, own);
    return own;
  }

  private typedNeedsOwn(kp: K8sPropType, sub: JsonSchema): boolean {
    switch (kp.kind) {
      case 'ref': return this.occurrences.has(kp.name) && this.needsOwn(kp.name);
      case 'array': return this.typedNeedsOwn(kp.of, sub.items ?? {});
      case 'map': return this.typedNeedsOwn(kp.of, typeof sub.additionalProperties === 'object' ? sub.additionalProperties : {});
      default: return false;
    }
  }

  private collectTyped(kp: K8sPropType, sub: JsonSchema, where: string): void {
    switch (kp.kind) {
      case 'ref':
        if (sub.properties) this.collect(kp.name, sub, where, false);
        return;
      case 'array':
        if (sub.items) this.collectTyped(kp.of, sub.items, `${where}.[]`);
        return;
      case 'map':
        if (typeof sub.additionalProperties === 'object') this.collectTyped(kp.of, sub.additionalProperties, `${where}.*`);
        return;
      default:
    }
  }

  private typedLike(kp: K8sPropType, sub: JsonSchema): JsonSchema {
    switch (kp.kind) {
      case 'ref': return sub.properties ? this.refFor(kp.name, true) : plain(sub);
      case 'array': return { type: 'array', items: this.typedLike(kp.of, sub.items ?? {}) };
      case 'map': return { type: 'object', additionalProperties: this.typedLike(kp.of, typeof sub.additionalProperties === 'object' ? sub.additionalProperties : {}) };
      case 'quantity': return externalRef(QUANTITY[0]);
      case 'intOrString': return externalRef(INT_OR_STRING[0]);
      default: return plain(sub);
    }
  }
}

/** A field the k8s type does not have: typed from the CRD itself, quantities mapped to k8s. */
export function plain(schema: JsonSchema): JsonSchema {
  if (isQuantity(schema)) return externalRef(QUANTITY[0]);
  if (isIntOrString(schema)) return externalRef(INT_OR_STRING[0]);
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, plain(v)]));
  }
  if (schema.items) out.items = plain(schema.items);
  if (typeof schema.additionalProperties === 'object') out.additionalProperties = plain(schema.additionalProperties);
  return out;
}

/** A merge of two schemas of one core type that would change the type's required fields. */
export class RequiredFieldMergeError extends Error {
  public constructor(typeName: string, field: string, requiredIn: string, notIn: string) {
    super(`cannot merge two schemas of core type ${typeName}: ${field} is required in ${requiredIn} but not in ${notIn}; `
      + `expected both schemas to require the same fields (a merged core.${typeName} would make ${field} optional for every kind that embeds it)`);
    this.name = 'RequiredFieldMergeError';
  }
}

/**
 * The first field that one schema of a type requires and the other does not, at the type's own
 * level and inside the subtrees it declares inline (fields that no k8s type covers).
 */
function requiredConflict(a: JsonSchema, b: JsonSchema, props: ReadonlyMap<string, K8sPropType> | undefined, path = ''):
{ field: string; inFirst: boolean } | undefined {
  const field = (name: string) => (path ? `${path}.${name}` : name);
  const ra = a.required ?? [];
  const rb = b.required ?? [];
  const onlyA = ra.find(r => !rb.includes(r));
  if (onlyA !== undefined) return { field: field(onlyA), inFirst: true };
  const onlyB = rb.find(r => !ra.includes(r));
  if (onlyB !== undefined) return { field: field(onlyB), inFirst: false };
  for (const [name, sa] of Object.entries(a.properties ?? {})) {
    const sb = b.properties?.[name];
    const kp = props?.get(camel(name));
    if (!sb || (kp && typedElsewhere(kp))) continue;
    const found = requiredConflict(sa, sb, undefined, field(name));
    if (found) return found;
  }
  if (a.items && b.items) {
    const found = requiredConflict(a.items, b.items, undefined, `${path}[]`);
    if (found) return found;
  }
  if (typeof a.additionalProperties === 'object' && typeof b.additionalProperties === 'object') {
    return requiredConflict(a.additionalProperties, b.additionalProperties, undefined, field('*'));
  }
  return undefined;
}

/** A field typed by a k8s type (directly, or as its list items or map values). */
function typedElsewhere(kp: K8sPropType): boolean {
  return kp.kind === 'ref' || ((kp.kind === 'array' || kp.kind === 'map') && typedElsewhere(kp.of));
}

/**
 * Union of two occurrences of one type: every field either has, recursively. Required fields are
 * those both require; where they disagree, `requiredConflict` has recorded a refusal for the type.
 */
function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a };
  if (a.properties || b.properties) {
    const properties: { [name: string]: JsonSchema } = { ...(a.properties ?? {}) };
    for (const [k, v] of Object.entries(b.properties ?? {})) properties[k] = properties[k] ? merge(properties[k], v) : v;
    out.properties = Object.fromEntries(Object.keys(properties).sort().map(k => [k, properties[k]]));
  }
  if (a.items && b.items) out.items = merge(a.items, b.items);
  if (typeof a.additionalProperties === 'object' && typeof b.additionalProperties === 'object') {
    out.additionalProperties = merge(a.additionalProperties, b.additionalProperties);
  }
  if (a.required && b.required) out.required = a.required.filter(r => b.required!.includes(r));
  else delete out.required;
  return out;
}
