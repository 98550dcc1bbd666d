/**
 * Every rule over documents, in one list, and the source of each by id: what findings carry is the
 * rule id, so code that treats findings by source (the switches, `cdk8s-kubeflow rules`, the
 * differential run) looks the source up here rather than reading the id's prefix or a message.
 */
import { APP_RULES } from './across-documents';
import { KAI_TOPOLOGY_RULES } from './kai-topology';
import { KUBERNETES_RULES, POD_SECURITY_RESTRICTED_RULES, TRAINER_DOCUMENT_RULES } from './kubernetes';
import { KUEUE_API_VERSION_RULES } from './kueue/api-version-served';
import { CLUSTER_QUEUE_RULES } from './kueue/cluster-queue';
import { COHORT_RULES } from './kueue/cohort';
import { RESOURCE_FLAVOR_RULES } from './kueue/resource-flavor';
import { KUEUE_TOPOLOGY_RULES } from './kueue/topology';
import { KUEUE_SLICE_RULES } from './kueue/topology-slices';
import { KUBEFLOW_RULES } from './operators';
import { RuleInfo, RuleSource, RuleVersions } from './rule';
import { SCHEMA_RULE } from './schema/validator';
import { JOBSET_TEMPLATE_RULES } from './trainer/jobset-template';

/** The strict CRD schema, as a rule: stricter than the API server on purpose (unknown fields), so the library's own. */
export const SCHEMA_RULE_INFO: RuleInfo = {
  id: SCHEMA_RULE,
  source: 'library',
  family: 'schema',
  upstream: 'the pinned CRDs (openAPIV3Schema), strictly: unknown fields are findings',
};

/** The JobSet webhook's rules over a runtime's JobSet template (applied in the same walk as the Trainer's). */
export const JOBSET_DOCUMENT_RULES: readonly RuleInfo[] = JOBSET_TEMPLATE_RULES.map(r => r.info());

/**
 * Kueue's rules over one document: a pod template's topology annotations (applied in the
 * Kubernetes walk over pod templates), a job's slices against its pods, a ClusterQueue's and a
 * ResourceFlavor's webhook checks (applied with the operators' rules of one document, operators.ts),
 * and the served API version of every Kueue object (applied with the operators' rules, and by lint to
 * the Kueue kinds the rules do not know).
 */
export const KUEUE_DOCUMENT_RULES: readonly RuleInfo[] = [
  ...KUEUE_TOPOLOGY_RULES, ...KUEUE_SLICE_RULES, ...CLUSTER_QUEUE_RULES, ...COHORT_RULES, ...RESOURCE_FLAVOR_RULES, ...KUEUE_API_VERSION_RULES,
].map(r => r.info());

/** Every rule over documents: schema, Kubernetes, Pod Security "restricted", Trainer, JobSet, Kueue, across documents, operators. */
export const DOCUMENT_RULES: readonly RuleInfo[] = [
  SCHEMA_RULE_INFO, ...KUBERNETES_RULES, ...POD_SECURITY_RESTRICTED_RULES, ...TRAINER_DOCUMENT_RULES, ...JOBSET_DOCUMENT_RULES,
  ...KUEUE_DOCUMENT_RULES, ...APP_RULES, ...KUBEFLOW_RULES, ...KAI_TOPOLOGY_RULES.map(r => r.info()),
];

const sources = new Map<string, RuleSource>(DOCUMENT_RULES.map(r => [r.id, r.source]));

/** The source of the rule with this id; undefined for an id of no rule over documents (a construct's own check has none). */
export function ruleSource(id: string | undefined): RuleSource | undefined {
  return id === undefined ? undefined : sources.get(id);
}

const versioned = new Map<string, RuleVersions>(DOCUMENT_RULES.filter(r => r.versions !== undefined).map(r => [r.id, r.versions!]));

/**
 * The versions the rule with this id applies to; undefined for a rule of every version (most) or
 * an id of no rule over documents. Findings carry only the id, so the engine and `lint` look it up here.
 */
export function ruleVersions(id: string | undefined): RuleVersions | undefined {
  return id === undefined ? undefined : versioned.get(id);
}

/** Whether any rule carries versions (when none does, a target changes no finding). */
export function hasVersionedRules(): boolean {
  return versioned.size > 0;
}
