/**
 * What the training operator (kubeflow/training-operator release-1.9, kubeflow.org/v1) expects of
 * each job kind, as the document rules read it: the replica map, the replica types it knows,
 * the container it looks for, and the environment it injects. The rows are the kind table's
 * (src/kinds/training-operator.ts); MXJob's is v1.8.1's (the kind was removed in v1.9).
 */
import { apiVersionOf } from '../../kinds/kind';
import { V1_JOBS } from '../../kinds/training-operator';

export interface TrainingKindFacts {
  readonly kind: string;
  /** The spec field that maps replica types to replica specs. */
  readonly replicaKey: string;
  /** The replica types the operator knows, spelled exactly (pkg/apis/kubeflow.org/v1 *_types.go). */
  readonly replicaTypes: readonly string[];
  /**
   * The container the operator looks for (DefaultContainerName); MPI's is `spec.mainContainer` and
   * is not required, so it is undefined here.
   */
  readonly container?: string;
  /** Environment the operator sets in the pods (pkg/controller.v1/<kind>/envvar.go and friends). */
  readonly injectedEnv: RegExp;
  /**
   * Which containers receive the injected environment: every container of every replica, only the
   * framework container (TF_CONFIG), or every container of the launcher (MPI).
   */
  readonly envTarget: 'all' | 'framework' | 'launcher';
  /**
   * The port the operator's defaults add to the framework container when no port has its name
   * (SetDefaults_<Kind>), which its headless Services then carry; undefined for MPI, which adds none.
   */
  readonly port?: { readonly name: string; readonly number: number };
}

export const TRAINING_KINDS: Readonly<Record<string, TrainingKindFacts>> = Object.fromEntries(V1_JOBS.map(k => [k.kind, {
  kind: k.kind,
  replicaKey: k.replicaKey,
  replicaTypes: k.replicaTypes,
  ...(k.containerField === undefined ? { container: k.container } : {}),
  injectedEnv: k.injectedEnv,
  envTarget: k.envTarget,
  ...(k.port !== undefined ? { port: k.port } : {}),
}]));

/** The apiVersion of every v1 job. */
const V1_API_VERSION = apiVersionOf(V1_JOBS[0]);

/** The facts of a kubeflow.org/v1 training job document, or undefined for any other document. */
export function trainingKindOf(doc: any): TrainingKindFacts | undefined {
  if (doc?.apiVersion !== V1_API_VERSION || typeof doc.kind !== 'string') return undefined;
  return Object.prototype.hasOwnProperty.call(TRAINING_KINDS, doc.kind) ? TRAINING_KINDS[doc.kind] : undefined;
}

/** The replica count as the operator reads it: `replicas`, 1 when unset (SetDefaults_*). */
export function replicasOf(spec: any): number {
  const r = spec?.replicas;
  return typeof r === 'number' && Number.isInteger(r) ? r : 1;
}

/** The replica specs of a job that are objects, in document order. */
export function replicaSpecs(doc: any, facts: TrainingKindFacts): Array<[string, any]> {
  const specs = doc?.spec?.[facts.replicaKey];
  if (typeof specs !== 'object' || specs === null || Array.isArray(specs)) return [];
  return Object.entries(specs).filter(([, s]) => typeof s === 'object' && s !== null && !Array.isArray(s));
}
