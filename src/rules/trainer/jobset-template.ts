/**
 * What the JobSet webhook (sigs.k8s.io/jobset v0.12.0 pkg/webhooks/jobset_webhook.go ValidateCreate)
 * refuses in the JobSet template of a TrainingRuntime or ClusterTrainingRuntime. The Trainer copies
 * the template into the JobSet it creates for each TrainJob, so a template the webhook refuses is a
 * runtime that admits TrainJobs which never start: the TrainJob is accepted, its JobSet is not.
 *
 * Only the checks that the template alone decides are here. The ones that need the TrainJob (names
 * built from its name) are jobset/pod-name's; the ones that need the cluster (feature gates, an
 * existing PersistentVolumeClaim) are in inventory/jobset.yaml with their reasons.
 */
import { Finding } from '../finding';
import { isDomainPrefixedPath } from './domain-prefixed-path';
import { child, indexed } from '../kubernetes/field-path';
import { DNS1035_LABEL_TEXT, DNS1123_SUBDOMAIN_TEXT, QUALIFIED_NAME_TEXT, isDns1035Label, isDns1123Subdomain, isObject, isQualifiedName } from '../kubernetes/names';
import { Rule } from '../rule';

const SOURCE = 'sigs.k8s.io/jobset v0.12.0 pkg/webhooks/jobset_webhook.go';

export const DEPENDS_ON = new Rule('jobset', 'jobset/depends-on', 'runtimes',
  `${SOURCE} ValidateCreate (the first replicated job depends on none; dependsOn names a replicated job listed before)`,
  'the first replicated job has no dependsOn');
export const SUBDOMAIN = new Rule('jobset', 'jobset/subdomain', 'runtimes',
  `${SOURCE} ValidateCreate (network.subdomain: IsDNS1123Subdomain and IsDNS1035Label, it names a Service)`,
  'network.subdomain, when set, is a DNS-1123 subdomain and a DNS-1035 label (it names a Service)');
export const GROUP_NAME = new Rule('jobset', 'jobset/group-name', 'runtimes',
  `${SOURCE} ValidateCreate (replicatedJobs[].groupName: IsDNS1035Label)`,
  'each replicated job\'s groupName is a DNS-1035 label');
export const TARGET_JOBS = new Rule('jobset', 'jobset/target-replicated-jobs', 'runtimes',
  `${SOURCE} ValidateCreate and validateFailurePolicy (successPolicy and failure policy rules target replicated jobs of the JobSet)`,
  'successPolicy.targetReplicatedJobs names replicated jobs of the JobSet');
export const FAILURE_RULE = new Rule('jobset', 'jobset/failure-policy-rule', 'runtimes',
  `${SOURCE} validateFailurePolicy (rule names of 1 to 128 characters matching ruleNameFmt, unique; onJobFailureReasons known)`,
  'each failure policy rule\'s name (defaulted to failurePolicyRule<index>) has 1 to 128 characters of the allowed set');
export const COORDINATOR = new Rule('jobset', 'jobset/coordinator', 'runtimes',
  `${SOURCE} validateCoordinator (coordinator.replicatedJob is a replicated job of the JobSet, in Indexed completion mode)`,
  'coordinator.replicatedJob names a replicated job of the JobSet');
export const VOLUME_CLAIM_TEMPLATE = new Rule('jobset', 'jobset/volume-claim-template', 'runtimes',
  `${SOURCE} validateVolumeClaimPolicies and validateReplicatedJobsVolumeClaims (template names unique DNS-1123 subdomains, mounted by a container, not a pod volume's name)`,
  'each claim template\'s name is a DNS-1123 subdomain, unique across the policies');
export const MANAGED_BY = new Rule('jobset', 'jobset/managed-by', 'runtimes',
  `${SOURCE} ValidateCreate (managedBy: IsDomainPrefixedPath, at most 63 characters)`,
  'managedBy, when set, is a domain-prefixed path of at most 63 characters');
export const REPLICAS_TIMES_PARALLELISM = new Rule('jobset', 'jobset/replicas-parallelism', 'runtimes',
  `${SOURCE} ValidateCreate (replicas x parallelism of a replicated job at most MaxInt32)`,
  'replicas times parallelism of each replicated job is at most MaxInt32');

export const EXCLUSIVE_TOPOLOGY = new Rule('jobset', 'jobset/exclusive-topology', 'runtimes',
  'sigs.k8s.io/jobset v0.12.0 pkg/webhooks/pod_webhook.go setExclusiveAffinities (the annotation becomes the leader pod\'s affinity topologyKey) and k8s.io/kubernetes ValidatePodAffinityTerm (a topologyKey is a qualified name)',
  'the exclusive-topology annotation of a JobSet or a replicated job names a topology label key');

export const POD_PRIORITY_LABEL = new Rule('jobset', 'jobset/pod-priority-label', 'runtimes',
  'sigs.k8s.io/jobset v0.12.0 pkg/webhooks/pod_webhook.go Default (labels each pod with a priority with jobset.sigs.k8s.io/priority: <priority>) and k8s.io/apimachinery IsValidLabelValue',
  'a replicated job\'s pod template sets no negative priority (the JobSet\'s pod webhook writes it as a label value, which cannot start with "-")');

export const JOBSET_TEMPLATE_RULES = [
  DEPENDS_ON, SUBDOMAIN, GROUP_NAME, TARGET_JOBS, FAILURE_RULE, COORDINATOR, VOLUME_CLAIM_TEMPLATE, REPLICAS_TIMES_PARALLELISM, MANAGED_BY,
  EXCLUSIVE_TOPOLOGY,
  POD_PRIORITY_LABEL,
];

/** The annotation that asks the JobSet for exclusive placement per topology domain (jobset.ExclusiveKey). */
export const EXCLUSIVE_TOPOLOGY_ANNOTATION = 'alpha.jobset.sigs.k8s.io/exclusive-topology';

/**
 * The exclusive-topology annotation on the metadata at `at` (the JobSet's, or a replicated job's):
 * the JobSet controller copies it onto the pods and its pod webhook makes it the leader pod's
 * affinity topologyKey, which the API server requires to be a label key, so the leader pod of every
 * Job is refused; the annotation itself, any string, passes every webhook.
 */
export function checkExclusiveTopology(meta: unknown, at: string, out: Finding[]): void {
  if (!isObject(meta) || !isObject(meta.annotations)) return;
  const value = meta.annotations[EXCLUSIVE_TOPOLOGY_ANNOTATION];
  if (value === undefined || isQualifiedName(value)) return;
  EXCLUSIVE_TOPOLOGY.report(out, child(child(at, 'annotations'), EXCLUSIVE_TOPOLOGY_ANNOTATION), value,
    `expected a topology label key such as "cloud.google.com/gke-nodepool" (${QUALIFIED_NAME_TEXT}): the JobSet's pod webhook makes it the leader pods' affinity topologyKey, and the API server refuses those pods, so the Jobs never run`);
}

// validateFailurePolicy's name format and the Job failure reasons it accepts (batchv1.JobReason*).
const RULE_NAME = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const FAILURE_REASONS = ['BackoffLimitExceeded', 'DeadlineExceeded', 'FailedIndexes', 'MaxFailedIndexesExceeded', 'PodFailurePolicy'];
const MAX_INT32 = 2147483647;
const REFUSED = 'the JobSet webhook refuses it, so every TrainJob of this runtime is admitted and never starts';
const REFUSED_PODS = 'every TrainJob of this runtime is admitted and never gets pods';

/** The findings of the JobSet template at `at` (a runtime's `spec.template.spec`). */
export function checkJobSetTemplate(spec: any, at: string, out: Finding[]): void {
  if (!isObject(spec)) return;
  const jobs: any[] = Array.isArray(spec.replicatedJobs) ? spec.replicatedJobs : [];
  const jobsAt = child(at, 'replicatedJobs');
  const names = jobs.map(j => j?.name).filter((n): n is string => typeof n === 'string');
  const list = names.map(n => `"${n}"`).join(', ');

  jobs.forEach((job, i) => {
    if (!isObject(job)) return;
    const jobAt = indexed(jobsAt, i);
    if (Array.isArray(job.dependsOn)) {
      job.dependsOn.forEach((d: any, k: number) => {
        const earlier = names.slice(0, i);
        if (i === 0) {DEPENDS_ON.report(out, child(jobAt, 'dependsOn'), job.dependsOn, `expected no dependsOn on the first replicated job; ${REFUSED}`);} else if (!earlier.includes(d?.name)) {
          DEPENDS_ON.report(out, `${indexed(child(jobAt, 'dependsOn'), k)}.name`, d?.name,
            `expected a replicated job listed before this one (${earlier.map(n => `"${n}"`).join(', ')}); ${REFUSED}`);
        }
      });
    }
    if (job.groupName !== undefined && !isDns1035Label(job.groupName)) {
      GROUP_NAME.report(out, child(jobAt, 'groupName'), job.groupName, `expected ${DNS1035_LABEL_TEXT}; ${REFUSED}`);
    }
    const priority = job.template?.spec?.template?.spec?.priority;
    if (typeof priority === 'number' && priority < 0) {
      POD_PRIORITY_LABEL.report(out, `${jobAt}.template.spec.template.spec.priority`, priority,
        `expected 0 or more, or not set (the PriorityClass gives it): the JobSet's pod webhook labels each pod jobset.sigs.k8s.io/priority: "${priority}", not a label value, so the API server refuses the pods; ${REFUSED_PODS}`);
    }
    const replicas = typeof job.replicas === 'number' ? job.replicas : 1;
    const parallelism = typeof job.template?.spec?.parallelism === 'number' ? job.template.spec.parallelism : 1;
    if (replicas * parallelism > MAX_INT32) {
      REPLICAS_TIMES_PARALLELISM.report(out, child(jobAt, 'replicas'), replicas,
        `expected replicas x parallelism (${replicas} x ${parallelism}) of at most ${MAX_INT32}; ${REFUSED}`);
    }
  });

  const subdomain = spec.network?.subdomain;
  if (typeof subdomain === 'string' && subdomain !== '' && !(isDns1123Subdomain(subdomain) && isDns1035Label(subdomain))) {
    SUBDOMAIN.report(out, `${at}.network.subdomain`, subdomain, `expected ${DNS1035_LABEL_TEXT} (it names the JobSet's Service); ${REFUSED}`);
  }

  const manager = spec.managedBy;
  if (manager !== undefined && manager !== null && (!isDomainPrefixedPath(manager) || String(manager).length > 63)) {
    MANAGED_BY.report(out, `${at}.managedBy`, manager, `expected a domain-prefixed path such as "example.io/controller" of at most 63 characters; ${REFUSED}`);
  }

  const targets = (value: unknown, targetAt: string) => {
    if (!Array.isArray(value)) return;
    value.forEach((name, k) => {
      if (!names.includes(name)) TARGET_JOBS.report(out, indexed(targetAt, k), name, `expected a replicated job of this runtime (${list}); ${REFUSED}`);
    });
  };
  targets(spec.successPolicy?.targetReplicatedJobs, `${at}.successPolicy.targetReplicatedJobs`);

  const rules = spec.failurePolicy?.rules;
  if (Array.isArray(rules)) {
    const seen = new Map<string, number>();
    rules.forEach((rule: any, k: number) => {
      if (!isObject(rule)) return;
      const ruleAt = indexed(`${at}.failurePolicy.rules`, k);
      // The webhook's defaulter names an unnamed rule failurePolicyRule<index> first.
      const name = rule.name === undefined || rule.name === '' ? `failurePolicyRule${k}` : rule.name;
      if (typeof name === 'string') {
        if (name.length > 128 || !RULE_NAME.test(name)) {
          FAILURE_RULE.report(out, child(ruleAt, 'name'), name,
            `expected at most 128 letters, digits, "_", "," or ":", starting with a letter and ending with a letter, digit or "_"; ${REFUSED}`);
        }
        const first = seen.get(name);
        if (first !== undefined) FAILURE_RULE.report(out, child(ruleAt, 'name'), name, `expected a name no other rule has (rule ${first} has it); ${REFUSED}`);
        else seen.set(name, k);
      }
      targets(rule.targetReplicatedJobs, child(ruleAt, 'targetReplicatedJobs'));
      if (Array.isArray(rule.onJobFailureReasons)) {
        rule.onJobFailureReasons.forEach((reason: unknown, r: number) => {
          if (!FAILURE_REASONS.includes(reason as string)) {
            FAILURE_RULE.report(out, indexed(child(ruleAt, 'onJobFailureReasons'), r), reason,
              `expected one of ${FAILURE_REASONS.map(f => `"${f}"`).join(', ')}; ${REFUSED}`);
          }
        });
      }
    });
  }

  const coordinator = spec.coordinator?.replicatedJob;
  if (typeof coordinator === 'string' && !names.includes(coordinator)) {
    COORDINATOR.report(out, `${at}.coordinator.replicatedJob`, coordinator, `expected a replicated job of this runtime (${list}); ${REFUSED}`);
  } else if (typeof coordinator === 'string') {
    // The JobSet defaults an unset completionMode to Indexed; only an explicit other mode is refused.
    const k = jobs.findIndex(j => j?.name === coordinator);
    const mode = jobs[k]?.template?.spec?.completionMode;
    if (mode !== undefined && mode !== 'Indexed') {
      COORDINATOR.report(out, `${indexed(`${at}.replicatedJobs`, k)}.template.spec.completionMode`, mode,
        `expected "Indexed" or not set: the coordinator's job names its pods by index; ${REFUSED}`);
    }
  }

  checkVolumeClaimPolicies(spec, at, jobs, out);
}

function checkVolumeClaimPolicies(spec: any, at: string, jobs: any[], out: Finding[]): void {
  const policies = spec.volumeClaimPolicies;
  if (!Array.isArray(policies)) return;
  const seen = new Set<string>();
  const podSpecs = jobs.map(j => j?.template?.spec?.template?.spec).filter(isObject);
  policies.forEach((policy: any, p: number) => {
    if (!Array.isArray(policy?.templates)) return;
    policy.templates.forEach((template: any, t: number) => {
      const name = template?.metadata?.name;
      if (typeof name !== 'string') return;
      const nameAt = `${indexed(`${indexed(`${at}.volumeClaimPolicies`, p)}.templates`, t)}.metadata.name`;
      if (seen.has(name)) VOLUME_CLAIM_TEMPLATE.report(out, nameAt, name, `expected a name no other claim template has; ${REFUSED}`);
      seen.add(name);
      if (!isDns1123Subdomain(name)) VOLUME_CLAIM_TEMPLATE.report(out, nameAt, name, `expected ${DNS1123_SUBDOMAIN_TEXT}; ${REFUSED}`);
      if (podSpecs.some(s => Array.isArray(s.volumes) && s.volumes.some((v: any) => v?.name === name))) {
        VOLUME_CLAIM_TEMPLATE.report(out, nameAt, name, `expected a name no pod volume of the runtime has (the JobSet adds the claim's volume under it); ${REFUSED}`);
      }
      const mounted = podSpecs.some(s => [...(s.containers ?? []), ...(s.initContainers ?? [])]
        .some((c: any) => Array.isArray(c?.volumeMounts) && c.volumeMounts.some((m: any) => m?.name === name)));
      if (!mounted) VOLUME_CLAIM_TEMPLATE.report(out, nameAt, name, `expected a container of the runtime to mount it (volumeMounts[].name); ${REFUSED}`);
    });
  });
}
