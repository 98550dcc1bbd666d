/**
 * What one pod requests, as Kueue v0.15.2 counts it for a Workload's podset: the one pod
 * arithmetic of the library. The capacity rules (capacity-podsets.ts, capacity-queues.ts), the
 * TrainJob placement rule and every table of `plan` (its jobs, queues, namespaces and quota view)
 * read a pod through `podRequests`, so they cannot disagree on what a pod asks for.
 *
 * Kueue first adjusts each podset's template (pkg/workload/resources.go AdjustResources): a
 * container's missing request is its limit (UseLimitsAsMissingRequestsInPod), for init containers
 * and containers alike. It then totals the pod with Kubernetes' PodRequests
 * (k8s.io/component-helpers v0.34.2 resource, called with no options from pkg/workload
 * totalRequestsFromPodSets):
 *
 * - the containers' sum, plus the sidecars (init containers with `restartPolicy: Always`);
 * - or, per resource, the largest regular init container with the sidecars started before it,
 *   whichever is larger;
 * - pod-level requests (`spec.resources.requests` of cpu, memory and hugepages-*) replace the
 *   containers' total of that resource (pod-level limits are not read, nor turned into requests);
 * - plus the pod's `overhead`.
 *
 * What Kueue adds from the cluster rather than the manifest is not counted: a LimitRange's container
 * defaults (handlePodLimitRange) and a RuntimeClass's overhead when the pod names one without
 * `overhead` (handlePodOverhead) are objects the library does not write, and Kueue's configured
 * resource transformations and excluded prefixes live in its own configuration.
 */
import { resourceValue } from './capacity-amounts';
import { isObject } from '../kubernetes/names';

/** What Kueue requests per pod, by resource name (CPU in millicores, every other resource in whole units). */
export type Requests = ReadonlyMap<string, bigint>;

const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/** A resource list's values as Kueue counts them; entries that are not quantities are left out (the schema rule reports them). */
function values(resources: unknown): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (!isObject(resources)) return out;
  for (const [name, q] of Object.entries(resources)) {
    const value = resourceValue(name, q);
    if (value !== undefined) out.set(name, value);
  }
  return out;
}

/** What one container requests, its limit standing in for a missing request. */
export function containerRequests(container: any): Map<string, bigint> {
  const requests = values(container?.resources?.requests);
  for (const [name, v] of values(container?.resources?.limits)) if (!requests.has(name)) requests.set(name, v);
  return requests;
}

/** Whether a resource may be requested at pod level (IsSupportedPodLevelResource). */
const podLevel = (name: string) => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');

/** What one pod of the spec requests (PodRequests: containers, sidecars, init containers, pod-level requests, overhead). */
export function podRequests(spec: any): Map<string, bigint> {
  let requests = new Map<string, bigint>();
  for (const c of list(spec?.containers)) requests = sumRequests(requests, containerRequests(c));
  let sidecars = new Map<string, bigint>();
  let inits = new Map<string, bigint>();
  for (const c of list(spec?.initContainers)) {
    const own = containerRequests(c);
    let during: Map<string, bigint>;
    if (c?.restartPolicy === 'Always') {
      sidecars = sumRequests(sidecars, own);
      during = sidecars;
    } else {
      during = sumRequests(own, sidecars);
    }
    inits = largest(inits, during);
  }
  requests = largest(sumRequests(requests, sidecars), inits);
  for (const [name, v] of values(spec?.resources?.requests)) if (podLevel(name)) requests.set(name, v);
  return sumRequests(requests, values(spec?.overhead));
}

/** a + b, per resource. */
export function sumRequests(a: Requests, b: Requests): Map<string, bigint> {
  const out = new Map(a);
  for (const [name, v] of b) out.set(name, (out.get(name) ?? BigInt(0)) + v);
  return out;
}

/** The larger of a and b, per resource. */
function largest(a: Requests, b: Requests): Map<string, bigint> {
  const out = new Map(a);
  for (const [name, v] of b) if (!out.has(name) || out.get(name)! < v) out.set(name, v);
  return out;
}
