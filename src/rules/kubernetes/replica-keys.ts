/**
 * The field of each Kubeflow v1 training job's spec that maps replica types to replica specs
 * (`spec.<key>`), by kind, read from the kind table (src/kinds/training-operator.ts). Its own
 * module because the job constructs need it when they render while the document rules
 * (documents.ts and the rest of this folder) are loaded only when a synth runs them.
 */
import { V1_JOBS } from '../../kinds/training-operator';

export const TRAINING_JOB_REPLICA_KEYS: Readonly<Record<string, string>> = Object.fromEntries(V1_JOBS.map(k => [k.kind, k.replicaKey]));
