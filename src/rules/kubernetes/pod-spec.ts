/**
 * A pod template and its spec, as `ValidatePodTemplateSpec` and `ValidatePodSpec`
 * (k8s.io/kubernetes/pkg/apis/core/validation) check them when the operator creates the pods.
 */
import { Finding } from '../finding';
import { checkKueueTopology } from '../kueue/topology';
import { Rule } from '../rule';
import { PodContext, checkContainers, checkEnv, checkVolumeMounts } from './containers';
import { child, indexed, named } from './field-path';
import { DEFAULT_GRACE_PERIOD } from './handlers';
import { checkTemplateMeta } from './metadata';
import { DNS1123_LABEL_TEXT, DNS1123_SUBDOMAIN_TEXT, QUALIFIED_NAME_TEXT, isDns1123Label, isDns1123Subdomain, isObject, isQualifiedName } from './names';
import { checkDnsConfig, checkHostAliases } from './pod-network';
import { checkPodOsFields } from './pod-os';
import { checkPodResourceClaims, checkPodResources } from './pod-resources';
import { checkPodSecurityFields } from './pod-security-context';
import { checkOverhead } from './resources';
import { checkAffinity, checkNodeSelector, checkTolerations } from './scheduling';
import { checkContainerSecurityContext, checkPodSecurityContext } from './security';
import { checkTopologySpread } from './topology-spread';
import { claimVolumeNames } from './volume-devices';
import { checkVolumes } from './volumes';
import { checkWindowsOptions } from './windows-options';

const F = 'pod';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation ValidatePodSpec';

export const PRIORITY_CLASS_NAME = new Rule('kubernetes', 'kubernetes/priority-class-name', 'scheduling', `${SOURCE} (ValidatePriorityClassName: NameIsDNSSubdomain)`,
  'priorityClassName is a DNS subdomain');
export const SERVICE_ACCOUNT_NAME = new Rule('kubernetes', 'kubernetes/service-account-name', F, `${SOURCE} (ValidateServiceAccountName: NameIsDNSSubdomain)`,
  'serviceAccountName is a DNS subdomain');
export const NODE_NAME = new Rule('kubernetes', 'kubernetes/node-name', 'scheduling', `${SOURCE} (ValidateNodeName: NameIsDNSSubdomain)`,
  'nodeName is a DNS subdomain');
export const RUNTIME_CLASS_NAME = new Rule('kubernetes', 'kubernetes/runtime-class-name', F, `${SOURCE} (ValidateRuntimeClassName: NameIsDNSSubdomain)`,
  'runtimeClassName is a DNS subdomain');
export const HOSTNAME = new Rule('kubernetes', 'kubernetes/hostname', F, `${SOURCE} (hostname and subdomain: IsDNS1123Label)`,
  'hostname and subdomain are DNS labels');
export const RESTART_POLICY = new Rule('kubernetes', 'kubernetes/restart-policy', F, `${SOURCE} validateRestartPolicy`,
  'the pod\'s restartPolicy is Always, OnFailure or Never');
export const DNS_POLICY = new Rule('kubernetes', 'kubernetes/dns-policy', F, `${SOURCE} validateDNSPolicy and validatePodDNSConfig (None needs dnsConfig)`,
  'dnsPolicy is ClusterFirst, ClusterFirstWithHostNet, Default or None, and None comes with a dnsConfig with a nameserver');
export const PREEMPTION_POLICY = new Rule('kubernetes', 'kubernetes/preemption-policy', F, `${SOURCE} validatePreemptionPolicy`,
  'preemptionPolicy is PreemptLowerPriority or Never');
export const EPHEMERAL_CONTAINERS = new Rule('kubernetes', 'kubernetes/ephemeral-containers', F,
  'k8s.io/kubernetes/pkg/apis/core/validation ValidatePodCreate (ephemeral containers cannot be set on create)',
  'a new pod has no ephemeral containers (they are added to running pods through their own subresource)');
export const CONTAINERS_REQUIRED = new Rule('kubernetes', 'kubernetes/containers-required', F, `${SOURCE} validateContainers (at least one container)`,
  'a pod has at least one container');
export const POD_GATES = new Rule('kubernetes', 'kubernetes/pod-gates', F,
  `${SOURCE} validateReadinessGates and validateSchedulingGates (qualified names, scheduling gates unique)`,
  'every readiness gate\'s condition type is a qualified name');
export const POD_OS = new Rule('kubernetes', 'kubernetes/pod-os', F, `${SOURCE} validateOS (os.name linux or windows)`,
  'os.name is linux or windows');

export const POD_SPEC_RULES = [
  PRIORITY_CLASS_NAME, SERVICE_ACCOUNT_NAME, NODE_NAME, RUNTIME_CLASS_NAME, HOSTNAME,
  RESTART_POLICY, DNS_POLICY, PREEMPTION_POLICY, EPHEMERAL_CONTAINERS, CONTAINERS_REQUIRED, POD_GATES, POD_OS,
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
  checkPodSpec(template.spec, child(at, 'spec'), out, addedVolumes, isObject(template.metadata) ? template.metadata.labels : undefined);
}

/**
 * Checks a pod spec at `at`; `addedVolumes` as for checkPodTemplate, `podLabels` the template's
 * labels when known.
 */
export function checkPodSpec(spec: unknown, at: string, out: Finding[], addedVolumes: readonly string[] = [], podLabels?: unknown): void {
  if (!isObject(spec)) return;
  const volumes = checkVolumes(spec.volumes, child(at, 'volumes'), out);
  for (const name of addedVolumes) volumes.add(name);
  const securityContextAt = child(at, 'securityContext');
  checkPodSecurityContext(spec.securityContext, securityContextAt, out);
  checkPodSecurityFields(spec, at, out);
  const pod: PodContext = {
    volumes,
    securityContext: spec.securityContext,
    securityContextAt,
    hostNetwork: spec.hostNetwork === true,
    hostUsers: spec.hostUsers !== false,
    containerNames: new Set(),
    hostPorts: new Set(),
    gracePeriod: typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : DEFAULT_GRACE_PERIOD,
    restartPolicy: spec.restartPolicy,
    resourceClaims: checkPodResourceClaims(spec.resourceClaims, child(at, 'resourceClaims'), out),
    // A JobSet's claim policies add claim-backed volumes.
    claimVolumes: new Set([...claimVolumeNames(spec.volumes), ...addedVolumes]),
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
  checkAffinity(spec.affinity, child(at, 'affinity'), out, podLabels);
  subdomain(PRIORITY_CLASS_NAME, spec.priorityClassName, child(at, 'priorityClassName'), 'a priority class name', out);
  subdomain(SERVICE_ACCOUNT_NAME, spec.serviceAccountName, child(at, 'serviceAccountName'), 'a service account name', out);
  // The deprecated alias: v1 conversion (Convert_v1_PodSpec_To_core_PodSpec) makes it the service
  // account name when serviceAccountName is empty, and that name is then validated.
  if (spec.serviceAccountName === undefined || spec.serviceAccountName === '') {
    subdomain(SERVICE_ACCOUNT_NAME, spec.serviceAccount, child(at, 'serviceAccount'), 'a service account name', out);
  }
  subdomain(NODE_NAME, spec.nodeName, child(at, 'nodeName'), 'a node name', out);
  // runtimeClassName is a pointer: an empty string is set, and no RuntimeClass is named "".
  if (spec.runtimeClassName === '') RUNTIME_CLASS_NAME.report(out, child(at, 'runtimeClassName'), '', `expected a runtime class name (or none): ${DNS1123_SUBDOMAIN_TEXT}`);
  subdomain(RUNTIME_CLASS_NAME, spec.runtimeClassName, child(at, 'runtimeClassName'), 'a runtime class name', out);
  for (const key of ['hostname', 'subdomain']) {
    const v = spec[key];
    if (v !== undefined && v !== '' && !isDns1123Label(v)) HOSTNAME.report(out, child(at, key), v, `expected ${DNS1123_LABEL_TEXT}`);
  }
  // Kubernetes' v1 defaults (SetDefaults_PodSpec) fill an empty policy as they fill an unset one.
  if (spec.restartPolicy !== undefined && spec.restartPolicy !== '' && !RESTART_POLICIES.has(spec.restartPolicy)) {
    RESTART_POLICY.report(out, child(at, 'restartPolicy'), spec.restartPolicy, 'expected "Always", "OnFailure" or "Never"');
  }
  const dnsPolicy = spec.dnsPolicy;
  if (dnsPolicy !== undefined && dnsPolicy !== '' && !DNS_POLICIES.has(dnsPolicy)) {
    DNS_POLICY.report(out, child(at, 'dnsPolicy'), dnsPolicy, 'expected "ClusterFirst", "ClusterFirstWithHostNet", "Default" or "None"');
  } else if (dnsPolicy === 'None' && !(isObject(spec.dnsConfig) && Array.isArray(spec.dnsConfig.nameservers) && spec.dnsConfig.nameservers.length > 0)) {
    DNS_POLICY.report(out, child(at, 'dnsConfig'), spec.dnsConfig, 'expected a dnsConfig with at least one nameserver when dnsPolicy is "None"');
  }
  if (spec.preemptionPolicy !== undefined && !PREEMPTION_POLICIES.has(spec.preemptionPolicy)) {
    PREEMPTION_POLICY.report(out, child(at, 'preemptionPolicy'), spec.preemptionPolicy, 'expected "PreemptLowerPriority" or "Never"');
  }
  checkPodResources(spec, at, out);
  checkOverhead(spec.overhead, child(at, 'overhead'), out);
  checkDnsConfig(spec.dnsConfig, child(at, 'dnsConfig'), out);
  checkHostAliases(spec.hostAliases, child(at, 'hostAliases'), out);
  checkTopologySpread(spec.topologySpreadConstraints, child(at, 'topologySpreadConstraints'), podLabels, out);
  checkGates(spec, at, out);
  if (isObject(spec.os) && spec.os.name !== 'linux' && spec.os.name !== 'windows') {
    POD_OS.report(out, child(child(at, 'os'), 'name'), spec.os.name, 'expected "linux" or "windows"');
  }
  checkPodOsFields(spec, at, out);
  checkWindowsOptions(spec, at, out);
}

function checkGates(spec: Record<string, any>, at: string, out: Finding[]): void {
  if (Array.isArray(spec.readinessGates)) {
    spec.readinessGates.forEach((g: unknown, i: number) => {
      const type = isObject(g) ? g.conditionType : undefined;
      if (!isQualifiedName(type)) {
        POD_GATES.report(out, child(indexed(child(at, 'readinessGates'), i), 'conditionType'), type, `expected a pod condition type: ${QUALIFIED_NAME_TEXT}`);
      }
    });
  }
  if (Array.isArray(spec.schedulingGates)) {
    const seen = new Set<unknown>();
    spec.schedulingGates.forEach((g: unknown, i: number) => {
      const name = isObject(g) ? g.name : undefined;
      const nameAt = child(indexed(child(at, 'schedulingGates'), i), 'name');
      if (!isQualifiedName(name)) {
        POD_GATES.report(out, nameAt, name, `expected a scheduling gate name: ${QUALIFIED_NAME_TEXT}`);
      } else if (seen.has(name)) {
        POD_GATES.report(out, nameAt, name, 'expected a scheduling gate not listed twice');
      }
      seen.add(name);
    });
  }
}

function subdomain(rule: Rule, value: unknown, at: string, what: string, out: Finding[]): void {
  if (value === undefined || value === '') return;
  if (!isDns1123Subdomain(value)) rule.report(out, at, value, `expected ${what}: ${DNS1123_SUBDOMAIN_TEXT}`);
}

/**
 * The parts of a partial pod spec (a Trainer runtime patch) that are whole Kubernetes values: the
 * service account and scheduling gates, the pod's security context, and each container's env,
 * mounts and security context. A patch's containers carry no image, so they are not checked as
 * containers; their mounts may name volumes of the runtime, which the patch does not show.
 */
export function checkPodSpecPatch(spec: Record<string, any>, at: string, out: Finding[]): void {
  subdomain(SERVICE_ACCOUNT_NAME, spec.serviceAccountName, child(at, 'serviceAccountName'), 'a service account name', out);
  checkGates(spec, at, out);
  const scAt = child(at, 'securityContext');
  checkPodSecurityContext(spec.securityContext, scAt, out);
  checkPodSecurityFields(spec, at, out);
  for (const list of ['initContainers', 'containers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c: unknown, i: number) => {
      if (!isObject(c)) return;
      const cAt = named(child(at, list), c, i);
      checkEnv(c.env, child(cAt, 'env'), out);
      checkVolumeMounts(c.volumeMounts, child(cAt, 'volumeMounts'), undefined, out, c);
      checkContainerSecurityContext(c.securityContext, child(cAt, 'securityContext'), spec.securityContext, scAt, out, spec.hostUsers !== false);
    });
  }
}
