/**
 * Which documents the rules know, as a table: each row says how the kind's names are checked,
 * where its pod templates are, where its integers are, and any pod pieces of its own. The kinds
 * and their API versions are the kind table's (src/kinds/): a new v1 job kind gets its row here
 * from the table, and needs an entry here only for integer fields of its own. A new shape
 * (Trainer v2's TrainJob and runtimes, with JobSet-shaped templates) is a new row. Documents of
 * other kinds get the object-metadata rules only.
 */
import { Finding } from '../finding';
import { checkClaimSpec, checkVolumeClaimPolicies } from './claim-spec';
import { checkConfigMap, checkSecret } from './core-objects';
import {
  IntegerField, ELASTIC_POLICY_INTEGERS, POD_SECURITY_INTEGERS, POD_SPEC_INTEGERS, PROBE_INTEGERS, RUN_POLICY_INTEGERS,
  CONTAINER_SECURITY_INTEGERS, VOLUME_INTEGERS, AFFINITY_INTEGERS, under,
} from './integers';
import { NameFormat } from './metadata';
import {
  DNS1035_LABEL_TEXT, DNS1123_LABEL_TEXT, DNS1123_SUBDOMAIN_TEXT, isDns1035Label, isDns1123Label, isDns1123Subdomain,
} from './names';
import { checkWorkspace, checkWorkspaceKind } from './notebooks';
import { KindFacts, V1JobFacts, apiVersionOf, apiVersionsOf } from '../../kinds/kind';
import { CLUSTER_QUEUE, COHORT, KUEUE_TOPOLOGY, LOCAL_QUEUE, RESOURCE_FLAVOR, WORKLOAD_PRIORITY_CLASS } from '../../kinds/kueue';
import { WORKSPACE, WORKSPACE_KIND } from '../../kinds/notebooks';
import { CLUSTER_TRAINING_RUNTIME, TRAINING_RUNTIME, TRAIN_JOB } from '../../kinds/trainer';
import { MPI_JOB, PADDLE_JOB, PYTORCH_JOB, V1_JOBS } from '../../kinds/training-operator';
import { checkTrainingRuntime, checkTrainJob } from '../trainer/documents';

/** NameIsDNSSubdomain: most kinds, and every custom resource. */
export const SUBDOMAIN_NAME: NameFormat = { test: isDns1123Subdomain, text: DNS1123_SUBDOMAIN_TEXT };
/** ValidateNamespaceName. */
export const LABEL_NAME: NameFormat = { test: isDns1123Label, text: DNS1123_LABEL_TEXT };
/** ValidateServiceName. */
export const DNS1035_NAME: NameFormat = { test: isDns1035Label, text: DNS1035_LABEL_TEXT };

export interface DocumentKind {
  readonly apiVersion: string;
  readonly kind: string;
  /** False for cluster-scoped kinds (their namespace is ignored by the API server). */
  readonly namespaced: boolean;
  readonly name: NameFormat;
  /** Where the pod templates (`metadata` + `spec`) are, in the location language of select.ts. */
  readonly podTemplates: readonly string[];
  /** Integer fields outside the pod templates (the templates' come from POD_SPEC_INTEGERS). */
  readonly integers: readonly IntegerField[];
  /** Volumes a controller adds to every pod of the document, which its containers may mount. */
  readonly addedVolumes?: (doc: any) => readonly string[];
  /** Checks of pieces only this kind has. */
  readonly check?: (doc: any, out: Finding[]) => void;
}

/** The kind table's identity of a kind, in the version the library writes. */
function identity(facts: KindFacts): Pick<DocumentKind, 'apiVersion' | 'kind' | 'namespaced'> {
  return { apiVersion: apiVersionOf(facts), kind: facts.kind, namespaced: facts.namespaced };
}

/** The integer fields of a v1 job's spec outside its replica specs and run policy, for the kinds that have any. */
const V1_JOB_INTEGERS: ReadonlyMap<V1JobFacts, readonly IntegerField[]> = new Map([
  [PYTORCH_JOB, [...under('spec', ELASTIC_POLICY_INTEGERS), i32('spec.elasticPolicy.nProcPerNode'), i32('spec.elasticPolicy.rdzvPort')]],
  [MPI_JOB, [i32('spec.slotsPerWorker')]],
  [PADDLE_JOB, under('spec', ELASTIC_POLICY_INTEGERS)],
]);

/** The Kubeflow v1 training jobs: `spec.<key>ReplicaSpecs.<Type>.template`. */
function trainingJob(facts: V1JobFacts): DocumentKind {
  const key = facts.replicaKey;
  return {
    ...identity(facts),
    // The operator names a Service after the job (`<job>-<type>-<n>`), and Service names are
    // DNS-1035 labels (ValidateServiceName), so a job name must be one too.
    name: DNS1035_NAME,
    podTemplates: [`spec.${key}.*.template`],
    integers: [i32(`spec.${key}.*.replicas`), ...under('spec', RUN_POLICY_INTEGERS), ...V1_JOB_INTEGERS.get(facts) ?? []],
  };
}

function i32(path: string, min?: number, max?: number): IntegerField {
  return { path, format: 'int32', min, max };
}

function i64(path: string): IntegerField {
  return { path, format: 'int64' };
}

/** Where a Trainer v2 runtime's JobSet template keeps each replicated job. */
const REPLICATED_JOBS = 'spec.template.spec.replicatedJobs[]';
/** The partial pod a TrainJob's runtime patch may set for one replicated job. */
const TRAIN_JOB_PATCHED_POD = 'spec.runtimePatches[].trainingRuntimeSpec.template.spec.replicatedJobs[].template.spec.template';

/**
 * The volumes a JobSet's `volumeClaimPolicies` give its pods: the JobSet controller (v0.12,
 * VolumeClaimPolicy in jobset_types.go) creates a claim per template and adds it to every pod as a
 * volume named after the template, so the runtimes' containers mount it without declaring it.
 */
function volumeClaimPolicyVolumes(doc: any): string[] {
  const policies = doc?.spec?.template?.spec?.volumeClaimPolicies;
  if (!Array.isArray(policies)) return [];
  return policies.flatMap((p: any) => (Array.isArray(p?.templates) ? p.templates : []))
    .map((t: any) => t?.metadata?.name).filter((n: unknown): n is string => typeof n === 'string');
}

/**
 * Trainer v2's TrainingRuntime and ClusterTrainingRuntime: one pod template per replicated job
 * of the JobSet template (`spec.template.spec.replicatedJobs[].template.spec.template`).
 */
function trainingRuntime(facts: KindFacts): DocumentKind {
  return {
    ...identity(facts),
    name: SUBDOMAIN_NAME,
    podTemplates: [`${REPLICATED_JOBS}.template.spec.template`],
    addedVolumes: volumeClaimPolicyVolumes,
    check: (doc, out) => {
      checkTrainingRuntime(doc, out);
      checkVolumeClaimPolicies(doc?.spec?.template?.spec, 'spec.template.spec', out);
    },
    integers: [
      i32('spec.mlPolicy.numNodes'), i32('spec.mlPolicy.mpi.numProcPerNode'), i32('spec.mlPolicy.flux.numProcPerNode'),
      i32('spec.podGroupPolicy.coscheduling.scheduleTimeoutSeconds'),
      i32('spec.template.spec.failurePolicy.maxRestarts'), i32('spec.template.spec.ttlSecondsAfterFinished'),
      i32(`${REPLICATED_JOBS}.replicas`),
      ...under(`${REPLICATED_JOBS}.template.spec`, [
        i32('parallelism'), i32('completions'), i32('backoffLimit'), i32('backoffLimitPerIndex'), i32('maxFailedIndexes'),
        i64('activeDeadlineSeconds'), i32('ttlSecondsAfterFinished'),
        i32('podFailurePolicy.rules[].onExitCodes.values[]'), i32('successPolicy.rules[].succeededCount'),
      ]),
    ],
  };
}

function core(kind: string, name: NameFormat, check?: (doc: any, out: Finding[]) => void, namespaced = true): DocumentKind {
  return { apiVersion: 'v1', kind, namespaced, name, podTemplates: [], integers: [], check };
}

/**
 * A Kueue object: a custom resource's name, and its integer fields, in the version the library
 * writes (`v1beta2`) and in `v1beta1`, which lint still reads (the fields below are the same in both).
 */
function kueue(facts: KindFacts, integers: readonly IntegerField[] = []): DocumentKind[] {
  return apiVersionsOf(facts).map(apiVersion => ({
    apiVersion, kind: facts.kind, namespaced: facts.namespaced, name: SUBDOMAIN_NAME, podTemplates: [], integers,
  }));
}

const WORKSPACE_KIND_TEMPLATE = 'spec.podTemplate';

export const DOCUMENT_KINDS: readonly DocumentKind[] = [
  ...V1_JOBS.map(trainingJob),
  {
    ...identity(WORKSPACE_KIND),
    name: SUBDOMAIN_NAME,
    podTemplates: [],
    integers: [
      i32('spec.activityRules[].config.minRunningSeconds'), i32('spec.activityRules[].config.secondsSinceActive'),
      ...under(WORKSPACE_KIND_TEMPLATE, [
        i32('activityProbe.minProbeIntervalSeconds'), i32('activityProbe.podExec.timeoutSeconds'), i32('activityProbe.probeIntervalSeconds'),
        ...under('containerSecurityContext', CONTAINER_SECURITY_INTEGERS),
        ...under('securityContext', POD_SECURITY_INTEGERS),
        ...under('extraVolumes[]', VOLUME_INTEGERS),
        i32('options.imageConfig.values[].spec.ports[].port', 1, 65535),
        ...under('options.podConfig.values[].spec.affinity', AFFINITY_INTEGERS),
        { path: 'options.podConfig.values[].spec.tolerations[].tolerationSeconds', format: 'int64' },
        ...under('probes.livenessProbe', PROBE_INTEGERS), ...under('probes.readinessProbe', PROBE_INTEGERS),
        ...under('probes.startupProbe', PROBE_INTEGERS),
      ]),
    ],
    check: checkWorkspaceKind,
  },
  {
    ...identity(WORKSPACE),
    // The controller names the workspace's StatefulSet and Service after it (a DNS-1123 label).
    name: LABEL_NAME,
    podTemplates: [],
    integers: [i32('spec.podTemplate.volumes.secrets[].defaultMode', 0, 0o777)],
    check: checkWorkspace,
  },
  trainingRuntime(TRAINING_RUNTIME),
  trainingRuntime(CLUSTER_TRAINING_RUNTIME),
  {
    ...identity(TRAIN_JOB),
    // The TrainJob CRD's CEL rules (trainjob_types.go): an RFC 1035 label of at most 63 characters.
    name: DNS1035_NAME,
    // The TrainJob has no pod template: its runtime has. Its runtime patches hold partial pods
    // (containers without images), which trainer.ts checks piece by piece.
    podTemplates: [],
    integers: [
      // Formats only: the schema's own minimums are the strict validator's, and the Trainer's
      // webhook rules are in rules/trainer/.
      i32('spec.trainer.numNodes'), i32('spec.trainer.numProcPerNode'), i64('spec.activeDeadlineSeconds'),
      ...under(`${TRAIN_JOB_PATCHED_POD}.spec`, [
        ...under('securityContext', POD_SECURITY_INTEGERS), ...under('volumes[]', VOLUME_INTEGERS), ...under('affinity', AFFINITY_INTEGERS),
        ...under('containers[].securityContext', CONTAINER_SECURITY_INTEGERS), ...under('initContainers[].securityContext', CONTAINER_SECURITY_INTEGERS),
        i64('terminationGracePeriodSeconds'), { path: 'tolerations[].tolerationSeconds', format: 'int64' },
      ]),
    ],
    check: checkTrainJob,
  },
  // Kueue's objects: no pod templates; their webhook checks are rules/kueue's.
  ...kueue(RESOURCE_FLAVOR, [{ path: 'spec.tolerations[].tolerationSeconds', format: 'int64' }]),
  ...kueue(CLUSTER_QUEUE, [i32('spec.preemption.borrowWithinCohort.maxPriorityThreshold')]),
  ...kueue(COHORT),
  ...kueue(LOCAL_QUEUE),
  ...kueue(WORKLOAD_PRIORITY_CLASS, [i32('value')]),
  ...kueue(KUEUE_TOPOLOGY),
  core('PersistentVolumeClaim', SUBDOMAIN_NAME, (doc, out) => checkClaimSpec(doc.spec, 'spec', out)),
  core('ConfigMap', SUBDOMAIN_NAME, checkConfigMap),
  core('Secret', SUBDOMAIN_NAME, checkSecret),
  core('ServiceAccount', SUBDOMAIN_NAME),
  core('Service', DNS1035_NAME),
  core('Namespace', LABEL_NAME, undefined, false),
];

/** Every integer field of a kind, with its pod templates' fields under each template's `spec`. */
export function integerFields(kind: DocumentKind): IntegerField[] {
  return [...kind.integers, ...kind.podTemplates.flatMap(t => under(`${t}.spec`, POD_SPEC_INTEGERS))];
}

const BY_TYPE = new Map(DOCUMENT_KINDS.map(k => [`${k.apiVersion}/${k.kind}`, k]));

/** The row of a document's apiVersion and kind, if the rules know it. */
export function documentKind(doc: any): DocumentKind | undefined {
  return BY_TYPE.get(`${doc?.apiVersion}/${doc?.kind}`);
}
