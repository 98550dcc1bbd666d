/**
 * A Topology Aware Scheduling slice no larger than the pods it slices. Kueue's webhooks refuse a
 * `kueue.x-k8s.io/podset-slice-size` annotation above the pod count of its podset (sigs.k8s.io/kueue
 * v0.15.2 pkg/controller/jobframework/tas_validation.go ValidateSliceSizeAnnotationUpperBound): for
 * the v1 jobs Kueue manages (kubeflowjob_controller.go ValidateOnCreate, where a replica type's pods
 * are its `replicas`, 1 when unset) and for TrainJobs (trainjob_webhook.go validateTopologyRequest,
 * where each replicated job of the JobSet Trainer builds is a podset of replicas times its pods per
 * Job). A TrainJob's counts need its runtime, so that half runs with the runtime rules
 * (trainer/trainjob-runtime.ts), where the runtime is known. Whether the annotation is a number at
 * all is kueue/topology's.
 */
import { isKueueQueued } from '../../kinds/kind';
import { V1_JOBS } from '../../kinds/training-operator';
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';

export const KUEUE_SLICE_SIZE = new Rule('kueue', 'kueue/slice-size', 'scheduling',
  'kueue v0.15.2 pkg/controller/jobframework/tas_validation.go ValidateSliceSizeAnnotationUpperBound (a slice no larger than its podset: a v1 replica type, or a replicated job of the JobSet a TrainJob builds)',
  'a slice is no larger than the pods of its podset');

export const KUEUE_SLICE_RULES = [KUEUE_SLICE_SIZE];

export const SLICE_SIZE_ANNOTATION = 'kueue.x-k8s.io/podset-slice-size';

/**
 * The v1 kinds Kueue v0.15.2 manages (pkg/controller/jobs/kubeflow/jobs): its webhook checks their
 * slices. The kind table's v1 jobs Kueue queues.
 */
const KUEUE_V1_KINDS = V1_JOBS.filter(isKueueQueued).map(k => k.kind);

/** The slice size written in `annotations`, when it is a whole number Go's ParseInt reads (else kueue/topology reports it). */
export function sliceSizeOf(annotations: unknown): number | undefined {
  const value = (annotations as any)?.[SLICE_SIZE_ANNOTATION];
  if (typeof value !== 'string' || !/^[+-]?\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= 2147483647 ? n : undefined;
}

const podsText = (n: number) => `${n} pod${n === 1 ? '' : 's'}`;

/** Checks the slice size of each replica type of a v1 job (`specs` is its replica map, at `at`). */
export function checkReplicaSlices(kind: string, specs: unknown, at: string, out: Finding[]): void {
  if (!KUEUE_V1_KINDS.includes(kind) || typeof specs !== 'object' || specs === null) return;
  for (const [type, spec] of Object.entries(specs as Record<string, any>)) {
    const size = sliceSizeOf(spec?.template?.metadata?.annotations);
    if (size === undefined) continue;
    const replicas = spec?.replicas ?? 1;
    if (typeof replicas !== 'number' || size <= replicas) continue;
    KUEUE_SLICE_SIZE.report(out, child(child(child(child(child(at, type), 'template'), 'metadata'), 'annotations'), SLICE_SIZE_ANNOTATION), String(size),
      `expected at most ${replicas}, the ${type} replicas (${podsText(replicas)}): Kueue refuses a slice larger than its podset`);
  }
}

/** One replicated job of the JobSet a TrainJob builds: its name, pods in all, and where its slice size was written. */
export interface BuiltPodSet {
  readonly job: string;
  readonly pods: number;
  readonly sliceSize: number;
  /** The field that set the slice size (a runtime patch of the TrainJob), or undefined when the runtime did. */
  readonly patchedAt?: string;
}

/** What is wrong with one podset of a TrainJob's JobSet, as [field, value, allowed], or undefined. */
export function trainJobSliceProblem(set: BuiltPodSet, runtime: string): readonly [string, unknown, string] | undefined {
  if (set.sliceSize <= set.pods) return undefined;
  const allowed = `expected a ${SLICE_SIZE_ANNOTATION} of at most ${set.pods}: the "${set.job}" job of the JobSet built for this TrainJob has ${podsText(set.pods)}, `
    + `and Kueue refuses a slice larger than its podset (the slice size ${set.sliceSize} comes from ${set.patchedAt === undefined ? `the runtime ${runtime}` : 'this runtime patch'})`;
  return set.patchedAt !== undefined ? [set.patchedAt, String(set.sliceSize), allowed] : ['spec.runtimeRef.name', runtime, allowed];
}
