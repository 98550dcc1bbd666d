/**
 * The `kueue.x-k8s.io/v1beta2` form of a `v1beta1` Kueue document, as Kueue's own conversion makes
 * it (sigs.k8s.io/kueue v0.15.2 apis/kueue/v1beta1/*_conversion.go and the generated conversions
 * beside them), with what changed. Kueue v0.20 and later do not serve v1beta1, so this is what
 * `lint` shows for an old object and what `convert` reads it as. The fields that differ:
 * - ClusterQueue: `spec.cohort` is `spec.cohortName`; `spec.admissionChecks` (names) becomes
 *   `spec.admissionChecksStrategy.admissionChecks` (one rule `{name}` per check, replacing any
 *   strategy, as Kueue does; an empty list is dropped); the deprecated flavor-fungibility values
 *   `Borrow` (whenCanBorrow) and `Preempt` (whenCanPreempt) are their new name, `MayStopSearch`;
 * - AdmissionCheck: `spec.retryDelayMinutes` is gone;
 * - MultiKueueCluster: `spec.kubeConfig` (when it has a location) and `spec.clusterProfileRef`
 *   move under `spec.clusterSource`;
 * - Workload: `spec.priorityClassSource` and `spec.priorityClassName` become
 *   `spec.priorityClassRef` (group, kind and name; a name without a known source is dropped);
 * - every kind: `status` is left out. Kueue's controllers write it (the API server ignores it on a
 *   create), and its v1beta1 and v1beta2 shapes differ in ways a manifest never needs.
 * ResourceFlavor, LocalQueue (spec), WorkloadPriorityClass, Topology and Cohort keep their fields.
 * A Topology without `spec` gets a note: later v1beta2 schemas require one.
 * Pure: the input is not changed, and the same input gives the same output.
 */
import { KUEUE_API_VERSION, KUEUE_GROUP, KUEUE_V1BETA1 } from './api';
import { isObject } from '../kubernetes/names';


/** A document in its v1beta2 form and what changed, one short line per field (`spec.cohort -> spec.cohortName`). */
export interface KueueV1beta2Form {
  readonly doc: any;
  readonly changes: string[];
}

/** Kueue v0.15.2's values of a v1beta1 Workload's `spec.priorityClassSource`, and the reference each becomes. */
const PRIORITY_SOURCES: { readonly [source: string]: { readonly group: string; readonly kind: string } } = {
  'kueue.x-k8s.io/workloadpriorityclass': { group: KUEUE_GROUP, kind: 'WorkloadPriorityClass' },
  'scheduling.k8s.io/priorityclass': { group: 'scheduling.k8s.io', kind: 'PriorityClass' },
};

/** `map` with the key `from` replaced by the entries of `to`, in its place (so the output keeps the input's order). */
function replaceKey(map: { [key: string]: any }, from: string, to: ReadonlyArray<[string, any]>): { [key: string]: any } {
  const out: { [key: string]: any } = {};
  for (const [k, v] of Object.entries(map)) {
    if (k !== from) {
      if (!to.some(([t]) => t === k)) out[k] = v;
    } else {
      for (const [t, tv] of to) out[t] = tv;
    }
  }
  return out;
}

const clone = (v: any): any => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/** The v1beta2 form of `doc`; a document that is not a v1beta1 Kueue object comes back as it is, with no changes. */
export function kueueV1beta2Form(doc: any): KueueV1beta2Form {
  if (!isObject(doc) || doc.apiVersion !== KUEUE_V1BETA1) return { doc, changes: [] };
  const changes: string[] = [];
  let out: { [key: string]: any } = replaceKey(clone(doc), 'apiVersion', [['apiVersion', KUEUE_API_VERSION]]);
  if (out.status !== undefined) {
    out = replaceKey(out, 'status', []);
    changes.push('status left out (Kueue writes it)');
  }
  const spec = out.spec;
  if (isObject(spec)) out.spec = specForm(doc.kind, spec, changes);
  else if (doc.kind === 'Topology' && spec === undefined) changes.push('spec: v1beta2 Topologies need spec.levels');
  return { doc: out, changes };
}

function specForm(kind: string, spec: { [key: string]: any }, changes: string[]): { [key: string]: any } {
  switch (kind) {
    case 'ClusterQueue': return clusterQueueSpec(spec, changes);
    case 'AdmissionCheck':
      if (!('retryDelayMinutes' in spec)) return spec;
      changes.push('spec.retryDelayMinutes dropped (v1beta2 has none)');
      return replaceKey(spec, 'retryDelayMinutes', []);
    case 'MultiKueueCluster': return multiKueueClusterSpec(spec, changes);
    case 'Workload': return workloadSpec(spec, changes);
    default: return spec;
  }
}

function clusterQueueSpec(spec: { [key: string]: any }, changes: string[]): { [key: string]: any } {
  let out = spec;
  if ('cohort' in out) {
    out = replaceKey(out, 'cohort', [['cohortName', out.cohort]]);
    changes.push('spec.cohort -> spec.cohortName');
  }
  if ('admissionChecks' in out) {
    const checks = out.admissionChecks;
    if (Array.isArray(checks) && checks.length > 0) {
      out = replaceKey(out, 'admissionChecks', [['admissionChecksStrategy', { admissionChecks: checks.map(name => ({ name })) }]]);
      changes.push('spec.admissionChecks -> spec.admissionChecksStrategy.admissionChecks[].name');
    } else {
      out = replaceKey(out, 'admissionChecks', []);
      changes.push('spec.admissionChecks (empty) dropped');
    }
  }
  const fungibility = out.flavorFungibility;
  if (isObject(fungibility)) {
    const renamed: Array<[string, string]> = [['whenCanBorrow', 'Borrow'], ['whenCanPreempt', 'Preempt']];
    for (const [field, old] of renamed) {
      if (fungibility[field] !== old) continue;
      out = { ...out, flavorFungibility: { ...out.flavorFungibility, [field]: 'MayStopSearch' } };
      changes.push(`spec.flavorFungibility.${field}: ${old} -> MayStopSearch`);
    }
  }
  return out;
}

function multiKueueClusterSpec(spec: { [key: string]: any }, changes: string[]): { [key: string]: any } {
  const source: { [key: string]: any } = {};
  if (isObject(spec.kubeConfig) && typeof spec.kubeConfig.location === 'string' && spec.kubeConfig.location !== '') {
    source.kubeConfig = spec.kubeConfig;
    changes.push('spec.kubeConfig -> spec.clusterSource.kubeConfig');
  } else if ('kubeConfig' in spec) {
    changes.push('spec.kubeConfig without a location dropped');
  }
  if (spec.clusterProfileRef !== undefined && spec.clusterProfileRef !== null) {
    source.clusterProfileRef = spec.clusterProfileRef;
    changes.push('spec.clusterProfileRef -> spec.clusterSource.clusterProfileRef');
  }
  const first = Object.keys(spec).find(k => k === 'kubeConfig' || k === 'clusterProfileRef');
  if (first === undefined) return spec;
  const placed = replaceKey(spec, first, Object.keys(source).length > 0 ? [['clusterSource', source]] : []);
  return replaceKey(placed, first === 'kubeConfig' ? 'clusterProfileRef' : 'kubeConfig', []);
}

function workloadSpec(spec: { [key: string]: any }, changes: string[]): { [key: string]: any } {
  const first = Object.keys(spec).find(k => k === 'priorityClassSource' || k === 'priorityClassName');
  if (first === undefined) return spec;
  const known = PRIORITY_SOURCES[spec.priorityClassSource];
  const ref: Array<[string, any]> = known === undefined ? [] : [['priorityClassRef', { ...known, name: spec.priorityClassName }]];
  const placed = replaceKey(spec, first, ref);
  const out = replaceKey(placed, first === 'priorityClassSource' ? 'priorityClassName' : 'priorityClassSource', []);
  changes.push(known === undefined
    ? 'spec.priorityClassName dropped (no known spec.priorityClassSource)'
    : 'spec.priorityClassSource, spec.priorityClassName -> spec.priorityClassRef');
  return out;
}
