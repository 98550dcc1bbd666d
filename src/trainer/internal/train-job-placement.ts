import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { JobRuntime, runtimeDocument } from './train-job-runtime';
import { CLUSTER_QUEUE, KUEUE_GROUP } from '../../kinds/kueue';
import { TRAIN_JOB } from '../../kinds/trainer';
import { KUEUE_QUEUE_LABEL } from '../../rules/kueue/labels';
import { TRAINER_GROUP } from '../../rules/trainer/names';
import { oncePerSynth } from '../../synth/render-hook';
import { dropUndefined } from '../../util/collections';
import { lazy } from '../../util/lazy';

/**
 * Kueue's flavor placement (a fact of the queues and the runtime, rules/kueue/flavor-placement.ts,
 * which the rule kueue/trainjob-placement reads too), loaded at the first synth of a queued
 * TrainJob in an app with ClusterQueues.
 */
const placementFacts = lazy(() => ({
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ...(require('../../rules/kueue/flavor-placement') as typeof import('../../rules/kueue/flavor-placement')),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ...(require('../../rules/kueue/capacity-queues') as typeof import('../../rules/kueue/capacity-queues')),
}));

/** What the pods of one replicated job must carry to run on the flavor Kueue gives them. */
export type PlacementNeed = import('../../rules/kueue/flavor-placement').PlacementNeed;

/** The TrainJob as the placement reads it: its queue, its runtime and the trainer of its spec. */
export interface QueuedTrainJob {
  readonly apiObject: ApiObject;
  readonly queue: string;
  readonly runtimeKind: string;
  readonly runtimeName: string;
  readonly runtime: JobRuntime;
  readonly trainerSpec: object;
}

/**
 * What the pods need to run on the flavor Kueue gives them, per replicated job, when the app
 * defines the job's queue and flavors and that flavor is certain (rules/kueue/flavor-placement):
 * Kueue v0.15.2 writes it where Trainer v2.3.0 drops it, so the job's own patch carries it. Where
 * the flavor is not certain, or the runtime asks for a topology, the app rule refuses the job.
 */
export function kueuePlacementNeeds(job: QueuedTrainJob): Map<string, PlacementNeed> {
  // Every queued job of the app asks for the same Kueue objects: looked up once per synth.
  const root = job.apiObject.node.root;
  const kueue = oncePerSynth(root, 'kueue-objects', () => root.node.findAll()
    .filter((c): c is ApiObject => ApiObject.isApiObject(c) && c.apiVersion.startsWith(`${KUEUE_GROUP}/`)));
  if (!kueue.some(o => o.kind === CLUSTER_QUEUE.kind)) return new Map();
  const { trainJobPlacement, queueIndex } = placementFacts();
  const doc = {
    apiVersion: job.apiObject.apiVersion,
    kind: TRAIN_JOB.kind,
    metadata: dropUndefined({ namespace: job.apiObject.metadata.namespace, labels: { [KUEUE_QUEUE_LABEL]: job.queue } }),
    // As a manifest has it: quantities as their values.
    spec: dropUndefined({
      runtimeRef: { apiGroup: TRAINER_GROUP, kind: job.runtimeKind, name: job.runtimeName },
      trainer: JSON.parse(JSON.stringify(job.trainerSpec, (_, v) => (v instanceof k8s.Quantity ? v.value : v))),
    }),
  };
  // The runtime is the one the job resolved, not looked up again: the app's (as this synth renders
  // it, once), else the one the Trainer ships.
  const own = job.runtime.apiObject === undefined ? undefined : runtimeDocument(job.runtime);
  const resolution = own !== undefined ? { own } : job.runtime.catalogued !== undefined ? { builtIn: job.runtime.catalogued } : undefined;
  const runtimes = { byKey: new Map<string, any>(), runtimeOf: () => resolution };
  const queues = oncePerSynth(root, 'kueue-queue-index', () => queueIndex(kueue.map(o => o.toJson())));
  const placement = trainJobPlacement(doc, queues, runtimes);
  return new Map((placement?.needs ?? []).map(n => [n.job, n]));
}

/**
 * A pod template of the patch with the flavor's node labels and tolerations added: the job's own
 * nodeSelector keys win (a conflict is then the app rule's finding), and the tolerations keep the
 * runtime's when the patch had none, since a patch's list replaces the runtime's.
 */
export function withPlacement(pod: any, need: PlacementNeed, runtimeTolerations: any[]): any {
  const spec = pod.spec ?? {};
  const base: any[] = spec.tolerations ?? runtimeTolerations;
  const tolerations = [...base];
  const { sameToleration } = placementFacts();
  for (const t of need.tolerations) if (!tolerations.some(u => sameToleration(u, t))) tolerations.push(t);
  return {
    ...pod,
    spec: dropUndefined({
      ...spec,
      nodeSelector: { ...need.nodeSelector, ...spec.nodeSelector },
      tolerations: tolerations.length ? tolerations : undefined,
    }),
  };
}
