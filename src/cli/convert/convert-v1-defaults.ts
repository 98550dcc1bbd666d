/**
 * The differences `convert` accepts between a v1 job as written and what its L2 construct writes,
 * and no others: fields the input leaves out that upstream's own defaulting fills in, with the value
 * the construct writes, so the job the operator runs (and the pods it makes) is the same either way.
 * The mapper compares the input and its prediction of the construct's output after these defaults,
 * and the round-trip test compares the input and the synthesized job the same way.
 *
 * - The Training Operator v1.9.4 (pkg/apis/kubeflow.org/v1, `SetDefaults_<Kind>`, which the
 *   controller applies to every job it reconciles): `runPolicy.cleanPodPolicy` None, a PyTorchJob's
 *   `nprocPerNode` "auto" (`setDefaultNprocPerNode`, when the elastic policy names none), a replica
 *   spec's `replicas` (1; the MPI Worker 0) and `restartPolicy` (the kind's default), and the kind's
 *   port on its container when no port of that name is there (`setDefaultPort`); the MPI
 *   launcher pod's service account `<job>-launcher` when its template names none
 *   (pkg/controller.v1/mpi, `newLauncher`).
 * - Kubernetes 1.34 on the pods the operator creates (pkg/apis/core/v1/defaults.go
 *   `SetDefaults_Pod`): a container's request for a resource that has only a limit is the limit.
 * - Kubernetes reads a quantity written as a number and as a string alike (`resource.Quantity`),
 *   a pod template's `metadata: {}` like none (`PodTemplateSpec.ObjectMeta` is a struct), and a
 *   claim volume's or a volume mount's `readOnly: false` like none (plain bools in
 *   `PersistentVolumeClaimVolumeSource` and `VolumeMount`), and an emptyDir's `sizeLimit` in Gi
 *   like the same size in Mi (`resource.Quantity`; cdk8s-plus writes sizes in Mi).
 */
import { apiVersionOf } from '../../kinds/kind';
import { V1_JOBS } from '../../kinds/training-operator';
import { isObject as isMap } from '../../rules/kubernetes/names';
import { TRAINING_JOB_REPLICA_KEYS } from '../../rules/kubernetes/replica-keys';

/** What `SetDefaults_<Kind>` of the Training Operator v1.9.4 fills in, per kind (`<kind>_types.go` constants). */
export interface OperatorDefaults {
  /** The container the operator looks for (`<Kind>DefaultContainerName`). */
  readonly containerName: string;
  /** The port it adds to that container, when the kind has one (`<Kind>DefaultPort`, `<Kind>DefaultPortName`). */
  readonly port?: { readonly name: string; readonly number: number };
  /** `<Kind>DefaultRestartPolicy`. */
  readonly restartPolicy: string;
  /** The replicas of a replica spec that has none, when not 1. */
  readonly replicas?: { readonly [replicaType: string]: number };
}

/** The apiVersion of every v1 job. */
const V1_API_VERSION = apiVersionOf(V1_JOBS[0]);

/** The defaults of the kinds `convert` maps to a construct, from the kind table (src/kinds/training-operator.ts). */
export const OPERATOR_DEFAULTS: { readonly [kind: string]: OperatorDefaults } = Object.fromEntries(
  V1_JOBS.filter(k => k.l2 !== undefined).map(k => [k.kind, {
    containerName: k.container,
    ...(k.port === undefined ? {} : { port: k.port }),
    restartPolicy: k.restartPolicy,
    ...(k.defaultReplicas === undefined ? {} : { replicas: k.defaultReplicas }),
  }]),
);

/**
 * A copy of a v1 job (kubeflow.org/v1, one of the kinds above) with the defaults above filled
 * in; any other object is returned as it is.
 */
export function withUpstreamDefaults(doc: any): any {
  const defaults = OPERATOR_DEFAULTS[doc?.kind];
  if (doc?.apiVersion !== V1_API_VERSION || defaults === undefined || !isMap(doc.spec)) return doc;
  const job = JSON.parse(JSON.stringify(doc));
  const spec = job.spec;
  // SetDefaults_MPIJob sets both fields when neither is set; the others set runPolicy's.
  if (doc.kind !== 'MPIJob' || spec.cleanPodPolicy === undefined) {
    if (!isMap(spec.runPolicy)) spec.runPolicy = {};
    if (spec.runPolicy.cleanPodPolicy === undefined) spec.runPolicy.cleanPodPolicy = 'None';
  }
  if (doc.kind === 'PyTorchJob' && spec.nprocPerNode === undefined && spec.elasticPolicy?.nProcPerNode === undefined) spec.nprocPerNode = 'auto';
  const replicaSpecs = spec[TRAINING_JOB_REPLICA_KEYS[doc.kind]];
  if (!isMap(replicaSpecs)) return job;
  for (const [type, replicaSpec] of Object.entries(replicaSpecs)) {
    if (!isMap(replicaSpec)) continue;
    if (replicaSpec.replicas === undefined) replicaSpec.replicas = defaults.replicas?.[type] ?? 1;
    if (replicaSpec.restartPolicy === undefined) replicaSpec.restartPolicy = defaults.restartPolicy;
    const template = replicaSpec.template;
    if (!isMap(template)) continue;
    if (doc.kind === 'MPIJob' && type === 'Launcher' && isMap(template.spec) && template.spec.serviceAccountName === undefined
      && typeof doc.metadata?.name === 'string') {
      template.spec.serviceAccountName = `${doc.metadata.name}-launcher`;
    }
    if (isMap(template.metadata) && Object.keys(template.metadata).length === 0) delete template.metadata;
    const containers: unknown[] = Array.isArray(template.spec?.containers) ? template.spec.containers : [];
    if (defaults.port !== undefined && containers.length > 0) {
      // getDefaultContainerIndex: the container of the default name, else the first.
      const named = containers.findIndex(c => isMap(c) && c.name === defaults.containerName);
      const container = containers[named < 0 ? 0 : named];
      if (isMap(container)) {
        const ports = Array.isArray(container.ports) ? container.ports : [];
        if (!ports.some(p => isMap(p) && p.name === defaults.port!.name)) {
          container.ports = [...ports, { containerPort: defaults.port.number, name: defaults.port.name }];
        }
      }
    }
    const initContainers: unknown[] = Array.isArray(template.spec?.initContainers) ? template.spec.initContainers : [];
    for (const c of [...containers, ...initContainers]) {
      if (isMap(c) && isMap(c.resources)) defaultRequests(c.resources);
      for (const m of isMap(c) && Array.isArray(c.volumeMounts) ? c.volumeMounts : []) if (isMap(m) && m.readOnly === false) delete m.readOnly;
    }
    for (const v of Array.isArray(template.spec?.volumes) ? template.spec.volumes : []) {
      if (isMap(v?.persistentVolumeClaim) && v.persistentVolumeClaim.readOnly === false) delete v.persistentVolumeClaim.readOnly;
      // cdk8s-plus writes an emptyDir's size in Mi: 64Gi and 65536Mi are one quantity to Kubernetes.
      const gi = isMap(v?.emptyDir) ? /^([1-9]\d*)Gi$/.exec(String(v.emptyDir.sizeLimit)) : null;
      if (gi !== null) v.emptyDir.sizeLimit = `${Number(gi[1]) * 1024}Mi`;
    }
  }
  return job;
}

/** Requests from limits for what has a limit only, and every quantity as a string. */
function defaultRequests(resources: { [key: string]: any }): void {
  const asString = (amounts: unknown) => (isMap(amounts)
    ? Object.fromEntries(Object.entries(amounts).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]))
    : amounts);
  if (isMap(resources.limits)) resources.limits = asString(resources.limits);
  if (isMap(resources.requests)) resources.requests = asString(resources.requests);
  if (isMap(resources.limits)) resources.requests = { ...resources.limits, ...isMap(resources.requests) ? resources.requests : {} };
}
