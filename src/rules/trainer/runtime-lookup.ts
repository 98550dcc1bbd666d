/*
 * Which runtime a TrainJob document names, as the Trainer v2.3 controller finds it: `runtimeRef.kind`
 * defaults to ClusterTrainingRuntime (the CRD's default), and a TrainingRuntime is looked up only in
 * the job's namespace. Shared by the app rule that checks a job against its runtime and by `plan`,
 * which counts a job's pods through it.
 */
import { TRAINER_GROUP } from './names';
import { CLUSTER_TRAINING_RUNTIME, TRAINING_RUNTIME, TRAIN_JOB } from '../../kinds/trainer';

export const CLUSTER_RUNTIME = CLUSTER_TRAINING_RUNTIME.kind;
const RUNTIME_KINDS = [CLUSTER_RUNTIME, TRAINING_RUNTIME.kind];

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const groupOf = (doc: any) => text(doc?.apiVersion).split('/')[0];

/** `Kind namespace/name`, or `Kind name` for a cluster-scoped runtime: one runtime's identity. */
export function runtimeIdentity(kind: string, namespace: string, name: string): string {
  return `${kind} ${kind === CLUSTER_RUNTIME ? '' : `${namespace}/`}${name}`;
}

/** Whether a document is a Trainer v2 TrainJob. */
export function isTrainJob(doc: any): boolean {
  return doc?.kind === TRAIN_JOB.kind && groupOf(doc) === TRAINER_GROUP;
}

/** Whether a document is a Trainer v2 TrainingRuntime or ClusterTrainingRuntime. */
export function isTrainerRuntime(doc: any): boolean {
  return RUNTIME_KINDS.includes(doc?.kind) && groupOf(doc) === TRAINER_GROUP;
}

/** A runtime document's identity, in the form `runtimeKeyOf` gives for the job that names it. */
export function runtimeKey(runtime: any): string {
  return runtimeIdentity(text(runtime?.kind), text(runtime?.metadata?.namespace), text(runtime?.metadata?.name));
}

/** The runtime a TrainJob names: its kind, its name and the identity the controller looks up. */
export interface RuntimeReference {
  readonly kind: string;
  readonly name: string;
  readonly key: string;
}

/** The runtime a TrainJob document names; undefined when it names none. */
export function runtimeReferenceOf(job: any): RuntimeReference | undefined {
  const ref = job?.spec?.runtimeRef;
  if (typeof ref?.name !== 'string') return undefined;
  const kind = typeof ref.kind === 'string' ? ref.kind : CLUSTER_RUNTIME;
  return runtimeReference(kind, ref.name, text(job.metadata?.namespace));
}

/** The runtime of that kind and name, as a job in `namespace` names it. */
export function runtimeReference(kind: string, name: string, namespace: string): RuntimeReference {
  return { kind, name, key: runtimeIdentity(kind, namespace, name) };
}
