/**
 * What Trainer v2.3.0's ML-policy plugins write into a runtime's pods for every TrainJob, judged on
 * the runtime alone:
 * - The variables each plugin upserts into the trainer's `node` container (torch.go, jax.go,
 *   xgboost.go EnforceMLPolicy; the torch plugin also into its envInjection targets) and the
 *   Open MPI variables the mpi plugin upserts into the launcher job's node container (mpi.go
 *   EnforceMLPolicy): a runtime value of the same name is replaced without a word.
 * - The address the torch, jax and xgboost plugins give the pods to meet at, written as
 *   `<TrainJob>-node-0-0.<TrainJob>`: the first pod of a replicated job named `node`, under the
 *   subdomain the JobSet defaults to the TrainJob's name. The plugins read neither the trainer
 *   step's job name nor network.subdomain (the mpi plugin's hostfile does), so a trainer step of
 *   another name, a runtime subdomain or pods without DNS hostnames leave the address naming no pod.
 * - The port the torch, jax and xgboost plugins upsert into the trainer's node container: 29400
 *   without a name, matched by number or by name (apply.UpsertPort byContainerPortOrName, where two
 *   missing names are equal). It replaces the runtime's port 29400, name and all, or else the first
 *   port the runtime left unnamed, whatever its number.
 * - The volumes and mounts the mpi plugin (mpi-ssh-auth on the node and launcher pods, mpi-hostfile
 *   on the launcher's, mounted at sshAuthMountPath and /etc/mpi) and the flux plugin (flux.go: its
 *   volumes on the trainer step's pods, mounted in the node container) upsert, by volume name and
 *   by mount path: a runtime volume of the same name, or a runtime mount at the same path, is replaced.
 * - The MPI implementation: the CRD admits "" besides OpenMPI, and the mpi plugin fails building
 *   every TrainJob's JobSet on anything but OpenMPI ("MPI implementation ... doesn't supported").
 */
import { Finding } from '../finding';
import { mountPointOf } from '../kubernetes/mount-point';
import { Rule } from '../rule';
import { ANCESTOR_LABEL, FLUX_MOUNTS, FLUX_VOLUMES, LAUNCHER_JOB, MPI_DEFAULT_SSH_PATH, MPI_HOSTFILE_DIR, MPI_HOSTFILE_VOLUME, MPI_SSH_VOLUME, NODE_JOB, RESERVED_ENV } from './names';

export const RUNTIME_PLUGIN_ENV = new Rule('trainer', 'trainer/runtime-plugin-env', 'runtimes',
  'kubeflow/trainer v2.3.0 plugins torch, jax, xgboost and mpi EnforceMLPolicy (apply.UpsertEnvVars of the plugin\'s variables over the runtime container\'s)',
  'a runtime sets none of the variables its ML policy\'s plugin writes into the same container (PET_*, JAX_*, DMLC_*, OMPI_MCA_*)');
export const RENDEZVOUS_ADDRESS = new Rule('trainer', 'trainer/rendezvous-address', 'runtimes',
  'kubeflow/trainer v2.3.0 plugins torch (PET_MASTER_ADDR), jax (JAX_COORDINATOR_ADDRESS) and xgboost (DMLC_TRACKER_URI) EnforceMLPolicy: "<TrainJob>-node-0-0.<TrainJob>"',
  'a torch, jax or xgboost runtime runs its trainer step as the replicated job "node", under the JobSet\'s default subdomain with DNS hostnames, where the address its plugin gives the pods points');
export const MPI_IMPLEMENTATION = new Rule('trainer', 'trainer/mpi-implementation', 'runtimes',
  'kubeflow/trainer v2.3.0 plugins/mpi EnforceMLPolicy and buildHostFileConfigMap (only OpenMPI is handled; the CRD also admits "")',
  'an MPI runtime\'s mpiImplementation, when written, is OpenMPI');

export const RUNTIME_PLUGIN_PORT = new Rule('trainer', 'trainer/runtime-plugin-port', 'runtimes',
  'kubeflow/trainer v2.3.0 plugins torch, jax and xgboost EnforceMLPolicy (apply.UpsertPort of an unnamed 29400, matched by containerPort or by name, two missing names being equal)',
  'the trainer\'s node container of a torch, jax or xgboost runtime declares no unnamed port and no port 29400, which its plugin replaces');

export const RUNTIME_PLUGIN_VOLUME = new Rule('trainer', 'trainer/runtime-plugin-volume', 'runtimes',
  'kubeflow/trainer v2.3.0 plugins mpi and flux EnforceMLPolicy (apply.UpsertVolumes by name and apply.UpsertVolumeMounts by mount path over the runtime\'s)',
  'a runtime has no volume of a name, and its node container no mount at a path, that its mpi or flux plugin writes over');

export const PLUGIN_OVERRIDE_RULES = [RUNTIME_PLUGIN_ENV, RENDEZVOUS_ADDRESS, MPI_IMPLEMENTATION, RUNTIME_PLUGIN_PORT, RUNTIME_PLUGIN_VOLUME];

/** The port the plugins give the trainer's node container (pkg/constants ContainerTrainerPort). */
const TRAINER_PORT = 29400;

/** The plugins that address the first node pod by a fixed name, and the variable that carries it. */
const ADDRESS_VARIABLE: Readonly<Record<string, string>> = {
  torch: 'PET_MASTER_ADDR',
  jax: 'JAX_COORDINATOR_ADDRESS',
  xgboost: 'DMLC_TRACKER_URI',
};

const POLICIES = ['torch', 'mpi', 'jax', 'xgboost'];

/** Checks a TrainingRuntime or ClusterTrainingRuntime against what its ML policy's plugin writes. */
export function checkPluginOverrides(doc: any, out: Finding[]): void {
  const mlPolicy = doc?.spec?.mlPolicy;
  const spec = doc?.spec?.template?.spec;
  const jobs: any[] = Array.isArray(spec?.replicatedJobs) ? spec.replicatedJobs : [];
  checkPluginVolumes(doc, jobs, out);
  const policy = POLICIES.find(p => mlPolicy?.[p] !== undefined && mlPolicy?.[p] !== null);
  if (policy === undefined) return;
  const jobsAt = 'spec.template.spec.replicatedJobs';
  const trainerIndex = jobs.findIndex(j => j?.template?.metadata?.labels?.[ANCESTOR_LABEL] === 'trainer');
  const trainer = jobs[trainerIndex];

  // The containers the plugin writes its variables into, with where to report.
  const targets: Array<{ jobIndex: number; names: readonly string[] }> = [];
  if (policy === 'mpi') {
    const launcher = jobs.findIndex(j => j?.name === LAUNCHER_JOB);
    if (launcher >= 0) targets.push({ jobIndex: launcher, names: [NODE_JOB] });
  } else if (trainerIndex >= 0) {
    targets.push({ jobIndex: trainerIndex, names: [NODE_JOB] });
  }
  const injection = policy === 'torch' ? mlPolicy.torch?.envInjection?.targets : undefined;
  if (Array.isArray(injection)) {
    for (const t of injection) {
      const jobIndex = jobs.findIndex(j => j?.name === t?.jobName);
      if (jobIndex >= 0 && Array.isArray(t?.containerNames)) targets.push({ jobIndex, names: t.containerNames });
    }
  }
  const reserved = RESERVED_ENV[policy] ?? [];
  for (const { jobIndex, names } of targets) {
    const pod = jobs[jobIndex]?.template?.spec?.template?.spec;
    for (const list of ['initContainers', 'containers']) {
      const containers: any[] = Array.isArray(pod?.[list]) ? pod[list] : [];
      containers.forEach((c: any, k: number) => {
        if (!names.includes(c?.name)) return;
        (Array.isArray(c.env) ? c.env : []).forEach((e: any, i: number) => {
          if (!reserved.includes(e?.name)) return;
          RUNTIME_PLUGIN_ENV.report(out, `${jobsAt}[${jobIndex}].template.spec.template.spec.${list}[${k}].env[${i}]`, e,
            `expected no "${e.name}" in the "${c.name}" container: the ${policy} plugin writes ${reserved.join(', ')} there for every TrainJob, over the runtime's value`);
        });
      });
    }
  }

  const variable = ADDRESS_VARIABLE[policy];
  if (variable !== undefined && trainer !== undefined) {
    const address = `${variable}="<TrainJob>-${NODE_JOB}-0-0.<TrainJob>"`;
    const never = 'so no TrainJob of this runtime finds the first node and none trains';
    if (trainer.name !== NODE_JOB) {
      RENDEZVOUS_ADDRESS.report(out, `${jobsAt}[${trainerIndex}].name`, trainer.name,
        `expected "${NODE_JOB}" for the trainer step: the ${policy} plugin gives every pod ${address}, the first pod of a job named "${NODE_JOB}", whatever this job is called, ${never}`);
    }
    if (typeof spec?.network?.subdomain === 'string') {
      RENDEZVOUS_ADDRESS.report(out, 'spec.template.spec.network.subdomain', spec.network.subdomain,
        `expected none on a ${policy} runtime: the ${policy} plugin gives every pod ${address} under the subdomain the JobSet defaults to the TrainJob's name, and this one replaces it, `
        + 'so the address resolves only for a TrainJob of that very name');
    }
    if (spec?.network?.enableDNSHostnames === false) {
      RENDEZVOUS_ADDRESS.report(out, 'spec.template.spec.network.enableDNSHostnames', false,
        `expected true or none: the ${policy} plugin gives every pod ${address}, a DNS name that exists only with the JobSet's pod hostnames, ${never}`);
    }
  }

  if (variable !== undefined && trainer !== undefined) checkTrainerPorts(trainer, trainerIndex, policy, out);

  if (policy === 'mpi' && mlPolicy.mpi?.mpiImplementation !== undefined && mlPolicy.mpi.mpiImplementation !== 'OpenMPI') {
    MPI_IMPLEMENTATION.report(out, 'spec.mlPolicy.mpi.mpiImplementation', mlPolicy.mpi.mpiImplementation,
      'expected "OpenMPI" (or none, its default): the mpi plugin handles no other, and building the JobSet of every TrainJob of this runtime fails, so none runs');
  }
}

/** The port upsert of the torch, jax and xgboost plugins against the trainer's node container. */
function checkTrainerPorts(trainer: any, trainerIndex: number, policy: string, out: Finding[]): void {
  const containers: any[] = trainer?.template?.spec?.template?.spec?.containers ?? [];
  const k = Array.isArray(containers) ? containers.findIndex(c => c?.name === NODE_JOB) : -1;
  const ports: any[] = Array.isArray(containers[k]?.ports) ? containers[k].ports : [];
  // upsert replaces the first match: by number, or (both names missing) the first unnamed port.
  const hit = ports.findIndex(p => p?.containerPort === TRAINER_PORT || p?.name === undefined);
  if (hit < 0) return;
  const port = ports[hit];
  const at = `spec.template.spec.replicatedJobs[${trainerIndex}].template.spec.template.spec.containers[${k}].ports[${hit}]`;
  RUNTIME_PLUGIN_PORT.report(out, at, port, port.containerPort === TRAINER_PORT
    ? `expected no port ${TRAINER_PORT} of its own: the ${policy} plugin replaces it with an unnamed port ${TRAINER_PORT}${port.name !== undefined ? `, so the name "${port.name}" is gone from the pods` : ''}`
    : `expected a name on this port: the ${policy} plugin puts its unnamed port ${TRAINER_PORT} in place of the first unnamed port of the node container, so port ${port.containerPort} is gone from the pods`);
}

/** The volumes and mounts the mpi and flux plugins write on each replicated job's pods, by job. */
interface PluginVolumes {
  readonly plugin: string;
  readonly volumes: readonly string[];
  readonly mounts: readonly string[];
}

function pluginVolumes(doc: any, job: any): PluginVolumes | undefined {
  const mlPolicy = doc?.spec?.mlPolicy;
  if (mlPolicy?.mpi !== undefined && mlPolicy?.mpi !== null && (job?.name === NODE_JOB || job?.name === LAUNCHER_JOB)) {
    const ssh = mountPointOf(typeof mlPolicy.mpi.sshAuthMountPath === 'string' && mlPolicy.mpi.sshAuthMountPath !== '' ? mlPolicy.mpi.sshAuthMountPath : MPI_DEFAULT_SSH_PATH);
    return job.name === LAUNCHER_JOB
      ? { plugin: 'mpi', volumes: [MPI_SSH_VOLUME, MPI_HOSTFILE_VOLUME], mounts: [ssh, MPI_HOSTFILE_DIR] }
      : { plugin: 'mpi', volumes: [MPI_SSH_VOLUME], mounts: [ssh] };
  }
  if (mlPolicy?.flux !== undefined && mlPolicy?.flux !== null && job?.template?.metadata?.labels?.[ANCESTOR_LABEL] === 'trainer') {
    return { plugin: 'flux', volumes: FLUX_VOLUMES, mounts: FLUX_MOUNTS };
  }
  return undefined;
}

/** Checks the runtime's own volumes and node-container mounts against the plugin's upserts. */
function checkPluginVolumes(doc: any, jobs: any[], out: Finding[]): void {
  jobs.forEach((job: any, j: number) => {
    const adds = pluginVolumes(doc, job);
    const pod = job?.template?.spec?.template?.spec;
    if (adds === undefined || typeof pod !== 'object' || pod === null) return;
    const podAt = `spec.template.spec.replicatedJobs[${j}].template.spec.template.spec`;
    (Array.isArray(pod.volumes) ? pod.volumes : []).forEach((v: any, i: number) => {
      if (!adds.volumes.includes(v?.name)) return;
      RUNTIME_PLUGIN_VOLUME.report(out, `${podAt}.volumes[${i}].name`, v.name,
        `expected another volume name: the ${adds.plugin} plugin writes its own "${v.name}" volume on the "${job.name}" pods of every TrainJob, which replaces this one`);
    });
    (Array.isArray(pod.containers) ? pod.containers : []).forEach((c: any, k: number) => {
      if (c?.name !== NODE_JOB) return;
      (Array.isArray(c.volumeMounts) ? c.volumeMounts : []).forEach((m: any, i: number) => {
        if (typeof m?.mountPath !== 'string' || !adds.mounts.includes(mountPointOf(m.mountPath))) return;
        RUNTIME_PLUGIN_VOLUME.report(out, `${podAt}.containers[${k}].volumeMounts[${i}].mountPath`, m.mountPath,
          `expected another path: the ${adds.plugin} plugin mounts its own volume at "${mountPointOf(m.mountPath)}" in the "${NODE_JOB}" container of the "${job.name}" pods, which replaces this mount`);
      });
    });
  });
}
