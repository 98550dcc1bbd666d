/**
 * The Kubeflow Training Operator v1's rules: its webhooks and controllers on one kubeflow.org/v1
 * job (MXJob included), the pod and service names of the jobs of one app, and the operator's own
 * init containers in a namespace that enforces Pod Security "restricted" (lint only).
 */
import { CONTAINER_RULES, checkFrameworkContainer } from './containers';
import { ELASTIC_RULES, checkElastic } from './elastic';
import { GANG_RULES, checkGangScheduling } from './gang-scheduling';
import { ENV_RULES, checkInjectedEnv } from './injected-env';
import { KNOWN_VALUE_RULES, checkKnownValues } from './known-values';
import { MPI_RULES, checkMpiProcesses } from './mpi-processes';
import { NPROC_RULES, checkNprocPerNode } from './nproc-per-node';
import { OPERATOR_OWNED_RULES, checkOperatorOwned } from './operator-owned';
import { POD_NAME_COLLISION, podNameCollisions } from './pod-name-collisions';
import { POD_NAME_RULES, checkPodNames } from './pod-names';
import { POD_RESTART_POLICY_RULES, checkPodRestartPolicy } from './pod-restart-policy';
import { RENDEZVOUS_RULES, checkRendezvous } from './rendezvous';
import { REPLICA_RULES, checkReplicas } from './replicas';
import { RESERVED_NAME_RULES, checkReservedNames } from './reserved-names';
import { RESTRICTED_NAMESPACE_RULES, restrictedNamespaceFindings } from './restricted-namespaces';
import { SERVICE_PORT_RULES, checkServicePorts } from './service-ports';
import { trainingKindOf } from './training-kinds';
import { Finding } from '../finding';
import { checkReplicaSlices } from '../kueue/topology-slices';
import type { RuleSet } from '../rule-set';

/** The checks of one v1 job; Kueue's slice sizes of its replicas are read on the same walk. */
function checkTrainingJob(doc: any, out: Finding[]): void {
  const facts = trainingKindOf(doc);
  if (facts === undefined) return;
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
  checkReservedNames(doc, facts, out);
  checkServicePorts(doc, facts, out);
  checkRendezvous(doc, facts, out);
  checkOperatorOwned(doc, facts, out);
  checkReplicaSlices(facts.kind, doc.spec?.[facts.replicaKey], `spec.${facts.replicaKey}`, out);
}

export const TRAINING_OPERATOR_RULE_SET: RuleSet = {
  source: 'training-operator',
  title: 'Kubeflow Training Operator v1 (webhooks and controllers)',
  rules: [
    POD_NAME_COLLISION,
    ...REPLICA_RULES, ...POD_RESTART_POLICY_RULES, ...CONTAINER_RULES, ...POD_NAME_RULES, ...ENV_RULES, ...MPI_RULES, ...ELASTIC_RULES,
    ...GANG_RULES, ...NPROC_RULES, ...KNOWN_VALUE_RULES, ...RESERVED_NAME_RULES, ...SERVICE_PORT_RULES, ...RENDEZVOUS_RULES,
    ...OPERATOR_OWNED_RULES,
    ...RESTRICTED_NAMESPACE_RULES,
  ],
  checkDocument: checkTrainingJob,
  checkDocuments: (index, out) => podNameCollisions(index.documents, out),
  checkInput: restrictedNamespaceFindings,
};
