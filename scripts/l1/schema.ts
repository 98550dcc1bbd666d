import camelcase from 'camelcase';

/** The subset of an OpenAPI v3 schema that CRDs use. */
export interface JsonSchema {
  type?: string;
  format?: string;
  description?: string;
  properties?: { [name: string]: JsonSchema };
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  required?: string[];
  enum?: any[];
  default?: any;
  pattern?: string;
  anyOf?: JsonSchema[];
  $ref?: string;
  [key: string]: any;
}

/** A deep copy without description texts, which are upstream prose. */
export function withoutDescriptions<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'description' && typeof v === 'string' ? undefined : v)));
}

/** Stable JSON: object keys sorted, so equal schemas give equal strings. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map(k => [k, v[k]]))
      : v);
}

/** `x-kubernetes-int-or-string` with the resource-quantity pattern. */
export function isQuantity(s: JsonSchema): boolean {
  return isIntOrString(s) && typeof s.pattern === 'string' && s.pattern.includes('[KMGTPE]i');
}

export function isIntOrString(s: JsonSchema): boolean {
  return s['x-kubernetes-int-or-string'] === true;
}

/**
 * The property name json2jsii gives a schema property (`hostIPC` becomes `hostIpc`), computed
 * with the same camelcase package so that names line up with cdk8s-plus-28's `k8s` types.
 */
export function camel(name: string): string {
  return camelcase(name.replace(/^\$/, '').replace(/\//, '_'));
}
