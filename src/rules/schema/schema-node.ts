import type { CelRule } from './cel';

/** The subset of a structural schema that the pinned CRDs use. */
export interface SchemaNode {
  readonly 'type'?: string;
  readonly 'properties'?: { readonly [name: string]: SchemaNode };
  readonly 'additionalProperties'?: SchemaNode | boolean;
  readonly 'items'?: SchemaNode;
  readonly 'required'?: readonly string[];
  readonly 'enum'?: readonly unknown[];
  readonly 'pattern'?: string;
  readonly 'minimum'?: number;
  readonly 'maximum'?: number;
  readonly 'exclusiveMinimum'?: boolean;
  readonly 'exclusiveMaximum'?: boolean;
  readonly 'minItems'?: number;
  readonly 'maxItems'?: number;
  readonly 'minLength'?: number;
  readonly 'maxLength'?: number;
  readonly 'minProperties'?: number;
  readonly 'maxProperties'?: number;
  readonly 'format'?: string;
  readonly 'anyOf'?: readonly SchemaNode[];
  readonly 'nullable'?: boolean;
  readonly 'default'?: unknown;
  readonly 'x-kubernetes-validations'?: readonly CelRule[];
  readonly [key: string]: unknown;
}
