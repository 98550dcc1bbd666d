/**
 * Which documents the rules know, as a table: each row says how the kind's names are checked,
 * where its pod templates are, where its integers are, and any pod pieces of its own. A new
 * shape (Trainer v2's TrainJob and runtimes, with JobSet-shaped templates) is a new row.
 * Documents of other kinds get the object-metadata rules only.
 */
import { Finding } from '../finding';
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
  /** Checks of pieces only this kind has. */
  readonly check?: (doc: any, out: Finding[]) => void;
}

/** The Kubeflow v1 training jobs: `spec.<key>ReplicaSpecs.<Type>.template`. */
function trainingJob(kind: string, key: string, extra: readonly IntegerField[] = []): DocumentKind {
  return {
    apiVersion: 'kubeflow.org/v1',
    kind,
    namespaced: true,
    // The operator names a Service after the job (`<job>-<type>-<n>`), and Service names are
    // DNS-1035 labels (ValidateServiceName), so a job name must be one too.
    name: DNS1035_NAME,
    podTemplates: [`spec.${key}.*.template`],
    integers: [i32(`spec.${key}.*.replicas`), ...under('spec', RUN_POLICY_INTEGERS), ...extra],
  };
}

function i32(path: string, min?: number, max?: number): IntegerField {
  return { path, format: 'int32', min, max };
}

function core(kind: string, name: NameFormat, check?: (doc: any, out: Finding[]) => void, namespaced = true): DocumentKind {
  return { apiVersion: 'v1', kind, namespaced, name, podTemplates: [], integers: [], check };
}

export const TRAINING_JOB_REPLICA_KEYS: Readonly<Record<string, string>> = {
  PyTorchJob: 'pytorchReplicaSpecs',
  TFJob: 'tfReplicaSpecs',
  MPIJob: 'mpiReplicaSpecs',
  XGBoostJob: 'xgbReplicaSpecs',
  PaddleJob: 'paddleReplicaSpecs',
  JAXJob: 'jaxReplicaSpecs',
  MXJob: 'mxReplicaSpecs',
};

const WORKSPACE_KIND_TEMPLATE = 'spec.podTemplate';

export const DOCUMENT_KINDS: readonly DocumentKind[] = [
  trainingJob('PyTorchJob', 'pytorchReplicaSpecs', [
    ...under('spec', ELASTIC_POLICY_INTEGERS), i32('spec.elasticPolicy.nProcPerNode'), i32('spec.elasticPolicy.rdzvPort'),
  ]),
  trainingJob('TFJob', 'tfReplicaSpecs'),
  trainingJob('MPIJob', 'mpiReplicaSpecs', [i32('spec.slotsPerWorker')]),
  trainingJob('XGBoostJob', 'xgbReplicaSpecs'),
  trainingJob('PaddleJob', 'paddleReplicaSpecs', under('spec', ELASTIC_POLICY_INTEGERS)),
  trainingJob('JAXJob', 'jaxReplicaSpecs'),
  trainingJob('MXJob', 'mxReplicaSpecs'),
  {
    apiVersion: 'kubeflow.org/v1beta1',
    kind: 'WorkspaceKind',
    namespaced: false,
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
    apiVersion: 'kubeflow.org/v1beta1',
    kind: 'Workspace',
    namespaced: true,
    // The controller names the workspace's StatefulSet and Service after it (a DNS-1123 label).
    name: LABEL_NAME,
    podTemplates: [],
    integers: [i32('spec.podTemplate.volumes.secrets[].defaultMode', 0, 0o777)],
    check: checkWorkspace,
  },
  core('PersistentVolumeClaim', SUBDOMAIN_NAME),
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
