import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, TrainingRuntimeRef, TrainJob } from '../src';

/**
 * A fine-tuning job on a built-in Trainer v2.3 runtime (`torchtune-llama3.2-1b`), whose dataset
 * and model initializers fetch from Hugging Face into the shared workspace before the nodes
 * start; the model is gated, so its initializer reads the token from a Secret.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'trainer-initializers', { namespace: 'team-nlp' });
  new TrainJob(chart, 'alpaca-llama', {
    metadata: { name: 'alpaca-llama' },
    runtime: TrainingRuntimeRef.cluster('torchtune-llama3.2-1b'),
    datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca' },
    modelInitializer: {
      storageUri: 'hf://meta-llama/Llama-3.2-1B-Instruct',
      secret: kplus.Secret.fromSecretName(chart, 'HfToken', 'hf-token'),
    },
    resourcesPerNode: { accelerator: Accelerator.nvidia(2) },
  });
}
