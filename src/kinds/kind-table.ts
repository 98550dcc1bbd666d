/**
 * The kind table: every kind the library writes or reads, one row each (the rows are in the
 * family modules beside this one), and the lookups the other layers use. Nothing else lists
 * kinds: a new kind is a row, and the document rules, the Kueue lists, `convert` and `plan` follow.
 */
import { KindFacts, V1JobFacts, apiVersionsOf, isKueueQueued } from './kind';
import { KUEUE_KINDS } from './kueue';
import { NOTEBOOK_KINDS } from './notebooks';
import { TRAINER_KINDS } from './trainer';
import { V1_JOBS } from './training-operator';

/** Every kind, family by family: the v1 jobs, the notebooks, the Trainer, Kueue. */
export const KINDS: readonly KindFacts[] = [...V1_JOBS, ...NOTEBOOK_KINDS, ...TRAINER_KINDS, ...KUEUE_KINDS];

const BY_API_VERSION_KIND = new Map(KINDS.flatMap(k => apiVersionsOf(k).map(v => [`${v} ${k.kind}`, k] as const)));
const V1_BY_KIND = new Map(V1_JOBS.map(k => [k.kind, k]));

/** The row of a document's `apiVersion` and `kind`, in any version the library reads. */
export function kindOf(doc: any): KindFacts | undefined {
  return typeof doc?.apiVersion === 'string' && typeof doc.kind === 'string' ? BY_API_VERSION_KIND.get(`${doc.apiVersion} ${doc.kind}`) : undefined;
}

/** The v1 job row of a kind name (`JAXJob`), whatever the document's group. */
export function v1JobNamed(kind: string | undefined): V1JobFacts | undefined {
  return kind === undefined ? undefined : V1_BY_KIND.get(kind);
}

/** The kinds Kueue makes a Workload for (its webhook checks their queue name and slices). */
export const KUEUE_QUEUED_KINDS: readonly KindFacts[] = KINDS.filter(isKueueQueued);
