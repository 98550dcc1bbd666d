/**
 * Where the pods of a TrainJob queued by Kueue run: a fact of the queues, the runtime and the job,
 * read by the rule kueue/trainjob-placement (trainjob-placement.ts) over documents and by the
 * TrainJob construct, which writes the one flavor's placement into its runtime patch itself.
 *
 * Why the job must carry it. On admission Kueue v0.15.2 puts the assigned
 * flavors' node labels (as nodeSelector), their tolerations and, for topology-aware placement, a
 * scheduling gate into the TrainJob's `spec.podTemplateOverrides` (pkg/controller/jobs/trainjob
 * RunWithPodSetsInfo, built against Trainer v2.1). Trainer v2.3.0's TrainJob has no such field: the
 * API server drops it, and the pods carry none of it (seen in the control-plane tier). Kueue also
 * reads the job as v2.1 does, without `spec.runtimePatches`: the flavor it picks follows the
 * runtime's pod templates, never the job's patches.
 *
 * So a queued TrainJob's pods land where Kueue counted them only when the job's own runtime patch
 * writes the flavor's placement, which it can do only when the flavor is certain. Per podset of
 * the Workload (a replicated job of the JobSet the runtime makes):
 *
 * - the flavors that can take it (flavor-selection.ts, and each resource within what the flavor can
 *   give) all place pods alike (same node labels and tolerations): the runtime template and the
 *   job's patches together must carry those node labels and tolerations, else the finding names
 *   what to write (the TrainJob construct writes them itself);
 * - they place pods differently: which one Kueue picks depends on the quota in use, and no patch
 *   can follow it: refused, with the ways out (pin a flavor on the runtime, or a ClusterQueue with
 *   one flavor);
 * - the runtime asks for topology-aware placement: the gate and the domain's node selector never
 *   reach the pods: refused.
 *
 * Judged when the input defines the job's LocalQueue, its ClusterQueue and flavors, and its
 * runtime (or the runtime is one the Trainer ships); a job its queue never admits is
 * kueue/never-admitted's, and a job handed to MultiKueue runs elsewhere.
 */
import { neverAdmitted } from './capacity';
import { PodSet, RuntimeIndex, namedRuntime, trainJobPodSets } from './capacity-podsets';
import { ClusterQueueCapacity, QueueIndex, clusterQueueCapacity, clusterQueueOf, queueRequests, rejection } from './capacity-queues';
import { FlavorSpec, tolerationText, topologyRequest } from './flavor-selection';
import { KUEUE_QUEUE_LABEL } from './labels';
import { namespaceOf } from '../app-document';
import { isTrainJob } from '../trainer/runtime-lookup';

const MULTIKUEUE = 'kueue.x-k8s.io/multikueue';
export const DROPPED = 'Kueue v0.15.2 writes them into spec.podTemplateOverrides, which Trainer v2.3.0\'s TrainJob does not have (the API server drops it)';

/** What the pods of one replicated job must carry to run on the flavor Kueue gives them. */
export interface PlacementNeed {
  readonly job: string;
  readonly flavors: readonly string[];
  readonly clusterQueue: string;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly tolerations: readonly any[];
}

/** A queued TrainJob whose placement cannot reach its pods, in words (after "expected ..."). */
export interface PlacementRefusal {
  readonly job: string;
  readonly allowed: string;
}

export interface TrainJobPlacement {
  readonly needs: readonly PlacementNeed[];
  readonly refusals: readonly PlacementRefusal[];
}

/**
 * What the pods of a queued TrainJob need to run where Kueue counts them, or why they cannot;
 * undefined when the input does not say (not queued, queues or runtime outside the input, never
 * admitted, handed to MultiKueue).
 */
export function trainJobPlacement(job: any, index: QueueIndex, runtimes: RuntimeIndex): TrainJobPlacement | undefined {
  const queue = job?.metadata?.labels?.[KUEUE_QUEUE_LABEL];
  if (!isTrainJob(job) || typeof queue !== 'string' || queue === '' || job.spec?.managedBy === MULTIKUEUE) return undefined;
  const { clusterQueue } = clusterQueueOf(index, namespaceOf(job), queue);
  const cq = clusterQueue === undefined ? undefined : clusterQueueCapacity(index, clusterQueue);
  if (cq === undefined || !cq.wellFormed || namedRuntime(job, runtimes) === undefined) return undefined;
  if (cq.groups.some(g => g.flavors.some(f => f.spec === undefined))) return undefined;
  const { podSets } = trainJobPodSets(job, runtimes);
  if (neverAdmitted(podSets, cq) !== undefined) return undefined;
  const needs: PlacementNeed[] = [];
  const refusals: PlacementRefusal[] = [];
  for (const podSet of podSets) {
    const request = topologyRequest(podSet.annotations);
    if (request !== undefined) {
      refusals.push({
        job: podSet.name,
        allowed: `expected no topology request on the pods of a TrainJob queued by Kueue: the runtime's replicated job "${podSet.name}" asks ${request.text}, `
          + 'and Kueue v0.15.2 places such pods through a scheduling gate and node selectors it writes into spec.podTemplateOverrides, which Trainer v2.3.0\'s TrainJob does not have '
          + '(the API server drops it), so the placement never reaches the pods; run the job on a runtime without a topology, or as a v1 job (DistributedPyTorch), whose pods Kueue places',
      });
      continue;
    }
    const choice = certainFlavors(podSet, cq);
    if (choice === undefined) continue;
    if (choice.several !== undefined) {
      const options = choice.several.map(f => `"${f.flavor}" (${placementText(f.spec)})`);
      refusals.push({
        job: podSet.name,
        allowed: `expected a ClusterQueue where one flavor can take the pods of the replicated job "${podSet.name}": Kueue may give them flavor ${options.join(' or ')} of ClusterQueue "${cq.name}", `
          + `as quota allows, and ${DROPPED}, so no runtime patch can follow its choice; pin one flavor with a nodeSelector on the runtime's pod template `
          + '(Kueue reads the runtime, not the job\'s runtime patches), or queue the job on a ClusterQueue with one flavor',
      });
      continue;
    }
    if (Object.keys(choice.nodeSelector).length > 0 || choice.tolerations.length > 0) {
      const { flavors, nodeSelector, tolerations } = choice;
      needs.push({ job: podSet.name, flavors, clusterQueue: cq.name, nodeSelector, tolerations });
    }
  }
  return { needs, refusals };
}

type Choice =
  | { readonly several: ReadonlyArray<{ readonly flavor: string; readonly spec: FlavorSpec }>; readonly flavors?: undefined }
  | { readonly several?: undefined; readonly flavors: string[]; readonly nodeSelector: Record<string, string>; readonly tolerations: any[] };

/**
 * The flavors that can take the podset, one per resource group it requests from: undefined when
 * some group has none (never admitted, the other rule's), `several` when a group's candidates
 * place pods differently, else their node labels and tolerations together.
 */
function certainFlavors(podSet: PodSet, cq: ClusterQueueCapacity): Choice | undefined {
  const requests = queueRequests(podSet, cq);
  const chosen: Array<{ flavor: string; spec: FlavorSpec }> = [];
  for (const group of cq.groups) {
    const wanted = [...requests].filter(([r]) => group.covered.includes(r));
    if (wanted.length === 0) continue;
    const candidates = group.flavors.filter(f => rejection(podSet, group, f, cq) === undefined && wanted.every(([r, v]) => {
      const limit = f.quotas.get(r)?.limit;
      return f.quotas.has(r) && (limit === undefined || v <= limit);
    }));
    if (candidates.length === 0) return undefined;
    const distinct = new Map(candidates.map(f => [placementKey(f.spec!), { flavor: f.flavor, spec: f.spec! }]));
    if (distinct.size > 1) return { several: [...distinct.values()] };
    chosen.push({ flavor: candidates.map(f => f.flavor).join('", "'), spec: candidates[0].spec! });
  }
  const nodeSelector: Record<string, string> = {};
  const tolerations: any[] = [];
  for (const { spec } of chosen) {
    Object.assign(nodeSelector, spec.nodeLabels);
    for (const t of spec.tolerations) if (!tolerations.some(u => sameToleration(u, t))) tolerations.push(t);
  }
  return { flavors: chosen.map(c => c.flavor), nodeSelector, tolerations };
}

/** Flavors with equal keys place pods alike: the same node labels and tolerations. */
const placementKey = (spec: FlavorSpec) => JSON.stringify([
  Object.entries(spec.nodeLabels).sort(), spec.tolerations.map(t => JSON.stringify(normalToleration(t))).sort(),
]);

function placementText(spec: FlavorSpec): string {
  const labels = Object.entries(spec.nodeLabels).map(([k, v]) => `${k} "${v}"`);
  const parts = [labels.length === 0 ? 'no node labels' : `node labels ${labels.join(', ')}`];
  if (spec.tolerations.length > 0) parts.push(`tolerations ${spec.tolerations.map(tolerationText).join(', ')}`);
  return parts.join('; ');
}

const TOLERATION_FIELDS = ['key', 'operator', 'value', 'effect', 'tolerationSeconds'];

/** Whether two tolerations say the same (an unset operator is Equal, an unset value empty). */
export function sameToleration(a: any, b: any): boolean {
  const x = normalToleration(a);
  const y = normalToleration(b);
  return TOLERATION_FIELDS.every(k => x[k] === y[k]);
}

function normalToleration(t: any): Record<string, unknown> {
  return { key: t?.key ?? '', operator: t?.operator ?? 'Equal', value: t?.value ?? '', effect: t?.effect ?? '', tolerationSeconds: t?.tolerationSeconds };
}

