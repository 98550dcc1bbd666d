import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Resources } from '../common/resources';

/**
 * A step of a runtime that fills the shared workspace before training: the dataset or model
 * initializer. The TrainJob names what to fetch (`initializer.dataset.storageUri`); the runtime
 * gives the image that fetches it.
 */
export interface InitializerStepOptions {
  /** The initializer image, such as Kubeflow's dataset or model initializer. */
  readonly image: string;
  /**
   * Entrypoint of the initializer container.
   * @default - the image's
   */
  readonly command?: string[];
  /**
   * Arguments of the initializer container.
   * @default - none
   */
  readonly args?: string[];
  /**
   * A default storage URI (`hf://...`, `s3://...`), as the STORAGE_URI variable; a TrainJob's
   * initializer settings replace it.
   * @default - none: each TrainJob says what to fetch
   */
  readonly storageUri?: string;
  /**
   * Environment variables of the initializer container.
   * @default - none
   */
  readonly env?: { [name: string]: kplus.EnvValue };
  /**
   * Resources of the initializer pod.
   * @default - none
   */
  readonly resources?: Resources;
  /**
   * Service account of the initializer pod.
   * @default - the namespace's default account, without a mounted token
   */
  readonly serviceAccount?: kplus.IServiceAccount;
  /**
   * Mount the shared `initializer` workspace at /workspace. The Trainer webhook refuses a TrainJob
   * with this initializer when the runtime's initializer container lacks the mount.
   * @default true
   */
  readonly mountWorkspace?: boolean;
}

/** The claim the JobSet creates for the initializers and the trainer to share. */
export interface InitializerWorkspaceOptions {
  /**
   * Size of the claim.
   * @default Size.gibibytes(20)
   */
  readonly size?: Size;
  /**
   * Storage class of the claim.
   * @default - the cluster's default class
   */
  readonly storageClassName?: string;
  /**
   * Access mode of the claim; multi-node training on several hosts needs ReadWriteMany.
   * @default "ReadWriteOnce"
   */
  readonly accessMode?: string;
}
