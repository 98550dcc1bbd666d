/**
 * What the boundary checks cost: 1,000 DistributedPyTorch constructions (and renders) with the
 * checks and with them switched off, alternating rounds so that warm-up and noise hit both; the
 * median CPU time of 11 rounds each (the machine may be shared: waiting for a core is not cost).
 *
 *   npx ts-node --transpile-only --project tsconfig.dev.json test/boundary/measure-cost.ts
 */
import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, CleanPodPolicy, DistributedPyTorch, DistributedPyTorchProps, RestartPolicy } from '../../src';
import * as boundary from '../../src/boundary/check';

/** The module's exports, which the constructs and wrappers look up at each call, so they can be switched off here. */
const check = boundary as any;
const on = { checkConstructor: check.checkConstructor, checkArgs: check.checkArgs };
const off = { checkConstructor: () => undefined, checkArgs: () => undefined };

const N = 1000;

function props(i: number): DistributedPyTorchProps {
  return {
    metadata: { name: `train-${i}`, labels: { team: 'research' } },
    image: 'registry.example.com/train:1.0',
    command: ['torchrun', 'train.py'],
    args: ['--epochs', '3'],
    workers: 4,
    resources: { cpu: kplus.Cpu.units(8), memory: Size.gibibytes(64), accelerator: Accelerator.nvidia(8) },
    sharedMemory: Size.gibibytes(16),
    env: { DATA: kplus.EnvValue.fromValue('/data'), EPOCHS: kplus.EnvValue.fromValue('3'), LOG_LEVEL: kplus.EnvValue.fromValue('info') },
    runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING, backoffLimit: 3, activeDeadline: Duration.hours(24) },
    restartPolicy: RestartPolicy.ON_FAILURE,
    podLabels: { app: 'train' },
    nodeSelector: { pool: 'gpu' },
    tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    worker: { resources: { cpu: kplus.Cpu.units(16), memory: Size.gibibytes(128), accelerator: Accelerator.nvidia(8) } },
  };
}

function run(render: boolean): number {
  const chart = new Chart(new App({ outdir: Testing.app().outdir }), 'bench');
  // CPU time rather than wall time: the machine is shared, and waiting for a core is not cost.
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) new DistributedPyTorch(chart, `job${i}`, props(i));
  if (render) Testing.synth(chart);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function measure(render: boolean) {
  const times = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < 11; round++) {
    for (const mode of ['on', 'off'] as const) {
      Object.assign(check, mode === 'on' ? on : off);
      times[mode].push(run(render));
    }
  }
  Object.assign(check, on);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [a, b] = [median(times.on), median(times.off)];
  console.log(`${N} DistributedPyTorch ${render ? 'constructions and renders' : 'constructions'}: ${a.toFixed(0)} ms with the checks, ${b.toFixed(0)} ms without: ratio ${(a / b).toFixed(3)}`);
}

/** Whether the switch works: a wrong prop throws with the checks on and passes with them off. */
function throwsOnWrongProp(): boolean {
  try {
    new DistributedPyTorch(new Chart(Testing.app(), 'probe'), 'job', { image: 'x', restartPolicy: 'Never' as any });
    return false;
  } catch {
    return true;
  }
}
Object.assign(check, off);
const offThrows = throwsOnWrongProp();
Object.assign(check, on);
if (offThrows || !throwsOnWrongProp()) throw new Error('the checks could not be switched off and on; the figures would mean nothing');

measure(false);
measure(true);
