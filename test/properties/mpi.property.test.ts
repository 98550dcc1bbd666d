import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import {
  applyRole, commonEffect, CommonFault, commonFaults, decorateJob, decorateRole, expectConstructError, FaultEffect, Ids, jobDataFor, jobInvariants,
  jobProps, Problems, roleDataFor, roleOptions,
  consistent,
} from './job-arbitraries';
import { Accelerator, CleanPodPolicy, MpiAllReduce, MpiAllReduceProps, RoleOptions } from '../../src';
import { RUNS, renderTwice, schemaErrors } from '../harness/properties';

/**
 * What the operator sets in the launcher (KUBEFLOW-FACTS.md): the Open MPI and Intel MPI variables,
 * and NVIDIA_VISIBLE_DEVICES (upstream also NVIDIA_DRIVER_CAPABILITIES) on a launcher without GPUs.
 */
const INJECTED = /^(OMPI_MCA_plm_rsh_agent|OMPI_MCA_orte_default_hostfile|I_MPI_HYDRA_BOOTSTRAP(_EXEC(_EXTRA_ARGS)?)?|NVIDIA_VISIBLE_DEVICES|NVIDIA_DRIVER_CAPABILITIES)$/;
const TRAIN = ['python', '/workspace/train.py'];
const role = fc.option(roleDataFor(INJECTED), { nil: undefined });
const RUNNER = kplus.ServiceAccount.fromServiceAccountName(new Chart(new App(), 'other'), 'sa', 'runner');

/** The -np of the first MPI launcher program of a command line, and whether it oversubscribes. */
function npOf(commandLine: string[]): { np?: number; oversubscribe: boolean } {
  const tokens = commandLine.flatMap(t => t.split(/\s+/)).filter(Boolean);
  const start = tokens.findIndex(t => /(^|\/)(mpirun|mpiexec|horovodrun)$/.test(t));
  if (start < 0) return { oversubscribe: false };
  const rest = tokens.slice(start + 1);
  const oversubscribe = rest.includes('--oversubscribe');
  for (let i = 0; i < rest.length; i++) {
    if (/^(python|.*\.py$)/.test(rest[i])) break;
    const [flag, inline] = rest[i].split('=');
    if (['-np', '--np', '-n', '--n'].includes(flag)) {
      const value = inline ?? rest[i + 1];
      return { np: /^\d+$/.test(value) ? Number(value) : undefined, oversubscribe };
    }
  }
  return { oversubscribe };
}

/** Random valid MpiAllReduce configurations, with every way of giving the launcher its command. */
const validConfig = fc.record({
  job: jobDataFor(INJECTED),
  workers: fc.integer({ min: 0, max: 16 }),
  workerRole: role,
  launcherRole: role,
  launcherContainer: fc.option(fc.constantFrom('launcher', 'mpi-launcher'), { nil: undefined }),
  launcherGpus: fc.option(fc.tuple(fc.constantFrom('nvidia', 'amd', 'intel', 'habana.ai/gaudi'), fc.integer({ min: 1, max: 8 })), { nil: undefined }),
  mainContainer: fc.option(fc.constantFrom('mpi', 'horovod', 'mpi-worker'), { nil: undefined }),
  slotsPerWorker: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
  mode: fc.constantFrom('trainingCommand', 'launcherCommand', 'launcher.command', 'none'),
  /** Where in [1, slots] the -np of a hand-written command lies, and how it is spelled. */
  npShare: fc.double({ min: 0, max: 1, noNaN: true }),
  spelling: fc.constantFrom('-np', '--np=', '-n', 'sh -c', 'horovodrun', '$NP', 'oversubscribe'),
  mpirunArgs: fc.option(fc.array(fc.constantFrom('-x', 'NCCL_IB_DISABLE=1', '--report-bindings'), { maxLength: 3 }), { nil: undefined }),
  scaleWorkers: fc.option(fc.integer({ min: 1, max: 16 }), { nil: undefined }),
}).map(c => consistent(c, { mpi: true }));
type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

/** The operator's test: a launcher whose limits name a GPU is in the hostfile too. */
function gpuLauncher(c: Config): boolean {
  const name = launcherAccelerator(c)?.resourceName;
  return name !== undefined && (name.endsWith('.com/gpu') || name.includes('gpu'));
}

function launcherAccelerator(c: Config): Accelerator | undefined {
  if (!c.launcherGpus) return c.launcherRole?.resources?.accelerator;
  const [vendor, n] = c.launcherGpus;
  return vendor === 'nvidia' ? Accelerator.nvidia(n) : vendor === 'amd' ? Accelerator.amd(n) : vendor === 'intel' ? Accelerator.intel(n) : Accelerator.custom(vendor, n);
}

/** The counts the build settles on: workers before and after scaling, slots and the hostfile's size. */
function plan(c: Config) {
  const hostsBesideWorkers = gpuLauncher(c) ? 1 : 0;
  // A generated mpirun needs at least one slot.
  const workers = c.mode === 'trainingCommand' && c.workers + hostsBesideWorkers === 0 ? 1 : c.workers;
  const finalWorkers = c.mode === 'trainingCommand' && workers > 0 && c.scaleWorkers !== undefined ? c.scaleWorkers : workers;
  const workerResources = (workers > 0 ? c.workerRole?.resources : undefined) ?? c.job.role.resources;
  const slots = c.slotsPerWorker ?? workerResources?.accelerator?.count ?? 1;
  return { workers, finalWorkers, slots, max: (finalWorkers + hostsBesideWorkers) * slots };
}

function handWritten(c: Config, max: number): string[] {
  const np = Math.max(1, Math.ceil(c.npShare * max));
  if (max < 1 && c.spelling !== '$NP' && c.spelling !== 'oversubscribe') return ['mpirun', 'hostname'];
  switch (c.spelling) {
    case '-np': return ['mpirun', '-np', String(np), '--allow-run-as-root', ...TRAIN];
    case '--np=': return ['/usr/local/bin/mpirun', `--np=${np}`, ...TRAIN];
    case '-n': return ['mpiexec', '-n', String(np), './a.out'];
    case 'sh -c': return ['sh', '-c', `mpirun -np ${np} --allow-run-as-root python train.py && echo done`];
    case 'horovodrun': return ['horovodrun', '-np', String(np), ...TRAIN];
    case '$NP': return ['sh', '-c', 'mpirun -np $NP python train.py'];
    default: return ['mpirun', '--oversubscribe', '-np', String(max + np), ...TRAIN];
  }
}

function build(chart: Chart, c: Config, effect?: FaultEffect, target: 'launcher' | 'worker' = 'worker'): MpiAllReduce {
  const ids = new Ids();
  const { workers, finalWorkers, max } = plan(c);
  const command = handWritten(c, max);
  // The fault's role is the workers when there are any, else the launcher.
  const onLauncher = target === 'launcher' || workers === 0;
  const launcherRole: RoleOptions = roleOptions(chart, ids, c.launcherRole) ?? {};
  const faulted = applyRole(effect, launcherRole, onLauncher)!;
  const launcher = {
    ...faulted,
    // The launcher's own command only when nothing else gives it one.
    command: c.mode === 'launcher.command' ? ['mpirun'] : c.mode === 'none' ? launcherRole.command : undefined,
    args: c.mode === 'launcher.command' ? command.slice(1) : c.mode === 'none' ? launcherRole.args : undefined,
    // GPUs for the launcher, unless a fault aimed at the launcher's own options is being tried.
    resources: c.launcherGpus && !(effect?.role && onLauncher) ? { ...faulted.resources, accelerator: launcherAccelerator(c) } : faulted.resources,
    containerName: c.launcherContainer,
  };
  let props: MpiAllReduceProps = {
    ...jobProps(chart, ids, c.job, { Launcher: 1, Worker: Math.max(workers, finalWorkers) }, 1 + finalWorkers),
    // Job-wide commands would reach the idle workers too; the MPI construct forbids them.
    command: undefined,
    args: undefined,
    workers,
    worker: workers > 0 ? applyRole(effect, roleOptions(chart, ids, c.workerRole), !onLauncher) : undefined,
    launcher,
    mainContainer: c.mainContainer,
    slotsPerWorker: c.slotsPerWorker,
    trainingCommand: c.mode === 'trainingCommand' ? TRAIN : undefined,
    mpirunArgs: c.mode === 'trainingCommand' ? c.mpirunArgs : undefined,
    launcherCommand: c.mode === 'launcherCommand' ? command : undefined,
  };
  if (effect?.job) props = effect.job(props);
  const job = new MpiAllReduce(chart, 'job', props);
  decorateJob(job, c.job, chart, ids);
  decorateRole(job.launcher, c.launcherRole, chart, ids);
  decorateRole(job.worker, c.workerRole, chart, ids);
  // Only a generated mpirun follows the workers scaled after construction.
  if (job.worker && finalWorkers !== workers && props.trainingCommand) job.worker.scale(finalWorkers);
  effect?.after?.(job, chart);
  return job;
}

test(`${RUNS} random valid MpiAllReduce jobs are schema-valid, deterministic and keep the kind's invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    const docs = renderTwice(chart => build(chart, c));
    const p = new Problems();
    p.add(schemaErrors(docs));
    const job = docs.find(d => d.kind === 'MPIJob');
    const specs = job.spec.mpiReplicaSpecs;
    jobInvariants(job, p, { specsField: 'mpiReplicaSpecs', injected: INJECTED });
    // Exactly one launcher; workers optional.
    for (const type of Object.keys(specs)) p.check(['Launcher', 'Worker'].includes(type), `replica type ${type}`);
    p.check(specs.Launcher?.replicas === 1, `Launcher replicas ${specs.Launcher?.replicas}`);
    const { slots } = plan(c);
    const workers = specs.Worker?.replicas ?? 0;
    p.check(job.spec.slotsPerWorker === slots, `slotsPerWorker ${job.spec.slotsPerWorker}, expected ${slots}`);
    // slotsPerWorker x hosts (the workers, and the launcher when it has GPUs) covers the -np.
    const hosts = workers + (gpuLauncher(c) ? 1 : 0);
    const launcher = specs.Launcher.template.spec.containers[0];
    const { np, oversubscribe } = npOf([...launcher.command ?? [], ...launcher.args ?? []]);
    p.check(np === undefined || oversubscribe || np <= job.spec.slotsPerWorker * hosts, `-np ${np} above ${job.spec.slotsPerWorker} slots x ${hosts} hosts`);
    p.check(c.mode !== 'trainingCommand' || np === slots * hosts, `generated -np ${np}, expected ${slots * hosts}`);
    // The workers' container is spec.mainContainer, which the launcher execs into.
    p.check(!specs.Worker || specs.Worker.template.spec.containers[0].name === job.spec.mainContainer, 'worker container is not spec.mainContainer');
    // A CPU-only launcher asks for no GPU and gets no GPU toleration.
    if (!launcherAccelerator(c)) {
      p.check(!Object.keys(launcher.resources?.limits ?? {}).some(k => k.includes('/')), 'CPU-only launcher with an extended resource');
      p.check(!(specs.Launcher.template.spec.tolerations ?? []).some((t: any) => t.key === 'nvidia.com/gpu'), 'CPU-only launcher with a GPU toleration');
    }
    p.check(!!c.job.runPolicy?.cleanPodPolicy || job.spec.runPolicy.cleanPodPolicy === CleanPodPolicy.RUNNING.value, 'idle workers not cleaned up');
    expect(p.list).toEqual([]);
  }), { numRuns: RUNS });
});

/** Faults particular to MPIJob. */
const mpiFaults = fc.oneof(
  fc.record({ fault: fc.constant('np above the slots' as const), extra: fc.integer({ min: 1, max: 64 }), spelling: fc.constantFrom('-np', '--np=', '-n', 'sh -c', 'launcher.command') }),
  fc.record({ fault: fc.constant('trainingCommand and launcherCommand' as const) }),
  fc.record({ fault: fc.constant('empty command' as const), field: fc.constantFrom('trainingCommand', 'launcherCommand') }),
  fc.record({ fault: fc.constant('mpirunArgs without trainingCommand' as const) }),
  fc.record({ fault: fc.constant('job-wide command' as const), field: fc.constantFrom('command', 'args') }),
  fc.record({ fault: fc.constant('launcher command besides a generated one' as const), field: fc.constantFrom('command', 'args'), with: fc.constantFrom('trainingCommand', 'launcherCommand') }),
  fc.record({ fault: fc.constant('container name' as const), field: fc.constantFrom('mainContainer', 'launcher.containerName'), name: fc.constantFrom('MPI', 'mpi_main', '-mpi', 'mpi-', 'a'.repeat(64), '') }),
  fc.record({ fault: fc.constant('launcher service account' as const) }),
  fc.record({ fault: fc.constant('worker options without workers' as const) }),
  fc.record({ fault: fc.constant('slotsPerWorker' as const), n: fc.oneof(fc.integer({ min: -8, max: 0 }), fc.double({ min: 0.1, max: 8, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ fault: fc.constant('workers count' as const), n: fc.oneof(fc.integer({ min: -20, max: -1 }), fc.double({ min: 0.1, max: 20, noNaN: true }).filter(x => !Number.isInteger(x))) }),
  fc.record({ fault: fc.constant('scale the launcher' as const), n: fc.constantFrom(0, 2, 5) }),
  fc.record({ fault: fc.constant('trainingCommand without processes' as const) }),
  fc.record({ fault: fc.constant('port' as const), n: fc.integer({ min: 1, max: 65535 }) }),
  fc.record({ fault: fc.constant('GPU variables on a CPU-only launcher' as const), name: fc.constantFrom('NVIDIA_VISIBLE_DEVICES', 'NVIDIA_DRIVER_CAPABILITIES'), how: fc.constantFrom('launcher', 'job') }),
);
type MpiFault = typeof mpiFaults extends fc.Arbitrary<infer T> ? T : never;

function mpiEffect(f: MpiFault): FaultEffect {
  const noCommands = { trainingCommand: undefined, launcherCommand: undefined, mpirunArgs: undefined };
  switch (f.fault) {
    case 'np above the slots': return {
      job: p => {
        const workers = Math.max(1, p.workers ?? 1);
        const launcher = { ...p.launcher, resources: {}, command: undefined, args: undefined };
        const np = String(workers + f.extra); // slotsPerWorker 1
        const p2 = { ...p, ...noCommands, workers, worker: p.worker ?? {}, slotsPerWorker: 1, launcher };
        switch (f.spelling) {
          case '-np': return { ...p2, launcherCommand: ['mpirun', '-np', np, 'python', 'train.py'] };
          case '--np=': return { ...p2, launcherCommand: ['mpirun', `--np=${np}`, 'python', 'train.py'] };
          case '-n': return { ...p2, launcherCommand: ['mpiexec', '-n', np, './a.out'] };
          case 'sh -c': return { ...p2, launcherCommand: ['sh', '-c', `mpirun -np ${np} python train.py`] };
          default: return { ...p2, launcher: { ...launcher, command: ['mpirun'], args: ['-np', np, 'python', 'train.py'] } };
        }
      },
    };
    case 'trainingCommand and launcherCommand': return { job: p => ({ ...p, trainingCommand: TRAIN, launcherCommand: ['mpirun', 'hostname'] }) };
    case 'empty command': return { job: p => ({ ...p, ...noCommands, [f.field]: [] }) };
    case 'mpirunArgs without trainingCommand': return { job: p => ({ ...p, trainingCommand: undefined, mpirunArgs: ['-x', 'A=1'] }) };
    case 'job-wide command': return { job: p => ({ ...p, [f.field]: f.field === 'command' ? TRAIN : ['--epochs=1'] }) };
    case 'launcher command besides a generated one': return {
      job: p => ({
        ...p,
        ...noCommands,
        [f.with]: f.with === 'trainingCommand' ? TRAIN : ['mpirun', 'hostname'],
        launcher: { ...p.launcher, [f.field]: ['sh'] },
      }),
    };
    case 'container name': return {
      job: p => (f.field === 'mainContainer' ? { ...p, mainContainer: f.name } : { ...p, launcher: { ...p.launcher, containerName: f.name } }),
    };
    case 'launcher service account': return {
      job: p => ({ ...p, launcher: { ...p.launcher, serviceAccount: RUNNER } }),
    };
    case 'worker options without workers': return { job: p => ({ ...p, workers: 0, worker: { image: 'x:1' } }) };
    case 'slotsPerWorker': return { job: p => ({ ...p, slotsPerWorker: f.n }) };
    case 'workers count': return { job: p => ({ ...p, workers: f.n }) };
    case 'port': return { job: p => ({ ...p, port: f.n }) };
    case 'scale the launcher': return { after: job => (job as MpiAllReduce).launcher.scale(f.n) };
    case 'trainingCommand without processes': return {
      job: p => ({
        ...p,
        ...noCommands,
        trainingCommand: TRAIN,
        workers: 0,
        worker: undefined,
        launcher: { ...p.launcher, resources: {}, command: undefined, args: undefined },
      }),
    };
    default: return {
      // The operator overwrites these on a launcher without GPUs (so the user's value is lost).
      job: p => {
        const launcher = { ...p.launcher, resources: { ...p.launcher?.resources, accelerator: undefined } };
        const value = kplus.EnvValue.fromValue('all');
        return f.how === 'launcher'
          ? { ...p, launcher: { ...launcher, env: { ...launcher.env, [f.name]: value } } }
          : { ...p, launcher, env: { ...p.env, [f.name]: value } };
      },
    };
  }
}

const INJECTED_NAMES = ['OMPI_MCA_plm_rsh_agent', 'OMPI_MCA_orte_default_hostfile', 'I_MPI_HYDRA_BOOTSTRAP', 'I_MPI_HYDRA_BOOTSTRAP_EXEC', 'I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS'];

/**
 * The operator sets its MPI variables in the launcher only (training-operator
 * pkg/controller.v1/mpi newLauncher; the workers get none), so an injected-variable fault goes to
 * the launcher: its role options, or a sidecar of the launcher pod.
 */
function mpiCommonEffect(f: CommonFault): FaultEffect {
  if (f.fault !== 'injected env' || f.how !== 'sidecar') return commonEffect(f);
  return { after: job => { (job as MpiAllReduce).launcher.addContainer({ name: 'helper', image: 'busybox:1.36', envVariables: { [f.name]: kplus.EnvValue.fromValue('user') } }); } };
}

const invalidConfig = fc.tuple(validConfig, fc.oneof(
  commonFaults(INJECTED_NAMES).map(f => ({ label: f.fault, effect: mpiCommonEffect(f), f })),
  mpiFaults.map(f => ({ label: f.fault, effect: mpiEffect(f), f })),
));

test(`${RUNS} random invalid MpiAllReduce jobs end in the construct's own error, never a manifest`, () => {
  fc.assert(fc.property(invalidConfig, ([c, { label, effect, f }]) => {
    expectConstructError(label, chart => { build(chart, c, effect, f.fault === 'injected env' ? 'launcher' : 'worker'); });
  }), { numRuns: RUNS });
});
