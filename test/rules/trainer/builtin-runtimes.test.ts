/**
 * The catalogue of the Trainer's built-in runtimes is generated from the pinned release's runtimes
 * (upstream/examples/upstream-v2/runtimes) by `npx projen import`: the committed module must be
 * exactly what the generator writes, and hold every runtime the release ships.
 */
import * as fs from 'fs';
import * as path from 'path';
import { BUILTIN_RUNTIMES_MODULE, builtInRuntimesModule } from '../../../scripts/trainer/builtin-runtimes';
import { BUILTIN_RUNTIMES } from '../../../src/rules/trainer/builtin-runtimes.generated';

const ROOT = path.join(__dirname, '..', '..', '..');

test('the committed catalogue is what the generator writes today', () => {
  expect(fs.readFileSync(path.join(ROOT, BUILTIN_RUNTIMES_MODULE), 'utf8')).toBe(builtInRuntimesModule());
});

test('every built-in runtime of the release, with its ML policy and replicated jobs', () => {
  const summary = Object.fromEntries(Object.entries(BUILTIN_RUNTIMES).map(([name, r]) => [
    name,
    `${Object.keys(r.spec.mlPolicy).filter(k => k !== 'numNodes').join('+') || 'plain'}: ${r.spec.template.spec.replicatedJobs.map((j: any) => j.name).join(', ')}`,
  ]));
  expect(summary).toEqual({
    'deepspeed-distributed': 'mpi: node, launcher',
    'jax-distributed': 'jax: node',
    'mlx-distributed': 'mpi: node, launcher',
    'torch-distributed': 'torch: node',
    'torch-distributed-with-cache': 'torch: dataset-initializer, node',
    'torchtune-llama3.2-1b': 'torch: dataset-initializer, model-initializer, node',
    'torchtune-llama3.2-3b': 'torch: dataset-initializer, model-initializer, node',
    'torchtune-qwen2.5-1.5b': 'torch: dataset-initializer, model-initializer, node',
    'xgboost-distributed': 'xgboost: node',
  });
});
