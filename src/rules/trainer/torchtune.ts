/**
 * What the Trainer v2.3.0 webhook checks in a TrainJob that runs torchtune (`command: [tune, run]`)
 * on a torch runtime (pkg/runtime/framework/plugins/torch/torchtune.go, validateTorchTune): the
 * model comes from the runtime's name (`torchtune-llama3.2-1b` is `llama3_2/1B`) and must be one
 * the release supports; only the 70B model trains on more than one node; LoRA and QLoRA run on one
 * node; the runtime sets the paths torchtune reads and writes, so the job's args may not.
 * The QLoRA recipe choice (which also depends on the GPUs per node) is left to the webhook.
 */
const ENTRYPOINT = ['tune', 'run'];
const SUPPORTED_MODELS = ['llama3_2/1B', 'llama3_2/3B', 'llama3_3/70B', 'qwen2_5/1.5B'];
const MULTI_NODE_MODEL = 'llama3_3/70B';
const IMMUTABLE_CONFIGS = ['output_dir', 'tokenizer.path', 'checkpointer.checkpoint_dir', 'tokenizer.merges_file'];

/** The model a runtime name stands for (getModelFromRuntimeRef), or '' when the name has not three parts. */
export function torchtuneModel(runtimeName: string): string {
  const fields = runtimeName.split('-');
  return fields.length === 3 ? `${fields[1].replace(/\./g, '_')}/${fields[2].toUpperCase()}` : '';
}

const enabled = (args: readonly string[], key: string) => args.some(a => {
  const eq = a.indexOf('=');
  return eq >= 0 && a.slice(0, eq).includes(key) && a.slice(eq + 1).trim().toLowerCase() === 'true';
});

/** The findings for a TrainJob on a torch runtime named `runtimeName`. */
export function torchtuneFindings(job: any, runtimeName: string, report: (field: string, value: unknown, allowed: string) => void): void {
  const trainer = job.spec?.trainer ?? {};
  const command: unknown = trainer.command;
  if (!Array.isArray(command) || command.length !== ENTRYPOINT.length || command.some((c, i) => c !== ENTRYPOINT[i])) return;
  const args: string[] = Array.isArray(trainer.args) ? trainer.args.filter((a: unknown): a is string => typeof a === 'string') : [];
  const model = torchtuneModel(runtimeName);
  if (!SUPPORTED_MODELS.includes(model)) {
    report('spec.runtimeRef.name', runtimeName, `expected a runtime named torchtune-<model>-<size> for a model torchtune supports (${SUPPORTED_MODELS.join(', ')}): the Trainer reads the model from the name, and this one gives ${model === '' ? 'none' : `"${model}"`}`);
  }
  const numNodes = typeof trainer.numNodes === 'number' ? trainer.numNodes : 1;
  if (numNodes > 1 && model !== MULTI_NODE_MODEL) {
    report('spec.trainer.numNodes', numNodes, `expected 1: torchtune trains ${model === '' ? 'this model' : model} on one node (only ${MULTI_NODE_MODEL} runs on several)`);
  }
  const lora = args.some(a => a.includes('model.lora_attn_modules'));
  const qlora = !enabled(args, 'model.use_dora') && enabled(args, 'model.quantize_base');
  if (numNodes > 1 && (lora || qlora)) {
    report('spec.trainer.numNodes', numNodes, `expected 1 with ${qlora ? 'QLoRA' : 'LoRA'} args: torchtune fine-tunes with LoRA on one node only (on several it would fall back to a full fine-tune)`);
  }
  args.forEach((arg, i) => {
    const key = arg.split('=')[0];
    if (IMMUTABLE_CONFIGS.includes(key)) {
      report(`spec.trainer.args[${i}]`, arg, `expected no ${key}: the runtime sets ${IMMUTABLE_CONFIGS.join(', ')} for torchtune`);
    }
  });
}
