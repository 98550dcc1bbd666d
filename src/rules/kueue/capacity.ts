/**
 * A job Kueue can never admit: what one of its podsets, or all of them together, request is more
 * than its ClusterQueue can ever give, even idle and borrowing all it may. Kueue admits a workload
 * whole, each podset in flavors of the resource groups that cover what it requests
 * (sigs.k8s.io/kueue v0.15.2 pkg/scheduler/flavorassigner assignFlavors, findFlavorForPodSets,
 * fitsResourceQuota: a request above PotentialAvailable is NoFit, and a resource no group covers is
 * "unavailable in ClusterQueue"); such a workload stays pending for good, its job suspended.
 *
 * Only what holds whatever else runs is judged, so a finding is never a guess: a resource no group
 * covers; a podset that no flavor of its group can take, each either too small for it or one
 * Kueue never gives its pods (node labels their selector refuses, a taint they do not tolerate, a
 * topology: flavor-selection.ts); the podsets together larger than all the group's flavors they
 * can use together. Checked when the input defines the job's LocalQueue and its ClusterQueue
 * (capacity-queues.ts says how their capacity is worked out).
 */
import { formatResource } from './capacity-amounts';
import { PodSet, kueuePodSets } from './capacity-podsets';
import { ClusterQueueCapacity, FlavorQuota, QueueIndex, clusterQueueCapacity, clusterQueueOf, queueRequests, rejection } from './capacity-queues';
import { KUEUE_QUEUE_LABEL } from './labels';
import { AppFinding, namespaceOf } from '../app-document';
import type { DocumentIndex } from '../document-index';
import { Rule } from '../rule';

export const KUEUE_NEVER_ADMITTED = new Rule('kueue', 'kueue/never-admitted', 'app',
  'kueue v0.15.2 pkg/scheduler/flavorassigner assignFlavors, findFlavorForPodSets, checkFlavorForPodSets, fitsResourceQuota (a workload above what the flavors its pods can use give with nominal quota and borrowing is never admitted)',
  'a podset requests its pod count times one pod\'s requests');

/** Why one flavor cannot take a podset: a resource above what it gives, or a flavor Kueue never gives these pods. */
export type FlavorMiss =
  | { readonly flavor: string; readonly resource: string; readonly quota: FlavorQuota; readonly rejected?: undefined }
  | { readonly flavor: string; readonly rejected: string };

/** Why a workload can never be admitted. */
export type NeverAdmitted =
  | { readonly why: 'uncovered'; readonly podSet: string; readonly resource: string; readonly requested: bigint }
  | {
    readonly why: 'podset';
    readonly podSet: string;
    readonly count: number;
    readonly requested: ReadonlyMap<string, bigint>;
    readonly flavors: readonly FlavorMiss[];
  }
  | { readonly why: 'total'; readonly resource: string; readonly requested: bigint; readonly flavors: readonly string[]; readonly limit: bigint };

/** Why the podsets can never be admitted to the ClusterQueue; undefined when they might be. */
export function neverAdmitted(podSets: readonly PodSet[], cq: ClusterQueueCapacity): NeverAdmitted | undefined {
  if (!cq.wellFormed) return undefined;
  const totals = new Map<string, bigint>();
  // Per `group flavor`: whether some podset that requests the group's resources can use it.
  const used = new Set<string>();
  for (const podSet of podSets) {
    const requests = queueRequests(podSet, cq);
    for (const [resource, v] of requests) totals.set(resource, (totals.get(resource) ?? BigInt(0)) + v);
    for (const [resource, requested] of requests) {
      if (!cq.groups.some(g => g.covered.includes(resource))) return { why: 'uncovered', podSet: podSet.name, resource, requested };
    }
    cq.groups.forEach((group, g) => {
      if (![...requests.keys()].some(r => group.covered.includes(r))) return;
      for (const f of group.flavors) if (rejection(podSet, group, f, cq) === undefined) used.add(`${g} ${f.flavor}`);
    });
    for (const group of cq.groups) {
      const wanted = [...requests].filter(([r]) => group.covered.includes(r));
      if (wanted.length === 0) continue;
      const misses = group.flavors.map((f): FlavorMiss | undefined => {
        const rejected = rejection(podSet, group, f, cq);
        if (rejected !== undefined) return { flavor: f.flavor, rejected };
        const over = wanted.find(([r, v]) => {
          const limit = f.quotas.get(r)?.limit;
          return f.quotas.has(r) ? limit !== undefined && v > limit : true;
        });
        return over === undefined ? undefined : { flavor: f.flavor, resource: over[0], quota: f.quotas.get(over[0]) ?? NOT_LISTED };
      });
      if (misses.every(m => m !== undefined)) {
        return { why: 'podset', podSet: podSet.name, count: podSet.count, requested: new Map(wanted), flavors: misses.map(m => m!) };
      }
    }
  }
  for (const [g, group] of cq.groups.entries()) {
    const usable = group.flavors.filter(f => used.has(`${g} ${f.flavor}`));
    for (const resource of group.covered) {
      const requested = totals.get(resource);
      const limits = usable.map(f => f.quotas.get(resource)?.limit);
      if (requested === undefined || limits.some(l => l === undefined)) continue;
      const limit = limits.reduce((a, b) => a! + b!, BigInt(0))!;
      if (requested > limit) return { why: 'total', resource, requested, flavors: usable.map(f => f.flavor), limit };
    }
  }
  return undefined;
}

const NOT_LISTED: FlavorQuota = { nominal: BigInt(0), limit: BigInt(0), why: 'not listed for this flavor' };

const amount = (resource: string, v: bigint) => `${formatResource(resource, v)} ${resource}`;
const pods = (n: number) => `${n} pod${n === 1 ? '' : 's'}`;

/** The reason in words: what is requested against what the ClusterQueue gives. */
export function neverAdmittedText(reason: NeverAdmitted, cq: ClusterQueueCapacity): string {
  switch (reason.why) {
    case 'uncovered': {
      const covered = cq.groups.flatMap(g => g.covered);
      return `podset "${reason.podSet}" requests ${amount(reason.resource, reason.requested)}, which no resource group covers (they cover ${covered.length === 0 ? 'nothing' : covered.join(', ')})`;
    }
    case 'podset': {
      const asked = [...reason.requested].map(([r, v]) => amount(r, v)).join(', ');
      let gives = true;
      const flavors = reason.flavors.map(f => {
        if (f.rejected !== undefined) return f.rejected;
        const text = `flavor "${f.flavor}"${gives ? ' gives' : ''} at most ${f.quota.limit === undefined ? '?' : amount(f.resource, f.quota.limit)} (${f.quota.why})`;
        gives = false;
        return text;
      });
      return `podset "${reason.podSet}" (${pods(reason.count)}) requests ${asked}, and ${flavors.join(', ')}`;
    }
    case 'total':
      return `the job's podsets together request ${amount(reason.resource, reason.requested)}, and the flavors ${reason.flavors.map(f => `"${f}"`).join(', ')} give at most ${amount(reason.resource, reason.limit)} together`;
  }
}

/** Every job of the documents that names a LocalQueue of the input its ClusterQueue can never admit. */
export function kueueNeverAdmitted(documents: DocumentIndex, out: AppFinding[]): void {
  const docs = documents.documents;
  const index = documents.queues;
  if (index.clusterQueues.size === 0) return;
  const runtimes = documents.runtimes;
  for (const d of docs) {
    const queue = d.doc?.metadata?.labels?.[KUEUE_QUEUE_LABEL];
    if (typeof queue !== 'string' || queue === '') continue;
    const podSets = kueuePodSets(d.doc, runtimes);
    if (podSets === undefined) continue;
    const reason = neverAdmittedReason(index, namespaceOf(d.doc), queue, podSets.podSets);
    if (reason === undefined) continue;
    out.push({
      path: d.path,
      finding: {
        field: `metadata.labels["${KUEUE_QUEUE_LABEL}"]`,
        value: queue,
        rule: KUEUE_NEVER_ADMITTED.id,
        allowed: `expected a LocalQueue whose ClusterQueue can admit the job: ${reason}; Kueue admits a workload whole, so the job stays suspended for good`,
      },
    });
  }
}

/** Why the job on `queue` in `namespace` is never admitted, in words; undefined when it may be, or the queues are not in the input. */
export function neverAdmittedReason(index: QueueIndex, namespace: string, queue: string,
  podSets: readonly PodSet[]): string | undefined {
  const { clusterQueue } = clusterQueueOf(index, namespace, queue);
  if (clusterQueue === undefined) return undefined;
  const cq = clusterQueueCapacity(index, clusterQueue)!;
  const reason = neverAdmitted(podSets, cq);
  return reason === undefined ? undefined : `LocalQueue "${queue}" leads to ClusterQueue "${clusterQueue}", where ${neverAdmittedText(reason, cq)}`;
}
