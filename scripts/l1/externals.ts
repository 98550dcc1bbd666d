import { TypeGenerator } from 'json2jsii';

/**
 * A type that lives outside the file being generated (a cdk8s-plus-28 `k8s` type, a type of our
 * own core module, cdk8s's ApiObjectMetadata), with the expression that turns a value of it into
 * manifest JSON.
 */
export interface ExternalType {
  readonly type: string;
  readonly toJson: (expression: string) => string;
}

const PREFIX = 'External';

/** The `$ref` a schema uses to point at an external type registered with `registerExternal`. */
export function externalRef(key: string) {
  return { $ref: `#/definitions/${PREFIX}${key}` };
}

export function k8sType(name: string): [string, ExternalType] {
  return [`K8s${name}`, { type: `k8s.${name}`, toJson: x => `k8s.toJson_${name}(${x})` }];
}

export function coreType(name: string): [string, ExternalType] {
  return [`Core${name}`, { type: `core.${name}`, toJson: x => `core.toJson_${name}(${x})` }];
}

/** Quantities and int-or-string values serialize through their `value`, as in cdk8s-plus. */
export const QUANTITY: [string, ExternalType] = ['Quantity', { type: 'k8s.Quantity', toJson: x => `${x}?.value` }];
export const INT_OR_STRING: [string, ExternalType] = ['IntOrString', { type: 'k8s.IntOrString', toJson: x => `${x}?.value` }];
export const API_OBJECT_METADATA: [string, ExternalType] = ['ApiObjectMetadata', { type: 'ApiObjectMetadata', toJson: x => x }];

/**
 * Makes `$ref`s to `key` resolve to the external type, through json2jsii's public
 * `emitCustomType`: a custom type whose emitter writes no code and returns the external's type and
 * serializer. json2jsii resolves a `$ref` by looking among the types it has already emitted before
 * it reads a definition, and it emits custom types in the order they were registered, so externals
 * must be registered before any other type (each adds one empty line at the top of the rendered
 * code, which `finish` trims). Routing every such field through the type's own `toJson` is what
 * keeps quantities and nested types from being written raw (a typed field written as-is would
 * render `{ value: ... }`).
 */
export function registerExternal(gen: TypeGenerator, [key, external]: [string, ExternalType]): void {
  const name = TypeGenerator.normalizeTypeName(`${PREFIX}${key}`);
  gen.emitCustomType(name, () => external);
}
