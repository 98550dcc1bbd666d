import { JsonSchema } from './schema';

/**
 * Writes our own doc text into a schema, in place of upstream's descriptions: the field's path in
 * the kind, its type, the values it allows and its default. json2jsii turns "Defaults to X" into
 * an `@default` tag.
 */
export function describe(schema: JsonSchema, path: string): JsonSchema {
  const out: JsonSchema = { ...schema, description: facts(schema, path) };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties)
      .map(([name, sub]) => [name, describe(sub, `${path}.${name}`)]));
  }
  if (schema.items) out.items = describe(schema.items, `${path}[]`);
  if (typeof schema.additionalProperties === 'object') {
    out.additionalProperties = describe(schema.additionalProperties, `${path}.*`);
  }
  return out;
}

function facts(s: JsonSchema, path: string): string | undefined {
  if (s.$ref) return s['x-type-name'] ? `\`${path}\`: ${s['x-type-name']}.` : undefined;
  const parts = [`\`${path}\`: ${typeOf(s)}.`];
  if (Array.isArray(s.enum)) parts.push(`One of: ${s.enum.map(v => String(v)).join(', ')}.`);
  for (const [key, label] of [['minimum', 'Minimum'], ['maximum', 'Maximum'], ['minItems', 'At least items:'],
    ['maxItems', 'At most items:'], ['minLength', 'Minimum length'], ['maxLength', 'Maximum length']] as const) {
    if (typeof s[key] === 'number') parts.push(`${label} ${s[key]}.`);
  }
  if (Array.isArray(s['x-kubernetes-validations'])) parts.push('The API server checks further rules.');
  if (s.default !== undefined) parts.push(`Defaults to ${JSON.stringify(s.default)}`);
  return parts.join(' ');
}

function typeOf(s: JsonSchema): string {
  if (s.$ref) return String(s['x-type-name'] ?? 'object');
  if (s['x-kubernetes-int-or-string']) return 'integer or string';
  if (s['x-kubernetes-preserve-unknown-fields'] && !s.properties) return 'free-form object';
  switch (s.type) {
    case 'array': return `list of ${s.items ? typeOf(s.items) : 'any'}`;
    case 'object':
      if (s.properties) return 'object';
      if (typeof s.additionalProperties === 'object') return `map of ${typeOf(s.additionalProperties)}`;
      return 'object';
    case 'integer': return s.format ? `integer (${s.format})` : 'integer';
    case undefined: return 'any';
    default: return s.format ? `${s.type} (${s.format})` : s.type;
  }
}
