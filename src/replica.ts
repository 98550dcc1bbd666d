import { Size, SizeRoundingBehavior } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Accelerator } from './accelerator';
import { PlatformDefaultsProps, mergeMaps, unique } from './defaults';
import { checkCount, fail, problem } from './errors';
import { checkConstructor } from './private/boundary/check';
import { RestartPolicy } from './run-policy';
import { PodSecurity } from './security';

/** CPU, memory, local storage and accelerators of one pod's main container. */
export interface Resources {
  /**
   * CPU, as both request and limit.
   * @default - no CPU request or limit
   */
  readonly cpu?: kplus.Cpu;
  /**
   * Memory, as both request and limit (a training process that outgrows its request is the
   * first one the kubelet evicts, so they are kept equal).
   * @default - no memory request or limit
   */
  readonly memory?: Size;
  /**
   * Local ephemeral storage, as both request and limit.
   * @default - none
   */
  readonly ephemeralStorage?: Size;
  /**
   * GPUs or other devices per pod, written as a limit with an equal request.
   * @default - none
   */
  readonly accelerator?: Accelerator;
}

/** What can be set for every replica type of a job, or for one of them. */
export interface ReplicaOptions {
  /**
   * Container image.
   * @default - the job's image
   */
  readonly image?: string;
  /**
   * Entrypoint of the main container.
   * @default - the job's command, else the image's entrypoint
   */
  readonly command?: string[];
  /**
   * Arguments of the main container.
   * @default - the job's arguments
   */
  readonly args?: string[];
  /**
   * Working directory of the main container.
   * @default - the image's
   */
  readonly workingDir?: string;
  /**
   * When the image is pulled.
   * @default - the cluster's default (IfNotPresent unless the tag is latest)
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;
  /**
   * Environment variables of the main container; added to the job's.
   * @default - none
   */
  readonly env?: { [name: string]: kplus.EnvValue };
  /**
   * Resources per pod.
   * @default - the job's resources
   */
  readonly resources?: Resources;
  /**
   * Size of a memory-backed volume mounted at /dev/shm. Data loaders and NCCL need more than the
   * 64 MiB that containers get otherwise.
   * @default - the job's shared memory, else none
   */
  readonly sharedMemory?: Size;
  /**
   * Node labels the pods must match; merged with the job's and the platform defaults.
   * @default - none
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Tolerations, added to the job's and the platform's.
   * @default - none (a toleration for the accelerator's own taint is added when one is requested)
   */
  readonly tolerations?: k8s.Toleration[];
  /**
   * Node and pod affinity.
   * @default - none
   */
  readonly affinity?: k8s.Affinity;
  /**
   * Service account of the pods; its token is mounted only when one is given.
   * @default - the namespace's default account, without a mounted token
   */
  readonly serviceAccount?: kplus.IServiceAccount;
  /**
   * Priority class of the pods.
   * @default - the platform default, else none
   */
  readonly priorityClassName?: string;
  /**
   * Labels on the pods.
   * @default - none
   */
  readonly podLabels?: { [key: string]: string };
  /**
   * Annotations on the pods.
   * @default - none
   */
  readonly podAnnotations?: { [key: string]: string };
  /**
   * Share the node's IPC namespace (some NCCL set-ups want it; most need only shared memory).
   * @default false
   */
  readonly hostIpc?: boolean;
  /**
   * Use the node's network namespace (for RDMA set-ups without a CNI for it).
   * @default false
   */
  readonly hostNetwork?: boolean;
  /**
   * Security context of the main container, in place of the preset's.
   * @default - from the security preset
   */
  readonly securityContext?: kplus.ContainerSecurityContextProps;
  /**
   * A pod-level restart policy. The operator overrides it with the replica's restart policy, so
   * it must equal that one; it exists to mirror manifests that spell it out.
   * @default - none
   */
  readonly podRestartPolicy?: RestartPolicy;
}

/** Options of one replica type (role) of a job, over the job's own. */
export interface RoleOptions extends ReplicaOptions {
  /**
   * What the operator does when a pod of this role exits.
   * @default - the framework's default
   */
  readonly restartPolicy?: RestartPolicy;
}

/** A replica type of a job: its framework container, how many pods, how they restart, and their options. */
export interface ReplicaGroupProps extends RoleOptions {
  /** The container the operator looks for: its name, port and default restart policy. */
  readonly framework: FrameworkContainer;
  /**
   * Number of pods.
   * @default 1
   */
  readonly replicas?: number;
}

/** Facts about the framework that the job construct passes to its replica groups. */
export interface FrameworkContainer {
  /** The container name the operator looks for. */
  readonly containerName: string;
  /**
   * The port the operator wires up.
   * @default - none
   */
  readonly port?: number;
  /**
   * The port's name.
   * @default - none
   */
  readonly portName?: string;
  /** Restart policy when none is given. */
  readonly defaultRestartPolicy: RestartPolicy;
}

/** What the job passes down when it renders its pods. */
export interface PodRenderContext {
  /** Platform defaults that apply to the job. */
  readonly defaults: PlatformDefaultsProps;
  /** The security preset in force. */
  readonly security: PodSecurity;
  /** Keep Istio sidecars (they keep pods running after the main container exits). */
  readonly istioSidecar: boolean;
  /**
   * The gang scheduler's name.
   * @default - the cluster's default scheduler
   */
  readonly schedulerName?: string;
}

const SHM_VOLUME = 'dshm';

/**
 * The pod template of one replica type (Master, Worker, PS, Launcher, ...), built from the
 * familiar cdk8s-plus pieces. The main container carries the framework's name and port; more
 * containers, init containers, volumes, environment and scheduling can be added after
 * construction, and land in the manifest because the job renders lazily.
 */
export class ReplicaGroup extends Construct {
  /** The replica type, as the operator spells it (`Master`, `Worker`, ...). */
  public readonly replicaType: string;
  /** The container the operator looks for, named after the framework. */
  public readonly mainContainer: kplus.Container;

  private _replicas: number;
  private readonly _restartPolicy: RestartPolicy;
  private readonly options: ReplicaOptions;
  private readonly containers: kplus.Container[] = [];
  private readonly initContainers: kplus.Container[] = [];
  private readonly extraVolumes: kplus.Volume[] = [];
  private readonly nodeSelector: { [key: string]: string } = {};
  private readonly tolerations: k8s.Toleration[] = [];
  private readonly podLabels: { [key: string]: string } = {};
  private readonly podAnnotations: { [key: string]: string } = {};
  private readonly imagePullSecrets: string[] = [];
  /** Security contexts the user wrote, by container; the DEFAULT preset leaves them alone. */
  private readonly customSecurity = new Map<kplus.Container, kplus.ContainerSecurityContextProps>();

  /**
   * @param scope the job the replica group belongs to
   * @param replicaType the replica type as the operator spells it (`Master`, `Worker`, ...), which is also the construct id
   * @param props the framework container, the pod count and the role's options
   */
  public constructor(scope: Construct, replicaType: string, props: ReplicaGroupProps) {
    super(scope, replicaType);
    checkConstructor(this, new.target, [scope, replicaType, props]);
    const framework = props.framework;
    this.replicaType = replicaType;
    this.options = props;
    checkCount(this, 'replicas', props.replicas, 0);
    this._replicas = props.replicas ?? 1;
    this._restartPolicy = props.restartPolicy ?? framework.defaultRestartPolicy;

    const accelerator = props.resources?.accelerator;
    const acceleratorProblem = accelerator?.problems();
    if (accelerator && acceleratorProblem) fail(this, 'resources.accelerator', `${accelerator.resourceName} x ${accelerator.count}`, acceleratorProblem);
    for (const [field, value, allowed] of amountProblems(props.resources, props.sharedMemory)) fail(this, field, value, allowed);
    if (!props.image) fail(this, 'image', props.image, 'expected a container image for the main container');

    this.mainContainer = new kplus.Container({
      name: framework.containerName,
      image: props.image,
      command: props.command,
      args: props.args,
      workingDir: props.workingDir,
      imagePullPolicy: props.imagePullPolicy,
      envVariables: props.env,
      ports: framework.port ? [{ number: framework.port, name: framework.portName }] : undefined,
      // Resources are written below, with accelerators; an empty object keeps cdk8s-plus's
      // general-purpose defaults (1 CPU, 512 MiB) out of training pods.
      resources: {},
      securityContext: props.securityContext ?? {},
    });
    this.containers.push(this.mainContainer);
    if (props.securityContext) this.customSecurity.set(this.mainContainer, props.securityContext);

    if (props.sharedMemory) {
      const shm = kplus.Volume.fromEmptyDir(this, 'SharedMemory', SHM_VOLUME, {
        medium: kplus.EmptyDirMedium.MEMORY,
        sizeLimit: props.sharedMemory,
      });
      this.mainContainer.mount('/dev/shm', shm);
    }
    for (const [key, value] of Object.entries(props.nodeSelector ?? {})) this.addNodeSelector(key, value);
    for (const toleration of props.tolerations ?? []) this.addToleration(toleration);
    for (const [key, value] of Object.entries(props.podLabels ?? {})) this.addPodLabel(key, value);
    for (const [key, value] of Object.entries(props.podAnnotations ?? {})) this.addPodAnnotation(key, value);

    this.node.addValidation({ validate: () => this.validatePod() });
  }

  /** Number of pods of this type. */
  public get replicas(): number {
    return this._replicas;
  }

  /** Restart policy of this type's pods. */
  public get restartPolicy(): RestartPolicy {
    return this._restartPolicy;
  }

  /** Accelerators per pod, if any. */
  public get accelerator(): Accelerator | undefined {
    return this.options.resources?.accelerator;
  }

  /**
   * Changes the number of pods.
   *
   * @param replicas the new number of pods, a whole number of 0 or more
   */
  public scale(replicas: number): void {
    checkCount(this, 'replicas', replicas, 0);
    this._replicas = replicas;
  }

  /**
   * Adds a sidecar container to the pods.
   *
   * @param props the sidecar container, as cdk8s-plus describes one
   */
  public addContainer(props: kplus.ContainerProps): kplus.Container {
    const container = new kplus.Container(withSafeSecurity(props));
    this.containers.push(container);
    if (props.securityContext) this.customSecurity.set(container, props.securityContext);
    return container;
  }

  /**
   * Adds an init container that runs before the main container.
   *
   * @param props the init container, as cdk8s-plus describes one
   */
  public addInitContainer(props: kplus.ContainerProps): kplus.Container {
    const container = new kplus.Container(withSafeSecurity(props));
    this.initContainers.push(container);
    if (props.securityContext) this.customSecurity.set(container, props.securityContext);
    return container;
  }

  /**
   * Adds a volume to the pods without mounting it (a sidecar may mount it).
   *
   * @param volume the volume, listed in the pod spec once by name
   */
  public addVolume(volume: kplus.Volume): void {
    this.extraVolumes.push(volume);
  }

  /**
   * Mounts a volume (a PVC, ConfigMap, Secret, emptyDir, ...) into the main container.
   *
   * @param path where to mount it
   * @param storage the volume, or anything that can be mounted as one
   * @param options read-only, sub-path and propagation
   */
  public mount(path: string, storage: kplus.IStorage, options?: kplus.MountOptions): void {
    this.mainContainer.mount(path, storage, options);
  }

  /**
   * Adds an environment variable to the main container.
   *
   * @param name the variable's name
   * @param value its value, literal or taken from a ConfigMap, Secret or field
   */
  public addEnv(name: string, value: kplus.EnvValue): void {
    this.mainContainer.env.addVariable(name, value);
  }

  /**
   * Adds a node label the pods must match.
   *
   * @param key the node label's key
   * @param value the value it must have
   */
  public addNodeSelector(key: string, value: string): void {
    this.nodeSelector[key] = value;
  }

  /**
   * Lets the pods run on nodes with a matching taint.
   *
   * @param toleration the taint the pods tolerate
   */
  public addToleration(toleration: k8s.Toleration): void {
    this.tolerations.push(toleration);
  }

  /**
   * Adds a label to the pods.
   *
   * @param key the label's key
   * @param value the label's value
   */
  public addPodLabel(key: string, value: string): void {
    this.podLabels[key] = value;
  }

  /**
   * Adds an annotation to the pods.
   *
   * @param key the annotation's key
   * @param value the annotation's value
   */
  public addPodAnnotation(key: string, value: string): void {
    this.podAnnotations[key] = value;
  }

  /**
   * Adds the name of an image pull secret the pods use.
   *
   * @param secretName the name of a registry-credentials Secret in the job's namespace
   */
  public addImagePullSecret(secretName: string): void {
    this.imagePullSecrets.push(secretName);
  }

  /** Names of every environment variable set on any container of the pods. @internal */
  public _envNames(): string[] {
    return this.containers.flatMap(c => Object.keys(c.env.variables));
  }

  /**
   * The pod template, with platform defaults under this group's own settings.
   * @internal
   */
  public _toPodTemplate(context: PodRenderContext): k8s.PodTemplateSpec {
    const { defaults, security } = context;
    const containers = this.containers.map(c => this.renderContainer(c, security, c === this.mainContainer));
    const initContainers = this.initContainers.map(c => this.renderContainer(c, security, false));
    const serviceAccount = this.options.serviceAccount;
    const annotations = mergeMaps(
      defaults.podAnnotations,
      context.istioSidecar ? undefined : { 'sidecar.istio.io/inject': 'false' },
      this.podAnnotations);
    const accelerator = this.accelerator;
    const tolerations = unique([
      ...(defaults.tolerations ?? []),
      ...(accelerator ? [{ key: accelerator.resourceName, operator: 'Exists', effect: 'NoSchedule' }] : []),
      ...this.tolerations,
    ]);
    const pullSecrets = unique([...(defaults.imagePullSecrets ?? []), ...this.imagePullSecrets]);
    const volumes = this.volumes();
    const spec: k8s.PodSpec = {
      containers,
      initContainers: initContainers.length ? initContainers : undefined,
      volumes: volumes.length ? volumes.map(v => v._toKube()) : undefined,
      nodeSelector: mergeMaps(defaults.nodeSelector, this.nodeSelector),
      tolerations: tolerations.length ? tolerations : undefined,
      affinity: this.options.affinity,
      serviceAccountName: serviceAccount?.name,
      automountServiceAccountToken: serviceAccount ? undefined : false,
      imagePullSecrets: pullSecrets.length ? pullSecrets.map(name => ({ name })) : undefined,
      priorityClassName: this.options.priorityClassName ?? defaults.priorityClassName,
      schedulerName: context.schedulerName,
      hostIpc: this.options.hostIpc || undefined,
      hostNetwork: this.options.hostNetwork || undefined,
      restartPolicy: this.options.podRestartPolicy?.value,
      securityContext: security.restricted
        ? { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }
        : undefined,
    };
    return {
      metadata: {
        labels: mergeMaps(defaults.labels, this.podLabels),
        annotations,
      },
      spec: dropUndefined(spec),
    };
  }

  private renderContainer(container: kplus.Container, security: PodSecurity, main: boolean): k8s.Container {
    const kube = container._toKube();
    const resources = main ? this.resourceRequirements() : kube.resources;
    const custom = this.customSecurity.get(container);
    return dropUndefined({
      ...kube,
      // cdk8s-plus writes Always when nothing is asked; pulling a multi-gigabyte training image on
      // every restart is rarely wanted, so the cluster's default applies unless the user chose.
      imagePullPolicy: main && !this.options.imagePullPolicy ? undefined : kube.imagePullPolicy,
      resources,
      securityContext: custom && !security.restricted ? kube.securityContext : presetSecurity(security, custom),
    });
  }

  private resourceRequirements(): k8s.ResourceRequirements | undefined {
    const amounts = resourceQuantities(this.options.resources);
    if (Object.keys(amounts).length === 0) return undefined;
    return { limits: { ...amounts }, requests: { ...amounts } };
  }

  /** Every volume the pods need: mounted ones and added ones, each once, by name. */
  private volumes(): kplus.Volume[] {
    const byName = new Map<string, kplus.Volume>();
    const all = [
      ...this.extraVolumes,
      ...[...this.containers, ...this.initContainers].flatMap(c => c.mounts.map(m => m.volume as kplus.Volume)),
    ];
    for (const volume of all) if (!byName.has(volume.name)) byName.set(volume.name, volume);
    return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private validatePod(): string[] {
    const errors: string[] = [];
    // Containers and init containers share one namespace of names in a pod.
    const names = [...this.containers, ...this.initContainers].map(c => c.name);
    for (const name of unique(names.filter((n, i) => names.indexOf(n) !== i))) {
      errors.push(problem('containers.name', name, 'expected every container and init container of a pod to have its own name'));
    }
    // Two different volumes with one name: Kubernetes would keep only one of them.
    // The same volume object mounted twice is fine; only distinct objects are compared.
    const seen = new Map<string, kplus.Volume>();
    const same = (a: kplus.Volume, b: kplus.Volume) => a === b || JSON.stringify(a._toKube()) === JSON.stringify(b._toKube());
    for (const c of [...this.containers, ...this.initContainers]) {
      for (const m of c.mounts) {
        const v = m.volume as kplus.Volume;
        const previous = seen.get(v.name);
        if (previous !== undefined && !same(previous, v)) {
          errors.push(problem('volumes', v.name, 'expected each volume name to stand for one volume; two different volumes share it'));
        }
        seen.set(v.name, v);
      }
      const paths = c.mounts.map(m => m.path);
      for (const path of unique(paths.filter((p, i) => paths.indexOf(p) !== i))) {
        errors.push(problem(`containers[${c.name}].volumeMounts.mountPath`, path, 'expected every mount path of a container to be used once'));
      }
    }
    const podPolicy = this.options.podRestartPolicy;
    if (podPolicy && this._restartPolicy === RestartPolicy.EXIT_CODE) {
      errors.push(problem('podRestartPolicy', podPolicy.value, 'expected none with restartPolicy ExitCode; the operator decides restarts by exit code and a pod-level policy would contradict it'));
    } else if (podPolicy && podPolicy.value !== this._restartPolicy.value) {
      errors.push(problem('podRestartPolicy', podPolicy.value, `expected ${this._restartPolicy.value} (the replica's restartPolicy, which the operator applies over it) or none`));
    }
    return errors;
  }
}

/** User-added containers get cdk8s-plus's own defaults only where they asked for nothing. */
function withSafeSecurity(props: kplus.ContainerProps): kplus.ContainerProps {
  return { ...props, resources: props.resources ?? {}, securityContext: props.securityContext ?? {} };
}

/**
 * The container security context of a preset. DEFAULT keeps whatever user the image has; RESTRICTED
 * meets the restricted Pod Security Standard. Either way escalation and privileged mode are off.
 */
export function presetSecurity(security: PodSecurity, asked: kplus.ContainerSecurityContextProps | undefined): k8s.SecurityContext {
  // Only what the user asked for is carried over: cdk8s-plus would also switch on a read-only
  // root file system, which training code that writes to /tmp does not expect.
  const common = {
    runAsUser: asked?.user,
    runAsGroup: asked?.group,
    readOnlyRootFilesystem: asked?.readOnlyRootFilesystem,
    allowPrivilegeEscalation: false,
    privileged: false,
  };
  if (security.restricted) {
    return dropUndefined({
      ...common,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
  }
  return dropUndefined(common);
}

/**
 * The amounts of `resources` as typed quantities keyed by resource name (cpu, memory,
 * ephemeral-storage, the accelerator's name); shared by every construct that renders `Resources`.
 */
export function resourceQuantities(resources: Resources | undefined): { [name: string]: k8s.Quantity } {
  const amounts: { [name: string]: k8s.Quantity } = {};
  if (!resources) return amounts;
  const r = resources;
  if (r.cpu) amounts.cpu = k8s.Quantity.fromString(r.cpu.amount);
  if (r.memory) amounts.memory = k8s.Quantity.fromString(sizeQuantity(r.memory));
  if (r.ephemeralStorage) amounts['ephemeral-storage'] = k8s.Quantity.fromString(sizeQuantity(r.ephemeralStorage));
  if (r.accelerator) amounts[r.accelerator.resourceName] = k8s.Quantity.fromNumber(r.accelerator.count);
  return amounts;
}

/**
 * What is wrong with the CPU and sizes of `resources` and a shared-memory size, as [field, value,
 * allowed]: CPU must be a finite amount of 0 or more, and sizes whole mebibytes, which is how
 * they are written (a smaller unit would end in cdk8s's own conversion error).
 */
export function amountProblems(resources: Resources | undefined, sharedMemory?: Size): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  const cpu = resources?.cpu?.amount;
  if (cpu !== undefined) {
    const cores = Number(cpu.replace(/m$/, ''));
    if (!Number.isFinite(cores) || cores < 0) out.push(['resources.cpu', cpu, 'expected a finite amount of CPU, 0 or more']);
  }
  const sizes: Array<[string, Size | undefined]> = [
    ['resources.memory', resources?.memory], ['resources.ephemeralStorage', resources?.ephemeralStorage], ['sharedMemory', sharedMemory],
  ];
  for (const [field, size] of sizes) {
    if (size && !wholeMebibytes(size)) {
      out.push([field, `${size.toKibibytes({ rounding: SizeRoundingBehavior.NONE })}Ki`, 'expected a whole number of mebibytes, as the manifest writes sizes in Mi or Gi']);
    }
  }
  return out;
}

function wholeMebibytes(size: Size): boolean {
  try {
    size.toMebibytes();
    return true;
  } catch {
    return false;
  }
}

/** Sizes as Kubernetes quantities: whole gibibytes as Gi, else mebibytes. */
export function sizeQuantity(size: Size): string {
  const mebibytes = size.toMebibytes();
  return mebibytes % 1024 === 0 ? `${mebibytes / 1024}Gi` : `${mebibytes}Mi`;
}

/** A copy without undefined values, so the typed serializers see only what is set. */
export function dropUndefined<T extends object>(value: T): T {
  // A plain loop: this runs for every pod and container, and the entries/filter/fromEntries chain
  // allocated three arrays per call (measured by `npm run bench`).
  const out: { [key: string]: unknown } = {};
  for (const key of Object.keys(value)) {
    const v = (value as { [key: string]: unknown })[key];
    if (v !== undefined) out[key] = v;
  }
  return out as T;
}
