/**
 * The name and string formats of Kubernetes, as predicates with their "expected ..." wording.
 * Each mirrors a function of `k8s.io/apimachinery/pkg/util/validation` (validation.go) at 1.34.
 * Regular expressions are compiled once, at load. The predicates that every document asks about
 * the same few strings (label keys, port and volume names, the same image's container names in
 * every job) remember their answers.
 */

// IsDNS1123Label: dns1123LabelFmt, at most 63 characters (DNS1123LabelMaxLength).
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
// IsDNS1123Subdomain: dns1123SubdomainFmt, at most 253 characters (DNS1123SubdomainMaxLength).
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// IsDNS1035Label: dns1035LabelFmt, at most 63 characters.
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
// IsQualifiedName (name part) and IsValidLabelValue: qualifiedNameFmt, at most 63 characters.
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
// IsValidPortName: portNameCharsetRegex and portNameOneLetterRegexp.
const PORT_NAME_CHARS = /^[-a-z0-9]+$/;
const HAS_LETTER = /[a-z]/;
// IsConfigMapKey: configMapKeyFmt.
const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;
// IsRelaxedEnvVarName (the RelaxedEnvironmentVariableValidation gate is GA in 1.34): printable
// ASCII (space through "~") except "=".
const RELAXED_ENV_NAME = /^[ -<>-~]+$/;

export const DNS1123_LABEL_TEXT = 'a DNS-1123 label: at most 63 lower-case letters, digits or "-", starting and ending with a letter or digit';
export const DNS1123_SUBDOMAIN_TEXT = 'a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit';
export const DNS1035_LABEL_TEXT = 'a DNS-1035 label: at most 63 lower-case letters, digits or "-", starting with a letter and ending with a letter or digit';
export const QUALIFIED_NAME_TEXT = 'an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
export const LABEL_VALUE_TEXT = 'a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';

/**
 * A string predicate that remembers its answers. The memory is bounded (a synth's strings repeat,
 * but `lint` of a large input may bring many distinct ones): when full it starts over.
 */
function remembered(test: (value: string) => boolean): (value: unknown) => boolean {
  const answers = new Map<string, boolean>();
  return value => {
    if (typeof value !== 'string') return false;
    let answer = answers.get(value);
    if (answer === undefined) {
      answer = test(value);
      if (answers.size >= 4096) answers.clear();
      answers.set(value, answer);
    }
    return answer;
  };
}

export const isDns1123Label = remembered(value => value.length <= 63 && DNS1123_LABEL.test(value));

export const isDns1123Subdomain = remembered(value => value.length <= 253 && DNS1123_SUBDOMAIN.test(value));

export function isDns1035Label(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 63 && DNS1035_LABEL.test(value);
}

/** IsQualifiedName: `[prefix/]name`, prefix a DNS-1123 subdomain, name at most 63 characters. */
export const isQualifiedName = remembered(value => {
  const slash = value.indexOf('/');
  if (slash < 0) return isQualifiedNamePart(value);
  if (value.indexOf('/', slash + 1) >= 0) return false;
  const prefix = value.slice(0, slash);
  return prefix.length > 0 && isDns1123Subdomain(prefix) && isQualifiedNamePart(value.slice(slash + 1));
});

function isQualifiedNamePart(name: string): boolean {
  return name.length > 0 && name.length <= 63 && QUALIFIED_NAME_PART.test(name);
}

/** IsValidLabelValue: empty, or a qualified name part. */
export function isLabelValue(value: unknown): boolean {
  return typeof value === 'string' && (value.length === 0 || isQualifiedNamePart(value));
}

/** IsValidPortName (IANA_SVC_NAME): 1-15 of [-a-z0-9], at least one letter, no "--", no "-" at either end. */
export const isPortName = remembered(value => value.length >= 1 && value.length <= 15
  && PORT_NAME_CHARS.test(value) && HAS_LETTER.test(value)
  && !value.includes('--') && !value.startsWith('-') && !value.endsWith('-'));

/** IsRelaxedEnvVarName: non-empty printable ASCII without "=". */
export function isEnvVarName(value: unknown): boolean {
  return typeof value === 'string' && RELAXED_ENV_NAME.test(value);
}

/** IsConfigMapKey: at most 253 of [-._a-zA-Z0-9], not "." or "..", not starting with "..". */
export function isConfigMapKey(value: string): boolean {
  return value.length <= 253 && CONFIG_MAP_KEY.test(value) && value !== '.' && !value.startsWith('..');
}

/** A 32-bit signed integer (the Go `int32` the API types and the operators decode into). */
export function isInt32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647;
}

/** A plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
