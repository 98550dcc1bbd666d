/**
 * How the rules read Kueue documents, in both API versions Kueue v0.15 to v0.19 serve. The library
 * writes `kueue.x-k8s.io/v1beta2`; `lint` still meets `v1beta1` input, which Kueue v0.20 no longer
 * serves. Where the two versions name a field differently (a ClusterQueue's cohort, its admission
 * checks), the readers below take either shape, so that every Kueue rule judges an object the same
 * whichever version it is written in.
 */

import { apiVersionOf, apiVersionsOf } from '../../kinds/kind';
import { CLUSTER_QUEUE, KUEUE_GROUP } from '../../kinds/kueue';

/** Kueue's API group. */
export { KUEUE_GROUP };

/** The API version the library writes (the kind table's, src/kinds/kueue.ts). */
export const KUEUE_API_VERSION = apiVersionOf(CLUSTER_QUEUE);

/** The older API version, which Kueue v0.20 and later do not serve (lint still reads it). */
export const KUEUE_V1BETA1 = apiVersionsOf(CLUSTER_QUEUE)[0];

/** The API versions whose documents the rules judge: the one written, and the older one lint reads. */
export const KUEUE_API_VERSIONS: readonly string[] = apiVersionsOf(CLUSTER_QUEUE);

/**
 * Whether a document is a Kueue object of a version the rules read (v1beta1 or v1beta2), and, with
 * `kind`, of that kind.
 */
export function isKueueDocument(doc: any, kind?: string): boolean {
  return typeof doc?.apiVersion === 'string' && KUEUE_API_VERSIONS.includes(doc.apiVersion)
    && typeof doc.kind === 'string' && (kind === undefined || doc.kind === kind);
}

/** Whether a document is of Kueue's API group at all (any version, any kind: AdmissionCheck too). */
export function isKueueGroup(doc: any): boolean {
  return typeof doc?.apiVersion === 'string' && doc.apiVersion.split('/')[0] === KUEUE_GROUP && typeof doc.kind === 'string';
}

/** Whether a Kueue document is written in v1beta1 (which names fields the older way). */
const isV1beta1 = (doc: any) => doc?.apiVersion === KUEUE_V1BETA1;

/** The field of a ClusterQueue's spec that names its cohort in the document's version. */
export function cohortFieldOf(doc: any): 'cohort' | 'cohortName' {
  return isV1beta1(doc) ? 'cohort' : 'cohortName';
}

/**
 * The cohort a ClusterQueue is in ('' when none): v1beta2 `spec.cohortName`, v1beta1 `spec.cohort`.
 */
export function cohortNameOf(clusterQueue: any): string {
  const value = clusterQueue?.spec?.[cohortFieldOf(clusterQueue)];
  return typeof value === 'string' ? value : '';
}

/** The parent of a Cohort ('' when it is a root). The field is `spec.parentName` in both versions. */
export function parentNameOf(cohort: any): string {
  const value = cohort?.spec?.parentName;
  return typeof value === 'string' ? value : '';
}

/**
 * The names of the AdmissionChecks a ClusterQueue requires: v1beta1 lists them in
 * `spec.admissionChecks` (strings) or `spec.admissionChecksStrategy.admissionChecks` (`{name}`),
 * v1beta2 only in the latter.
 */
export function admissionCheckNamesOf(clusterQueue: any): string[] {
  const spec = clusterQueue?.spec ?? {};
  return [
    ...(isV1beta1(clusterQueue) && Array.isArray(spec.admissionChecks) ? spec.admissionChecks : []),
    ...(Array.isArray(spec.admissionChecksStrategy?.admissionChecks) ? spec.admissionChecksStrategy.admissionChecks.map((c: any) => c?.name) : []),
  ].filter((n): n is string => typeof n === 'string');
}

/**
 * The chain of cohorts from `start` up its parents (cohort name to parent name, '' for a root), and
 * where a cycle begins in it (-1: none; the name that closes the cycle ends `names`). A cohort with
 * no entry is a root, as Kueue makes a cohort it has no object of.
 */
export function cohortChain(start: string, parents: ReadonlyMap<string, string>): { readonly names: string[]; readonly cycleAt: number } {
  const names = [start];
  const seen = new Map([[start, 0]]);
  let parent = parents.get(start) ?? '';
  while (parent !== '') {
    const at = seen.get(parent);
    names.push(parent);
    if (at !== undefined) return { names, cycleAt: at };
    seen.set(parent, names.length - 1);
    parent = parents.get(parent) ?? '';
  }
  return { names, cycleAt: -1 };
}
