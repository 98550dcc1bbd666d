/**
 * Environment the operator injects: it never overrides a variable the user set, so a user value
 * (a hand-written WORLD_SIZE, say) silently breaks the job (training-operator
 * pkg/controller.v1/<kind>/envvar.go and tensorflow TF_CONFIG; mpi newLauncher). The MPI launcher
 * without a GPU limit also gets NVIDIA_VISIBLE_DEVICES and NVIDIA_DRIVER_CAPABILITIES set to "".
 */
import { Finding } from '../finding';
import { operatorCountsAsGpu } from '../kubernetes/accelerator-facts';
import { child, named } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

const F = 'env';

export const INJECTED_ENV = new Rule('training-operator', 'training-operator/injected-env', F,
  'training-operator pkg/controller.v1/<kind>/envvar.go (setPodEnv), tensorflow TF_CONFIG, mpi newLauncher',
  'the variables the operator injects (MASTER_ADDR, RANK, WORLD_SIZE, TF_CONFIG, PET_* ...) are not set by the user');
export const MPI_GPU_ENV = new Rule('training-operator', 'training-operator/mpi-launcher-gpu-env', F,
  'training-operator pkg/controller.v1/mpi newLauncher: NVIDIA_VISIBLE_DEVICES and NVIDIA_DRIVER_CAPABILITIES are "" unless isGPULauncher',
  'NVIDIA_VISIBLE_DEVICES and NVIDIA_DRIVER_CAPABILITIES are overwritten with "" in a launcher without GPUs');

export const ENV_RULES = [INJECTED_ENV, MPI_GPU_ENV];

const GPU_HIDING_ENV = /^(NVIDIA_VISIBLE_DEVICES|NVIDIA_DRIVER_CAPABILITIES)$/;

/** The operator's isGPULauncher: a launcher container with a limit whose name has "gpu" in it. */
export function isGpuLauncher(launcher: any): boolean {
  const containers = launcher?.template?.spec?.containers;
  if (!Array.isArray(containers)) return false;
  return containers.some(c => Object.keys(c?.resources?.limits ?? {}).some(operatorCountsAsGpu));
}

/** Checks the env of the containers the operator writes its own variables into. */
export function checkInjectedEnv(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const at = child('spec', facts.replicaKey);
  for (const [type, spec] of replicaSpecs(doc, facts)) {
    if (facts.envTarget === 'launcher' && type !== 'Launcher') continue;
    const containers = spec.template?.spec?.containers;
    if (!Array.isArray(containers)) continue;
    const hideGpus = facts.kind === 'MPIJob' && type === 'Launcher' && !isGpuLauncher(spec);
    const containersAt = child(child(child(at, type), 'template'), 'spec') + '.containers';
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i];
      if (facts.envTarget === 'framework' && c?.name !== facts.container) continue;
      const env = c?.env;
      if (!Array.isArray(env)) continue;
      const envAt = child(named(containersAt, c, i), 'env');
      for (let j = 0; j < env.length; j++) {
        const name = env[j]?.name;
        if (typeof name !== 'string') continue;
        if (facts.injectedEnv.test(name)) {
          // The value judged is the variable as written (its value or valueFrom), not only its name.
          INJECTED_ENV.report(out, named(envAt, env[j], j), env[j],
            'expected a variable the operator does not set itself; it injects this one and a user value would break the job');
        } else if (hideGpus && GPU_HIDING_ENV.test(name)) {
          MPI_GPU_ENV.report(out, named(envAt, env[j], j), env[j],
            'expected a variable the operator does not set itself; it sets this one to "" in a launcher without GPUs, so a user value would be lost');
        }
      }
    }
  }
}
