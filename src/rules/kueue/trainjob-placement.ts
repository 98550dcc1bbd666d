/**
 * kueue/trainjob-placement: a queued TrainJob whose pods would not run where Kueue counts them,
 * on Kueue before v0.17.0 with Trainer v2.3.0. What the pods need, and when the flavor is not
 * certain, is the fact of flavor-placement.ts (which says why); this rule compares it with what the
 * runtime and the job's patches give the pods.
 */
import { namedRuntime } from './capacity-podsets';
import { DROPPED, sameToleration, trainJobPlacement } from './flavor-placement';
import { tolerationText } from './flavor-selection';
import { KUEUE_QUEUE_LABEL } from './labels';
import { AppFinding } from '../app-document';
import type { DocumentIndex } from '../document-index';
import { isObject } from '../kubernetes/names';
import { Rule } from '../rule';

export const KUEUE_TRAINJOB_PLACEMENT = new Rule('kueue', 'kueue/trainjob-placement', 'app',
  'kueue v0.15.2 pkg/controller/jobs/trainjob RunWithPodSetsInfo (the assigned flavors\' node labels, tolerations and topology gate go into spec.podTemplateOverrides, '
  + 'which Trainer v2.3.0\'s TrainJob does not have), podset.FromAssignment: a queued TrainJob\'s pods get their flavor\'s placement only from its runtime patch',
  // Kueue v0.17.0 writes the placement into a runtime patch of its own (manager kueue.x-k8s.io/manager),
  // which the Trainer applies: the control-plane tier sees v0.19.2 pin the pods to their flavor.
  'a queued TrainJob\'s pods get the node labels, tolerations and topology gate of their assigned flavor through spec.podTemplateOverrides, which Trainer v2.3.0 does not have',
  { versions: { upstream: 'kueue', before: 'v0.17.0' } });

/**
 * The nodeSelector and tolerations the pods of a replicated job get from the Trainer v2.3.0: the
 * runtime's pod template, then each runtime patch of the job in order (a strategic merge: the
 * nodeSelector merges key by key, a list of tolerations replaces the one before).
 */
export function podPlacement(job: any, runtime: any, name: string): { nodeSelector: Record<string, string>; tolerations: any[] } {
  const templates: any[] = Array.isArray(runtime?.spec?.template?.spec?.replicatedJobs) ? runtime.spec.template.spec.replicatedJobs : [];
  const base = templates.find(j => j?.name === name)?.template?.spec?.template?.spec;
  let nodeSelector: Record<string, string> = isObject(base?.nodeSelector) ? { ...base.nodeSelector } : {};
  let tolerations: any[] = Array.isArray(base?.tolerations) ? base.tolerations : [];
  for (const patch of Array.isArray(job?.spec?.runtimePatches) ? job.spec.runtimePatches : []) {
    const jobs: any[] = patch?.trainingRuntimeSpec?.template?.spec?.replicatedJobs;
    for (const patched of Array.isArray(jobs) ? jobs : []) {
      if (patched?.name !== name) continue;
      const spec = patched?.template?.spec?.template?.spec;
      if (isObject(spec?.nodeSelector)) nodeSelector = { ...nodeSelector, ...spec.nodeSelector };
      if (Array.isArray(spec?.tolerations)) tolerations = spec.tolerations;
    }
  }
  return { nodeSelector, tolerations };
}

/** Every queued TrainJob whose pods would not run where Kueue counts them. */
export function kueueTrainJobPlacement(documents: DocumentIndex, out: AppFinding[]): void {
  const index = documents.queues;
  if (index.clusterQueues.size === 0) return;
  const runtimes = documents.runtimes;
  for (const d of documents.documents) {
    const placement = trainJobPlacement(d.doc, index, runtimes);
    if (placement === undefined) continue;
    const queue = d.doc.metadata.labels[KUEUE_QUEUE_LABEL];
    const report = (allowed: string) => out.push({
      path: d.path,
      finding: { field: `metadata.labels["${KUEUE_QUEUE_LABEL}"]`, value: queue, rule: KUEUE_TRAINJOB_PLACEMENT.id, allowed },
    });
    for (const refusal of placement.refusals) report(refusal.allowed);
    const runtime = namedRuntime(d.doc, runtimes)!.runtime;
    for (const need of placement.needs) {
      const has = podPlacement(d.doc, runtime, need.job);
      const missing = [
        ...Object.entries(need.nodeSelector).filter(([k, v]) => has.nodeSelector[k] !== v).map(([k, v]) => `nodeSelector ${k}: "${v}"`),
        ...need.tolerations.filter(t => !has.tolerations.some(u => sameToleration(u, t))).map(t => `toleration ${tolerationText(t)}`),
      ];
      if (missing.length === 0) continue;
      report(`expected the pods of the replicated job "${need.job}" to carry the placement of flavor "${need.flavors.join('", "')}", the one Kueue can give them in ClusterQueue "${need.clusterQueue}": `
        + `${missing.join(', ')} in a runtime patch (or the runtime's pod template); ${DROPPED}, so without it the pods run on any node while Kueue holds that flavor's quota`);
    }
  }
}
