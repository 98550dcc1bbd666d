/**
 * The shape of one row of the kind table (kind-table.ts): what the library knows of a kind it
 * writes or reads, said once. Every other layer derives from these rows: the constructs' kind and
 * API version, the document rules' dispatch, the Kueue rules' lists, `convert` and `plan`. What a
 * rule judges about a kind (its integer fields, its name format, its own checks) stays with the
 * rule and is keyed by the row.
 */

/** The upstream project that serves a kind, and the family of this library that writes it. */
export type KindFamily = 'training-operator' | 'trainer' | 'notebooks' | 'kueue';

/** The typed class of `imports/` generated from the kind's pinned CRD. */
export interface L1Class {
  /** The module of `imports/` that holds it. */
  readonly module: 'kubeflow' | 'trainer' | 'notebooks' | 'kueue';
  /** Its class name there (`JaxJob` for the JAXJob). */
  readonly className: string;
}

/**
 * How Kueue queues a kind: whether it makes a Workload for a job of the kind and how it counts
 * its pod sets, or why it does not.
 */
export type KueueQueueing =
  /** One pod set per replica type of a v1 job, of `replicas` pods (1 when unset). */
  | { readonly podSets: 'replica-types' }
  /** One pod set per replicated job of the JobSet the Trainer builds from the job's runtime. */
  | { readonly podSets: 'replicated-jobs' }
  /** Kueue makes no Workload for the kind; `why` is the reason alone, as the constructs' messages lead with it. */
  | { readonly notQueued: string };

/** A kind the library writes or reads. */
export interface KindFacts {
  readonly family: KindFamily;
  /** The API group (`kubeflow.org`). */
  readonly group: string;
  /**
   * The versions whose documents the library reads, oldest first; the last is the one it writes
   * (Kueue's objects: `v1beta1` read by `lint`, `v1beta2` written).
   */
  readonly versions: readonly string[];
  readonly kind: string;
  /** False for a cluster-scoped kind. */
  readonly namespaced: boolean;
  /** The typed class of `imports/`, when the kind's CRD is pinned. */
  readonly l1?: L1Class;
  /** The L2 construct the package exports for the kind, by class name; undefined when it has none (MXJob). */
  readonly l2?: string;
  /** Whether and how Kueue queues a job of the kind; undefined for what is not a job. */
  readonly kueue?: KueueQueueing;
}

/** A replica type of a v1 job and the props of its construct that make it (what `convert` reads back). */
export interface ReplicaRole {
  /** The replica type, as the operator spells it. */
  readonly type: string;
  /** The construct's prop of its role options (`master`, `worker`, `parameterServer`, ...). */
  readonly options: string;
  /**
   * The prop of its pod count and the construct's default count, for a role of any count; a role
   * without one has exactly one pod and is made by its options prop (`chief: {}`).
   */
  readonly count?: { readonly prop: string; readonly default: number; readonly min: number };
  /** The job cannot be said without this role (the construct always makes it). */
  readonly required?: boolean;
  /** The role exists only when its options prop is given (`chief: {}`); otherwise the construct makes it by itself. */
  readonly madeByOptions?: boolean;
}

/**
 * A Training Operator v1 job (kubeflow.org/v1), as the operator's types, defaults and controllers
 * (release-1.9, pkg/apis/kubeflow.org/v1 and pkg/controller.v1) and this library's construct see it.
 */
export interface V1JobFacts extends KindFacts {
  readonly family: 'training-operator';
  /** The spec field that maps replica types to replica specs (`spec.<key>`). */
  readonly replicaKey: string;
  /** The replica types the operator knows, spelled exactly (`<kind>_types.go`). */
  readonly replicaTypes: readonly string[];
  /** The container the operator looks for (`<Kind>DefaultContainerName`). */
  readonly container: string;
  /**
   * The spec field that names the container instead, when the kind has one (the MPIJob's
   * `mainContainer`): the operator then requires no container of the default name.
   */
  readonly containerField?: string;
  /** The port the operator adds to that container (`<Kind>DefaultPort`, `<Kind>DefaultPortName`), when the kind has one. */
  readonly port?: { readonly name: string; readonly number: number };
  /** `<Kind>DefaultRestartPolicy`. */
  readonly restartPolicy: 'Never' | 'OnFailure';
  /** The replicas `SetDefaults_<Kind>` gives a replica spec that has none, where not 1. */
  readonly defaultReplicas?: { readonly [replicaType: string]: number };
  /** Environment the operator sets in the pods (pkg/controller.v1/<kind>/envvar.go and friends). */
  readonly injectedEnv: RegExp;
  /**
   * Which containers receive the injected environment: every container of every replica, only the
   * framework container (TF_CONFIG), or every container of the launcher (MPI).
   */
  readonly envTarget: 'all' | 'framework' | 'launcher';
  /** The replica types as the construct's props make them, in the order it writes them; empty without a construct. */
  readonly roles: readonly ReplicaRole[];
  /**
   * When the construct writes `runPolicy.cleanPodPolicy: Running` by itself (pods that outlive the
   * job: TF parameter servers and evaluators, idle MPI workers): always, or when the job has one of
   * these replica types; undefined when never.
   */
  readonly cleansRunningPods?: 'always' | readonly string[];
}

/** The `apiVersion` the library writes for a kind. */
export function apiVersionOf(facts: KindFacts): string {
  return `${facts.group}/${facts.versions[facts.versions.length - 1]}`;
}

/** Every `apiVersion` of a kind the library reads, oldest first. */
export function apiVersionsOf(facts: KindFacts): string[] {
  return facts.versions.map(v => `${facts.group}/${v}`);
}

/** Whether a document is of the kind, in a version the library reads. */
export function isDocumentOf(doc: any, facts: KindFacts): boolean {
  return doc?.kind === facts.kind && typeof doc.apiVersion === 'string' && apiVersionsOf(facts).includes(doc.apiVersion);
}

/** Whether Kueue makes a Workload for a job of the kind. */
export function isKueueQueued(facts: KindFacts): boolean {
  return facts.kueue !== undefined && 'podSets' in facts.kueue;
}
