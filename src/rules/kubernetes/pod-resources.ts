/**
 * Resources beyond one container's requests and limits: the pod's own `resources`
 * (`validatePodResources` and `validatePodResourceConsistency`, PodLevelResources beta and on in
 * 1.34), the containers' `resizePolicy` (`validateResizePolicy`) and dynamic resource claims
 * (`validatePodResourceClaims`, `validateResourceClaimNames`; DRA is GA in 1.34), as
 * k8s.io/kubernetes/pkg/apis/core/validation checks them.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed, named } from './field-path';
import { DNS1123_LABEL_TEXT, DNS1123_SUBDOMAIN_TEXT, isDns1123Label, isDns1123Subdomain, isObject } from './names';
import { Quantity, compareQuantities, parseQuantity } from './quantity';
import { ParsedResources, checkResources } from './resources';

const F = 'resources';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const POD_RESOURCES = new Rule('kubernetes', 'kubernetes/pod-resources', F,
  `${SOURCE} validatePodResources and validatePodResourceConsistency (cpu, memory and huge pages; at least the containers' requests, no container limit above the pod's)`,
  'a pod\'s own resources name cpu, memory or huge pages only, carry no claims, request at least what the containers request together, and no container limit is above the pod\'s');
export const RESIZE_POLICY = new Rule('kubernetes', 'kubernetes/resize-policy', F,
  `${SOURCE} validateResizePolicy (cpu or memory once each, NotRequired or RestartContainer, NotRequired when the pod's restartPolicy is Never)`,
  'a resize policy names cpu or memory once each with NotRequired or RestartContainer, and NotRequired when the pod never restarts');
export const RESOURCE_CLAIMS = new Rule('kubernetes', 'kubernetes/resource-claims', F,
  `${SOURCE} validatePodResourceClaims and validateResourceClaimNames (named once, one source, containers name a claim of the pod)`,
  'pod resource claims are DNS labels, unique, with one of resourceClaimName or resourceClaimTemplateName');

export const POD_RESOURCE_RULES = [POD_RESOURCES, RESIZE_POLICY, RESOURCE_CLAIMS];

/**
 * Checks the pod's own resources against its regular containers (their requests summed, each
 * limit). A pod's aggregate request is at least the sum of its regular containers' requests, so
 * a pod request below that sum is refused whatever the init containers ask.
 */
export function checkPodResources(spec: Record<string, any>, at: string, out: Finding[]): void {
  const resources = spec.resources;
  if (!isObject(resources)) return;
  const resAt = child(at, 'resources');
  if (isObject(spec.os) && spec.os.name === 'windows') {
    POD_RESOURCES.report(out, resAt, resources, 'expected not set on a windows pod');
    return;
  }
  if (resources.claims !== undefined && resources.claims !== null) {
    POD_RESOURCES.report(out, child(resAt, 'claims'), resources.claims, 'expected not set: claims go on the containers\' resources, not the pod\'s');
  }
  const pod = checkResources(resources, resAt, out, true);
  const containers: unknown[] = Array.isArray(spec.containers) ? spec.containers : [];
  const sums = new Map<string, Quantity>();
  containers.forEach((c, i) => {
    if (!isObject(c) || !isObject(c.resources)) return;
    const parsed = quantities(c.resources);
    for (const [name, q] of parsed.requests) sums.set(name, add(sums.get(name), q));
    for (const [name, limit] of parsed.limits) {
      const podLimit = pod.limits.get(name);
      if (podLimit !== undefined && compareQuantities(limit, podLimit) > 0) {
        POD_RESOURCES.report(out, child(child(child(named(child(at, 'containers'), c, i), 'resources'), 'limits'), name), c.resources.limits[name],
          `expected at most the pod's limit ${String(resources.limits[name])}`);
      }
    }
  });
  for (const [name, podRequest] of pod.requests) {
    const sum = sums.get(name);
    if (sum !== undefined && compareQuantities(sum, podRequest) > 0) {
      POD_RESOURCES.report(out, child(child(resAt, 'requests'), name), resources.requests[name],
        `expected at least the containers' requests of ${name} together (${show(sum)})`);
    }
  }
}

/**
 * The parseable requests and limits of a container, without reporting (its own checks do). A
 * limit without a request is the request too: the pod's v1 defaults (SetDefaults_Pod) copy it
 * before the pod is validated, so it counts toward the containers' requests together.
 */
function quantities(resources: Record<string, any>): ParsedResources {
  const read = (list: unknown) => {
    const m = new Map<string, Quantity>();
    if (isObject(list)) for (const k in list) { const q = parseQuantity(list[k]); if (q !== undefined) m.set(k, q); }
    return m;
  };
  const requests = read(resources.requests);
  const limits = read(resources.limits);
  const explicit = isObject(resources.requests) ? resources.requests : {};
  for (const [name, limit] of limits) if (!(name in explicit)) requests.set(name, limit);
  return { requests, limits };
}

function add(a: Quantity | undefined, b: Quantity): Quantity {
  if (a === undefined) return b;
  // Exact sum on a common scale.
  const e10 = Math.min(a.exp10, b.exp10);
  const e2 = Math.min(a.exp2, b.exp2);
  const scaled = (q: Quantity) => {
    const v = q.digits * BigInt(10) ** BigInt(q.exp10 - e10) * BigInt(2) ** BigInt(q.exp2 - e2);
    return q.negative ? -v : v;
  };
  const sum = scaled(a) + scaled(b);
  const negative = sum < BigInt(0);
  const digits = negative ? -sum : sum;
  return { approx: a.approx + b.approx, negative, digits, exp10: e10, exp2: e2 };
}

function show(q: Quantity): string {
  // The sum as a plain number: exact for the whole and milli values requests use.
  return Number.isInteger(q.approx) ? String(q.approx) : String(Math.round(q.approx * 1000) / 1000);
}

const RESIZE_RESOURCES = new Set(['cpu', 'memory']);
const RESIZE_RESTARTS = new Set(['NotRequired', 'RestartContainer']);

/** Checks a container's `resizePolicy` at `at`; `podRestartPolicy` is the pod's (Always when not set). */
export function checkResizePolicy(policies: unknown, at: string, podRestartPolicy: unknown, out: Finding[]): void {
  if (!Array.isArray(policies)) return;
  const seen = new Set<unknown>();
  policies.forEach((p, i) => {
    if (!isObject(p)) return;
    const pAt = indexed(at, i);
    if (!RESIZE_RESOURCES.has(p.resourceName)) {
      RESIZE_POLICY.report(out, child(pAt, 'resourceName'), p.resourceName, 'expected "cpu" or "memory"');
    } else if (seen.has(p.resourceName)) {
      RESIZE_POLICY.report(out, child(pAt, 'resourceName'), p.resourceName, 'expected each resource once in the resize policy');
    }
    seen.add(p.resourceName);
    if (!RESIZE_RESTARTS.has(p.restartPolicy)) {
      RESIZE_POLICY.report(out, child(pAt, 'restartPolicy'), p.restartPolicy, 'expected "NotRequired" or "RestartContainer"');
    } else if (podRestartPolicy === 'Never' && p.restartPolicy !== 'NotRequired') {
      RESIZE_POLICY.report(out, child(pAt, 'restartPolicy'), p.restartPolicy, 'expected "NotRequired", because the pod\'s restartPolicy is "Never"');
    }
  });
}

/** Checks the pod's `resourceClaims` at `at`; returns their names, for the containers to refer to. */
export function checkPodResourceClaims(claims: unknown, at: string, out: Finding[]): Set<string> {
  const names = new Set<string>();
  if (!Array.isArray(claims)) return names;
  claims.forEach((c, i) => {
    if (!isObject(c)) return;
    const cAt = indexed(at, i);
    if (!isDns1123Label(c.name)) {
      RESOURCE_CLAIMS.report(out, child(cAt, 'name'), c.name, `expected ${DNS1123_LABEL_TEXT}`);
    } else if (names.has(c.name)) {
      RESOURCE_CLAIMS.report(out, child(cAt, 'name'), c.name, 'expected a claim name not used by another claim of the pod');
    }
    if (typeof c.name === 'string' && c.name !== '') names.add(c.name);
    const sources = ['resourceClaimName', 'resourceClaimTemplateName'].filter(k => c[k] !== undefined && c[k] !== null);
    if (sources.length !== 1) {
      RESOURCE_CLAIMS.report(out, cAt, c, sources.length === 0
        ? 'expected one of resourceClaimName or resourceClaimTemplateName'
        : 'expected only one of resourceClaimName or resourceClaimTemplateName');
    }
    for (const k of sources) {
      if (!isDns1123Subdomain(c[k])) RESOURCE_CLAIMS.report(out, child(cAt, k), c[k], `expected ${DNS1123_SUBDOMAIN_TEXT}`);
    }
  });
  return names;
}

/** Checks a container's `resources.claims` at `at` against the pod's claim names. */
export function checkContainerClaims(claims: unknown, at: string, podClaims: Set<string>, out: Finding[]): void {
  if (!Array.isArray(claims)) return;
  const seen = new Set<string>();
  claims.forEach((c, i) => {
    if (!isObject(c)) return;
    const cAt = indexed(at, i);
    const name = c.name;
    if (typeof name !== 'string' || name === '') {
      RESOURCE_CLAIMS.report(out, child(cAt, 'name'), name, 'expected the name of a claim in the pod\'s resourceClaims');
      return;
    }
    const request = typeof c.request === 'string' ? c.request : '';
    if (request !== '' && !isDns1123Label(request)) {
      RESOURCE_CLAIMS.report(out, child(cAt, 'request'), request, `expected ${DNS1123_LABEL_TEXT}`);
    }
    const key = request === '' ? name : `${name}/${request}`;
    // The whole claim overlaps every request of it, and a request the whole claim.
    if (seen.has(key) || seen.has(name) || (request === '' && [...seen].some(k => k.startsWith(`${name}/`)))) {
      RESOURCE_CLAIMS.report(out, cAt, key, 'expected each claim (or request of a claim) once per container');
    }
    seen.add(key);
    if (!podClaims.has(name)) {
      RESOURCE_CLAIMS.report(out, child(cAt, 'name'), name, podClaims.size === 0
        ? 'expected the name of a claim in the pod\'s resourceClaims (the pod has none)'
        : `expected the name of a claim in the pod's resourceClaims: ${[...podClaims].map(n => JSON.stringify(n)).join(', ')}`);
    }
  });
}
