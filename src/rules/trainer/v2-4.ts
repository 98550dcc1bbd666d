/**
 * What Trainer v2.4.0 changed for manifests a v2.3 cluster accepts (from its release notes; the Go
 * module proxy does not serve v2.4.0, so no code of it runs here, docs/versions.md). Each rule
 * carries the versions it applies to, so a target of Trainer v2.3 or older drops it, and without a
 * target (the whole window, v2.2.0 to v2.4.0) it refuses what the versions disagree on.
 */
import { Finding } from '../finding';
import { child, indexed } from '../kubernetes/field-path';
import { isObject } from '../kubernetes/names';
import { Rule } from '../rule';
import { ANCESTOR_LABEL, LAUNCHER_JOB, MAX_REPLICATED_JOB_NAME, NODE_JOB } from './names';

/** The release that changed them. */
const V2_4 = 'v2.4.0';

export const REPLICATED_JOB_NAME_LENGTH = new Rule('trainer', 'trainer/replicated-job-name-length', 'runtimes',
  'kubeflow/trainer v2.4.0 runtime validation (#4394: replicated-job names of at most 20 characters, so JobSet pod and service names fit)',
  'a runtime\'s replicated-job names are at most 20 characters',
  { versions: { upstream: 'trainer', from: V2_4 } });

export const PRTE_ENV = new Rule('trainer', 'trainer/prte-env', 'env',
  'kubeflow/trainer v2.4.0 plugins/mpi (#4029: the PRTE_MCA_* variables of Open MPI 5 are the plugin\'s own on MPI jobs)',
  'no PRTE_MCA_* variable on an MPI runtime\'s containers or in an MPI TrainJob\'s env',
  { versions: { upstream: 'trainer', from: V2_4 } });

/*
 * The TrainJob's image on an MPI runtime: Trainer v2.3.0 sets it only on the replicated job with
 * the trainer step label (builder.go Trainer()), v2.4.0 on the launcher and the nodes (#4301). So a
 * job of the two without the label runs the runtime's image before v2.4.0 and the TrainJob's from
 * it. The library's runtimes (and the built-in ones) label the launcher: their nodes differ, which
 * before v2.4.0 is refused outright (MPI_NODE_IMAGE, a rule only the versions before v2.4.0 need);
 * a runtime that labels the nodes has a launcher that differs (MPI_LAUNCHER_IMAGE, while the
 * window holds versions on both sides).
 */
export const MPI_LAUNCHER_IMAGE = new Rule('trainer', 'trainer/mpi-launcher-image', 'app',
  'kubeflow/trainer v2.4.0 plugins/mpi (#4301: the TrainJob\'s image is set on the MPI launcher as well as the nodes); v2.3.0 builder.go Trainer() sets it on the trainer step\'s job only',
  'an MPI TrainJob\'s image equals its runtime\'s launcher image when the launcher is not the trainer step',
  { versions: { upstream: 'trainer', across: V2_4 } });

export const MPI_NODE_IMAGE = new Rule('trainer', 'trainer/mpi-node-image', 'app',
  'kubeflow/trainer v2.3.0 builder.go Trainer(): the TrainJob\'s image goes to the job with the trainer step label only, so the MPI nodes keep the runtime\'s (v2.4.0 sets it on the nodes too, #4301)',
  'no TrainJob image on an MPI runtime whose nodes are not the trainer step',
  { versions: { upstream: 'trainer', before: V2_4 } });

export const TRAINER_V2_4_RULES = [REPLICATED_JOB_NAME_LENGTH, PRTE_ENV];

/** The prefix Open MPI 5's variables share; v2.4.0's MPI plugin sets them itself. */
export const PRTE_PREFIX = 'PRTE_MCA_';

/** Replicated-job names of a runtime longer than v2.4.0 allows. */
export function checkReplicatedJobNameLength(job: any, jobAt: string, out: Finding[]): void {
  if (typeof job?.name === 'string' && job.name.length > MAX_REPLICATED_JOB_NAME) {
    REPLICATED_JOB_NAME_LENGTH.report(out, child(jobAt, 'name'), job.name,
      `expected at most ${MAX_REPLICATED_JOB_NAME} characters: Trainer ${V2_4} and later refuse a runtime with a longer replicated-job name `
      + `(the JobSet's pod names grow with it); shorten it, or set a target of Trainer before ${V2_4} (trainer=v2.3)`);
  }
}

/** What a `PRTE_MCA_*` name is refused with; `whose` says whose MPI job it is. */
function prteAllowed(whose: string): string {
  return `expected a name outside ${PRTE_PREFIX}*: Trainer ${V2_4} and later set those variables themselves on ${whose} (Open MPI 5); `
    + `rename it, or set a target of Trainer before ${V2_4} (trainer=v2.3)`;
}

/** `PRTE_MCA_*` variables on the containers of an MPI runtime. */
export function checkRuntimePrteEnv(doc: any, out: Finding[]): void {
  if (doc?.spec?.mlPolicy?.mpi === undefined) return;
  const jobs = doc?.spec?.template?.spec?.replicatedJobs;
  if (!Array.isArray(jobs)) return;
  jobs.forEach((job: any, i: number) => {
    const spec = job?.template?.spec?.template?.spec;
    if (!isObject(spec)) return;
    for (const list of ['initContainers', 'containers'] as const) {
      const containers = spec[list];
      if (!Array.isArray(containers)) continue;
      containers.forEach((c: any, k: number) => {
        if (!Array.isArray(c?.env)) return;
        c.env.forEach((e: any, n: number) => {
          if (typeof e?.name === 'string' && e.name.startsWith(PRTE_PREFIX)) {
            const at = `${indexed('spec.template.spec.replicatedJobs', i)}.template.spec.template.spec.${list}[${k}].env[${n}].name`;
            PRTE_ENV.report(out, at, e.name, prteAllowed('the jobs of this MPI runtime'));
          }
        });
      });
    }
  });
}

type Report = (field: string, value: unknown, allowed: string) => void;

/** `PRTE_MCA_*` variables in a TrainJob's trainer env, on an MPI runtime (`runtime` names it in messages). */
export function trainJobPrteEnv(job: any, runtime: string, report: Report): void {
  const env = job?.spec?.trainer?.env;
  if (!Array.isArray(env)) return;
  env.forEach((e: any, i: number) => {
    if (typeof e?.name === 'string' && e.name.startsWith(PRTE_PREFIX)) report(`spec.trainer.env[${i}].name`, e.name, prteAllowed(`a job of the MPI runtime ${runtime}`));
  });
}

/**
 * A TrainJob whose image is not its MPI runtime's launcher image, where the launcher is not the
 * trainer step: before v2.4.0 the launcher runs the runtime's image, from v2.4.0 the TrainJob's,
 * so the same manifest runs a different launcher across the window. `runtime` names it in messages.
 */
export function trainJobLauncherImage(job: any, runtimeDoc: any, runtime: string, report: Report): void {
  const image = job?.spec?.trainer?.image;
  if (typeof image !== 'string') return;
  const jobs = runtimeDoc?.spec?.template?.spec?.replicatedJobs;
  const launcher = Array.isArray(jobs) ? jobs.find((j: any) => j?.name === LAUNCHER_JOB) : undefined;
  if (launcher === undefined || launcher?.template?.metadata?.labels?.[ANCESTOR_LABEL] === 'trainer') return;
  const launcherImage = mainImageOf(launcher);
  if (launcherImage === undefined || launcherImage === image) return;
  report('spec.trainer.image', image,
    `expected the image of the launcher of the MPI runtime ${runtime} ("${launcherImage}") while the target spans Trainer v2.3 and v2.4: `
    + `Trainer before ${V2_4} runs the launcher from the runtime's image "${launcherImage}", ${V2_4} and later from the TrainJob's "${image}"; `
    + 'use the same image, or set the target to one of them (trainer=v2.3 or trainer=v2.4)');
}

/** The image of a replicated job's main container (named like the nodes', else the first). */
function mainImageOf(job: any): string | undefined {
  const containers = job?.template?.spec?.template?.spec?.containers;
  if (!Array.isArray(containers) || containers.length === 0) return undefined;
  const main = containers.find((c: any) => c?.name === NODE_JOB) ?? containers[0];
  return typeof main?.image === 'string' ? main.image : undefined;
}
