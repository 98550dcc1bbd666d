import * as kplus from 'cdk8s-plus-28';

/** What a TrainJob's dataset or model initializer fetches (`spec.initializer.dataset` / `.model`). */
export interface TrainJobInitializer {
  /**
   * Where to fetch from, `scheme://...` (`hf://`, `s3://`, ...); at most 2048 characters.
   * @default - the runtime's STORAGE_URI
   */
  readonly storageUri?: string;
  /**
   * Environment variables of the initializer container.
   * @default - none
   */
  readonly env?: { [name: string]: kplus.EnvValue };
  /**
   * A Secret in the job's namespace whose keys become the initializer's environment (such as
   * HF_TOKEN for private Hugging Face repositories).
   * @default - none
   */
  readonly secret?: kplus.ISecret;
}
