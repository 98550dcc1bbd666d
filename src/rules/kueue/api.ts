/**
 * How the rules read Kueue documents of both served versions: `kueue.x-k8s.io/v1beta1` (what
 * older GitOps repositories hold; Kueue v0.20 and later do not serve it) and `v1beta2` (served
 * from v0.15, stored from v0.16). The two differ, for what the rules read, in a ClusterQueue's
 * cohort (`spec.cohort` became `spec.cohortName`) and its admission checks (`spec.admissionChecks`,
 * a list of names, moved under `spec.admissionChecksStrategy.admissionChecks`, a list of rules
 * with a name each; v1beta1 had the strategy form too). Every Kueue rule reads documents through
 * these helpers, so that lint judges old input and new input alike.
 */
import { isObject } from '../kubernetes/names';

export const KUEUE_GROUP = 'kueue.x-k8s.io';

/** The Kueue versions the rules read. */
export const KUEUE_VERSIONS: readonly string[] = [`${KUEUE_GROUP}/v1beta1`, `${KUEUE_GROUP}/v1beta2`];

/** Whether `doc` is a Kueue object of a version the rules read (of `kind`, when given). */
export function isKueueDocument(doc: any, kind?: string): boolean {
  return KUEUE_VERSIONS.includes(doc?.apiVersion) && typeof doc?.kind === 'string' && (kind === undefined || doc.kind === kind);
}

/** The name of the cohort a ClusterQueue belongs to (v1beta2 `spec.cohortName`, v1beta1 `spec.cohort`); undefined when it names none. */
export function cohortNameOf(clusterQueue: any): string | undefined {
  const spec = clusterQueue?.spec;
  if (!isObject(spec)) return undefined;
  const name = clusterQueue.apiVersion === `${KUEUE_GROUP}/v1beta1` ? spec.cohort : spec.cohortName;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * The admission checks a ClusterQueue names, in order: v1beta1's `spec.admissionChecks` (names),
 * then the strategy's rules (`spec.admissionChecksStrategy.admissionChecks[].name`, both versions).
 */
export function admissionCheckNamesOf(clusterQueue: any): string[] {
  const spec = clusterQueue?.spec;
  if (!isObject(spec)) return [];
  const names: unknown[] = [
    ...Array.isArray(spec.admissionChecks) ? spec.admissionChecks : [],
    ...Array.isArray(spec.admissionChecksStrategy?.admissionChecks) ? spec.admissionChecksStrategy.admissionChecks.map((c: any) => c?.name) : [],
  ];
  return names.filter((n): n is string => typeof n === 'string');
}
