/**
 * The Kueue objects of an input (kueue.x-k8s.io/v1beta2, or v1beta1, read through ./api.ts), what each
 * ClusterQueue can give per flavor and resource, and where Kueue's flavor assigner puts a
 * workload on an idle queue.
 *
 * What a ClusterQueue can give is Kueue's PotentialAvailable (pkg/cache/scheduler/resource_node.go
 * potentialAvailable): with no cohort, its nominal quota; in a cohort, the part of its quota it
 * does not lend (nominal quota minus lending limit) plus everything the cohort holds (what each of
 * its ClusterQueues lends: its lending limit, else its nominal quota; and a Cohort object's own
 * quota, and what its parent cohorts can give it, up the tree of the input's Cohorts), capped at
 * nominal quota plus borrowing limit. The cohorts are made of the input's ClusterQueues and Cohorts;
 * a cohort in a cycle of parents is not followed (Kueue admits nothing there), and then only a
 * borrowing limit bounds the queue.
 *
 * Flavor assignment mirrors pkg/scheduler/flavorassigner assignFlavors on an idle cluster: podset
 * by podset, each resource group's flavors in order, the first flavor where every resource the
 * podset requests of that group fits what the queue can give, minus what earlier podsets of the
 * workload took there, among the flavors the podset can use at all (flavor-selection.ts: node
 * labels against the pods' selectors, taints against their tolerations, topology).
 */
import { cohortChain, cohortNameOf, isKueueDocument, isKueueGroup, parentNameOf } from './api';
import { formatResource, resourceValue } from './capacity-amounts';
import { PodSet, podSetRequests } from './capacity-podsets';
import { FlavorSpec, flavorRejection, flavorSpec } from './flavor-selection';
import { Requests } from './pod-requests';

const isKind = isKueueDocument;
const nameOf = (doc: any) => (typeof doc?.metadata?.name === 'string' ? doc.metadata.name : '');
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/** The Kueue objects of an input, by name (LocalQueues by `namespace/name`). */
export interface QueueIndex {
  /** Whether the input holds any Kueue object. */
  readonly defined: boolean;
  readonly clusterQueues: ReadonlyMap<string, any>;
  readonly localQueues: ReadonlyMap<string, any>;
  readonly flavors: ReadonlyMap<string, any>;
  readonly cohorts: ReadonlyMap<string, any>;
  readonly priorityClasses: ReadonlyMap<string, any>;
  readonly topologies: ReadonlyMap<string, any>;
}

const byName = (docs: readonly any[], kind: string) => new Map(docs.filter(d => isKind(d, kind)).map(d => [nameOf(d), d]));

export function queueIndex(docs: readonly any[]): QueueIndex {
  return {
    defined: docs.some(isKueueGroup),
    clusterQueues: byName(docs, 'ClusterQueue'),
    localQueues: new Map(docs.filter(d => isKind(d, 'LocalQueue')).map(d => [localQueueKey(text(d.metadata?.namespace), nameOf(d)), d])),
    flavors: byName(docs, 'ResourceFlavor'),
    cohorts: byName(docs, 'Cohort'),
    priorityClasses: byName(docs, 'WorkloadPriorityClass'),
    topologies: byName(docs, 'Topology'),
  };
}

export const localQueueKey = (namespace: string, name: string) => `${namespace}/${name}`;

/** The ClusterQueue a job's LocalQueue points to, or why there is none. */
export function clusterQueueOf(index: QueueIndex, namespace: string, queue: string): { readonly clusterQueue?: string; readonly missing?: string } {
  const local = index.localQueues.get(localQueueKey(namespace, queue));
  if (local === undefined) return { missing: `LocalQueue ${namespace === '' ? '' : `${namespace}/`}${queue} is not in the input` };
  const cq = text(local.spec?.clusterQueue);
  if (!index.clusterQueues.has(cq)) return { missing: `ClusterQueue "${cq}" of LocalQueue ${namespace === '' ? '' : `${namespace}/`}${queue} is not in the input` };
  return { clusterQueue: cq };
}

/** One resource of one flavor of a ClusterQueue. */
export interface FlavorQuota {
  readonly nominal: bigint;
  readonly borrowingLimit?: bigint;
  readonly lendingLimit?: bigint;
  /** The most the ClusterQueue can use (PotentialAvailable); undefined when the input cannot bound it. */
  readonly limit?: bigint;
  /** How `limit` comes about, for messages. */
  readonly why: string;
}

export interface FlavorCapacity {
  readonly flavor: string;
  /** By resource, in the order the ClusterQueue lists them. */
  readonly quotas: ReadonlyMap<string, FlavorQuota>;
  /** The ResourceFlavor's labels, taints, tolerations and topology; undefined when the input does not define it. */
  readonly spec?: FlavorSpec;
}

export interface ResourceGroupCapacity {
  readonly covered: readonly string[];
  readonly flavors: readonly FlavorCapacity[];
  /** The node label keys its flavors use: the only keys of a pod's selector Kueue compares. */
  readonly labelKeys: ReadonlySet<string>;
}

export interface ClusterQueueCapacity {
  readonly name: string;
  readonly cohort: string;
  readonly groups: readonly ResourceGroupCapacity[];
  /** Whether its resource groups are lists of named resources and flavors (else the schema says what is wrong, and nothing is judged). */
  readonly wellFormed: boolean;
  /** What the cohort's capacity was made of, or why it was not computed. */
  readonly cohortNote?: string;
  /** Whether every flavor has a topology (Kueue then implies topology-aware placement for every podset). */
  readonly tasOnly: boolean;
}

/** A quantity of a ClusterQueue's quota, counted as Kueue counts a request; undefined when absent or not a quantity. */
const quotaValue = (resource: string, v: unknown): bigint | undefined => (v === undefined ? undefined : resourceValue(resource, v));

/**
 * Nominal quota and limits of every (flavor, resource) a ClusterQueue lists; one whose nominal
 * quota is not a quantity (the CRD schema's finding) is left out, so nothing is bounded by it.
 */
function ownQuotas(cq: any): Map<string, { nominal: bigint; borrowingLimit?: bigint; lendingLimit?: bigint }> {
  const out = new Map<string, { nominal: bigint; borrowingLimit?: bigint; lendingLimit?: bigint }>();
  for (const group of list(cq?.spec?.resourceGroups)) {
    for (const flavor of list(group?.flavors)) {
      for (const r of list(flavor?.resources)) {
        const resource = text(r?.name);
        const borrowingLimit = quotaValue(resource, r?.borrowingLimit);
        const lendingLimit = quotaValue(resource, r?.lendingLimit);
        const nominal = quotaValue(resource, r?.nominalQuota);
        if (nominal === undefined) continue;
        out.set(`${text(flavor?.name)} ${resource}`, {
          nominal,
          ...(borrowingLimit === undefined ? {} : { borrowingLimit }),
          ...(lendingLimit === undefined ? {} : { lendingLimit }),
        });
      }
    }
  }
  return out;
}

const max0 = (v: bigint) => (v < BigInt(0) ? BigInt(0) : v);

type Quota = { nominal: bigint; borrowingLimit?: bigint; lendingLimit?: bigint };

/**
 * The tree of cohorts of an input as Kueue's cache builds it (pkg/cache/scheduler/resource_node.go):
 * each cohort's SubtreeQuota is its own nominal quota plus what each child (ClusterQueue or child
 * cohort) does not keep (its SubtreeQuota minus its localQuota), and a node's PotentialAvailable is
 * its localQuota plus its parent's PotentialAvailable, capped at SubtreeQuota plus its borrowing
 * limit; a root's is its SubtreeQuota. A cohort named without a Cohort object is a root with no
 * quota of its own. Values are undefined where a quota below is not a quantity.
 */
class CohortTree {
  private readonly parents = new Map<string, string>();
  private readonly subtrees = new Map<string, Map<string, bigint | undefined>>();

  public constructor(private readonly index: QueueIndex) {
    for (const [name, doc] of index.cohorts) this.parents.set(name, parentNameOf(doc));
  }

  /** The cohorts from `cohort` up to its root, or undefined when the chain has a cycle. */
  public chain(cohort: string): string[] | undefined {
    const { names, cycleAt } = cohortChain(cohort, this.parents);
    return cycleAt < 0 ? names : undefined;
  }

  /** What a cohort can give one of its children at most (PotentialAvailable), for `flavor resource`. */
  public potential(cohort: string, key: string): bigint | undefined {
    const subtree = this.subtree(cohort, key);
    const parent = this.parents.get(cohort) ?? '';
    if (parent === '' || subtree === undefined) return subtree;
    const fromParent = this.potential(parent, key);
    if (fromParent === undefined) return undefined;
    const q = ownQuotas(this.index.cohorts.get(cohort)).get(key);
    const available = localQuota(subtree, q) + fromParent;
    return q?.borrowingLimit === undefined ? available : min(available, subtree + q.borrowingLimit);
  }

  /** A cohort's SubtreeQuota of `flavor resource`. Only called on cohorts whose chain has no cycle. */
  private subtree(cohort: string, key: string): bigint | undefined {
    const known = this.subtrees.get(cohort) ?? new Map<string, bigint | undefined>();
    this.subtrees.set(cohort, known);
    if (known.has(key)) return known.get(key);
    let total: bigint | undefined = BigInt(0);
    const add = (v: bigint | undefined) => { total = total === undefined || v === undefined ? undefined : total + v; };
    const own = this.index.cohorts.get(cohort);
    if (own !== undefined) add(quotaOf(own, key)?.nominal ?? BigInt(0));
    for (const cq of this.index.clusterQueues.values()) {
      if (cohortNameOf(cq) !== cohort) continue;
      const q = quotaOf(cq, key);
      add(q === undefined ? undefined : q.nominal - localQuota(q.nominal, q));
    }
    for (const [child, parent] of this.parents) {
      if (parent !== cohort || child === cohort) continue;
      const sub = this.subtree(child, key);
      add(sub === undefined ? undefined : sub - localQuota(sub, ownQuotas(this.index.cohorts.get(child)).get(key)));
    }
    known.set(key, total);
    return total;
  }
}

/** A node's quota of `flavor resource`: zero when it lists none, undefined when it lists one that is not a quantity. */
function quotaOf(doc: any, key: string): Quota | undefined {
  const q = ownQuotas(doc).get(key);
  if (q !== undefined) return q;
  return listedKeys(doc).includes(key) ? undefined : { nominal: BigInt(0) };
}

/** What a node keeps to itself of its subtree's quota: the part above its lending limit (localQuota). */
const localQuota = (subtree: bigint, q: Quota | undefined) => (q?.lendingLimit === undefined ? BigInt(0) : max0(subtree - q.lendingLimit));
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The capacities worked out for each index, by ClusterQueue: an index does not change once built. */
const capacities = new WeakMap<QueueIndex, Map<string, ClusterQueueCapacity | undefined>>();

/**
 * The capacity of a ClusterQueue of the index, worked out once per index and queue: every job on
 * the queue (the placement of each TrainJob, the capacity rule, plan's quota view) reads the same.
 */
export function clusterQueueCapacity(index: QueueIndex, name: string): ClusterQueueCapacity | undefined {
  let known = capacities.get(index);
  if (known === undefined) {
    known = new Map();
    capacities.set(index, known);
  }
  if (!known.has(name)) known.set(name, capacityOf(index, name));
  return known.get(name);
}

function capacityOf(index: QueueIndex, name: string): ClusterQueueCapacity | undefined {
  const cq = index.clusterQueues.get(name);
  if (cq === undefined) return undefined;
  const cohort = cohortNameOf(cq);
  const members = cohort === '' ? [] : [...index.clusterQueues.values()].filter(c => cohortNameOf(c) === cohort);
  const tree = new CohortTree(index);
  const chain = cohort === '' ? [] : tree.chain(cohort);
  const own = ownQuotas(cq);
  const specOf = (flavor: string) => (index.flavors.has(flavor) ? flavorSpec(index.flavors.get(flavor), index.topologies) : undefined);
  const groups = list(cq.spec?.resourceGroups).map(group => ({
    covered: list(group?.coveredResources).map(text),
    labelKeys: new Set(list(group?.flavors).flatMap(f => Object.keys(specOf(text(f?.name))?.nodeLabels ?? {}))),
    flavors: list(group?.flavors).map(flavor => {
      const quotas = new Map<string, FlavorQuota>();
      for (const r of list(flavor?.resources)) {
        const resource = text(r?.name);
        const key = `${text(flavor?.name)} ${resource}`;
        const q = own.get(key);
        if (q === undefined) {
          quotas.set(resource, { nominal: BigInt(0), why: 'its nominal quota is not a quantity' });
          continue;
        }
        const pooled = cohort === '' || chain === undefined ? undefined : tree.potential(cohort, key);
        quotas.set(resource, { ...q, ...limitOf(q, resource, cohort, pooled) });
      }
      const spec = specOf(text(flavor?.name));
      return { flavor: text(flavor?.name), quotas, ...(spec === undefined ? {} : { spec }) };
    }),
  }));
  // A flavor the input does not define leaves the queue inactive; it is not counted against tasOnly.
  const tasOnly = groups.every(g => g.flavors.every(f => f.spec === undefined || f.spec.topologyName !== undefined));
  const names = members.map(nameOf).sort();
  const ownQuota = listedKeys(index.cohorts.get(cohort)).length > 0 ? ' and its own quota' : '';
  const holds = `cohort "${cohort}" holds what its ClusterQueues in the input lend (${names.map(n => `"${n}"`).join(', ')})${ownQuota}`;
  const parents = (chain ?? []).slice(1).map(c => `"${c}"`);
  const cohortNote = cohort === '' ? undefined
    : chain === undefined ? `cohort "${cohort}" is in a cycle of parent cohorts, so Kueue admits nothing through "${name}"; only borrowing limits bound it here`
      : parents.length === 0 ? holds
        : `${holds}, and what its parent${parents.length === 1 ? '' : 's'} ${parents.join(' -> ')} can lend it`;
  return { name, cohort, groups, wellFormed: wellFormed(cq), tasOnly, ...(cohortNote === undefined ? {} : { cohortNote }) };
}

const named = (v: unknown) => typeof v === 'string' && v !== '';
const allOf = (v: unknown, ok: (x: any) => boolean) => Array.isArray(v) && v.every(ok);

function wellFormed(cq: any): boolean {
  return allOf(cq?.spec?.resourceGroups ?? [], g => allOf(g?.coveredResources, named)
    && allOf(g?.flavors, f => named(f?.name) && allOf(f?.resources, r => named(r?.name))));
}

/** Every `flavor resource` a ClusterQueue lists, whatever its quota. */
function listedKeys(cq: any): string[] {
  return list(cq?.spec?.resourceGroups).flatMap(g => list(g?.flavors).flatMap(f => list(f?.resources).map(r => `${text(f?.name)} ${text(r?.name)}`)));
}

function limitOf(q: Quota, resource: string, cohort: string, cohortPotential: bigint | undefined): { limit?: bigint; why: string } {
  const show = (v: bigint) => formatResource(resource, v);
  if (cohort === '') return { limit: q.nominal, why: `nominal quota ${show(q.nominal)}, no cohort` };
  const capped = q.borrowingLimit === undefined ? undefined : q.nominal + q.borrowingLimit;
  const cappedWhy = `nominal quota ${show(q.nominal)} + borrowing limit ${show(q.borrowingLimit ?? BigInt(0))}`;
  if (cohortPotential === undefined) return capped === undefined ? { why: `what cohort "${cohort}" holds is not known from the input, and no borrowing limit` } : { limit: capped, why: cappedWhy };
  const reachable = localQuota(q.nominal, q) + cohortPotential;
  if (capped !== undefined && capped <= reachable) return { limit: capped, why: cappedWhy };
  return { limit: reachable, why: `nominal quota ${show(q.nominal)} + ${show(reachable - q.nominal)} from cohort "${cohort}"` };
}

/** Why Kueue cannot use the flavor of the group for the podset's pods; undefined when it can, or the input cannot tell. */
export function rejection(podSet: PodSet, group: ResourceGroupCapacity, flavor: FlavorCapacity, cq: ClusterQueueCapacity): string | undefined {
  return flavorRejection(flavor.flavor, flavor.spec, podSet.podSpec, podSet.annotations, { labelKeys: group.labelKeys, tasOnly: cq.tasOnly });
}

/** Where one podset went, or why it could not go anywhere. */
export interface PodSetPlacement {
  readonly podSet: string;
  readonly count: number;
  readonly requests: Requests;
  /** The flavor of each resource requested. */
  readonly flavors: ReadonlyMap<string, string>;
}

/** Why a podset fits no flavor: a resource nothing covers, or each flavor too small for it. */
export interface PlacementFailure {
  readonly podSet: string;
  readonly count: number;
  readonly resource: string;
  /** Empty when no resource group covers the resource. */
  readonly flavors: ReadonlyArray<{ readonly flavor: string; readonly requested: bigint; readonly quota: FlavorQuota }>;
  readonly requested: bigint;
}

export interface WorkloadPlacement {
  readonly placed: readonly PodSetPlacement[];
  readonly failure?: PlacementFailure;
  /** Per `flavor resource`, what the workload takes. */
  readonly usage: ReadonlyMap<string, bigint>;
}

/** A podset's requests as Kueue counts them in a ClusterQueue: `pods` too when a group covers it. */
export function queueRequests(podSet: PodSet, cq: ClusterQueueCapacity): Map<string, bigint> {
  const requests = podSetRequests(podSet);
  if (cq.groups.some(g => g.covered.includes('pods'))) requests.set('pods', BigInt(podSet.count));
  return requests;
}

/** Where Kueue's flavor assigner puts the workload's podsets on an idle ClusterQueue. */
export function placeWorkload(podSets: readonly PodSet[], cq: ClusterQueueCapacity): WorkloadPlacement {
  const usage = new Map<string, bigint>();
  const placed: PodSetPlacement[] = [];
  for (const podSet of podSets) {
    const requests = queueRequests(podSet, cq);
    const flavors = new Map<string, string>();
    for (const [resource, requested] of requests) {
      if (flavors.has(resource)) continue;
      const group = cq.groups.find(g => g.covered.includes(resource));
      if (group === undefined) return { placed, usage, failure: { podSet: podSet.name, count: podSet.count, resource, requested, flavors: [] } };
      const wanted = [...requests].filter(([r]) => group.covered.includes(r));
      const misses: Array<{ flavor: string; resource: string; requested: bigint; quota: FlavorQuota }> = [];
      const chosen = group.flavors.find(f => {
        if (rejection(podSet, group, f, cq) !== undefined) return false;
        for (const [r, v] of wanted) {
          const quota = f.quotas.get(r) ?? { nominal: BigInt(0), limit: BigInt(0), why: 'not listed for this flavor' };
          const total = (usage.get(`${f.flavor} ${r}`) ?? BigInt(0)) + v;
          if (quota.limit !== undefined && total > quota.limit) {
            misses.push({ flavor: f.flavor, resource: r, requested: total, quota });
            return false;
          }
        }
        return true;
      });
      if (chosen === undefined) {
        // The first flavor's failing resource names the failure; every flavor's own is listed.
        const first = misses[0];
        const failure = { podSet: podSet.name, count: podSet.count, resource: first?.resource ?? resource, flavors: misses };
        return { placed, usage, failure: { ...failure, requested: first?.requested ?? requested } };
      }
      for (const [r, v] of wanted) {
        flavors.set(r, chosen.flavor);
        usage.set(`${chosen.flavor} ${r}`, (usage.get(`${chosen.flavor} ${r}`) ?? BigInt(0)) + v);
      }
    }
    placed.push({ podSet: podSet.name, count: podSet.count, requests, flavors });
  }
  return { placed, usage };
}
