/**
 * What an environment variable's source names: the ConfigMap or Secret and the key in it, the pod
 * field, or the container resource, as `validateEnvVarValueFrom`, `validateConfigMapKeySelector`,
 * `validateSecretKeySelector`, `validateObjectFieldSelector`, `validateContainerResourceFieldSelector`
 * and `ValidateEnvFrom` (k8s.io/kubernetes/pkg/apis/core/validation) check them. Whether the object
 * and the key exist is the kubelet's question at start, not the API server's.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child } from './field-path';
import { DNS1123_SUBDOMAIN_TEXT, QUALIFIED_NAME_TEXT, isConfigMapKey, isDns1123Subdomain, isObject, isQualifiedName } from './names';
import { Quantity, compareQuantities, parseQuantity } from './quantity';

const F = 'pod';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const ENV_KEY_REF = new Rule('kubernetes', 'kubernetes/env-key-ref', F,
  `${SOURCE} validateConfigMapKeySelector, validateSecretKeySelector, validateConfigMapEnvSource and validateSecretEnvSource (name a DNS subdomain, key required and IsConfigMapKey)`,
  'a key is at most 253 letters, digits, "-", "_" or ".", not "." or ".." and not starting with ".."');
export const ENV_FIELD_REF = new Rule('kubernetes', 'kubernetes/env-field-ref', F,
  `${SOURCE} validateObjectFieldSelector and validateContainerResourceFieldSelector (the env's downward API fields and resources, validateContainerResourceDivisor)`,
  'fieldRef uses apiVersion v1 and a field env can read, or one label or annotation by a qualified key');

export const ENV_SOURCE_RULES = [ENV_KEY_REF, ENV_FIELD_REF];

export const CONFIG_MAP_KEY_TEXT = 'at most 253 letters, digits, "-", "_" or ".", not "." or ".." and not starting with ".."';

// validEnvDownwardAPIFieldPathExpressions, plus "spec.host", which ConvertDownwardAPIFieldLabel
// still maps to spec.nodeName for old clients.
const ENV_FIELD_PATHS = new Set([
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName',
  'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs', 'spec.host',
]);
const ENV_FIELD_PATHS_TEXT = 'a pod field an env variable can read: metadata.name, metadata.namespace, metadata.uid, spec.nodeName, spec.serviceAccountName, '
  + 'status.hostIP, status.hostIPs, status.podIP, status.podIPs, or metadata.labels[\'<key>\'] / metadata.annotations[\'<key>\']';
// fieldpath.SplitMaybeSubscriptedPath: `path['subscript']`.
const SUBSCRIPTED = /^(.*)\['(.*)'\]$/;

// validContainerResourceFieldPathExpressions and the huge page prefixes.
const RESOURCES = new Set(['limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage']);
const HUGE_PAGE_PREFIXES = ['requests.hugepages-', 'limits.hugepages-'];
const RESOURCES_TEXT = 'limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory, requests.ephemeral-storage, '
  + 'or requests.hugepages-<size> / limits.hugepages-<size>';

// validContainerResourceDivisorFor*: the divisors by their canonical text (Quantity.String()).
const CPU_DIVISORS = ['1m', '1'];
const SIZE_DIVISORS = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];
const PARSED_SIZE_DIVISORS = SIZE_DIVISORS.map(d => ({ text: d, q: parseQuantity(d)! }));
const PARSED_CPU_DIVISORS = CPU_DIVISORS.map(d => ({ text: d, q: parseQuantity(d)! }));

/** Checks the source of one env entry's `valueFrom` at `at`. */
export function checkEnvVarSource(valueFrom: Record<string, any>, at: string, out: Finding[]): void {
  for (const key of ['configMapKeyRef', 'secretKeyRef']) {
    const ref = valueFrom[key];
    if (!isObject(ref)) continue;
    const refAt = child(at, key);
    checkObjectName(ref.name, child(refAt, 'name'), key === 'secretKeyRef' ? 'a Secret name' : 'a ConfigMap name', out);
    const k = ref.key;
    if (typeof k !== 'string' || k === '' || !isConfigMapKey(k)) {
      ENV_KEY_REF.report(out, child(refAt, 'key'), k, `expected a key of the ${key === 'secretKeyRef' ? 'Secret' : 'ConfigMap'}: ${CONFIG_MAP_KEY_TEXT}`);
    }
  }
  if (isObject(valueFrom.fieldRef)) checkFieldRef(valueFrom.fieldRef, child(at, 'fieldRef'), ENV_FIELD_PATHS, ENV_FIELD_PATHS_TEXT, ENV_FIELD_REF, out);
  if (isObject(valueFrom.resourceFieldRef)) checkResourceFieldRef(valueFrom.resourceFieldRef, child(at, 'resourceFieldRef'), false, ENV_FIELD_REF, out);
}

/** Checks the ConfigMap or Secret an `envFrom` entry names. */
export function checkEnvFromSource(item: Record<string, any>, at: string, out: Finding[]): void {
  for (const key of ['configMapRef', 'secretRef']) {
    const ref = item[key];
    if (isObject(ref)) checkObjectName(ref.name, child(child(at, key), 'name'), key === 'secretRef' ? 'a Secret name' : 'a ConfigMap name', out);
  }
}

/** A ConfigMap or Secret name: required, and a DNS subdomain (ValidateConfigMapName, ValidateSecretName). */
function checkObjectName(name: unknown, at: string, what: string, out: Finding[]): void {
  if (!isDns1123Subdomain(name)) ENV_KEY_REF.report(out, at, name, `expected ${what}: ${DNS1123_SUBDOMAIN_TEXT}`);
}

/**
 * A downward API field: apiVersion v1, and a path of `paths` (described by `pathsText`, "a pod
 * field ...") or a label or annotation by key; `rule` is the rule that reports (env or volume).
 */
export function checkFieldRef(ref: Record<string, any>, at: string, paths: ReadonlySet<string>, pathsText: string, rule: Rule, out: Finding[]): void {
  // An empty apiVersion is defaulted to "v1" (SetDefaults_ObjectFieldSelector).
  const version = ref.apiVersion;
  if (version !== undefined && version !== '' && version !== 'v1') {
    rule.report(out, child(at, 'apiVersion'), version, 'expected "v1" (the only pod version the downward API reads)');
    return;
  }
  const path = ref.fieldPath;
  const pathAt = child(at, 'fieldPath');
  if (typeof path !== 'string' || path === '') {
    rule.report(out, pathAt, path, `expected ${pathsText}`);
    return;
  }
  const m = SUBSCRIPTED.exec(path);
  if (m !== null) {
    const [, base, key] = m;
    if (base !== 'metadata.labels' && base !== 'metadata.annotations') {
      rule.report(out, pathAt, path, 'expected a subscript only on metadata.labels or metadata.annotations');
    } else if (!isQualifiedName(base === 'metadata.annotations' ? key.toLowerCase() : key)) {
      // The API server reports the key's problem at the fieldRef itself.
      rule.report(out, pathAt, path, `expected a ${base === 'metadata.labels' ? 'label' : 'annotation'} key in the subscript: ${QUALIFIED_NAME_TEXT}`);
    }
  } else if (!paths.has(path)) {
    rule.report(out, pathAt, path, `expected ${pathsText}`);
  }
}

/**
 * A container resource: a supported resource, a divisor allowed for it, and in a volume (where no
 * container is implied) the container's name.
 */
export function checkResourceFieldRef(ref: Record<string, any>, at: string, volume: boolean, rule: Rule, out: Finding[]): void {
  if (volume && (typeof ref.containerName !== 'string' || ref.containerName === '')) {
    rule.report(out, child(at, 'containerName'), ref.containerName, 'expected the name of the container whose resources the file shows');
    return;
  }
  const resource = ref.resource;
  if (typeof resource !== 'string' || (!RESOURCES.has(resource) && !HUGE_PAGE_PREFIXES.some(p => resource.startsWith(p)))) {
    rule.report(out, child(at, 'resource'), resource, `expected a container resource: ${RESOURCES_TEXT}`);
    return;
  }
  const divisor = ref.divisor;
  if (divisor === undefined || divisor === null) return;
  const q = parseQuantity(divisor);
  // A divisor that is no quantity is the schema's to refuse; a zero divisor counts as not set.
  if (q === undefined || q.digits === BigInt(0)) return;
  const cpu = resource === 'limits.cpu' || resource === 'requests.cpu';
  if (!isAllowedDivisor(divisor, q, cpu ? PARSED_CPU_DIVISORS : PARSED_SIZE_DIVISORS)) {
    rule.report(out, child(at, 'divisor'), divisor, cpu
      ? `expected 1m or 1 as the divisor of ${resource}`
      : `expected 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi or 1Ei as the divisor of ${resource}`);
  }
}

/**
 * Whether a divisor's canonical text (what `Quantity.String()` gives) is one of the allowed: the
 * same value, written in the same family of suffixes (binary "Ki" ... or decimal), or 1 itself.
 */
function isAllowedDivisor(text: unknown, q: Quantity, allowed: readonly { text: string; q: Quantity }[]): boolean {
  const s = String(text);
  const binary = /(Ki|Mi|Gi|Ti|Pi|Ei)$/.test(s);
  const exponent = /[eE][+-]?\d+$/.test(s);
  for (const a of allowed) {
    if (compareQuantities(q, a.q) !== 0) continue;
    if (a.text === '1') return true;
    // An exponent form keeps its form in the canonical text ("1e3"), which no list holds.
    if (exponent) return false;
    return binary === /i$/.test(a.text);
  }
  return false;
}
