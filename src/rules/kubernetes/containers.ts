/**
 * Containers of a pod: names, image, ports, environment, mounts, working directory, probes and
 * enums, as `validateContainers` and `validateContainerCommon` (k8s.io/kubernetes/pkg/apis/core/validation)
 * check them, plus what the container runtime refuses at start.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { checkEnvFromSource, checkEnvVarSource } from './env-sources';
import { child, indexed, named } from './field-path';
import { checkHandlerActions, checkInitContainerHooks, checkLifecycle } from './handlers';
import { mountPointOf } from './mount-point';
import { DNS1123_LABEL_TEXT, isDns1123Label, isEnvVarName, isInt32, isObject, isPortName } from './names';
import { checkContainerClaims, checkResizePolicy } from './pod-resources';
import { checkResources } from './resources';
import { checkContainerSecurityContext, isLocalDescendingPath } from './security';
import { checkVolumeDevices } from './volume-devices';

const F = 'pod';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const CONTAINER_NAME = new Rule('kubernetes', 'kubernetes/container-name', F, `${SOURCE} validateContainerCommon (IsDNS1123Label)`,
  'a container\'s name is a DNS label');
export const CONTAINER_NAME_UNIQUE = new Rule('kubernetes', 'kubernetes/container-name-unique', F, `${SOURCE} validateContainers and validateInitContainers (names unique across both)`,
  'no two containers or init containers share a name');
export const IMAGE = new Rule('kubernetes', 'kubernetes/image', F, `${SOURCE} validateContainerCommon and validateContainersOnlyForPod (required, no surrounding whitespace)`,
  'a container has an image');
export const IMAGE_PULL_POLICY = new Rule('kubernetes', 'kubernetes/image-pull-policy', F, `${SOURCE} validatePullPolicy`,
  'imagePullPolicy is Always, IfNotPresent or Never (required, but defaulted before validation)');
export const TERMINATION_MESSAGE_POLICY = new Rule('kubernetes', 'kubernetes/termination-message-policy', F, `${SOURCE} validateContainerCommon`,
  'terminationMessagePolicy is File or FallbackToLogsOnError (required, but defaulted)');
export const CONTAINER_RESTART_POLICY = new Rule('kubernetes', 'kubernetes/container-restart-policy', F, `${SOURCE} validateInitContainers and validateContainers (restartPolicy Always on init containers only)`,
  'regular containers set no restartPolicy (ContainerRestartRules is alpha and off in 1.34)');
export const WORKING_DIR = new Rule('kubernetes', 'kubernetes/working-dir', F,
  'runc utils_linux.go validateProcessSpec (the OCI process cwd must be absolute; the kubelet passes workingDir through unchanged)',
  'the process\'s working directory is an absolute path');
export const PORT_NUMBER = new Rule('kubernetes', 'kubernetes/port-number', F, `${SOURCE} validateContainerPorts (IsValidPortNum)`,
  'containerPort is from 1 to 65535 (required)');
export const PORT_NAME = new Rule('kubernetes', 'kubernetes/port-name', F, `${SOURCE} validateContainerPorts (IsValidPortName)`,
  'a port name is at most 15 lower-case letters, digits and "-", with a letter, no "--" and no "-" at either end');
export const PORT_NAME_UNIQUE = new Rule('kubernetes', 'kubernetes/port-name-unique', F, `${SOURCE} validateContainerPorts (Duplicate name in a container)`,
  'a port name is an IANA service name, unique in the container');
export const PORT_PROTOCOL = new Rule('kubernetes', 'kubernetes/port-protocol', F, `${SOURCE} validateContainerPorts (supportedPortProtocols)`,
  'protocol is TCP, UDP or SCTP');
export const HOST_PORT_UNIQUE = new Rule('kubernetes', 'kubernetes/host-port-unique', F, `${SOURCE} AccumulateUniqueHostPorts`,
  'no two ports of the regular containers bind one host port, protocol and host IP');
export const HOST_NETWORK_PORT = new Rule('kubernetes', 'kubernetes/host-network-port', F, `${SOURCE} validateHostNetwork (hostPort equals containerPort)`,
  'with hostNetwork, a container port\'s hostPort is unset or equal to its containerPort');
export const ENV_NAME = new Rule('kubernetes', 'kubernetes/env-name', F, `${SOURCE} ValidateEnv (IsRelaxedEnvVarName, GA in 1.34)`,
  'an env name is printable ASCII without "="');
export const ENV_VALUE_FROM = new Rule('kubernetes', 'kubernetes/env-value-from', F,
  `${SOURCE} validateEnvVarValueFrom (exactly one source, not with value; fileKeyRef dropped while the EnvFiles gate is off)`,
  'valueFrom has exactly one source and no value beside it');
export const ENV_FROM = new Rule('kubernetes', 'kubernetes/env-from', F, `${SOURCE} ValidateEnvFrom (exactly one source, prefix a valid name)`,
  'an envFrom entry has exactly one of configMapRef or secretRef, naming a DNS-subdomain object');
export const ENV_REFERENCE_ORDER = new Rule('kubernetes', 'kubernetes/env-reference-order', F,
  'k8s.io/kubernetes pkg/kubelet/kubelet_pods.go makeEnvironmentVariables and third_party/forked/golang/expansion (a $(VAR) in an env value expands only from envFrom and earlier entries)',
  'a $(VAR) in an env value expands only from envFrom and earlier entries');
export const VOLUME_MOUNT_NAME = new Rule('kubernetes', 'kubernetes/volume-mount-name', 'volumes', `${SOURCE} ValidateVolumeMounts (name of a volume of the pod)`,
  'a mount names a volume of the pod');
export const MOUNT_PATH = new Rule('kubernetes', 'kubernetes/mount-path', 'volumes', `${SOURCE} ValidateVolumeMounts (required)`,
  'a mount has a mountPath');
export const MOUNT_PATH_UNIQUE = new Rule('kubernetes', 'kubernetes/mount-path-unique', 'volumes',
  `${SOURCE} ValidateVolumeMounts (must be unique) and the kubelet makeMounts (a relative path made absolute under "/": one mount per resulting path)`,
  'a relative mountPath is made absolute as Clean("/" + path) before the runtime sees it, so it is accepted and runs');
export const SUB_PATH = new Rule('kubernetes', 'kubernetes/sub-path', 'volumes', `${SOURCE} ValidateVolumeMounts (validateLocalDescendingPath, subPath and subPathExpr exclusive)`,
  'subPath and subPathExpr are relative paths without "..", and not both set');
export const MOUNT_OPTIONS = new Rule('kubernetes', 'kubernetes/mount-options', 'volumes',
  `${SOURCE} validateMountPropagation (Bidirectional only in privileged containers) and validateMountRecursiveReadOnly (only with readOnly and no propagation)`,
  'mountPropagation is None, HostToContainer or Bidirectional, Bidirectional only in a privileged container');
export const PROBE_HANDLER = new Rule('kubernetes', 'kubernetes/probe-handler', F, `${SOURCE} validateProbe and validateHandler (exactly one handler)`,
  'a probe has exactly one of exec, httpGet, tcpSocket or grpc');
export const PROBE_SUCCESS_THRESHOLD = new Rule('kubernetes', 'kubernetes/probe-success-threshold', F, `${SOURCE} validateLivenessProbe and validateStartupProbe (successThreshold 1)`,
  'liveness and startup probes have successThreshold 1');

export const CONTAINER_RULES = [
  CONTAINER_NAME, CONTAINER_NAME_UNIQUE, IMAGE, IMAGE_PULL_POLICY, TERMINATION_MESSAGE_POLICY, CONTAINER_RESTART_POLICY,
  WORKING_DIR, PORT_NUMBER, PORT_NAME, PORT_NAME_UNIQUE, PORT_PROTOCOL, HOST_PORT_UNIQUE, HOST_NETWORK_PORT,
  ENV_NAME, ENV_VALUE_FROM, ENV_FROM, ENV_REFERENCE_ORDER, VOLUME_MOUNT_NAME, MOUNT_PATH, MOUNT_PATH_UNIQUE, MOUNT_OPTIONS, SUB_PATH,
  PROBE_HANDLER, PROBE_SUCCESS_THRESHOLD,
];

const PULL_POLICIES = new Set(['Always', 'IfNotPresent', 'Never']);
const PROTOCOLS = new Set(['TCP', 'UDP', 'SCTP']);
// fileKeyRef is left out: the EnvFiles gate is alpha and off in 1.34, so the API server drops it
// and the entry is left without a source.
const ENV_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'];
const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];

/** What a container check needs from its pod. */
export interface PodContext {
  readonly volumes: Set<string> | undefined;
  readonly securityContext: unknown;
  readonly securityContextAt: string;
  readonly hostNetwork: boolean;
  /** The pod's `hostUsers` (false: the pod has its own user namespace). */
  readonly hostUsers: boolean;
  /** Names of containers seen so far (uniqueness across init and regular containers). */
  readonly containerNames: Set<string>;
  /** `protocol/hostIP/hostPort` seen so far across the pod's regular containers. */
  readonly hostPorts: Set<string>;
  /** The pod's terminationGracePeriodSeconds (30 when not set). */
  readonly gracePeriod: number;
  /** The pod's restartPolicy (as written; the API server defaults it to Always). */
  readonly restartPolicy: unknown;
  /** The names of the pod's resourceClaims. */
  readonly resourceClaims: Set<string>;
  /** The names of the pod's volumes a claim backs (the ones a volume device may name). */
  readonly claimVolumes: ReadonlySet<string>;
}

/** Checks `containers` or `initContainers` of a pod spec. */
export function checkContainers(list: unknown, at: string, init: boolean, pod: PodContext, out: Finding[]): void {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const container = list[i];
    if (!isObject(container)) continue;
    checkContainer(container, named(at, container, i), init, pod, out);
  }
}

function checkContainer(c: Record<string, any>, at: string, init: boolean, pod: PodContext, out: Finding[]): void {
  const name = c.name;
  if (!isDns1123Label(name)) {
    CONTAINER_NAME.report(out, child(at, 'name'), name, `expected ${DNS1123_LABEL_TEXT}`);
  } else if (pod.containerNames.has(name)) {
    CONTAINER_NAME_UNIQUE.report(out, child(at, 'name'), name, 'expected a name no other container or init container of the pod has');
  }
  if (typeof name === 'string') pod.containerNames.add(name);
  checkImage(c.image, child(at, 'image'), out);
  // Kubernetes' v1 defaults (SetDefaults_Container) fill an empty policy as they fill an unset one.
  if (c.imagePullPolicy !== undefined && c.imagePullPolicy !== '' && !PULL_POLICIES.has(c.imagePullPolicy)) {
    IMAGE_PULL_POLICY.report(out, child(at, 'imagePullPolicy'), c.imagePullPolicy, 'expected "Always", "IfNotPresent" or "Never"');
  }
  const tmp = c.terminationMessagePolicy;
  if (tmp !== undefined && tmp !== '' && tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    TERMINATION_MESSAGE_POLICY.report(out, child(at, 'terminationMessagePolicy'), tmp, 'expected "File" or "FallbackToLogsOnError"');
  }
  if (c.restartPolicy !== undefined) {
    if (!init) {
      CONTAINER_RESTART_POLICY.report(out, child(at, 'restartPolicy'), c.restartPolicy, 'expected not set on a regular container (only init containers take restartPolicy "Always", as sidecars)');
    } else if (c.restartPolicy !== 'Always') {
      CONTAINER_RESTART_POLICY.report(out, child(at, 'restartPolicy'), c.restartPolicy, 'expected "Always" (a sidecar init container) or not set');
    }
  }
  checkWorkingDir(c.workingDir, child(at, 'workingDir'), out);
  // checkHostPortConflicts: across the regular containers, but each init container on its own,
  // since init containers run one after another.
  checkPorts(c.ports, child(at, 'ports'), pod, init ? new Set() : pod.hostPorts, out);
  checkEnv(c.env, child(at, 'env'), out);
  checkEnvFrom(c.envFrom, child(at, 'envFrom'), out);
  if (!Array.isArray(c.envFrom) || c.envFrom.length === 0) checkEnvReferenceOrder(c.env, child(at, 'env'), out);
  checkVolumeMounts(c.volumeMounts, child(at, 'volumeMounts'), pod.volumes, out, c);
  checkVolumeDevices(c, child(at, 'volumeDevices'), pod.volumes ?? new Set(), pod.claimVolumes, pod.hostUsers, out);
  checkResources(c.resources, child(at, 'resources'), out);
  if (isObject(c.resources)) checkContainerClaims(c.resources.claims, child(child(at, 'resources'), 'claims'), pod.resourceClaims, out);
  checkResizePolicy(c.resizePolicy, child(at, 'resizePolicy'), pod.restartPolicy, out);
  checkContainerSecurityContext(c.securityContext, child(at, 'securityContext'), pod.securityContext, pod.securityContextAt, out, pod.hostUsers);
  if (init && c.restartPolicy !== 'Always') {
    checkInitContainerHooks(c, at, out);
    return;
  }
  if (isObject(c.lifecycle)) checkLifecycle(c.lifecycle, child(at, 'lifecycle'), pod.gracePeriod, out);
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (isObject(c[probe])) checkProbe(c[probe], child(at, probe), probe !== 'readinessProbe', out);
  }
}

/** An image: required, and no leading or trailing whitespace (the pod is refused). */
export function checkImage(image: unknown, at: string, out: Finding[]): void {
  if (typeof image !== 'string' || image === '') {
    IMAGE.report(out, at, image, 'expected a container image reference such as ghcr.io/org/image:tag');
  } else if (image.trim() !== image) {
    IMAGE.report(out, at, image, 'expected an image reference without leading or trailing whitespace');
  }
}

function checkWorkingDir(dir: unknown, at: string, out: Finding[]): void {
  if (dir === undefined || dir === '') return;
  if (typeof dir !== 'string' || !dir.startsWith('/')) {
    WORKING_DIR.report(out, at, dir, 'expected an absolute path (the container runtime refuses a relative working directory)');
  }
}

function checkPorts(ports: unknown, at: string, pod: PodContext, hostPorts: Set<string>, out: Finding[]): void {
  if (!Array.isArray(ports)) return;
  const names = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i];
    if (!isObject(port)) continue;
    const path = indexed(at, i);
    const containerPort = port.containerPort;
    // Values outside int32 are reported by the integer table; the range only for int32 values.
    if (isInt32(containerPort) && (containerPort < 1 || containerPort > 65535)) {
      PORT_NUMBER.report(out, child(path, 'containerPort'), containerPort, 'expected a port number between 1 and 65535');
    } else if (containerPort === undefined) {
      PORT_NUMBER.report(out, child(path, 'containerPort'), containerPort, 'expected a port number between 1 and 65535');
    }
    const hostPort = port.hostPort;
    if (isInt32(hostPort) && hostPort !== 0 && (hostPort < 1 || hostPort > 65535)) {
      PORT_NUMBER.report(out, child(path, 'hostPort'), hostPort, 'expected a port number between 1 and 65535, or 0 for none');
    }
    if (port.name !== undefined && port.name !== '') {
      if (!isPortName(port.name)) {
        PORT_NAME.report(out, child(path, 'name'), port.name,
          'expected an IANA service name: at most 15 lower-case letters, digits or "-", with at least one letter, no "--" and no "-" at either end');
      } else if (names.has(port.name)) {
        PORT_NAME_UNIQUE.report(out, child(path, 'name'), port.name, 'expected a port name not used by another port of the container');
      }
      names.add(port.name);
    }
    const protocol = port.protocol;
    // An empty protocol is defaulted to TCP (SetDefaults_ContainerPort), as an unset one.
    if (protocol !== undefined && protocol !== '' && !PROTOCOLS.has(protocol)) {
      PORT_PROTOCOL.report(out, child(path, 'protocol'), protocol, 'expected "TCP", "UDP" or "SCTP"');
    }
    if (isInt32(hostPort) && hostPort > 0) {
      // AccumulateUniqueHostPorts keys on protocol, host IP and port.
      const key = `${protocol || 'TCP'}/${port.hostIP ?? ''}/${hostPort}`;
      if (hostPorts.has(key)) {
        HOST_PORT_UNIQUE.report(out, child(path, 'hostPort'), hostPort, `expected a host port no other port of the pod binds with the same protocol (${protocol || 'TCP'}) and host IP`);
      }
      hostPorts.add(key);
    }
    if (pod.hostNetwork && hostPort !== undefined && hostPort !== 0 && hostPort !== containerPort) {
      HOST_NETWORK_PORT.report(out, child(path, 'hostPort'), hostPort, `expected the containerPort (${String(containerPort)}) or not set, because hostNetwork is true`);
    }
  }
}

/** Checks an `env` list (containers, WorkspaceKind extraEnv). */
export function checkEnv(env: unknown, at: string, out: Finding[]): void {
  if (!Array.isArray(env)) return;
  for (let i = 0; i < env.length; i++) {
    const item = env[i];
    if (!isObject(item)) continue;
    const path = indexed(at, i);
    if (!isEnvVarName(item.name)) {
      ENV_NAME.report(out, child(path, 'name'), item.name, 'expected an environment variable name: one or more printable ASCII characters other than "="');
    }
    const valueFrom = item.valueFrom;
    if (valueFrom === undefined || valueFrom === null) continue;
    const sources: string[] = [];
    if (isObject(valueFrom)) for (const s of ENV_SOURCES) if (valueFrom[s] !== undefined && valueFrom[s] !== null) sources.push(s);
    if (sources.length !== 1) {
      ENV_VALUE_FROM.report(out, child(path, 'valueFrom'), valueFrom, sources.length > 0
        ? `expected exactly one source, not ${sources.join(' and ')}`
        : isObject(valueFrom) && valueFrom.fileKeyRef != null
          ? 'expected one of fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef (fileKeyRef needs the EnvFiles feature gate, alpha and off in 1.34, without which the API server drops it)'
          : 'expected exactly one of fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef');
    }
    if (isObject(valueFrom)) checkEnvVarSource(valueFrom, child(path, 'valueFrom'), out);
    if (typeof item.value === 'string' && item.value !== '') {
      ENV_VALUE_FROM.report(out, child(path, 'value'), item.value, 'expected not set (or empty) when valueFrom is set');
    }
  }
}

/**
 * References in env values to a variable the same list defines only later: the kubelet expands
 * `$(NAME)` from envFrom, the entries before it and the service variables, so the reference stays
 * as written. Only for a container without envFrom (whose keys could define the name before).
 * `$$` is the escape: `$$(NAME)` is the literal `$(NAME)`.
 */
export function checkEnvReferenceOrder(env: unknown, at: string, out: Finding[]): void {
  if (!Array.isArray(env)) return;
  const firstIndex = new Map<string, number>();
  env.forEach((e, i) => {
    if (isObject(e) && typeof e.name === 'string' && !firstIndex.has(e.name)) firstIndex.set(e.name, i);
  });
  env.forEach((e, i) => {
    if (!isObject(e) || typeof e.value !== 'string') return;
    for (const name of envReferences(e.value)) {
      const defined = firstIndex.get(name);
      if (defined === undefined || defined < i) continue;
      const where = defined === i ? 'this entry itself' : `${indexed(at, defined)}, after it`;
      ENV_REFERENCE_ORDER.report(out, child(indexed(at, i), 'value'), e.value,
        `expected references only to variables defined before this entry: "${name}" is defined at ${where}, so the kubelet leaves "$(${name})" unexpanded; `
        + `move "${name}" before ${indexed(at, i)}, or write "$$(${name})" to keep the text literal`);
    }
  });
}

/** The variable names `$(NAME)` refers to in a value, as the kubelet's expansion reads them (`$$` escapes). */
export function envReferences(value: string): string[] {
  const names: string[] = [];
  for (let i = 0; i < value.length - 1; i++) {
    if (value[i] !== '$') continue;
    if (value[i + 1] === '$') { i++; continue; }
    if (value[i + 1] !== '(') continue;
    const close = value.indexOf(')', i + 2);
    if (close < 0) break;
    const name = value.slice(i + 2, close);
    if (name !== '' && !names.includes(name)) names.push(name);
    i = close;
  }
  return names;
}

function checkEnvFrom(envFrom: unknown, at: string, out: Finding[]): void {
  if (!Array.isArray(envFrom)) return;
  for (let i = 0; i < envFrom.length; i++) {
    const item = envFrom[i];
    if (!isObject(item)) continue;
    const path = indexed(at, i);
    const count = (item.configMapRef != null ? 1 : 0) + (item.secretRef != null ? 1 : 0);
    if (count !== 1) {
      ENV_FROM.report(out, path, item, 'expected exactly one of configMapRef or secretRef');
    }
    if (item.prefix !== undefined && item.prefix !== '' && !isEnvVarName(item.prefix)) {
      ENV_FROM.report(out, child(path, 'prefix'), item.prefix, 'expected printable ASCII characters other than "="');
    }
    checkEnvFromSource(item, path, out);
  }
}

/**
 * Checks `volumeMounts`; `volumes` is the set of the pod's volume names, or undefined where the
 * volumes are not all known (nothing to refer to).
 */
export function checkVolumeMounts(
  mounts: unknown, at: string, volumes: Set<string> | undefined, out: Finding[], container?: Record<string, any>,
): void {
  if (!Array.isArray(mounts)) return;
  const paths = new Set<string>();
  for (let i = 0; i < mounts.length; i++) {
    const mount = mounts[i];
    if (!isObject(mount)) continue;
    const path = indexed(at, i);
    if (volumes !== undefined && !volumes.has(mount.name)) {
      VOLUME_MOUNT_NAME.report(out, child(path, 'name'), mount.name, volumes.size === 0
        ? 'expected the name of a volume of the pod (the pod has none)'
        : `expected the name of a volume of the pod: ${[...volumes].map(v => JSON.stringify(v)).join(', ')}`);
    }
    const mountPath = mount.mountPath;
    if (typeof mountPath !== 'string' || mountPath === '') {
      MOUNT_PATH.report(out, child(path, 'mountPath'), mountPath, 'expected a path in the container such as /data');
    } else {
      // The API server compares the strings; the kubelet mounts "data", "/data" and "/data/" on one place.
      const normalized = mountPointOf(mountPath);
      if (paths.has(normalized)) {
        MOUNT_PATH_UNIQUE.report(out, child(path, 'mountPath'), mountPath,
          'expected a mount path no other mount of the container uses ("/data", "/data/" and "data" are the same path)');
      }
      paths.add(normalized);
    }
    checkMountOptions(mount, path, container, out);
    const subPath = mount.subPath;
    if (typeof subPath === 'string' && subPath !== '') {
      if (!isLocalDescendingPath(subPath)) {
        SUB_PATH.report(out, child(path, 'subPath'), subPath, 'expected a relative path inside the volume, without ".."');
      }
      if (typeof mount.subPathExpr === 'string' && mount.subPathExpr !== '') {
        SUB_PATH.report(out, child(path, 'subPathExpr'), mount.subPathExpr, 'expected not set when subPath is set (they are mutually exclusive)');
      }
    } else if (typeof mount.subPathExpr === 'string' && mount.subPathExpr !== '' && !isLocalDescendingPath(mount.subPathExpr)) {
      SUB_PATH.report(out, child(path, 'subPathExpr'), mount.subPathExpr, 'expected a relative path inside the volume, without ".."');
    }
  }
}

const PROPAGATIONS = new Set(['None', 'HostToContainer', 'Bidirectional']);
const RECURSIVE_READ_ONLY = new Set(['Disabled', 'IfPossible', 'Enabled']);

/**
 * validateMountPropagation and validateMountRecursiveReadOnly. `container` is the mount's container
 * when known (Bidirectional needs it privileged).
 */
function checkMountOptions(mount: Record<string, any>, at: string, container: Record<string, any> | undefined, out: Finding[]): void {
  const propagation = mount.mountPropagation;
  if (propagation !== undefined && propagation !== null) {
    if (!PROPAGATIONS.has(propagation)) {
      MOUNT_OPTIONS.report(out, child(at, 'mountPropagation'), propagation, 'expected "None", "HostToContainer" or "Bidirectional"');
    } else if (propagation === 'Bidirectional' && container !== undefined && container.securityContext?.privileged !== true) {
      MOUNT_OPTIONS.report(out, child(at, 'mountPropagation'), propagation, 'expected "None" or "HostToContainer" (only a privileged container may use "Bidirectional")');
    }
  }
  const rro = mount.recursiveReadOnly;
  if (rro === undefined || rro === null || rro === 'Disabled') return;
  if (!RECURSIVE_READ_ONLY.has(rro)) {
    MOUNT_OPTIONS.report(out, child(at, 'recursiveReadOnly'), rro, 'expected "Disabled", "IfPossible" or "Enabled"');
  } else if (mount.readOnly !== true) {
    MOUNT_OPTIONS.report(out, child(at, 'recursiveReadOnly'), rro, 'expected "Disabled" or not set unless readOnly is true');
  } else if (propagation !== undefined && propagation !== null && propagation !== 'None') {
    MOUNT_OPTIONS.report(out, child(at, 'recursiveReadOnly'), rro, 'expected "Disabled" or not set unless mountPropagation is "None" or not set');
  }
}

/**
 * Checks a `probes` block ({livenessProbe, readinessProbe, startupProbe}) at `at`, such as a
 * WorkspaceKind's, which the notebooks controller copies onto the container it builds.
 */
export function checkProbes(probes: unknown, at: string, out: Finding[]): void {
  if (!isObject(probes)) return;
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (isObject(probes[probe])) checkProbe(probes[probe], child(at, probe), probe !== 'readinessProbe', out);
  }
}

function checkProbe(probe: Record<string, any>, at: string, mustSucceedOnce: boolean, out: Finding[]): void {
  const handlers: string[] = [];
  for (const h of PROBE_HANDLERS) if (probe[h] !== undefined && probe[h] !== null) handlers.push(h);
  if (handlers.length !== 1) {
    PROBE_HANDLER.report(out, at, probe, handlers.length === 0
      ? 'expected exactly one of exec, httpGet, tcpSocket or grpc'
      : `expected exactly one handler, not ${handlers.join(' and ')}`);
  }
  checkHandlerActions(probe, at, out);
  // 0 is defaulted to 1 before validation (SetDefaults_Probe).
  const threshold = probe.successThreshold;
  if (mustSucceedOnce && threshold !== undefined && threshold !== 0 && threshold !== 1) {
    PROBE_SUCCESS_THRESHOLD.report(out, child(at, 'successThreshold'), threshold, 'expected 1 (liveness and startup probes succeed once)');
  }
}
