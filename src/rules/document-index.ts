/**
 * The documents of one run (a synth's rendered objects, or the input of `lint` or `plan`), indexed
 * once for every rule across documents: the Kueue objects by name, the Trainer runtimes by identity
 * and the runtime each TrainJob resolves to. A rule reads the index it is handed rather than
 * walking the documents to build its own, so a run indexes its input once whatever the number of
 * rules. Each part is built on first use (an input without Kueue objects never builds the queue
 * index's maps twice, nor at all when no rule asks).
 */
import { AppDocument } from './app-document';
import { RuntimeIndex, runtimeIndex } from './kueue/capacity-podsets';
import { QueueIndex, queueIndex } from './kueue/capacity-queues';
import { isTrainerRuntime } from './trainer/runtime-lookup';

export class DocumentIndex {
  /** The documents themselves, in input order. */
  public readonly docs: readonly any[];
  private queueIndex?: QueueIndex;
  private runtimeIndex?: RuntimeIndex;
  private runtimeDocuments?: readonly AppDocument[];

  constructor(public readonly documents: readonly AppDocument[]) {
    this.docs = documents.map(d => d.doc);
  }

  /** The Kueue objects by name (LocalQueues by `namespace/name`). */
  public get queues(): QueueIndex {
    this.queueIndex ??= queueIndex(this.docs);
    return this.queueIndex;
  }

  /** The TrainingRuntimes and ClusterTrainingRuntimes by identity, and the runtime each TrainJob resolves to. */
  public get runtimes(): RuntimeIndex {
    this.runtimeIndex ??= runtimeIndex(this.docs);
    return this.runtimeIndex;
  }

  /** The runtime documents with their paths, in input order (for messages that name another runtime). */
  public get runtimeDocs(): readonly AppDocument[] {
    this.runtimeDocuments ??= this.documents.filter(d => isTrainerRuntime(d.doc));
    return this.runtimeDocuments;
  }
}
