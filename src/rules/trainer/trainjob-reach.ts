/**
 * What a TrainJob asks that Trainer v2.3.0 accepts but never hands to the pods that train, judged
 * against the runtime the job names: settings a plugin ignores, values a plugin overwrites, patch
 * mounts that replace the runtime's, processes derived from the wrong resource, and pod names the
 * JobSet webhook refuses after the TrainJob was admitted. Each is silent on a cluster; here each
 * is a finding that says what happens and what to write instead.
 */
import { trainerCountsAsGpu } from '../kubernetes/accelerator-facts';
import { envReferences } from '../kubernetes/containers';
import { Rule } from '../rule';
import { ANCESTOR_LABEL, FLUX_MOUNTS, FLUX_VOLUMES, INITIALIZER_VOLUME, LAUNCHER_JOB, MPI_DEFAULT_SSH_PATH, MPI_HOSTFILE_DIR, MPI_HOSTFILE_VOLUME, MPI_SSH_VOLUME, NODE_JOB, RESERVED_ENV } from './names';

export const TRAINJOB_REACH = new Rule('trainer', 'trainer/trainjob-reach', 'app',
  'kubeflow/trainer v2.3.0 runtime/core/trainingruntime.go newRuntimeInfo and mergeRuntimePatches, plugins/jobset builder.go Trainer, '
  + 'plugins torch, mpi, jax, xgboost, flux, coscheduling and volcano EnforceMLPolicy (what a TrainJob asks that never reaches the pods that train)',
  'what a TrainJob asks that its runtime\'s plugins ignore or overwrite (numProcPerNode on a runtime that never reads it, a patch mount the runtime\'s replaces, GPUs counted from a resource the plugins do not see as one ...)');
export const JOBSET_POD_NAME = new Rule('jobset', 'jobset/pod-name', 'app',
  'sigs.k8s.io/jobset v0.12.0 pkg/webhooks/jobset_webhook.go ValidateCreate (the longest pod name of each replicated job, of the JobSet Trainer names after the TrainJob, at most 63 characters)',
  'the longest Job name, <jobset>-<replicated job>-<replicas-1>, is a DNS-1035 label of at most 63 characters');

type Report = (field: string, value: unknown, allowed: string) => void;

/** The 5 characters the Job controller appends to a pod name, as the JobSet webhook counts them. */
const POD_SUFFIX = '-abcde';
const MAX_POD_NAME = 63;


/**
 * Accelerators whose resource name does not contain "gpu", so the plugins do not count them:
 * Habana Gaudi, AWS Neuron, Google TPU and NVIDIA MIG slices.
 */
const NON_GPU_ACCELERATOR = /^(habana\.ai\/gaudi|aws\.amazon\.com\/neuron(core|device)?|google\.com\/tpu|nvidia\.com\/mig-.+)$/;

/** The pod label and annotation the gang-scheduling plugins set to the TrainJob's name. */
const POD_GROUP_KEYS: Readonly<Record<string, { readonly where: 'labels' | 'annotations'; readonly key: string }>> = {
  coscheduling: { where: 'labels', key: 'scheduling.x-k8s.io/pod-group' },
  volcano: { where: 'annotations', key: 'scheduling.k8s.io/group-name' },
};

const normal = (p: unknown) => (typeof p === 'string' ? p.replace(/\/+$/, '').replace(/\/+/g, '/') || '/' : '');

/** The checks of a TrainJob document against its runtime document; `origin` follows the runtime's name in messages. */
export function reachFindings(
  job: any, runtime: any, policy: string | undefined, origin: string, report: Report, podNames: Report, nodeImage: Report,
): void {
  const name = runtime.metadata?.name;
  const rt = `the ${policy ?? 'plain'} runtime "${name}"${origin}`;
  const jobs: any[] = Array.isArray(runtime.spec?.template?.spec?.replicatedJobs) ? runtime.spec.template.spec.replicatedJobs : [];
  const trainer = job.spec?.trainer ?? {};
  const mpi = runtime.spec?.mlPolicy?.mpi;
  const launcherAsNode = mpi?.runLauncherAsNode === true;
  const ancestorOf = (j: any) => j?.template?.metadata?.labels?.[ANCESTOR_LABEL];
  const trainerJob = jobs.find(j => ancestorOf(j) === 'trainer');

  // builder.go Trainer(): image, command and args go to the job with the trainer step label only;
  // resourcesPerNode also to "node" when the launcher runs as a node (core/trainingruntime.go).
  const ranks = jobs.find(j => j?.name === NODE_JOB && ancestorOf(j) !== 'trainer');
  if (policy === 'mpi' && trainerJob && ranks) {
    // Trainer v2.4.0 sets the image on the nodes too (v2-4.ts): a rule of the versions before it.
    if (trainer.image !== undefined) {
      nodeImage('spec.trainer.image', trainer.image, `expected none on ${rt}: Trainer v2.3.0 sets the TrainJob's image only on the "${trainerJob.name}" job (the one with the trainer step label), `
        + `and the "${NODE_JOB}" job that runs the ranks keeps the runtime's image; give the runtime the image instead (one runtime per image)`);
    }
    if (trainer.resourcesPerNode !== undefined && !launcherAsNode) {
      report('spec.trainer.resourcesPerNode', trainer.resourcesPerNode, `expected none on ${rt}: without runLauncherAsNode, Trainer v2.3.0 applies resourcesPerNode only to the "${trainerJob.name}" job `
        + `(the trainer step), and the "${NODE_JOB}" job that runs the ranks keeps the runtime's resources; set them on the runtime's nodes instead`);
    }
  }

  // The jax, xgboost and plain plugins never read numProcPerNode.
  if (trainer.numProcPerNode !== undefined && (policy === 'jax' || policy === 'xgboost' || policy === undefined)) {
    const why = policy === 'jax' ? 'the jax plugin runs one JAX process per node and never reads it'
      : policy === 'xgboost' ? 'the xgboost plugin starts one worker per GPU of resourcesPerNode (else one per node) and never reads it'
        : 'a runtime without an ML policy passes nothing about processes to the pods';
    report('spec.trainer.numProcPerNode', trainer.numProcPerNode, `expected none on ${rt}: ${why}; leave it out (for more workers per node on xgboost, give each node GPUs)`);
  }

  processesPerDevice(job, trainerJob, runtime, policy, rt, report);
  envOrder(job, trainerJob, policy, rt, report);
  patchFindings(job, jobs, runtime, policy, rt, report);
  podNameLength(job, jobs, runtime, policy, podNames);
}

/**
 * Without numProcPerNode, the torch and MPI plugins count a node's devices only in resources whose
 * name contains "gpu" (runtime.GetNumGPUPerNode): torch.go EnforceMLPolicy then starts one process
 * per CPU, mpi.go EnforceMLPolicy keeps the runtime's one slot per node. A node of other
 * accelerators gets the wrong count.
 */
function processesPerDevice(job: any, trainerJob: any, runtime: any, policy: string | undefined, rt: string, report: Report): void {
  const trainer = job.spec?.trainer ?? {};
  if ((policy !== 'torch' && policy !== 'mpi') || trainer.numProcPerNode !== undefined) return;
  // MPI replaces only a runtime value of 1 (its default) with the GPU count.
  const runtimeSlots = policy === 'mpi' ? runtime?.spec?.mlPolicy?.mpi?.numProcPerNode ?? 1 : undefined;
  if (runtimeSlots !== undefined && runtimeSlots !== 1) return;
  const own = trainer.resourcesPerNode;
  const resources = own ?? trainerJob?.template?.spec?.template?.spec?.containers?.find((c: any) => c?.name === NODE_JOB)?.resources;
  if (!resources) return;
  const pick = (list: any) => (list && typeof list === 'object' ? list : {});
  const requests = pick(resources.requests);
  const limits = pick(resources.limits);
  const names = [...new Set([...Object.keys(requests), ...Object.keys(limits)])];
  if (names.some(trainerCountsAsGpu)) return;
  const device = names.find(n => NON_GPU_ACCELERATOR.test(n));
  if (!device) return;
  const devices = wholeUnits(requests[device] ?? limits[device]);
  const where = own ? 'resourcesPerNode' : 'the runtime\'s node resources';
  if (policy === 'mpi') {
    if (devices === 1) return;
    report('spec.trainer.numProcPerNode', undefined, `expected ${devices} beside ${devices} "${device}" per node in ${where} on ${rt}: the mpi plugin counts devices only in resources `
      + `whose name contains "gpu", so each node keeps 1 slot in the hostfile instead of one per device; set numProcPerNode to ${devices}`);
    return;
  }
  const cpus = Math.max(1, wholeUnits(requests.cpu) || wholeUnits(limits.cpu));
  if (devices === cpus) return;
  report('spec.trainer.numProcPerNode', undefined, `expected ${devices} beside ${devices} "${device}" per node in ${where} on ${rt}: the torch plugin counts devices only in resources `
    + `whose name contains "gpu", so it starts one process per CPU (${cpus}) instead of one per device; set numProcPerNode to ${devices}`);
}

/**
 * The trainer container's env as the kubelet sees it: the runtime's entries, the job's upserted by
 * name (replacing in place, else appended: apply.UpsertEnvVars), then the plugin's own. A `$(NAME)`
 * in a job's value expands only from entries before it (and envFrom, when the runtime has any, is
 * not judged).
 */
function envOrder(job: any, trainerJob: any, policy: string | undefined, rt: string, report: Report): void {
  const env: any[] = Array.isArray(job.spec?.trainer?.env) ? job.spec.trainer.env : [];
  if (env.length === 0) return;
  const container = trainerJob?.template?.spec?.template?.spec?.containers?.find((c: any) => c?.name === NODE_JOB);
  if (Array.isArray(container?.envFrom) && container.envFrom.length > 0) return;
  const merged: string[] = (Array.isArray(container?.env) ? container.env : []).map((e: any) => e?.name);
  const position = env.map((e: any) => {
    const at = merged.indexOf(e?.name);
    if (at >= 0) return at;
    merged.push(e?.name);
    return merged.length - 1;
  });
  const plugin = policy ? RESERVED_ENV[policy] ?? [] : [];
  env.forEach((e: any, i: number) => {
    if (typeof e?.value !== 'string') return;
    for (const name of envReferences(e.value)) {
      const defined = merged.indexOf(name);
      if (defined >= 0 && defined < position[i]) continue;
      const later = env.findIndex((x: any) => x?.name === name);
      const where = later >= 0 ? `spec.trainer.env[${later}], which lands after it in the trainer container` : plugin.includes(name) ? `by the ${policy} plugin after the TrainJob's env` : undefined;
      if (!where) continue;
      report(`spec.trainer.env[${i}].value`, e.value, `expected references only to variables defined before this entry on ${rt}: "${name}" is set ${where.startsWith('by') ? where : `at ${where}`}, `
        + `so the kubelet leaves "$(${name})" unexpanded; ${later >= 0 ? `move "${name}" before it, ` : 'read it in the program instead, '}or write "$$(${name})" to keep the text literal`);
    }
  });
}

/** A Kubernetes quantity in whole units, rounded up as resource.Quantity.Value() does (0 when unreadable). */
function wholeUnits(q: unknown): number {
  if (typeof q === 'number') return Math.ceil(q);
  if (typeof q !== 'string') return 0;
  const m = /^([0-9.]+)(m|k|M|G)?$/.exec(q.trim());
  if (!m) return 0;
  const scale: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9 };
  return Math.ceil(Number(m[1]) * (m[2] ? scale[m[2]] : 1) - 1e-9);
}

/**
 * Patch mounts and volumes against what the runtime and the plugins put there: the Trainer merges a
 * patch by mount path and volume name (strategic merge, then the plugins' upserts), so a patch at
 * a taken path replaces the runtime's mount, and a plugin's volume or mount replaces the patch's.
 */
function patchFindings(job: any, jobs: any[], runtime: any, policy: string | undefined, rt: string, report: Report): void {
  const patches: any[] = Array.isArray(job.spec?.runtimePatches) ? job.spec.runtimePatches : [];
  const byName = new Map(jobs.map(j => [j?.name, j]));
  const sshPath = normal(runtime.spec?.mlPolicy?.mpi?.sshAuthMountPath ?? MPI_DEFAULT_SSH_PATH);
  const podGroup = Object.keys(POD_GROUP_KEYS).find(k => runtime.spec?.podGroupPolicy?.[k] !== undefined);
  patches.forEach((patch, i) => {
    const listed = patch?.trainingRuntimeSpec?.template?.spec?.replicatedJobs;
    const patched: any[] = Array.isArray(listed) ? listed : [];
    patched.forEach((p, j) => {
      const target = byName.get(p?.name);
      if (!target) return;
      const at = `spec.runtimePatches[${i}].trainingRuntimeSpec.template.spec.replicatedJobs[${j}].template.spec.template`;
      const pod = p?.template?.spec?.template ?? {};
      // The gang plugins' key lands on every pod (builder.go PodLabels, PodAnnotations).
      if (podGroup) {
        const { where, key } = POD_GROUP_KEYS[podGroup];
        const value = pod.metadata?.[where]?.[key];
        if (value !== undefined) {
          report(`${at}.metadata.${where}.${key}`, value, `expected no "${key}" ${where === 'labels' ? 'label' : 'annotation'} on ${rt}: its ${podGroup} plugin sets it to the TrainJob's name on every pod, over this value`);
        }
      }
      (Array.isArray(pod.spec?.volumes) ? pod.spec.volumes : []).forEach((v: any, k: number) => {
        const plugin = policy === 'mpi' && (p.name === NODE_JOB || p.name === LAUNCHER_JOB) && (v?.name === MPI_SSH_VOLUME || (v?.name === MPI_HOSTFILE_VOLUME && p.name === LAUNCHER_JOB)) ? 'mpi'
          : policy === 'flux' && ancestorIs(target, 'trainer') && FLUX_VOLUMES.includes(v?.name) ? 'flux' : undefined;
        if (plugin) report(`${at}.spec.volumes[${k}].name`, v.name, `expected another volume name on ${rt}: its ${plugin} plugin writes a volume of this name on the "${p.name}" pods, which replaces this one; rename the volume`);
      });
      const runtimeContainers: any[] = target?.template?.spec?.template?.spec?.containers ?? [];
      (Array.isArray(pod.spec?.containers) ? pod.spec.containers : []).forEach((c: any, k: number) => {
        const own = runtimeContainers.find(rc => rc?.name === c?.name);
        (Array.isArray(c?.volumeMounts) ? c.volumeMounts : []).forEach((m: any, n: number) => {
          const field = `${at}.spec.containers[${k}].volumeMounts[${n}].mountPath`;
          const path = normal(m?.mountPath);
          const taken = (own?.volumeMounts ?? []).find((rm: any) => normal(rm?.mountPath) === path);
          if (taken?.name === INITIALIZER_VOLUME) {
            report(field, m.mountPath, `expected a path other than "${m.mountPath}", where the "${c.name}" container of ${rt} mounts the initializer workspace: a patch mount at the same path replaces it `
              + '(the Trainer merges mounts by path), so the dataset and model the initializers wrote are not there; mount this volume elsewhere');
          } else if (taken) {
            report(field, m.mountPath, `expected a path other than "${m.mountPath}", where the "${c.name}" container of ${rt} mounts the volume "${taken.name}": a patch mount at the same path replaces it (the Trainer merges mounts by path); mount this volume elsewhere`);
          } else if (c?.name === NODE_JOB && policy === 'mpi' && (p.name === NODE_JOB || p.name === LAUNCHER_JOB) && (path === sshPath || (path === MPI_HOSTFILE_DIR && p.name === LAUNCHER_JOB))) {
            report(field, m.mountPath, `expected a path other than "${m.mountPath}" on ${rt}: its mpi plugin mounts ${path === sshPath ? 'the SSH keys' : 'the hostfile'} there on the "${p.name}" pods, which replaces this mount; mount this volume elsewhere`);
          } else if (c?.name === NODE_JOB && policy === 'flux' && ancestorIs(target, 'trainer') && FLUX_MOUNTS.includes(path)) {
            report(field, m.mountPath, `expected a path other than "${m.mountPath}" on ${rt}: its flux plugin mounts its own volume there on the "${p.name}" pods, which replaces this mount; mount this volume elsewhere`);
          }
        });
      });
    });
  });
}

function ancestorIs(job: any, step: string): boolean {
  return job?.template?.metadata?.labels?.[ANCESTOR_LABEL] === step;
}

/**
 * The JobSet webhook's pod-name check (jobset_webhook.go ValidateCreate): the JobSet is named after
 * the TrainJob, and each replicated job's longest pod name, `<jobset>-<job>-<replicas-1>-<completions-1>-abcde`,
 * must be a DNS-1035 label of at most 63 characters. Completions are the pods the Trainer counts
 * (core/trainingruntime.go newRuntimeInfo, then the plugins): the trainer step's are the runtime's
 * nodes, then the job's (every plugin but MPI's); the MPI "node" job's are the job's nodes, less
 * the launcher when it runs as a node; any other job's are its parallelism.
 */
/**
 * How many Jobs (replicas) and pods per Job (parallelism, and completions: SyncParallelCount sets
 * both) the JobSet that Trainer v2.3.0 builds from `job` and `runtime` gives the replicated job `j`.
 */
export function jobSetShape(job: any, j: any, runtime: any, policy: string | undefined): { readonly replicas: number; readonly pods: number } {
  const trainer = job.spec?.trainer ?? {};
  const ancestor = j?.template?.metadata?.labels?.[ANCESTOR_LABEL];
  const replicas = ancestor !== undefined ? 1 : Number(j?.replicas ?? 1);
  let pods = Number(j?.template?.spec?.parallelism ?? 1);
  if (ancestor === 'trainer') {
    pods = runtime.spec?.mlPolicy?.numNodes ?? 1;
    // Every plugin but MPI's sets the trainer step's pods to the job's nodes (plainml covers xgboost, flux and none).
    if (trainer.numNodes !== undefined && policy !== 'mpi') pods = trainer.numNodes;
  }
  const launcherAsNode = runtime.spec?.mlPolicy?.mpi?.runLauncherAsNode === true;
  if (policy === 'mpi' && j?.name === NODE_JOB && trainer.numNodes !== undefined) pods = launcherAsNode ? Math.max(trainer.numNodes - 1, 1) : trainer.numNodes;
  return { replicas, pods };
}

function podNameLength(job: any, jobs: any[], runtime: any, policy: string | undefined, report: Report): void {
  const name = job.metadata?.name;
  if (typeof name !== 'string' || name === '') return;
  let worst: { pod: string; job: string; pods: number } | undefined;
  for (const j of jobs) {
    if (typeof j?.name !== 'string') continue;
    const { replicas, pods } = jobSetShape(job, j, runtime, policy);
    const pod = `${name}-${j.name}-${Math.max(replicas - 1, 0)}-${Math.max(pods - 1, 0)}${POD_SUFFIX}`;
    if (pod.length > MAX_POD_NAME && (!worst || pod.length > worst.pod.length)) worst = { pod, job: j.name, pods };
  }
  if (!worst) return;
  const over = worst.pod.length - MAX_POD_NAME;
  report('metadata.name', name, `expected at most ${name.length - over} characters: JobSet v0.12.0 names the pods "<TrainJob name>-<replicated job>-<job index>-<pod index>-<5 random characters>", `
    + `and the longest of the "${worst.job}" job (${worst.pods} pod${worst.pods === 1 ? '' : 's'}), "${worst.pod}", is ${worst.pod.length} characters; `
    + 'its webhook refuses a JobSet whose pod names exceed 63, so the TrainJob is admitted and never runs; shorten the name');
}
