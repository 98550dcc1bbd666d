/**
 * What the JobSet v0.12.0 webhook refuses in the JobSet that Trainer v2.3.0 builds from a TrainJob
 * and its runtime, beyond pod names (jobset/pod-name): the coordinator's indexes and endpoint
 * label, and the names of the claims its volume claim policies create. Each grows with the
 * TrainJob's name or its nodes, so neither document alone shows it; the TrainJob is admitted and
 * never runs.
 */
import { isLabelValue } from '../kubernetes/names';
import { Rule } from '../rule';
import { jobSetShape } from './trainjob-reach';

const SOURCE = 'sigs.k8s.io/jobset v0.12.0 pkg/webhooks/jobset_webhook.go';

export const JOBSET_COORDINATOR = new Rule('jobset', 'jobset/coordinator-index', 'app',
  `${SOURCE} validateCoordinator and validateCoordinatorLabelValue (the coordinator's job and pod index within the built JobSet, its endpoint a label value)`,
  'the coordinator endpoint <jobset>-<job>-<job index>-<pod index>.<subdomain> fits a label value (63 characters)');
export const JOBSET_CLAIM_NAME = new Rule('jobset', 'jobset/claim-name', 'app',
  `${SOURCE} validateVolumeClaimPolicies (the claim name "<template>-<JobSet>" at most 63 characters)`,
  'the claim name <template>-<jobset> is at most 63 characters');

type Report = (field: string, value: unknown, allowed: string) => void;

const NEVER_RUNS = 'the JobSet webhook refuses the JobSet, so the TrainJob is admitted and never runs';
const MAX_CLAIM_NAME = 63;

/** The checks of a TrainJob against its runtime; `origin` follows the runtime's name in messages. */
export function builtJobSetFindings(job: any, runtime: any, policy: string | undefined, origin: string, coordinator: Report, claims: Report): void {
  const name = job.metadata?.name;
  const rt = `the runtime "${runtime.metadata?.name}"${origin}`;
  const spec = runtime.spec?.template?.spec ?? {};
  const jobs: any[] = Array.isArray(spec.replicatedJobs) ? spec.replicatedJobs : [];
  checkCoordinator(job, name, spec, jobs, runtime, policy, rt, coordinator);
  if (typeof name !== 'string' || name === '' || !Array.isArray(spec.volumeClaimPolicies)) return;
  for (const policyEntry of spec.volumeClaimPolicies) {
    for (const template of Array.isArray(policyEntry?.templates) ? policyEntry.templates : []) {
      const claim = `${template?.metadata?.name}-${name}`;
      if (typeof template?.metadata?.name !== 'string' || claim.length <= MAX_CLAIM_NAME) continue;
      claims('metadata.name', name, `expected at most ${name.length - (claim.length - MAX_CLAIM_NAME)} characters: JobSet v0.12.0 names the claim of the volume claim template `
        + `"${template.metadata.name}" of ${rt} "<template>-<TrainJob name>", here "${claim}" (${claim.length} characters, over ${MAX_CLAIM_NAME}); ${NEVER_RUNS}; shorten the name`);
    }
  }
}

function checkCoordinator(
  job: any, name: unknown, spec: any, jobs: any[], runtime: any, policy: string | undefined, rt: string, report: Report,
): void {
  const c = spec.coordinator;
  if (typeof c?.replicatedJob !== 'string') return;
  const target = jobs.find(j => j?.name === c.replicatedJob);
  // A coordinator naming no job is jobset/coordinator's, on the runtime.
  if (target === undefined) return;
  const jobIndex = c.jobIndex ?? 0;
  const podIndex = c.podIndex ?? 0;
  const { replicas, pods } = jobSetShape(job, target, runtime, policy);
  if (typeof jobIndex === 'number' && jobIndex >= replicas) {
    report('spec.runtimeRef.name', runtime.metadata?.name, `expected a runtime whose coordinator.jobIndex (${jobIndex}) is below the ${replicas} Job${replicas === 1 ? '' : 's'} of its "${target.name}" replicated job `
      + `in the JobSet built for this TrainJob: ${rt} names a coordinator that does not exist; ${NEVER_RUNS}`);
  }
  if (typeof podIndex === 'number' && podIndex >= pods) {
    const nodes = job.spec?.trainer?.numNodes;
    const field = nodes !== undefined ? 'spec.trainer.numNodes' : 'spec.runtimeRef.name';
    report(field, nodes ?? runtime.metadata?.name, `expected the coordinator.podIndex (${podIndex}) of ${rt} to be below the ${pods} pod${pods === 1 ? '' : 's'} per Job `
      + `that the "${target.name}" job gets for this TrainJob (Trainer sets completions to that count); ${NEVER_RUNS}`);
  }
  if (typeof name !== 'string' || name === '') return;
  const endpoint = `${name}-${c.replicatedJob}-${jobIndex}-${podIndex}.${spec.network?.subdomain ?? name}`;
  if (!isLabelValue(endpoint)) {
    report('metadata.name', name, `expected a name that keeps the coordinator endpoint "<TrainJob name>-<job>-<job index>-<pod index>.<subdomain>" of ${rt} a label value of at most 63 characters: `
      + `here "${endpoint}" (${endpoint.length} characters), which the JobSet writes as a label; ${NEVER_RUNS}; shorten the name${spec.network?.subdomain === undefined ? ' (the subdomain is the name too, unless the runtime sets network.subdomain)' : ''}`);
  }
}
