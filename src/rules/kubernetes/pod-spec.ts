/**
 * A pod template and its spec, as `ValidatePodTemplateSpec` and `ValidatePodSpec`
 * (k8s.io/kubernetes/pkg/apis/core/validation) check them when the operator creates the pods.
 */
import { Finding } from '../finding';
import { checkKueueTopology } from '../kueue/topology';
import { Rule } from '../rule';
import { PodContext, checkContainers } from './containers';
import { child } from './field-path';
import { checkTemplateMeta } from './metadata';
import { DNS1123_LABEL_TEXT, DNS1123_SUBDOMAIN_TEXT, isDns1123Label, isDns1123Subdomain, isObject } from './names';
import { checkAffinity, checkNodeSelector, checkTolerations } from './scheduling';
import { checkPodSecurityContext } from './security';
import { checkVolumes } from './volumes';

const F = 'pod';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation ValidatePodSpec';

export const PRIORITY_CLASS_NAME = new Rule('kubernetes', 'k8s/priority-class-name', 'scheduling', `${SOURCE} (ValidatePriorityClassName: NameIsDNSSubdomain)`);
export const SCHEDULER_NAME = new Rule('kubernetes', 'k8s/scheduler-name', 'scheduling', `${SOURCE} (ValidateDNS1123Subdomain)`);
export const SERVICE_ACCOUNT_NAME = new Rule('kubernetes', 'k8s/service-account-name', F, `${SOURCE} (ValidateServiceAccountName: NameIsDNSSubdomain)`);
export const NODE_NAME = new Rule('kubernetes', 'k8s/node-name', 'scheduling', `${SOURCE} (ValidateNodeName: NameIsDNSSubdomain)`);
export const RUNTIME_CLASS_NAME = new Rule('kubernetes', 'k8s/runtime-class-name', F, `${SOURCE} (ValidateRuntimeClassName: NameIsDNSSubdomain)`);
export const HOSTNAME = new Rule('kubernetes', 'k8s/hostname', F, `${SOURCE} (hostname and subdomain: IsDNS1123Label)`);
export const RESTART_POLICY = new Rule('kubernetes', 'k8s/restart-policy', F, `${SOURCE} validateRestartPolicy`);
export const DNS_POLICY = new Rule('kubernetes', 'k8s/dns-policy', F, `${SOURCE} validateDNSPolicy and validatePodDNSConfig (None needs dnsConfig)`);
export const PREEMPTION_POLICY = new Rule('kubernetes', 'k8s/preemption-policy', F, `${SOURCE} validatePreemptionPolicy`);
export const EPHEMERAL_CONTAINERS = new Rule('kubernetes', 'k8s/ephemeral-containers', F,
  'k8s.io/kubernetes/pkg/apis/core/validation ValidatePodCreate (ephemeral containers cannot be set on create)');
export const CONTAINERS_REQUIRED = new Rule('kubernetes', 'k8s/containers-required', F, `${SOURCE} validateContainers (at least one container)`);

export const POD_SPEC_RULES = [
  PRIORITY_CLASS_NAME, SCHEDULER_NAME, SERVICE_ACCOUNT_NAME, NODE_NAME, RUNTIME_CLASS_NAME, HOSTNAME,
  RESTART_POLICY, DNS_POLICY, PREEMPTION_POLICY, EPHEMERAL_CONTAINERS, CONTAINERS_REQUIRED,
];

const RESTART_POLICIES = new Set(['Always', 'OnFailure', 'Never']);
const DNS_POLICIES = new Set(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']);
const PREEMPTION_POLICIES = new Set(['PreemptLowerPriority', 'Never']);

/**
 * Checks a pod template (`metadata` and `spec`) at `at`. `addedVolumes` are volumes a controller
 * adds to the pod (a JobSet's volume claim policies), which its containers may mount.
 */
export function checkPodTemplate(template: unknown, at: string, out: Finding[], addedVolumes: readonly string[] = []): void {
  if (!isObject(template)) return;
  checkTemplateMeta(template.metadata, child(at, 'metadata'), out);
  // Kueue's topology annotations live on job pod templates; its webhook judges them there.
  checkKueueTopology(template.metadata, child(at, 'metadata'), out);
  checkPodSpec(template.spec, child(at, 'spec'), out, addedVolumes);
}

/** Checks a pod spec at `at`; `addedVolumes` as for checkPodTemplate. */
export function checkPodSpec(spec: unknown, at: string, out: Finding[], addedVolumes: readonly string[] = []): void {
  if (!isObject(spec)) return;
  const volumes = checkVolumes(spec.volumes, child(at, 'volumes'), out);
  for (const name of addedVolumes) volumes.add(name);
  const securityContextAt = child(at, 'securityContext');
  checkPodSecurityContext(spec.securityContext, securityContextAt, out);
  const pod: PodContext = {
    volumes,
    securityContext: spec.securityContext,
    securityContextAt,
    hostNetwork: spec.hostNetwork === true,
    containerNames: new Set(),
    hostPorts: new Set(),
  };
  checkContainers(spec.initContainers, child(at, 'initContainers'), true, pod, out);
  if (!Array.isArray(spec.containers) || spec.containers.length === 0) {
    CONTAINERS_REQUIRED.report(out, child(at, 'containers'), spec.containers, 'expected at least one container');
  } else {
    checkContainers(spec.containers, child(at, 'containers'), false, pod, out);
  }
  if (Array.isArray(spec.ephemeralContainers) && spec.ephemeralContainers.length > 0) {
    EPHEMERAL_CONTAINERS.report(out, child(at, 'ephemeralContainers'), spec.ephemeralContainers, 'expected not set (ephemeral containers are added to running pods, not in templates)');
  }
  checkTolerations(spec.tolerations, child(at, 'tolerations'), out);
  checkNodeSelector(spec.nodeSelector, child(at, 'nodeSelector'), out);
  checkAffinity(spec.affinity, child(at, 'affinity'), out);
  subdomain(PRIORITY_CLASS_NAME, spec.priorityClassName, child(at, 'priorityClassName'), 'a priority class name', out);
  subdomain(SCHEDULER_NAME, spec.schedulerName, child(at, 'schedulerName'), 'a scheduler name', out);
  subdomain(SERVICE_ACCOUNT_NAME, spec.serviceAccountName, child(at, 'serviceAccountName'), 'a service account name', out);
  subdomain(NODE_NAME, spec.nodeName, child(at, 'nodeName'), 'a node name', out);
  subdomain(RUNTIME_CLASS_NAME, spec.runtimeClassName, child(at, 'runtimeClassName'), 'a runtime class name', out);
  for (const key of ['hostname', 'subdomain']) {
    const v = spec[key];
    if (v !== undefined && v !== '' && !isDns1123Label(v)) HOSTNAME.report(out, child(at, key), v, `expected ${DNS1123_LABEL_TEXT}`);
  }
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.has(spec.restartPolicy)) {
    RESTART_POLICY.report(out, child(at, 'restartPolicy'), spec.restartPolicy, 'expected "Always", "OnFailure" or "Never"');
  }
  const dnsPolicy = spec.dnsPolicy;
  if (dnsPolicy !== undefined && !DNS_POLICIES.has(dnsPolicy)) {
    DNS_POLICY.report(out, child(at, 'dnsPolicy'), dnsPolicy, 'expected "ClusterFirst", "ClusterFirstWithHostNet", "Default" or "None"');
  } else if (dnsPolicy === 'None' && !(isObject(spec.dnsConfig) && Array.isArray(spec.dnsConfig.nameservers) && spec.dnsConfig.nameservers.length > 0)) {
    DNS_POLICY.report(out, child(at, 'dnsConfig'), spec.dnsConfig, 'expected a dnsConfig with at least one nameserver when dnsPolicy is "None"');
  }
  if (spec.preemptionPolicy !== undefined && !PREEMPTION_POLICIES.has(spec.preemptionPolicy)) {
    PREEMPTION_POLICY.report(out, child(at, 'preemptionPolicy'), spec.preemptionPolicy, 'expected "PreemptLowerPriority" or "Never"');
  }
}

function subdomain(rule: Rule, value: unknown, at: string, what: string, out: Finding[]): void {
  if (value === undefined || value === '') return;
  if (!isDns1123Subdomain(value)) rule.report(out, at, value, `expected ${what}: ${DNS1123_SUBDOMAIN_TEXT}`);
}
