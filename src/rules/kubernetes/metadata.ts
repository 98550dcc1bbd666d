/**
 * Object metadata, as `ValidateObjectMeta` (k8s.io/apimachinery/pkg/api/validation/objectmeta.go)
 * checks it on every object, and `ValidateTemplateObjectMeta` on pod templates (labels and
 * annotations only).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child } from './field-path';
import {
  DNS1123_LABEL_TEXT, LABEL_VALUE_TEXT, QUALIFIED_NAME_TEXT,
  isDns1123Label, isLabelValue, isObject, isQualifiedName,
} from './names';

const F = 'metadata';

export const OBJECT_NAME = new Rule('kubernetes', 'kubernetes/object-name', F,
  'k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta with the kind\'s name function (NameIsDNSSubdomain for most kinds)',
  'an object has a name or a generateName, and the name passes the kind\'s name function');
export const GENERATE_NAME = new Rule('kubernetes', 'kubernetes/generate-name', F,
  'k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta: generateName through the name function with prefix=true (MaskTrailingDash)',
  'generateName passes the kind\'s name function as a prefix (a trailing "-" is allowed)');
export const NAMESPACE = new Rule('kubernetes', 'kubernetes/namespace', F,
  'k8s.io/apimachinery/pkg/api/validation ValidateNamespaceName (IsDNS1123Label)',
  'a namespace, when set, is a DNS label');
export const LABEL_KEY = new Rule('kubernetes', 'kubernetes/label-key', F,
  'k8s.io/apimachinery/pkg/apis/meta/v1/validation ValidateLabelName (IsQualifiedName)',
  'label keys are qualified names (an optional DNS-subdomain prefix and a name part of at most 63 characters)');
export const LABEL_VALUE = new Rule('kubernetes', 'kubernetes/label-value', F,
  'k8s.io/apimachinery/pkg/apis/meta/v1/validation ValidateLabels (IsValidLabelValue)',
  'label values are empty or at most 63 characters of the label alphabet, starting and ending with a letter or digit');
export const ANNOTATION_KEY = new Rule('kubernetes', 'kubernetes/annotation-key', F,
  'k8s.io/apimachinery/pkg/api/validation ValidateAnnotations (IsQualifiedName of the lower-cased key)',
  'annotation keys, lower-cased, are qualified names');
export const ANNOTATION_SIZE = new Rule('kubernetes', 'kubernetes/annotation-size', F,
  'k8s.io/apimachinery/pkg/api/validation ValidateAnnotationsSize (TotalAnnotationSizeLimitB = 256 KiB)',
  'annotation keys and values hold at most 256 KiB together');
export const FINALIZER = new Rule('kubernetes', 'kubernetes/finalizer', F,
  'k8s.io/apimachinery/pkg/api/validation ValidateFinalizers (IsQualifiedName; not orphan with foregroundDeletion)',
  'finalizers are qualified names, and orphan is not set with foregroundDeletion');

export const METADATA_RULES = [OBJECT_NAME, GENERATE_NAME, NAMESPACE, LABEL_KEY, LABEL_VALUE, ANNOTATION_KEY, ANNOTATION_SIZE, FINALIZER];

/** The total annotation size the API server accepts, in bytes of keys and values. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export const LABEL_KEY_TEXT = `expected a label key: ${QUALIFIED_NAME_TEXT}`;
const LABEL_VALUE_ALLOWED = `expected ${LABEL_VALUE_TEXT}`;

/** How a kind's names are validated: the predicate and its wording. */
export interface NameFormat {
  readonly test: (name: unknown) => boolean;
  readonly text: string;
}

/** Checks an object's metadata. `at` is the path of the metadata (`metadata`). */
export function checkObjectMeta(meta: unknown, at: string, nameFormat: NameFormat, out: Finding[]): void {
  if (!isObject(meta)) {
    OBJECT_NAME.report(out, child(at, 'name'), undefined, `expected ${nameFormat.text}`);
    return;
  }
  const name = meta.name;
  const generateName = meta.generateName;
  if (generateName !== undefined && generateName !== '') {
    // MaskTrailingDash: the prefix may end in "-" because a random suffix follows.
    const masked = typeof generateName === 'string' && generateName.length > 1 && generateName.endsWith('-')
      ? `${generateName.slice(0, -1)}a` : generateName;
    if (!nameFormat.test(masked)) {
      GENERATE_NAME.report(out, child(at, 'generateName'), generateName, `expected a prefix of ${nameFormat.text} (a trailing "-" is allowed)`);
    }
  }
  if (name === undefined || name === '') {
    if (generateName === undefined || generateName === '') {
      OBJECT_NAME.report(out, child(at, 'name'), name, `expected ${nameFormat.text} (name or generateName is required)`);
    }
  } else if (!nameFormat.test(name)) {
    OBJECT_NAME.report(out, child(at, 'name'), name, `expected ${nameFormat.text}`);
  }
  const namespace = meta.namespace;
  if (namespace !== undefined && namespace !== '' && !isDns1123Label(namespace)) {
    NAMESPACE.report(out, child(at, 'namespace'), namespace, `expected ${DNS1123_LABEL_TEXT}`);
  }
  checkLabels(meta.labels, child(at, 'labels'), out);
  checkAnnotations(meta.annotations, child(at, 'annotations'), out);
  const finalizers = meta.finalizers;
  if (Array.isArray(finalizers)) {
    for (let i = 0; i < finalizers.length; i++) {
      if (!isQualifiedName(finalizers[i])) {
        FINALIZER.report(out, `${child(at, 'finalizers')}[${i}]`, finalizers[i], `expected a finalizer name: ${QUALIFIED_NAME_TEXT}`);
      }
    }
    if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
      FINALIZER.report(out, child(at, 'finalizers'), finalizers, 'expected "orphan" or "foregroundDeletion", not both (they ask for opposite deletions)');
    }
  }
}

/** Checks the metadata of a pod template: labels and annotations (ValidateTemplateObjectMeta). */
export function checkTemplateMeta(meta: unknown, at: string, out: Finding[]): void {
  if (!isObject(meta)) return;
  checkLabels(meta.labels, child(at, 'labels'), out);
  checkAnnotations(meta.annotations, child(at, 'annotations'), out);
  checkPodFinalizers(meta.finalizers, child(at, 'finalizers'), out);
}

/** The finalizers Kubernetes itself defines (helper.IsStandardFinalizerName). */
const STANDARD_FINALIZERS = ['kubernetes', 'orphan', 'foregroundDeletion'];

/**
 * A pod template's finalizers, which the controllers copy onto every pod: ValidatePodCreate checks
 * them as the pod's (validateFinalizerName: a qualified name, and one of Kubernetes' own or with a
 * "/" prefix), so a pod with another is refused and the job's pods are never created.
 */
function checkPodFinalizers(finalizers: unknown, at: string, out: Finding[]): void {
  if (!Array.isArray(finalizers)) return;
  finalizers.forEach((f, i) => {
    if (!isQualifiedName(f)) {
      FINALIZER.report(out, `${at}[${i}]`, f, `expected a finalizer name: ${QUALIFIED_NAME_TEXT}`);
    } else if (!f.includes('/') && !STANDARD_FINALIZERS.includes(f)) {
      FINALIZER.report(out, `${at}[${i}]`, f, 'expected a finalizer with a domain prefix such as "example.com/cleanup" (only "kubernetes", "orphan" and "foregroundDeletion" go without one): the pods copy it, and Kubernetes refuses them');
    }
  });
}

/** ValidateLabels: every key a qualified name, every value a label value. Also node selectors. */
export function checkLabels(labels: unknown, at: string, out: Finding[]): void {
  if (!isObject(labels)) return;
  for (const key in labels) {
    if (!isQualifiedName(key)) LABEL_KEY.report(out, child(at, key), key, LABEL_KEY_TEXT);
    const value = labels[key];
    if (!isLabelValue(value)) LABEL_VALUE.report(out, child(at, key), value, LABEL_VALUE_ALLOWED);
  }
}

/** ValidateAnnotations and ValidateAnnotationsSize. */
export function checkAnnotations(annotations: unknown, at: string, out: Finding[]): void {
  if (!isObject(annotations)) return;
  let chars = 0;
  for (const key in annotations) {
    // The API server lower-cases annotation keys before the check, so an upper-case prefix passes.
    if (!isQualifiedName(key.toLowerCase())) {
      ANNOTATION_KEY.report(out, child(at, key), key, `expected an annotation key: ${QUALIFIED_NAME_TEXT}`);
    }
    const value = annotations[key];
    chars += key.length + (typeof value === 'string' ? value.length : 0);
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes: count bytes only when the total may be over the limit.
  if (chars * 3 <= TOTAL_ANNOTATION_SIZE_LIMIT) return;
  let bytes = 0;
  for (const key in annotations) {
    const value = annotations[key];
    bytes += utf8Length(key) + (typeof value === 'string' ? utf8Length(value) : 0);
  }
  if (bytes > TOTAL_ANNOTATION_SIZE_LIMIT) {
    ANNOTATION_SIZE.report(out, at, `${bytes} bytes`, `expected at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes (256 KiB) of annotation keys and values in total`);
  }
}

/** The UTF-8 length of a string (Go's `len` of the same string). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {n += 1;} else if (c < 0x800) {n += 2;} else if (c >= 0xd800 && c < 0xdc00) { n += 4; i++; } else {n += 3;}
  }
  return n;
}
