/**
 * Two versions of one app, as a pull request changes a GitOps repository: the fine-tuning job
 * grows from 4 to 12 pods (64 more GPUs in queue "research"), the evaluation job is removed, an
 * AMD job is added, and the tokenizer job changes only its image.
 */
import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, DistributedPyTorch } from '../../src';

export function buildApp(app: App, version: 1 | 2): App {
  const chart = new Chart(app, 'research', { namespace: 'research' });
  new DistributedPyTorch(chart, 'llama-sft', {
    metadata: { name: 'llama-sft' },
    image: 'registry.example/llama-sft:1.0',
    command: ['torchrun', 'sft.py'],
    workers: version === 1 ? 3 : 11,
    queue: 'research',
    resources: { accelerator: Accelerator.nvidia(8), cpu: kplus.Cpu.units(32), memory: Size.gibibytes(512) },
  });
  if (version === 1) {
    new DistributedPyTorch(chart, 'eval', {
      metadata: { name: 'eval' },
      image: 'registry.example/eval:1.0',
      command: ['python', 'eval.py'],
      workers: 1,
      queue: 'research',
      resources: { accelerator: Accelerator.nvidia(1), cpu: kplus.Cpu.millis(1500), memory: Size.mebibytes(1536) },
    });
  } else {
    new DistributedPyTorch(chart, 'rocm-bench', {
      metadata: { name: 'rocm-bench' },
      image: 'registry.example/rocm-bench:1.0',
      command: ['python', 'bench.py'],
      workers: 1,
      queue: 'amd',
      resources: { accelerator: Accelerator.amd(4), cpu: kplus.Cpu.units(16), memory: Size.gibibytes(64) },
    });
  }
  const data = new Chart(app, 'data', { namespace: 'data' });
  new DistributedPyTorch(data, 'tokenize', {
    metadata: { name: 'tokenize' },
    image: version === 1 ? 'registry.example/tokenize:1.0' : 'registry.example/tokenize:1.1',
    command: ['python', 'tokenize.py'],
    workers: 2,
    resources: { cpu: kplus.Cpu.millis(250), memory: Size.mebibytes(512) },
  });
  return app;
}
