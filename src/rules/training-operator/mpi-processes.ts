/**
 * `mpirun -np N` in the launcher against the hostfile the operator writes: one line per worker with
 * `slots=<slotsPerWorker>` (default 1), plus the launcher when it has GPUs (training-operator
 * pkg/controller.v1/mpi newConfigMap). mpirun refuses to start more processes than there are slots
 * unless told to oversubscribe.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { isGpuLauncher } from './injected-env';
import { TrainingKindFacts, replicaSpecs, replicasOf } from './training-kinds';

export const MPI_PROCESSES = new Rule('training-operator', 'training-operator/mpi-np', 'mpi',
  'training-operator pkg/controller.v1/mpi newConfigMap (hostfile: <job>-worker-<i> slots=<slotsPerWorker>) and Open MPI mpirun -np',
  'the launcher\'s mpirun -np asks for no more processes than workers x slotsPerWorker');

// No webhook or CRD minimum checks slotsPerWorker; the controller writes it into every hostfile
// line, and a host of 0 slots runs no process, so mpirun has nowhere to start the job.
export const MPI_SLOTS = new Rule('training-operator', 'training-operator/mpi-slots', 'mpi',
  'training-operator pkg/controller.v1/mpi newConfigMap (slots=<slotsPerWorker> on every hostfile line; nothing checks it) and Open MPI mpirun',
  'an MPIJob\'s slotsPerWorker is at least 1');

export const MPI_RULES = [MPI_PROCESSES, MPI_SLOTS];

const MPI_LAUNCHERS = /^(mpirun|mpiexec|orterun|horovodrun)$/;
export const NP_FLAGS = ['-np', '--np', '-n', '--n'];

export interface ProcessCount {
  readonly flag: string;
  readonly processes: number;
  readonly oversubscribe: boolean;
}

/**
 * The `-np` of the first MPI launcher program in a command line (shell strings such as
 * `sh -c "mpirun -np 4 python train.py"` are split on spaces). Flags after the program mpirun
 * starts (`python ...`, `*.py`) are its own; a value that is not a whole number is not judged.
 */
export function processCount(commandLine: readonly string[]): ProcessCount | undefined {
  const tokens = commandLine.flatMap(part => String(part).split(/\s+/)).filter(t => t.length > 0);
  const start = tokens.findIndex(t => MPI_LAUNCHERS.test(t.split('/').pop()!));
  if (start < 0) return undefined;
  let found: { flag: string; value: string } | undefined;
  let oversubscribe = false;
  for (let i = start + 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (/^(python[0-9.]*|.*\.py)$/.test(token.split('/').pop()!) || ['&&', ';', '||', '|'].includes(token)) break;
    if (token === '--oversubscribe' || token === '-oversubscribe') oversubscribe = true;
    if (found) continue;
    const [flag, inline] = token.split('=', 2);
    if (NP_FLAGS.includes(flag)) {
      const value = inline ?? tokens[i + 1];
      if (value !== undefined) found = { flag, value };
    }
  }
  if (!found || !/^\d+$/.test(found.value)) return undefined;
  return { flag: found.flag, processes: Number(found.value), oversubscribe };
}

/** Checks `-np` of every launcher container against workers × slotsPerWorker. */
export function checkMpiProcesses(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  if (facts.kind !== 'MPIJob') return;
  const slotsGiven = doc.spec?.slotsPerWorker;
  if (typeof slotsGiven === 'number' && Number.isInteger(slotsGiven) && slotsGiven < 1) {
    // The same text as the construct's slotsPerWorker prop; -np is not judged against no slots.
    MPI_SLOTS.report(out, 'spec.slotsPerWorker', slotsGiven, 'expected a whole number of 1 or more');
    return;
  }
  const specs = new Map(replicaSpecs(doc, facts));
  const launcher = specs.get('Launcher');
  const containers = launcher?.template?.spec?.containers;
  if (!Array.isArray(containers)) return;
  const slotsValue = doc.spec?.slotsPerWorker;
  const slots = typeof slotsValue === 'number' && Number.isInteger(slotsValue) ? slotsValue : 1;
  const workers = specs.has('Worker') ? replicasOf(specs.get('Worker')) : 0;
  const gpuLauncher = isGpuLauncher(launcher);
  const max = (workers + (gpuLauncher ? 1 : 0)) * slots;
  const hosts = `${workers} worker${workers === 1 ? '' : 's'}${gpuLauncher ? ' + the launcher with GPUs' : ''}`;
  const at = 'spec.mpiReplicaSpecs.Launcher.template.spec.containers';
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i];
    const line = [...(Array.isArray(c?.command) ? c.command : []), ...(Array.isArray(c?.args) ? c.args : [])];
    const np = processCount(line);
    if (np === undefined || np.oversubscribe || np.processes <= max) continue;
    const cAt = typeof c?.name === 'string' && c.name !== '' ? `${at}[${c.name}]` : `${at}[${i}]`;
    // The field that holds the mpirun program (a shell line in args counts as args).
    const inCommand = Array.isArray(c.command) && processCount(c.command) !== undefined;
    MPI_PROCESSES.report(out, child(cAt, inCommand || !Array.isArray(c.args) ? 'command' : 'args'),
      `${np.flag} ${np.processes}`,
      `expected at most ${max} processes (${hosts} x ${slots} slotsPerWorker); mpirun cannot start more processes than the hostfile has slots (add --oversubscribe if that is meant)`);
  }
}
