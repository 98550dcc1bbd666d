/**
 * The labels and annotations JobSet v0.12.0 writes on each Job it creates and on the Job's pod
 * template (pkg/controllers/jobset_controller.go labelAndAnnotateObject): it copies the template's
 * own, then sets its keys over them. A runtime that writes one of these keys on a replicated job's
 * template or pod template has it replaced on every Job and pod, silently, so whatever selects on
 * the runtime's value (a topology spread, an affinity, a monitoring query) sees JobSet's instead.
 * With DNS hostnames on (the default), constructJob also writes the JobSet's subdomain over the pod
 * template's own (network.subdomain, else the JobSet's name), so a subdomain there never applies.
 */
import { Finding } from '../finding';
import { child, indexed } from '../kubernetes/field-path';
import { Rule } from '../rule';

export const JOBSET_OWNED_KEYS = new Rule('jobset', 'jobset/controller-keys', 'runtimes',
  'sigs.k8s.io/jobset v0.12.0 pkg/controllers/jobset_controller.go labelAndAnnotateObject (its keys set over the Job\'s and the pod template\'s labels and annotations) and constructJob (the subdomain)',
  'a runtime\'s replicated jobs carry none of the jobset.sigs.k8s.io/ labels and annotations the JobSet controller writes on their Jobs and pods, nor a pod subdomain it replaces');

/** The keys labelAndAnnotateObject writes, as labels and as annotations (api/jobset/v1alpha2, pkg/constants). */
const OWNED = new Set([
  'jobset-name', 'jobset-uid', 'replicatedjob-name', 'restart-attempt', 'job-restart-attempt', 'replicatedjob-replicas', 'global-replicas',
  'job-index', 'job-key', 'job-global-index', 'group-name', 'group-replicas', 'job-group-index', 'coordinator',
].map(k => `jobset.sigs.k8s.io/${k}`));

/** Checks the Job and pod template metadata of each replicated job of a runtime's JobSet template. */
export function checkJobSetOwnedKeys(spec: any, at: string, out: Finding[]): void {
  const jobs = spec?.replicatedJobs;
  if (!Array.isArray(jobs)) return;
  const dnsHostnames = spec?.network?.enableDNSHostnames !== false;
  jobs.forEach((job: any, i: number) => {
    const jobAt = child(indexed(child(at, 'replicatedJobs'), i), 'template');
    const subdomain = job?.template?.spec?.template?.spec?.subdomain;
    if (dnsHostnames && typeof subdomain === 'string' && subdomain !== '') {
      JOBSET_OWNED_KEYS.report(out, `${jobAt}.spec.template.spec.subdomain`, subdomain,
        `expected none in the pod template: the JobSet controller sets every pod's subdomain to ${typeof spec?.network?.subdomain === 'string' ? `network.subdomain ("${spec.network.subdomain}")` : 'the JobSet\'s name'}, over this one; leave it out`);
    }
    checkOwnedKeysIn(job?.template?.metadata, child(jobAt, 'metadata'), 'Job', out);
    checkOwnedKeysIn(job?.template?.spec?.template?.metadata, child(child(child(jobAt, 'spec'), 'template'), 'metadata'), 'pod', out);
  });
}

/** Checks one metadata object (a Job's or a pod template's) for the keys the JobSet controller writes over. */
export function checkOwnedKeysIn(metadata: any, metaAt: string, what: 'Job' | 'pod', out: Finding[]): void {
  for (const list of ['labels', 'annotations'] as const) {
    const map = metadata?.[list];
    if (typeof map !== 'object' || map === null) continue;
    for (const key of Object.keys(map)) {
      if (!OWNED.has(key)) continue;
      JOBSET_OWNED_KEYS.report(out, child(child(metaAt, list), key), map[key],
        `expected no "${key}" ${list === 'labels' ? 'label' : 'annotation'}: the JobSet controller writes its own value under this key on every ${what} of the replicated job, over this one`);
    }
  }
}
