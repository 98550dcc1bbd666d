/**
 * PersistentVolumeClaim specs, as `ValidatePersistentVolumeClaimSpec` (k8s.io/kubernetes/pkg/apis/core/validation)
 * checks them: on a PersistentVolumeClaim, on the claim template of an ephemeral volume
 * (`ValidatePersistentVolumeClaimTemplate`, whose metadata may carry labels and annotations only),
 * and on the templates of a JobSet's volume claim policies, from which the JobSet controller
 * creates claims that the API server then validates.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { checkTemplateMeta } from './metadata';
import { DNS1123_SUBDOMAIN_TEXT, isDns1123Subdomain, isObject } from './names';
import { isNegative, parseQuantity } from './quantity';
import { checkLabelSelector } from './scheduling';

const F = 'claims';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation ValidatePersistentVolumeClaimSpec';

export const CLAIM_ACCESS_MODES = new Rule('kubernetes', 'kubernetes/claim-access-modes', F, `${SOURCE} (at least one supported access mode; ReadWriteOncePod alone)`,
  'a claim has at least one access mode, each ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod, and ReadWriteOncePod alone');
export const CLAIM_STORAGE = new Rule('kubernetes', 'kubernetes/claim-storage', F, `${SOURCE} (resources.requests.storage required, ValidatePositiveQuantityValue)`,
  'resources.requests.storage is set and above zero (a request of size 0 is refused)');
export const CLAIM_VOLUME_MODE = new Rule('kubernetes', 'kubernetes/claim-volume-mode', F, `${SOURCE} (supportedVolumeModes)`,
  'volumeMode is Filesystem or Block');
export const CLAIM_CLASS_NAME = new Rule('kubernetes', 'kubernetes/claim-class-name', F, `${SOURCE} (storageClassName and volumeAttributesClassName: ValidateClassName, NameIsDNSSubdomain)`,
  'storageClassName and volumeAttributesClassName are DNS subdomains');
export const CLAIM_DATA_SOURCE = new Rule('kubernetes', 'kubernetes/claim-data-source', F, `${SOURCE} validateDataSource and validateDataSourceRef (name and kind required, a core kind is a PersistentVolumeClaim; the two agree), `
  + 'pkg/api/persistentvolumeclaim/util.go DropDisabledFields (a cross-namespace dataSourceRef dropped while its gate is off)',
'dataSource and dataSourceRef have a name and a kind');
export const CLAIM_TEMPLATE_METADATA = new Rule('kubernetes', 'kubernetes/claim-template-metadata', F,
  'k8s.io/kubernetes/pkg/apis/core/validation ValidatePersistentVolumeClaimTemplate (ValidateTemplateObjectMeta: labels and annotations only)',
  'an ephemeral volume has a claim template whose metadata holds only labels and annotations and whose spec is a valid claim spec');

export const CLAIM_SPEC_RULES = [CLAIM_ACCESS_MODES, CLAIM_STORAGE, CLAIM_VOLUME_MODE, CLAIM_CLASS_NAME, CLAIM_DATA_SOURCE, CLAIM_TEMPLATE_METADATA];

const ACCESS_MODES = new Set(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod']);
const ACCESS_MODES_TEXT = '"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany" or "ReadWriteOncePod"';

/** Checks a claim spec at `at`. */
export function checkClaimSpec(spec: unknown, at: string, out: Finding[]): void {
  if (!isObject(spec)) {
    CLAIM_ACCESS_MODES.report(out, child(at, 'accessModes'), undefined, `expected at least one access mode: ${ACCESS_MODES_TEXT}`);
    CLAIM_STORAGE.report(out, child(child(child(at, 'resources'), 'requests'), 'storage'), undefined, 'expected the size to request, such as 10Gi');
    return;
  }
  checkAccessModes(spec.accessModes, child(at, 'accessModes'), out);
  checkStorage(spec.resources?.requests?.storage, child(child(child(at, 'resources'), 'requests'), 'storage'), out);
  if (spec.selector !== undefined) checkLabelSelector(spec.selector, child(at, 'selector'), out);
  const mode = spec.volumeMode;
  if (mode !== undefined && mode !== null && mode !== 'Filesystem' && mode !== 'Block') {
    CLAIM_VOLUME_MODE.report(out, child(at, 'volumeMode'), mode, 'expected "Filesystem" or "Block"');
  }
  for (const key of ['storageClassName', 'volumeAttributesClassName']) {
    const name = spec[key];
    if (typeof name === 'string' && name !== '' && !isDns1123Subdomain(name)) {
      CLAIM_CLASS_NAME.report(out, child(at, key), name, `expected a class name: ${DNS1123_SUBDOMAIN_TEXT}`);
    }
  }
  for (const key of ['dataSource', 'dataSourceRef']) {
    if (isObject(spec[key])) checkDataSource(spec[key], child(at, key), out);
  }
  checkDataSourceAgreement(spec, at, out);
}

/**
 * dataSource and dataSourceRef together: the same object (apiGroup, kind and name; an absent
 * apiGroup is not an empty one). A dataSourceRef with a namespace is dropped while the
 * CrossNamespaceVolumeDataSource gate is off (alpha, off by default in 1.34), leaving the claim
 * empty without a word.
 */
function checkDataSourceAgreement(spec: Record<string, any>, at: string, out: Finding[]): void {
  const ref = spec.dataSourceRef;
  if (!isObject(ref)) return;
  if (typeof ref.namespace === 'string' && ref.namespace !== '') {
    CLAIM_DATA_SOURCE.report(out, child(child(at, 'dataSourceRef'), 'namespace'), ref.namespace,
      'expected no namespace (the claim\'s own): a source in another namespace needs the CrossNamespaceVolumeDataSource feature gate, off by default in 1.34, without which the API server drops the dataSourceRef and the claim starts empty');
    return;
  }
  const source = spec.dataSource;
  if (!isObject(source)) return;
  if (source.apiGroup !== ref.apiGroup || source.kind !== ref.kind || source.name !== ref.name) {
    CLAIM_DATA_SOURCE.report(out, child(at, 'dataSource'), source,
      'expected the same apiGroup, kind and name as dataSourceRef, or only one of the two (the API server copies one into the other)');
  }
}

function checkAccessModes(modes: unknown, at: string, out: Finding[]): void {
  if (!Array.isArray(modes) || modes.length === 0) {
    CLAIM_ACCESS_MODES.report(out, at, modes, `expected at least one access mode: ${ACCESS_MODES_TEXT}`);
    return;
  }
  let oncePod = false;
  let others = false;
  modes.forEach((mode, i) => {
    if (!ACCESS_MODES.has(mode)) {
      CLAIM_ACCESS_MODES.report(out, indexed(at, i), mode, `expected ${ACCESS_MODES_TEXT}`);
    } else if (mode === 'ReadWriteOncePod') {
      oncePod = true;
    } else {
      others = true;
    }
  });
  if (oncePod && others) {
    CLAIM_ACCESS_MODES.report(out, at, modes, 'expected "ReadWriteOncePod" alone (it cannot be combined with other access modes)');
  }
}

function checkStorage(storage: unknown, at: string, out: Finding[]): void {
  if (storage === undefined || storage === null) {
    CLAIM_STORAGE.report(out, at, storage, 'expected the size to request, such as 10Gi');
    return;
  }
  const q = parseQuantity(storage);
  if (q === undefined || isNegative(q) || q.digits === BigInt(0)) {
    CLAIM_STORAGE.report(out, at, storage, 'expected a size greater than zero, such as 10Gi');
  }
}

function checkDataSource(source: Record<string, any>, at: string, out: Finding[]): void {
  for (const key of ['name', 'kind']) {
    if (typeof source[key] !== 'string' || source[key] === '') {
      CLAIM_DATA_SOURCE.report(out, child(at, key), source[key], `expected the ${key} of the object to copy from`);
    }
  }
  const group = source.apiGroup ?? '';
  if (group === '' && typeof source.kind === 'string' && source.kind !== '' && source.kind !== 'PersistentVolumeClaim') {
    CLAIM_DATA_SOURCE.report(out, child(at, 'kind'), source.kind, 'expected "PersistentVolumeClaim" when apiGroup is empty (the core group), or the apiGroup of the kind, such as snapshot.storage.k8s.io');
  } else if (group !== '' && !isDns1123Subdomain(group)) {
    CLAIM_DATA_SOURCE.report(out, child(at, 'apiGroup'), group, `expected an API group: ${DNS1123_SUBDOMAIN_TEXT}`);
  }
}

/** Checks an ephemeral volume's claim template (`ephemeral.volumeClaimTemplate`) at `at`. */
export function checkClaimTemplate(template: Record<string, any>, at: string, out: Finding[]): void {
  const meta = template.metadata;
  checkTemplateMeta(meta, child(at, 'metadata'), out);
  if (isObject(meta)) {
    for (const key of Object.keys(meta)) {
      if (key !== 'labels' && key !== 'annotations') {
        CLAIM_TEMPLATE_METADATA.report(out, child(child(at, 'metadata'), key), meta[key],
          'expected not set: a claim template\'s metadata takes labels and annotations only (the claim is named <pod>-<volume>)');
      }
    }
  }
  checkClaimSpec(template.spec, child(at, 'spec'), out);
}

/** Checks the claim templates of a JobSet's `volumeClaimPolicies` under `at` (the JobSet spec). */
export function checkVolumeClaimPolicies(jobSetSpec: unknown, at: string, out: Finding[]): void {
  const policies = isObject(jobSetSpec) ? jobSetSpec.volumeClaimPolicies : undefined;
  if (!Array.isArray(policies)) return;
  policies.forEach((policy, i) => {
    const templates = isObject(policy) ? policy.templates : undefined;
    if (!Array.isArray(templates)) return;
    templates.forEach((t, j) => {
      if (isObject(t)) checkClaimSpec(t.spec, child(indexed(child(indexed(child(at, 'volumeClaimPolicies'), i), 'templates'), j), 'spec'), out);
    });
  });
}
