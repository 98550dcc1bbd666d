/**
 * The Kubernetes rules: the API server's object and pod-template validation that needs no
 * cluster, Pod Security admission, the kubelet's and the container runtime's start-up refusals,
 * and the objects of one app that cannot all be created.
 */
import { CLAIM_SPEC_RULES } from './claim-spec';
import { CLAIM_NAMESPACE, claimsFromOtherNamespaces } from './claims';
import { CONTAINER_RULES } from './containers';
import { CORE_OBJECT_RULES } from './core-objects';
import { DUPLICATE_OBJECT, duplicateObjects } from './duplicates';
import { ENV_SOURCE_RULES } from './env-sources';
import { HANDLER_RULES } from './handlers';
import { checkKubernetesDocument } from './index';
import { INTEGER_RULES } from './integers';
import { JOB_SPEC_RULES } from './job-spec';
import { METADATA_RULES } from './metadata';
import { POD_NETWORK_RULES } from './pod-network';
import { POD_OS_RULES } from './pod-os';
import { POD_RESOURCE_RULES } from './pod-resources';
import { POD_SECURITY_RULES } from './pod-security';
import { POD_SECURITY_CONTEXT_RULES } from './pod-security-context';
import { POD_SPEC_RULES } from './pod-spec';
import { RESOURCE_RULES } from './resources';
import { SCHEDULING_RULES } from './scheduling';
import { SECURITY_RULES } from './security';
import { TOPOLOGY_SPREAD_RULES } from './topology-spread';
import { VOLUME_DEVICE_RULES } from './volume-devices';
import { VOLUME_SOURCE_RULES } from './volume-sources';
import { VOLUME_RULES } from './volumes';
import { WINDOWS_OPTION_RULES } from './windows-options';
import type { RuleSet } from '../rule-set';

export const KUBERNETES_RULE_SET: RuleSet = {
  source: 'kubernetes',
  title: 'Kubernetes (API server, Pod Security admission, kubelet and container runtime)',
  rules: [
    ...METADATA_RULES, ...POD_SPEC_RULES, ...CONTAINER_RULES, ...ENV_SOURCE_RULES, ...HANDLER_RULES,
    ...POD_NETWORK_RULES, ...TOPOLOGY_SPREAD_RULES, ...VOLUME_RULES, ...VOLUME_SOURCE_RULES, ...SCHEDULING_RULES, ...RESOURCE_RULES,
    ...POD_RESOURCE_RULES, ...SECURITY_RULES, ...POD_SECURITY_CONTEXT_RULES, ...INTEGER_RULES, ...CORE_OBJECT_RULES,
    ...CLAIM_SPEC_RULES, ...POD_OS_RULES, ...VOLUME_DEVICE_RULES, ...WINDOWS_OPTION_RULES, ...JOB_SPEC_RULES,
    // Pod Security "restricted": applied to the presets' pods and to jobs in namespaces that enforce it.
    ...POD_SECURITY_RULES,
    DUPLICATE_OBJECT, CLAIM_NAMESPACE,
  ],
  checkDocument: checkKubernetesDocument,
  checkDocuments: (index, out) => {
    duplicateObjects(index.documents, out);
    claimsFromOtherNamespaces(index.documents, out);
  },
};
