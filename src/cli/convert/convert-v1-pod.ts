/**
 * One replica type of a v1 job, read back into the role options of its L2 construct (`image`,
 * `command`, `resources`, `sharedMemory`, ...), with the pod template the construct renders from
 * those options. The construct is not loaded (the CLI may not import constructs), so the rendering
 * is stated here, for the options this reader gives and nothing else, as `ReplicaGroup` writes it
 * (src/common/replica.ts: the main container with the framework's name and port, an empty
 * resources object left out, a container security context that forbids privilege escalation, the
 * token unmounted unless a service account is named, the Istio annotation unless kept, a
 * toleration for the accelerator's taint, a `dshm` memory volume). What the options cannot say is
 * left as written in the input: the job mapper (convert-v1-job.ts) compares the prediction with the
 * input and patches the rest, so a field this reader does not know costs a patch, never a wrong
 * object; the round-trip test synthesizes the code and proves the prediction.
 */
import { Expr, json, object, quoteString } from './convert-code';
import { SHARED_MEMORY_PATH, SHARED_MEMORY_VOLUME, acceleratorToleration } from '../../rules/kubernetes/accelerator-facts';
import { isObject as isMap } from '../../rules/kubernetes/names';
import { canonicalJson } from '../../util/collections';

/** A prop's code, what the module imports for it, and its value as code (equal code, equal value). */
export interface Said {
  readonly expr: Expr;
  readonly imports: readonly string[];
}

const ref = (code: string): Expr => ({ type: 'ref', code, value: undefined });
export const said = (expr: Expr, imports: readonly string[] = []): Said => ({ expr, imports });

/** What the pod of one role gets from the job as a whole. */
export interface PodContext {
  /** The container the construct names (the framework's, or the MPI container given). */
  readonly containerName: string;
  /** The framework port the construct writes on the container, when the kind has one. */
  readonly port?: { readonly number: number; readonly name: string };
  /** Whether the job keeps Istio sidecars (`istioSidecar: true`: no `sidecar.istio.io/inject` annotation). */
  readonly istioSidecar: boolean;
  /** The service account the construct names on this pod (the MPI launcher's), else none and the token unmounted. */
  readonly serviceAccountName?: string;
  /** Whether claims are read (the job mounts them into every pod alike, so the job mapper asks again without them when the pods differ). */
  readonly claims: boolean;
  /** Whether the job's security preset is `PodSecurity.RESTRICTED` (see restrictedContainer). */
  readonly restricted: boolean;
  /** The gang scheduler's name the construct writes on every pod, when the job has gang scheduling. */
  readonly schedulerName?: string;
}

/** The role options of one pod template (in prop order) and the template the construct renders from them. */
export interface PodMapping {
  readonly options: ReadonlyMap<string, Said>;
  readonly rendered: any;
  /** The accelerators per pod, which PyTorch's nprocPerNode and MPI's slotsPerWorker follow. */
  readonly accelerators?: number;
  /** The claims mounted into the main container (by `job.mount`, which the job mapper writes), in mount order. */
  readonly claims: readonly ClaimMount[];
}

/** A PersistentVolumeClaim volume mounted into the main container: `job.mount(mountPath, Volume.fromPersistentVolumeClaim(...))`. */
export interface ClaimMount {
  readonly mountPath: string;
  readonly claimName: string;
  /** The volume's name in the pod (`pvc-<claim>` unless named). */
  readonly volumeName: string;
  readonly volumeReadOnly: boolean;
  readonly mountReadOnly: boolean;
}

export const ISTIO_ANNOTATION = 'sidecar.istio.io/inject';
/** The shared-memory mount the constructs write for `sharedMemory`. */
const SHM = { name: SHARED_MEMORY_VOLUME, mountPath: SHARED_MEMORY_PATH };
/** The container security context of the DEFAULT preset (common/internal/security-contexts.ts presetSecurity). */
export const DEFAULT_CONTAINER_SECURITY = { allowPrivilegeEscalation: false, privileged: false };
/** The pod security context of the RESTRICTED preset (common/replica.ts restrictedPodContext). */
const RESTRICTED_POD_SECURITY = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
const ACCELERATORS: { readonly [resourceName: string]: string } = { 'nvidia.com/gpu': 'nvidia', 'amd.com/gpu': 'amd', 'gpu.intel.com/i915': 'intel' };
const PULL_POLICIES: { readonly [value: string]: string } = { Always: 'ALWAYS', IfNotPresent: 'IF_NOT_PRESENT', Never: 'NEVER' };

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(s => typeof s === 'string');
const isStringMap = (v: unknown): v is { [key: string]: string } =>
  isMap(v) && Object.keys(v).length > 0 && Object.values(v).every(s => typeof s === 'string');
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/**
 * The role options of `template` (a v1 job's pod template, operator and pod defaults applied, see
 * convert-v1-defaults.ts) and what the construct renders from them; undefined when the template
 * is not one main container of the name the construct gives (sidecars are added after
 * construction, which convert does not write).
 */
export function mapPod(template: any, context: PodContext): PodMapping | undefined {
  const spec = template?.spec;
  if (!isMap(spec) || !Array.isArray(spec.containers) || spec.containers.length !== 1) return undefined;
  const container = spec.containers[0];
  if (!isMap(container) || container.name !== context.containerName || typeof container.image !== 'string') return undefined;

  const options = new Map<string, Said>();
  const { c, resources } = containerOptions(container, context, options);
  const pod: { [key: string]: unknown } = { containers: [c] };
  const storage = storageOptions(spec, container, context, options, c, pod);
  const accelerator = resources?.accelerator;
  podOptions(spec, context, options, pod, accelerator);
  const metadata = metadataOptions(template, context, options);
  const rendered = Object.keys(metadata).length > 0 ? { metadata, spec: pod } : { spec: pod };
  const accelerators = accelerator === undefined ? undefined : Number(resources!.amounts[accelerator]);
  return { options, rendered, claims: storage?.claims ?? [], accelerators };
}

/** The main container's options (image, command, environment, resources, security) into `options`, and the container the construct renders. */
function containerOptions(container: any, context: PodContext, options: Map<string, Said>) {
  const c: { [key: string]: unknown } = { name: context.containerName, image: container.image };
  options.set('image', said(json(container.image)));
  for (const field of ['command', 'args'] as const) {
    if (isStrings(container[field])) {
      options.set(field, said(json(container[field])));
      c[field] = container[field];
    }
  }
  if (typeof container.workingDir === 'string') {
    options.set('workingDir', said(json(container.workingDir)));
    c.workingDir = container.workingDir;
  }
  const pull = PULL_POLICIES[String(container.imagePullPolicy)];
  if (pull !== undefined) {
    options.set('imagePullPolicy', said(ref(`ImagePullPolicy.${pull}`), ['cdk8s-plus-28 ImagePullPolicy']));
    c.imagePullPolicy = container.imagePullPolicy;
  }
  const env = literalEnv(container.env);
  if (env !== undefined) {
    options.set('env', said(object(env.map(e => [e.name, ref(`EnvValue.fromValue(${quoteString(e.value)})`)])), ['cdk8s-plus-28 EnvValue']));
    c.env = env;
  }
  if (context.port !== undefined) c.ports = [{ containerPort: context.port.number, name: context.port.name }];
  const resources = mapResources(container.resources);
  if (resources !== undefined) {
    options.set('resources', resources.said);
    c.resources = { limits: resources.amounts, requests: resources.amounts };
  }
  if (context.restricted) {
    // The preset's container context, with the user, group and read-only root the role asked for.
    const asked = restrictedContainer(container.securityContext)!;
    if (Object.keys(asked.props).length > 0) options.set('securityContext', said(json(asked.props)));
    c.securityContext = container.securityContext;
  } else {
    c.securityContext = DEFAULT_CONTAINER_SECURITY;
  }
  return { c, resources };
}

/**
 * Shared memory and the claims into `options` (the claims are mounted by the job mapper), and the
 * mounts and volumes the construct renders into the container `c` and the pod.
 */
function storageOptions(spec: any, container: any, context: PodContext, options: Map<string, Said>,
  c: { [key: string]: unknown }, pod: { [key: string]: unknown }) {
  const storage = podStorage(spec.volumes, container.volumeMounts, context.claims);
  if (storage !== undefined) {
    const mounts: unknown[] = [];
    const volumes: Array<{ name: string }> = [];
    if (storage.shm !== undefined) {
      const size = storage.shm % 1024 === 0 ? `Size.gibibytes(${storage.shm / 1024})` : `Size.mebibytes(${storage.shm})`;
      options.set('sharedMemory', said(ref(size), ['cdk8s Size']));
      mounts.push({ mountPath: SHM.mountPath, name: SHM.name });
      volumes.push({ emptyDir: { medium: 'Memory', sizeLimit: `${storage.shm}Mi` }, name: SHM.name } as any);
    }
    // `job.mount` mounts after the construct's own shared memory; the pod lists its volumes by name.
    for (const claim of storage.claims) {
      const mount = { mountPath: claim.mountPath, name: claim.volumeName };
      mounts.push(claim.mountReadOnly ? { ...mount, readOnly: true } : mount);
      volumes.push({ name: claim.volumeName, persistentVolumeClaim: { claimName: claim.claimName, readOnly: claim.volumeReadOnly } } as any);
    }
    if (mounts.length > 0) c.volumeMounts = mounts;
    if (volumes.length > 0) pod.volumes = volumes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return storage;
}

/** The pod's settings (node selector, tolerations, priority class) into `options`, and the pod spec the construct renders. */
function podOptions(spec: any, context: PodContext, options: Map<string, Said>, pod: { [key: string]: unknown },
  accelerator: string | undefined): void {
  if (isStringMap(spec.nodeSelector)) {
    options.set('nodeSelector', said(json(spec.nodeSelector)));
    pod.nodeSelector = spec.nodeSelector;
  }
  const tolerations = accelerator === undefined ? [] : [acceleratorToleration(accelerator)];
  const given = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const own = given.slice(tolerations.length);
  if (given.length > 0 && same(given.slice(0, tolerations.length), tolerations) && own.length > 0 && own.every(isPlainToleration)) {
    options.set('tolerations', said(json(own)));
    tolerations.push(...own);
  }
  if (tolerations.length > 0) pod.tolerations = tolerations;
  if (context.restricted) pod.securityContext = RESTRICTED_POD_SECURITY;
  if (context.schedulerName !== undefined) pod.schedulerName = context.schedulerName;
  if (context.serviceAccountName !== undefined) pod.serviceAccountName = context.serviceAccountName;
  else pod.automountServiceAccountToken = false;
  if (typeof spec.priorityClassName === 'string') {
    options.set('priorityClassName', said(json(spec.priorityClassName)));
    pod.priorityClassName = spec.priorityClassName;
  }
}

/** The pod's labels and annotations into `options`, and the pod metadata the construct renders (the Istio opt-out unless kept). */
function metadataOptions(template: any, context: PodContext, options: Map<string, Said>): { [key: string]: unknown } {
  const metadata: { [key: string]: unknown } = {};
  const labels = template.metadata?.labels;
  if (isStringMap(labels)) {
    options.set('podLabels', said(json(labels)));
    metadata.labels = labels;
  }
  const annotations: { [key: string]: string } = context.istioSidecar ? {} : { [ISTIO_ANNOTATION]: 'false' };
  const given2 = template.metadata?.annotations;
  if (isStringMap(given2)) {
    const own2 = Object.fromEntries(Object.entries(given2).filter(([k, v]) => context.istioSidecar || k !== ISTIO_ANNOTATION || v !== 'false'));
    if (Object.keys(own2).length > 0) {
      options.set('podAnnotations', said(json(own2)));
      Object.assign(annotations, own2);
    }
  }
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  return metadata;
}

interface EnvVar { readonly name: string; readonly value: string }

/** Literal variables (name and string value only), each name once and none an array index (the `env` prop is a map, which would reorder those). */
function literalEnv(env: unknown): EnvVar[] | undefined {
  if (!Array.isArray(env) || env.length === 0) return undefined;
  const literal = env.every(e => isMap(e) && Object.keys(e).sort().join() === 'name,value' && typeof e.name === 'string'
    && typeof e.value === 'string' && !/^(0|[1-9]\d*)$/.test(e.name));
  return literal && new Set(env.map(e => e.name)).size === env.length ? env : undefined;
}

function isPlainToleration(t: unknown): boolean {
  return isMap(t) && Object.keys(t).every(k => ['key', 'operator', 'value', 'effect'].includes(k)) && Object.values(t).every(v => typeof v === 'string');
}

/**
 * The `Resources` of equal requests and limits (after the pod defaulting, so limits alone will
 * do) in the spelling the construct writes: CPU in cores or millicores, memory and local storage
 * as whole Gi, or Mi that are not whole Gi, and a known accelerator as a whole count.
 */
function mapResources(resources: unknown): { said: Said; amounts: { [name: string]: unknown }; accelerator?: string } | undefined {
  if (!isMap(resources) || Object.keys(resources).sort().join() !== 'limits,requests') return undefined;
  const { limits, requests } = resources;
  if (!isMap(limits) || Object.keys(limits).length === 0 || !same(limits, requests)) return undefined;
  const entries: Array<[string, Expr]> = [];
  const imports = new Set<string>();
  const amounts: { [name: string]: unknown } = {};
  let accelerator: string | undefined;
  for (const [name, amount] of Object.entries(limits)) {
    if (typeof amount !== 'string') return undefined;
    if (name === 'cpu') {
      const millis = /^([1-9]\d*)m$/.exec(amount);
      if (millis !== null) entries.push(['cpu', ref(`Cpu.millis(${millis[1]})`)]);
      else if (/^(0|[1-9]\d*)(\.\d*[1-9])?$/.test(amount)) entries.push(['cpu', ref(`Cpu.units(${amount})`)]);
      else return undefined;
      imports.add('cdk8s-plus-28 Cpu');
      amounts.cpu = amount;
    } else if (name === 'memory' || name === 'ephemeral-storage') {
      const size = sizeCode(amount);
      if (size === undefined) return undefined;
      entries.push([name === 'memory' ? 'memory' : 'ephemeralStorage', ref(size)]);
      imports.add('cdk8s Size');
      amounts[name] = amount;
    } else if (ACCELERATORS[name] !== undefined && accelerator === undefined && /^[1-9]\d*$/.test(amount)) {
      entries.push(['accelerator', ref(`Accelerator.${ACCELERATORS[name]}(${amount})`)]);
      imports.add('cdk8s-kubeflow Accelerator');
      // The construct writes the count as a number; the pod defaulting reads either spelling.
      amounts[name] = amount;
      accelerator = name;
    } else {
      return undefined;
    }
  }
  const order = ['cpu', 'memory', 'ephemeralStorage', 'accelerator'];
  entries.sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  return { said: said(object(entries), [...imports]), amounts, accelerator };
}

/** `Size.gibibytes(n)` or `Size.mebibytes(n)` for a size the construct writes back the same (common/internal/quantities.ts sizeQuantity). */
function sizeCode(amount: string): string | undefined {
  const gi = /^([1-9]\d*)Gi$/.exec(amount);
  if (gi !== null) return `Size.gibibytes(${gi[1]})`;
  const mi = /^([1-9]\d*)Mi$/.exec(amount);
  if (mi !== null && Number(mi[1]) % 1024 !== 0) return `Size.mebibytes(${mi[1]})`;
  return undefined;
}

/**
 * The pod's volumes as the construct writes them: a `dshm` memory volume at /dev/shm
 * (`sharedMemory`, in Mi) and claims mounted once each (with `claims`); undefined when there are
 * none, or when any volume or mount is of another sort (left to patches).
 */
function podStorage(volumes: unknown, mounts: unknown, claims: boolean): { shm?: number; claims: ClaimMount[] } | undefined {
  if (!Array.isArray(volumes) || !Array.isArray(mounts) || volumes.length !== mounts.length || volumes.length === 0) return undefined;
  const out: { shm?: number; claims: ClaimMount[] } = { claims: [] };
  for (const [i, m] of mounts.entries()) {
    const v = volumes.find(x => isMap(x) && x.name === m?.name);
    if (!isMap(m) || !isMap(v) || typeof m.mountPath !== 'string') return undefined;
    const size = /^([1-9]\d*)Mi$/.exec(String(v.emptyDir?.sizeLimit));
    if (i === 0 && size !== null && same(v, { name: SHM.name, emptyDir: { medium: 'Memory', sizeLimit: `${size[1]}Mi` } }) && same(m, SHM)) {
      out.shm = Number(size[1]);
      continue;
    }
    const claim = v.persistentVolumeClaim;
    const mountKeys = Object.keys(m).filter(k => k !== 'readOnly').sort().join();
    if (!claims || Object.keys(v).sort().join() !== 'name,persistentVolumeClaim' || !isMap(claim) || typeof claim.claimName !== 'string'
      || !Object.keys(claim).every(k => k === 'claimName' || k === 'readOnly') || mountKeys !== 'mountPath,name'
      || ![undefined, true, false].includes(claim.readOnly) || ![undefined, true, false].includes(m.readOnly)) {
      return undefined;
    }
    out.claims.push({
      mountPath: m.mountPath,
      claimName: claim.claimName,
      volumeName: String(v.name),
      volumeReadOnly: claim.readOnly === true,
      mountReadOnly: m.readOnly === true,
    });
  }
  return out;
}

/**
 * The `securityContext` prop of a container whose context is the RESTRICTED preset's (escalation
 * and privileged mode off, non-root, every capability dropped, the runtime's seccomp profile) with
 * at most a user, a group and a read-only root besides; undefined for any other context.
 */
export function restrictedContainer(context: unknown): { props: { [key: string]: unknown } } | undefined {
  if (!isMap(context)) return undefined;
  const { runAsUser, runAsGroup, readOnlyRootFilesystem, ...preset } = context;
  const restricted = same(preset, { ...DEFAULT_CONTAINER_SECURITY, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } });
  if (!restricted || ![runAsUser, runAsGroup].every(v => v === undefined || Number.isInteger(v))
    || ![undefined, true, false].includes(readOnlyRootFilesystem)) {
    return undefined;
  }
  const props: { [key: string]: unknown } = {};
  if (runAsUser !== undefined) props.user = runAsUser;
  if (runAsGroup !== undefined) props.group = runAsGroup;
  if (readOnlyRootFilesystem !== undefined) props.readOnlyRootFilesystem = readOnlyRootFilesystem;
  return { props };
}
