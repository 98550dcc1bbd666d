/*
 * What the author of a TrainJob asked for, kept beside the manifest the job renders, for the
 * conformance oracle (conformance/trainer): it builds the JobSet Kubeflow Trainer v2.3.0 makes of
 * the manifest and holds it to this record. The record is written from the construct's props,
 * not from the manifest, so a rendering that loses or moves what was asked shows up as a
 * difference instead of being compared with itself.
 *
 * Recording changes nothing in the manifest: the rendered document is the key of a weak map, so
 * the record lives as long as the document and costs nothing when no one reads it.
 */
import { ApiObject } from 'cdk8s';
import { addRenderStep } from '../../synth/render-hook';

/** An environment variable as the Kubernetes API writes it. */
export interface IntentEnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: unknown;
}

/** Pod settings asked for some replicated jobs (none named: the jobs that run the training ranks). */
export interface PodIntent {
  readonly jobs?: string[];
  readonly labels?: { [key: string]: string };
  readonly annotations?: { [key: string]: string };
  readonly nodeSelector?: { [key: string]: string };
  readonly tolerations?: unknown[];
  readonly serviceAccountName?: string;
  /** Volumes asked at paths of the trainer container. */
  readonly mounts?: Array<{ path: string; volume: unknown; readOnly?: boolean; subPath?: string }>;
}

/** What one initializer step is asked to fetch. */
export interface InitializerIntent {
  readonly storageUri?: string;
  readonly env?: IntentEnvVar[];
  readonly secretRef?: string;
}

/**
 * The record of one TrainJob (the shape conformance/trainer/intent.go reads, unknown fields
 * refused there). Unset fields were not asked for: the runtime's value stands.
 */
export interface TrainJobIntent {
  readonly source: 'recorded';
  readonly image?: string;
  readonly command?: string[];
  readonly args?: string[];
  readonly resourcesPerNode?: { requests?: { [name: string]: string | number }; limits?: { [name: string]: string | number } };
  /** Accelerators per node of any vendor: torch and MPI jobs run one process per accelerator unless told otherwise. */
  readonly acceleratorsPerNode?: number;
  readonly numNodes?: number;
  readonly numProcPerNode?: number;
  readonly env?: IntentEnvVar[];
  readonly pods?: PodIntent[];
  readonly jobSetLabels?: { [key: string]: string };
  readonly jobSetAnnotations?: { [key: string]: string };
  /** Keyed by step: `dataset-initializer`, `model-initializer`. */
  readonly initializers?: { [step: string]: InitializerIntent };
  readonly suspend?: boolean;
}

const intents = new WeakMap<object, TrainJobIntent | (() => TrainJobIntent)>();

/**
 * Keeps the intent of the object's every rendering: `produce` runs when the intent of a rendered
 * document is first asked for (props and `add*` calls are final by then). The step must be the object's last, so the key is the
 * document `toJson()` returns.
 */
export function recordIntent(apiObject: ApiObject, produce: () => TrainJobIntent): void {
  addRenderStep(apiObject, json => {
    // Worked out when the oracle asks, not on every rendering: a synth never reads it.
    intents.set(json, produce);
    return json;
  });
}

/** The intent recorded for a rendered document, or undefined (not a TrainJob of the library). */
export function intentOf(doc: unknown): TrainJobIntent | undefined {
  if (typeof doc !== 'object' || doc === null) return undefined;
  const intent = intents.get(doc);
  if (typeof intent !== 'function') return intent;
  const produced = intent();
  intents.set(doc, produced);
  return produced;
}
