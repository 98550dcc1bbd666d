/**
 * Kueue objects (kueue.x-k8s.io/v1beta1, as Kueue v0.15.2 serves them) and jobs that name them,
 * as plain documents for the capacity and reference rules' tests.
 */
const API = 'kueue.x-k8s.io/v1beta1';

export interface Quota {
  readonly name: string;
  readonly nominalQuota: string | number;
  readonly borrowingLimit?: string | number;
  readonly lendingLimit?: string | number;
}

export function resourceFlavor(name: string, spec: object = {}): any {
  return { apiVersion: API, kind: 'ResourceFlavor', metadata: { name }, spec };
}

/** The documents, then a ResourceFlavor for each flavor their ClusterQueues name (an input that defines what it names). */
export function withNamedFlavors(docs: readonly any[]): any[] {
  // Each flavor in the version of the first queue that names it, so an input is all v1beta1 or all v1beta2.
  const named = new Map<string, string>();
  for (const d of docs) {
    if (d?.kind !== 'ClusterQueue') continue;
    for (const g of d.spec?.resourceGroups ?? []) for (const f of g?.flavors ?? []) if (!named.has(f?.name)) named.set(f?.name, d.apiVersion ?? API);
  }
  return [...docs, ...[...named].map(([name, apiVersion]) => ({ apiVersion, kind: 'ResourceFlavor', metadata: { name } }))];
}

/** A ClusterQueue with one resource group covering the resources of its first flavor. */
export function clusterQueue(name: string, flavors: Record<string, readonly Quota[]>, extra: object = {}): any {
  const first = Object.values(flavors)[0] ?? [];
  return {
    apiVersion: API,
    kind: 'ClusterQueue',
    metadata: { name },
    spec: {
      namespaceSelector: {},
      ...extra,
      resourceGroups: [{
        coveredResources: first.map(q => q.name),
        flavors: Object.entries(flavors).map(([flavor, resources]) => ({ name: flavor, resources })),
      }],
    },
  };
}

export function localQueue(namespace: string, name: string, cq: string): any {
  return { apiVersion: API, kind: 'LocalQueue', metadata: { name, namespace }, spec: { clusterQueue: cq } };
}

export function priorityClass(name: string, value = 1000): any {
  return { apiVersion: API, kind: 'WorkloadPriorityClass', metadata: { name }, value };
}

/** A PyTorchJob in `namespace` on `queue`, its roles' replicas and per-pod limits given. */
export function queuedJob(namespace: string, name: string, queue: string,
  roles: Record<string, { replicas: number; limits: Record<string, string | number> }>,
  labels: Record<string, string> = {}): any {
  const specs: Record<string, unknown> = {};
  for (const [role, { replicas, limits }] of Object.entries(roles)) {
    specs[role] = { replicas, template: { spec: { containers: [{ name: 'pytorch', image: 'registry.example.com/train:1.0', resources: { limits } }] } } };
  }
  return {
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name, namespace, labels: { 'kueue.x-k8s.io/queue-name': queue, ...labels } },
    spec: { pytorchReplicaSpecs: specs },
  };
}

export const GPU = 'nvidia.com/gpu';
