/**
 * The rules Kubeflow Trainer v2.3.0's webhooks apply to one document, offline: the runtime's steps
 * (pkg/webhooks/trainingruntime_webhook.go validateReplicatedJobs), the runtime patches of a
 * TrainJob that need no runtime (pkg/runtime/framework/plugins/jobset/jobset.go Validate), and the
 * replicated-job name limit that the next release (v2.4) adds (v2-4.ts). Checks against the runtime a
 * TrainJob names are across documents (trainjob-runtime.ts).
 */
import { CLUSTER_TRAINING_RUNTIME, TRAINING_RUNTIME } from '../../kinds/trainer';
import { Finding } from '../finding';
import { TRAINER_COUNT_RULES, checkRuntimeCounts, checkTrainJobCounts } from './counts';
import { isDomainPrefixedPath } from './domain-prefixed-path';
import { INITIALIZER_STORAGE_URI, initializerEnvFindings } from './initializer-uri';
import { checkJobSetOwnedKeys, checkOwnedKeysIn } from './jobset-owned-keys';
import { checkExclusiveTopology, checkJobSetTemplate } from './jobset-template';
import { ANCESTOR_LABEL, STEP_CONTAINERS, TRAINER_GROUP } from './names';
import { PLUGIN_OVERRIDE_RULES, checkPluginOverrides } from './plugin-overrides';
import { TRAINER_V2_4_RULES, checkReplicatedJobNameLength, checkRuntimePrteEnv } from './v2-4';
import { checkEnv, checkImage } from '../kubernetes/containers';
import { child, indexed } from '../kubernetes/field-path';
import { checkReplicatedJobSpec } from '../kubernetes/job-spec';
import { checkAnnotations, checkLabels, checkTemplateMeta } from '../kubernetes/metadata';
import { isObject } from '../kubernetes/names';
import { checkPodSpecPatch } from '../kubernetes/pod-spec';
import { checkResources } from '../kubernetes/resources';
import { checkAffinity, checkNodeSelector, checkTolerations } from '../kubernetes/scheduling';
import { checkVolumes } from '../kubernetes/volumes';
import { KUEUE_QUEUE_LABEL } from '../kueue/labels';
import { Rule } from '../rule';

export const RUNTIME_STEP = new Rule('trainer', 'trainer/runtime-step', 'runtimes',
  'kubeflow/trainer v2.3.0 pkg/webhooks/trainingruntime_webhook.go validateReplicatedJobs (a step has one replica and its container)',
  'a replicated job labelled as the trainer, dataset-initializer or model-initializer step has 1 replica');
export const REPLICATED_JOB_NAME = new Rule('trainer', 'trainer/replicated-job-name', 'runtimes',
  'sigs.k8s.io/jobset v0.12.0 ValidateCreate (the Job and pod names made from replicated-job names are DNS-1035 labels)',
  'a replicated job name with capitals or "_" is stored, and the JobSet made from it is refused (the JobSet webhook checks the Job and pod names built from it as DNS-1035 labels)');
export const PATCH_MANAGER = new Rule('trainer', 'trainer/patch-manager', 'runtime-patches',
  'kubeflow/trainer v2.3.0 plugins/jobset Validate: validation.IsDomainPrefixedPath(runtimePatches[].manager)',
  'each runtime patch\'s manager is a domain-prefixed path');
export const PATCH_ENV = new Rule('trainer', 'trainer/patch-env', 'runtime-patches',
  'kubeflow/trainer v2.3.0 plugins/jobset Validate (no env patch on the node, dataset-initializer or model-initializer containers)',
  'a runtime patch sets no env on the node, dataset-initializer or model-initializer containers');

export const KUEUE_PATCH_METADATA = new Rule('trainer', 'trainer/kueue-patch-metadata', 'runtime-patches',
  'kubeflow/trainer v2.3.0 plugins/jobset Build under Kueue v0.15.2 admission: a JobSet made from a patch with pod-template metadata is not resumed '
  + '(spec.replicatedJobs[0].template.spec.template.metadata: Invalid value: "null"), so the admitted job never runs',
  'a TrainJob queued by Kueue carries no pod-template metadata in its runtime patches, which makes the JobSet\'s resume fail');

export const RUNTIME_POLICY = new Rule('trainer', 'trainer/runtime-policy', 'runtimes',
  'kubeflow/trainer v2.3.0 plugins/torch validateEnvInjectionTargets and plugins/flux Validate (the runtime\'s envInjection targets exist; no init container of its own named flux-installer)',
  'each envInjection target of a torch runtime names a container or init container of a replicated job of the runtime');

export const RUNTIME_REF_KIND = new Rule('trainer', 'trainer/runtime-ref-kind', 'runtimes',
  'kubeflow/trainer v2.3.0 pkg/webhooks/trainjob_webhook.go ValidateCreate (the runtime registry knows TrainingRuntime and ClusterTrainingRuntime of trainer.kubeflow.org: "unsupported runtime" otherwise)',
  'runtimeRef names a runtime kind the Trainer has (TrainingRuntime or ClusterTrainingRuntime of trainer.kubeflow.org)');
export const TRAINER_RULES = [
  RUNTIME_REF_KIND, RUNTIME_STEP, REPLICATED_JOB_NAME, PATCH_MANAGER, PATCH_ENV, KUEUE_PATCH_METADATA, RUNTIME_POLICY, ...TRAINER_COUNT_RULES,
  ...TRAINER_V2_4_RULES, ...PLUGIN_OVERRIDE_RULES,
];

/** The checks of a TrainingRuntime or ClusterTrainingRuntime. */
export function checkTrainingRuntime(doc: any, out: Finding[]): void {
  checkJobSetTemplate(doc?.spec?.template?.spec, 'spec.template.spec', out);
  checkCopiedMeta(doc?.spec?.template?.metadata, 'spec.template.metadata', out);
  checkJobSetOwnedKeys(doc?.spec?.template?.spec, 'spec.template.spec', out);
  checkRuntimePolicy(doc, out);
  checkRuntimeCounts(doc, out);
  checkRuntimePrteEnv(doc, out);
  checkPluginOverrides(doc, out);
  const jobs = doc?.spec?.template?.spec?.replicatedJobs;
  if (!Array.isArray(jobs)) return;
  const at = 'spec.template.spec.replicatedJobs';
  jobs.forEach((job: any, i: number) => {
    if (!isObject(job)) return;
    const jobAt = indexed(at, i);
    checkReplicatedJobNameLength(job, jobAt, out);
    checkReplicatedJobSpec(job.template?.spec, `${jobAt}.template.spec`, out);
    checkCopiedMeta(job.template?.metadata, `${jobAt}.template.metadata`, out);
    // Trainer v2.3.0 stores any name; the JobSet webhook then refuses the JobSet of every TrainJob,
    // since "<TrainJob>-<name>-<index>" and its pod names must be DNS-1035 labels.
    if (typeof job.name === 'string' && !/^[a-z0-9-]*$/.test(job.name)) {
      REPLICATED_JOB_NAME.report(out, child(jobAt, 'name'), job.name,
        'expected only lower-case letters, digits and "-" (the JobSet webhook refuses the Job and pod names made from it otherwise, so no TrainJob of this runtime starts)');
    }
    const step = job.template?.metadata?.labels?.[ANCESTOR_LABEL];
    const container = typeof step === 'string' ? STEP_CONTAINERS[step] : undefined;
    if (container === undefined) return;
    // The JobSet schema defaults replicas to 1 before the webhook sees it.
    const replicas = job.replicas ?? 1;
    if (replicas !== 1) {
      RUNTIME_STEP.report(out, child(jobAt, 'replicas'), replicas, `expected 1: the "${step}" step of a runtime runs once`);
    }
    const containers = job.template?.spec?.template?.spec?.containers;
    const names = Array.isArray(containers) ? containers.map((c: any) => c?.name) : [];
    if (!names.includes(container)) {
      RUNTIME_STEP.report(out, `${jobAt}.template.spec.template.spec.containers`, names,
        `expected a container named "${container}", which the controller configures for the "${step}" step`);
    }
  });
}

/**
 * The labels and annotations the Trainer copies onto the JobSet (the template's, and a patch's) and
 * the JobSet controller onto each Job (a replicated job's template's, constructJob): the API server
 * validates them as the JobSet's and the Jobs' own metadata, which neither webhook does, so a bad key
 * or value leaves the TrainJob admitted without a JobSet, or the JobSet without Jobs.
 */
function checkCopiedMeta(meta: unknown, at: string, out: Finding[]): void {
  if (!isObject(meta)) return;
  checkLabels(meta.labels, child(at, 'labels'), out);
  checkAnnotations(meta.annotations, child(at, 'annotations'), out);
  checkExclusiveTopology(meta, at, out);
}

/**
 * The TrainJob's fields the Trainer copies into containers of the JobSet (the trainer's image, env
 * and resources into the node container, each initializer's env into its container) get the container
 * rules: neither the Trainer webhook nor the JobSet webhook checks them, and the API server refuses
 * the Jobs the JobSet controller creates with them, so the TrainJob is admitted and never gets pods.
 */
function checkTrainJobContainerFields(spec: any, out: Finding[]): void {
  if (!isObject(spec)) return;
  if (isObject(spec.trainer)) {
    // A written image, even "", replaces the runtime's (the jobset plugin copies any non-nil one).
    if (spec.trainer.image !== undefined && spec.trainer.image !== null) checkImage(spec.trainer.image, 'spec.trainer.image', out);
    checkEnv(spec.trainer.env, 'spec.trainer.env', out);
    checkResources(spec.trainer.resourcesPerNode, 'spec.trainer.resourcesPerNode', out);
  }
  for (const step of ['dataset', 'model']) {
    const init = spec.initializer?.[step];
    if (isObject(init)) checkEnv(init.env, `spec.initializer.${step}.env`, out);
  }
}

/**
 * What the torch and flux plugins refuse in the runtime itself, on every TrainJob that names it:
 * an envInjection target that is no container of the runtime, and a node init container with the
 * name the flux plugin adds its own under.
 */
function checkRuntimePolicy(doc: any, out: Finding[]): void {
  const jobs: any[] = Array.isArray(doc?.spec?.template?.spec?.replicatedJobs) ? doc.spec.template.spec.replicatedJobs : [];
  const podSpec = (name: unknown) => jobs.find(j => j?.name === name)?.template?.spec?.template?.spec;
  const refused = 'the Trainer webhook refuses every TrainJob of this runtime';
  const targets = doc?.spec?.mlPolicy?.torch?.envInjection?.targets;
  if (Array.isArray(targets)) {
    targets.forEach((target: any, t: number) => {
      const spec = podSpec(target?.jobName);
      const have = spec ? [...(spec.initContainers ?? []), ...(spec.containers ?? [])].map((c: any) => c?.name) : [];
      (Array.isArray(target?.containerNames) ? target.containerNames : []).forEach((name: unknown, c: number) => {
        if (!have.includes(name)) {
          RUNTIME_POLICY.report(out, `spec.mlPolicy.torch.envInjection.targets[${t}].containerNames[${c}]`, name,
            spec ? `expected a container of the "${target.jobName}" job (${have.map(h => `"${h}"`).join(', ')}); ${refused}`
              : `expected a container of a replicated job of this runtime, and "${target?.jobName}" is none (${jobs.map(j => `"${j?.name}"`).join(', ')}); ${refused}`);
        }
      });
    });
  }
  if (doc?.spec?.mlPolicy?.flux !== undefined) {
    const inits = podSpec('node')?.initContainers;
    if (Array.isArray(inits)) {
      inits.forEach((c: any, i: number) => {
        if (c?.name === 'flux-installer') {
          RUNTIME_POLICY.report(out, `spec.template.spec.replicatedJobs[node].template.spec.template.spec.initContainers[${i}].name`, c.name,
            `expected another name: the flux plugin adds its own "flux-installer" init container; ${refused}`);
        }
      });
    }
  }
}

/** The checks of a TrainJob's runtime patches that need no runtime. */
export function checkTrainJob(doc: any, out: Finding[]): void {
  checkTrainJobCounts(doc, out);
  checkTrainJobContainerFields(doc?.spec, out);
  initializerEnvFindings(doc, (field, value, allowed) => INITIALIZER_STORAGE_URI.report(out, field, value, allowed));
  // The CRD defaults kind and apiGroup only when they are absent: a written "" stays and names no runtime kind.
  const ref = doc?.spec?.runtimeRef;
  if (isObject(ref)) {
    if (ref.kind !== undefined && ref.kind !== CLUSTER_TRAINING_RUNTIME.kind && ref.kind !== TRAINING_RUNTIME.kind) {
      RUNTIME_REF_KIND.report(out, 'spec.runtimeRef.kind', ref.kind, 'expected "ClusterTrainingRuntime" or "TrainingRuntime" (or none, for a ClusterTrainingRuntime): the Trainer webhook refuses any other kind as an unsupported runtime');
    }
    if (ref.apiGroup !== undefined && ref.apiGroup !== TRAINER_GROUP) {
      RUNTIME_REF_KIND.report(out, 'spec.runtimeRef.apiGroup', ref.apiGroup, 'expected "trainer.kubeflow.org" (or none): the Trainer webhook refuses a runtime of another group as unsupported');
    }
  }
  const patches = doc?.spec?.runtimePatches;
  if (!Array.isArray(patches)) return;
  patches.forEach((patch: any, i: number) => {
    if (!isObject(patch)) return;
    const patchAt = indexed('spec.runtimePatches', i);
    if (!isDomainPrefixedPath(patch.manager)) {
      PATCH_MANAGER.report(out, child(patchAt, 'manager'), patch.manager, 'expected a domain-prefixed path such as "example.io/platform-team"');
    }
    checkCopiedMeta(patch.trainingRuntimeSpec?.template?.metadata, `${patchAt}.trainingRuntimeSpec.template.metadata`, out);
    const jobs = patch.trainingRuntimeSpec?.template?.spec?.replicatedJobs;
    if (!Array.isArray(jobs)) return;
    jobs.forEach((job: any, j: number) => {
      checkCopiedMeta(job?.template?.metadata, `${indexed(`${patchAt}.trainingRuntimeSpec.template.spec.replicatedJobs`, j)}.template.metadata`, out);
      // The patched pod's parts that are whole Kubernetes types get the pod template's rules.
      const podAt = `${indexed(`${patchAt}.trainingRuntimeSpec.template.spec.replicatedJobs`, j)}.template.spec.template`;
      const pod = job?.template?.spec?.template;
      checkTemplateMeta(pod?.metadata, child(podAt, 'metadata'), out);
      // The patch lands on the runtime's templates, where the JobSet controller writes its own keys over it.
      checkOwnedKeysIn(job?.template?.metadata, `${indexed(`${patchAt}.trainingRuntimeSpec.template.spec.replicatedJobs`, j)}.template.metadata`, 'Job', out);
      checkOwnedKeysIn(pod?.metadata, child(podAt, 'metadata'), 'pod', out);
      const queue = doc?.metadata?.labels?.[KUEUE_QUEUE_LABEL];
      if (queue !== undefined && isObject(pod?.metadata) && Object.keys(pod.metadata).length > 0) {
        KUEUE_PATCH_METADATA.report(out, child(podAt, 'metadata'), pod.metadata, `expected no pod labels or annotations in a runtime patch of a job queued by Kueue (queue "${queue}"): `
          + 'Trainer v2.3.0 cannot resume the JobSet of such a patch when Kueue admits the job (spec.replicatedJobs[0].template.spec.template.metadata: Invalid value: "null"), so it never runs; '
          + 'put them on the runtime\'s pod templates (a runtime of the app, with podLabels, podAnnotations or a Kueue topology), or leave the job unqueued; node selectors and tolerations in the patch are fine');
      }
      const spec = pod?.spec;
      if (isObject(spec)) {
        checkNodeSelector(spec.nodeSelector, child(child(podAt, 'spec'), 'nodeSelector'), out);
        checkTolerations(spec.tolerations, child(child(podAt, 'spec'), 'tolerations'), out);
        checkAffinity(spec.affinity, child(child(podAt, 'spec'), 'affinity'), out);
        checkVolumes(spec.volumes, child(child(podAt, 'spec'), 'volumes'), out);
        checkPodSpecPatch(spec, child(podAt, 'spec'), out);
      }
      const containers = job?.template?.spec?.template?.spec?.containers;
      if (!Array.isArray(containers)) return;
      containers.forEach((c: any, k: number) => {
        if (Array.isArray(c?.env) && c.env.length > 0 && Object.values(STEP_CONTAINERS).includes(c.name)) {
          PATCH_ENV.report(out, `${indexed(`${patchAt}.trainingRuntimeSpec.template.spec.replicatedJobs`, j)}.template.spec.template.spec.containers[${k}].env`,
            c.env.map((e: any) => e?.name), `expected no env on the "${c.name}" container in a patch (set the trainer's in spec.trainer.env, an initializer's in spec.initializer)`);
        }
      });
    });
  });
}
