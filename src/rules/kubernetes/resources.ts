/**
 * Container resources, as `ValidateContainerResourceRequirements` and `validateContainerResourceName`
 * (k8s.io/kubernetes/pkg/apis/core/validation/validation.go) check them.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child } from './field-path';
import { QUALIFIED_NAME_TEXT, isObject, isQualifiedName } from './names';
import { Quantity, compareQuantities, isNegative, isWhole, parseQuantity } from './quantity';

const F = 'resources';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const RESOURCE_NAME = new Rule('kubernetes', 'kubernetes/resource-name', F, `${SOURCE} validateContainerResourceName`,
  'a container\'s resources name standard resources or qualified extended ones');
export const RESOURCE_QUANTITY = new Rule('kubernetes', 'kubernetes/resource-quantity', F, `${SOURCE} ValidateResourceQuantityValue (ParseQuantity, non-negative)`,
  'resource quantities follow the quantity grammar (a number with an optional binary, decimal or exponent suffix)');
export const RESOURCE_LIMIT = new Rule('kubernetes', 'kubernetes/resource-limit', F, `${SOURCE} ValidateContainerResourceRequirements: a request must not exceed its limit`,
  'a request is at most its limit');
export const RESOURCE_NOT_OVERCOMMITTED = new Rule('kubernetes', 'kubernetes/resource-not-overcommitted', F,
  `${SOURCE} ValidateContainerResourceRequirements: extended resources and huge pages need a limit equal to the request (IsOvercommitAllowed)`,
  'extended resources and huge pages have a limit equal to the request');
export const RESOURCE_INTEGER = new Rule('kubernetes', 'kubernetes/resource-integer', F, `${SOURCE} validateResourceQuantityValue: integer resources (IsIntegerResourceName)`,
  'resource names are standard or domain-prefixed extended names');

export const RESOURCE_HUGE_PAGES = new Rule('kubernetes', 'kubernetes/resource-huge-pages', F,
  `${SOURCE} validateResourceRequirements (validateResourceQuantityHugePageValue: a whole number of pages; huge pages need cpu or memory)`,
  'huge pages are a whole number of pages of the size the name gives, and come with a cpu or memory request or limit');

export const RESOURCE_RULES = [RESOURCE_NAME, RESOURCE_QUANTITY, RESOURCE_LIMIT, RESOURCE_NOT_OVERCOMMITTED, RESOURCE_INTEGER, RESOURCE_HUGE_PAGES];

// IsStandardContainerResourceName: the names a container may use without a domain.
const STANDARD_CONTAINER = new Set(['cpu', 'memory', 'ephemeral-storage']);
const HUGE_PAGES = 'hugepages-';

/** A resource name the API server accepts on a container; `undefined` when it does, else why not. */
function resourceNameProblem(name: string): string | undefined {
  if (!isQualifiedName(name)) return `expected a resource name: ${QUALIFIED_NAME_TEXT}`;
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER.has(name) && !name.startsWith(HUGE_PAGES)) {
      return 'expected cpu, memory, ephemeral-storage, hugepages-<size>, or an extended resource with a domain prefix such as nvidia.com/gpu';
    }
    return undefined;
  }
  // IsExtendedResourceName: not native, and "requests.<name>" is still a qualified name.
  if (isExtended(name) && (name.startsWith('requests.') || !isQualifiedName(`requests.${name}`))) {
    return 'expected an extended resource name whose "requests."-prefixed form is still a qualified name';
  }
  return undefined;
}

/** IsExtendedResourceName without the qualified-name part: fully qualified and not kubernetes.io. */
function isExtended(name: string): boolean {
  return name.includes('/') && !name.includes('kubernetes.io/');
}

/** Extended resources and huge pages may not be overcommitted (helper.IsOvercommitAllowed). */
function isNotOvercommittable(name: string): boolean {
  return isExtended(name) || name.startsWith(HUGE_PAGES);
}

/**
 * Checks `resources` of a container (or a WorkspaceKind pod config) at `at`; `podLevel` for a pod
 * spec's own `resources` (validatePodResourceName: cpu, memory and huge pages only). Returns the
 * parsed requests and limits (the valid ones), for the pod-level sums.
 */
export function checkResources(resources: unknown, at: string, out: Finding[], podLevel = false): ParsedResources {
  if (!isObject(resources)) return { requests: new Map(), limits: new Map() };
  const limits = parsedList(resources.limits, child(at, 'limits'), podLevel, out);
  const requests = parsedList(resources.requests, child(at, 'requests'), podLevel, out);
  for (const [name, request] of requests) {
    const field = child(child(at, 'requests'), name);
    const limit = limits.get(name);
    if (limit !== undefined && compareQuantities(request, limit) > 0) {
      RESOURCE_LIMIT.report(out, field, resources.requests[name], `expected at most the limit ${show(resources.limits[name])}`);
    } else if (isNotOvercommittable(name)) {
      if (limit === undefined) {
        RESOURCE_NOT_OVERCOMMITTED.report(out, child(child(at, 'limits'), name), undefined,
          `expected a limit equal to the request ${show(resources.requests[name])} (${name} cannot be overcommitted)`);
      } else if (compareQuantities(request, limit) !== 0) {
        RESOURCE_NOT_OVERCOMMITTED.report(out, field, resources.requests[name],
          `expected the same value as the limit ${show(resources.limits[name])} (${name} cannot be overcommitted)`);
      }
    }
  }
  const names = [...limits.keys(), ...requests.keys()];
  const hugePage = names.find(n => n.startsWith(HUGE_PAGES));
  if (hugePage !== undefined && !names.some(n => n === 'cpu' || n === 'memory')) {
    RESOURCE_HUGE_PAGES.report(out, at, hugePage, 'expected a cpu or memory request or limit beside the huge pages (the API server refuses huge pages alone)');
  }
  return { requests, limits };
}

/** The valid quantities of a resources block, by resource name. */
export interface ParsedResources {
  readonly requests: Map<string, Quantity>;
  readonly limits: Map<string, Quantity>;
}

/**
 * HugePageSizeFromResourceName and IsHugePageResourceValueDivisible: a page size in the name that
 * is a whole positive number of bytes, and a value (rounded up to whole bytes, as Quantity.Value
 * does) that is a whole number of pages.
 */
function hugePageProblem(name: string, q: Quantity): string | undefined {
  const page = parseQuantity(name.slice(HUGE_PAGES.length));
  if (page === undefined || isNegative(page) || page.digits === BigInt(0) || !isWhole(page)) {
    return `expected huge pages of a valid page size: the name ${name} holds no page size such as 2Mi or 1Gi`;
  }
  const size = bytesRoundedUp(page);
  if (bytesRoundedUp(q) % size !== BigInt(0)) return `expected a whole number of ${name.slice(HUGE_PAGES.length)} pages`;
  return undefined;
}

/** A non-negative quantity in whole units, rounded up. */
function bytesRoundedUp(q: Quantity): bigint {
  const TEN = BigInt(10);
  const numerator = q.digits * BigInt(2) ** BigInt(q.exp2) * TEN ** BigInt(Math.max(q.exp10, 0));
  const denominator = TEN ** BigInt(Math.max(-q.exp10, 0));
  return (numerator + denominator - BigInt(1)) / denominator;
}

function show(v: unknown): string {
  return typeof v === 'string' ? v : String(v);
}

/**
 * Checks a pod's `overhead` at `at`: validateOverhead reads it as a container's limits, so its
 * names, quantities and huge pages follow the container rules (the RuntimeClass admission plugin
 * usually writes it, but a template may carry it).
 */
export function checkOverhead(overhead: unknown, at: string, out: Finding[]): void {
  if (!isObject(overhead)) return;
  parsedList(overhead, at, false, out);
  // Upstream counts a name as present whatever its quantity.
  const names = Object.keys(overhead);
  const hugePage = names.find(n => n.startsWith(HUGE_PAGES));
  if (hugePage !== undefined && !names.some(n => n === 'cpu' || n === 'memory')) {
    RESOURCE_HUGE_PAGES.report(out, at, hugePage, 'expected a cpu or memory overhead beside the huge pages (the API server refuses huge pages alone)');
  }
}

/** Parses one list (limits or requests), reporting bad names and values; returns the good ones. */
function parsedList(list: unknown, at: string, podLevel: boolean, out: Finding[]): Map<string, Quantity> {
  const parsed = new Map<string, Quantity>();
  if (!isObject(list)) return parsed;
  for (const name in list) {
    const field = child(at, name);
    const nameProblem = podLevel ? podResourceNameProblem(name) : resourceNameProblem(name);
    if (nameProblem !== undefined) RESOURCE_NAME.report(out, field, name, nameProblem);
    const value = list[name];
    const q = parseQuantity(value);
    if (q === undefined || isNegative(q)) {
      RESOURCE_QUANTITY.report(out, field, value, 'expected a non-negative quantity such as 500m, 2, 1.5Gi or 100M');
      continue;
    }
    if (isExtended(name) && !isWhole(q)) {
      RESOURCE_INTEGER.report(out, field, value, `expected a whole number (${name} is an extended resource, counted in units)`);
      continue;
    }
    if (name.startsWith(HUGE_PAGES)) {
      const problem = hugePageProblem(name, q);
      if (problem !== undefined) {
        RESOURCE_HUGE_PAGES.report(out, field, value, problem);
        continue;
      }
    }
    parsed.set(name, q);
  }
  return parsed;
}

/** validatePodResourceName: what a pod-level limit or request may name. */
function podResourceNameProblem(name: string): string | undefined {
  if (!isQualifiedName(name)) return `expected a resource name: ${QUALIFIED_NAME_TEXT}`;
  if (name === 'cpu' || name === 'memory' || name.startsWith(HUGE_PAGES)) return undefined;
  return 'expected cpu, memory or hugepages-<size> (the resources a pod-level request or limit takes)';
}
