/**
 * The operators' rules over documents: what the Kubeflow training operator (kubeflow.org/v1 jobs,
 * MXJob included), the Notebooks v2 webhooks and Kueue's webhooks (ClusterQueue, ResourceFlavor;
 * their rules are listed with Kueue's in the catalogue) require that a document alone, or the
 * documents of one input together, can show. Pure functions of parsed documents: `cdk8s-kubeflow lint` applies
 * them to hand-written YAML, and the validation engine applies the rules of one document to every
 * document the constructs render (one rule set: the constructs keep only the checks that need the
 * user's intent). The rules across documents stay with `lint`; see `kubeflowInputFindings`.
 */
import { Finding } from './finding';
import { checkKaiTopology } from './kai-topology';
import { isDocumentOf } from '../kinds/kind';
import { CLUSTER_QUEUE, COHORT, RESOURCE_FLAVOR } from '../kinds/kueue';
import { WORKSPACE_KIND } from '../kinds/notebooks';
import { checkKueueApiVersion } from './kueue/api-version-served';
import { checkClusterQueue } from './kueue/cluster-queue';
import { checkCohort } from './kueue/cohort';
import { checkResourceFlavor } from './kueue/resource-flavor';
import { checkReplicaSlices } from './kueue/topology-slices';
import { WORKSPACE_KIND_ACTIVITY_RULES, checkWorkspaceKindActivity } from './notebooks/workspace-kind-activity';
import { WORKSPACE_KIND_RULES, checkWorkspaceKindOptions } from './notebooks/workspace-kind-options';
import { WORKSPACE_KIND_SELECTOR_RULES, checkWorkspaceKindSelectors } from './notebooks/workspace-kind-selectors';
import { WORKSPACE_KIND_TEMPLATE_RULES, checkWorkspaceKindTemplates } from './notebooks/workspace-kind-templates';
import { WORKSPACE_REFERENCE_RULES, workspaceOptionFindings } from './notebooks/workspace-references';
import { RuleInfo } from './rule';
import { CONTAINER_RULES, checkFrameworkContainer } from './training-operator/containers';
import { ELASTIC_RULES, checkElastic } from './training-operator/elastic';
import { GANG_RULES, checkGangScheduling } from './training-operator/gang-scheduling';
import { ENV_RULES, checkInjectedEnv } from './training-operator/injected-env';
import { KNOWN_VALUE_RULES, checkKnownValues } from './training-operator/known-values';
import { MPI_RULES, checkMpiProcesses } from './training-operator/mpi-processes';
import { NPROC_RULES, checkNprocPerNode } from './training-operator/nproc-per-node';
import { POD_NAME_RULES, checkPodNames } from './training-operator/pod-names';
import { POD_RESTART_POLICY_RULES, checkPodRestartPolicy } from './training-operator/pod-restart-policy';
import { REPLICA_RULES, checkReplicas } from './training-operator/replicas';
import { DocumentFinding, RESTRICTED_NAMESPACE_RULES, restrictedNamespaceFindings } from './training-operator/restricted-namespaces';
import { trainingKindOf } from './training-operator/training-kinds';

export type { DocumentFinding } from './training-operator/restricted-namespaces';
export { TRAINING_KINDS, trainingKindOf, replicaSpecs, replicasOf } from './training-operator/training-kinds';
export { processCount } from './training-operator/mpi-processes';

/** Every rule of one document. */
export const KUBEFLOW_DOCUMENT_RULES: readonly RuleInfo[] = [
  ...REPLICA_RULES, ...POD_RESTART_POLICY_RULES, ...CONTAINER_RULES, ...POD_NAME_RULES, ...ENV_RULES, ...MPI_RULES, ...ELASTIC_RULES,
  ...GANG_RULES, ...NPROC_RULES, ...KNOWN_VALUE_RULES,
  ...WORKSPACE_KIND_RULES, ...WORKSPACE_KIND_ACTIVITY_RULES, ...WORKSPACE_KIND_SELECTOR_RULES, ...WORKSPACE_KIND_TEMPLATE_RULES,
].map(r => r.info());

/** Every rule across the documents of one input. */
export const KUBEFLOW_INPUT_RULES: readonly RuleInfo[] = [...RESTRICTED_NAMESPACE_RULES, ...WORKSPACE_REFERENCE_RULES].map(r => r.info());

/** Every operator rule. */
export const KUBEFLOW_RULES: RuleInfo[] = [...KUBEFLOW_DOCUMENT_RULES, ...KUBEFLOW_INPUT_RULES];

/** Every finding of the operator rules on one document. */
export function kubeflowFindings(doc: any): Finding[] {
  const out: Finding[] = [];
  if (typeof doc !== 'object' || doc === null) return out;
  // The KAI annotations are the library's own rule (catalogue.ts lists it), read on the same walk.
  checkKaiTopology(doc, out);
  // Any v1beta1 Kueue object, of a kind the rules know or not: Kueue v0.20 and later do not serve it.
  checkKueueApiVersion(doc, out);
  const facts = trainingKindOf(doc);
  if (facts !== undefined) {
    checkReplicas(doc, facts, out);
    checkPodRestartPolicy(doc, facts, out);
    checkFrameworkContainer(doc, facts, out);
    checkPodNames(doc, facts, out);
    checkInjectedEnv(doc, facts, out);
    checkMpiProcesses(doc, facts, out);
    checkElastic(doc, facts, out);
    checkGangScheduling(doc, facts, out);
    checkNprocPerNode(doc, facts, out);
    checkKnownValues(doc, facts, out);
    checkReplicaSlices(facts.kind, doc.spec?.[facts.replicaKey], `spec.${facts.replicaKey}`, out);
  } else if (isDocumentOf(doc, WORKSPACE_KIND)) {
    checkWorkspaceKindOptions(doc, out);
    checkWorkspaceKindActivity(doc, out);
    checkWorkspaceKindSelectors(doc, out);
    checkWorkspaceKindTemplates(doc, out);
  } else if (isDocumentOf(doc, CLUSTER_QUEUE)) {
    checkClusterQueue(doc, out);
  } else if (isDocumentOf(doc, COHORT)) {
    checkCohort(doc, out);
  } else if (isDocumentOf(doc, RESOURCE_FLAVOR)) {
    checkResourceFlavor(doc, out);
  }
  return out;
}

/**
 * Every finding across the documents of one input (Pod Security of jobs in namespaces labelled
 * "restricted"; Workspace options against a WorkspaceKind of the input), by document index. The
 * "restricted" findings carry the k8s/pss-* rules of the Kubernetes layer.
 */
export function kubeflowInputFindings(docs: readonly any[]): DocumentFinding[] {
  const out: DocumentFinding[] = [];
  restrictedNamespaceFindings(docs, out);
  workspaceOptionFindings(docs, out);
  return out;
}
