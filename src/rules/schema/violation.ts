/** What is wrong with one value. */
export type Problem =
  | { readonly kind: 'type'; readonly expected: string }
  | { readonly kind: 'anyOf' }
  | { readonly kind: 'enum'; readonly allowed: readonly unknown[] }
  | { readonly kind: 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties'; readonly limit: number }
  | { readonly kind: 'format'; readonly format: string }
  | { readonly kind: 'minimum' | 'maximum'; readonly limit: number; readonly exclusive: boolean }
  | { readonly kind: 'pattern'; readonly pattern: string }
  | { readonly kind: 'duplicate'; readonly key: string; readonly first: number }
  | { readonly kind: 'required' }
  | { readonly kind: 'rule'; readonly rule: string; readonly message?: string; readonly error?: string }
  | { readonly kind: 'unknown'; readonly name: string; readonly known: readonly string[] };

/** One violation: where (a document path, '' for the root), the value found there, and the problem. */
export interface Violation {
  readonly at: string;
  readonly value: unknown;
  readonly problem: Problem;
}
