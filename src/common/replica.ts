import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Accelerator } from './accelerator';
import { GpuNetworking } from './networking';
import { dropUndefined, mergeMaps, uniqueByContent } from '../util/collections';
import { MULTUS_NETWORKS_ANNOTATION, mergeNetworking, networkingFindings, rdmaCount, rdmaCountFinding, withNetworking, withoutRdma } from './internal/networking';
import { nodeHealthFindings, withNodeHealth } from './internal/node-health';
import { normalPath } from './internal/paths';
import { PodRenderContext, ReplicaCountRule, ReplicaGroupSettings } from './internal/pod-render';
import { amountFindings, resourceQuantities } from './internal/quantities';
import { RestartPolicy } from './run-policy';
import { askedOverRestricted, optionFieldName, restrictedPodFindings } from '../rules/restricted';
import { roleProp } from './internal/prop-fields';
import { presetSecurity, userSecurity } from './internal/security-contexts';
import { envToAdd, setOnce } from './internal/set-once';
import { PodSecurity } from './security';
import { Topology } from './topology';
import { Finding, finding } from '../rules/finding';
import { addCheck, countFinding, fail, failAtSynth, raise, raiseFirst } from '../synth/report';
import { sameVolume, volumeNameFindings, volumesByName, sharedMemoryVolume } from './internal/volumes';
import { checkedPropsOf } from '../boundary/checked-props';
import { SHARED_MEMORY_PATH, acceleratorToleration } from '../rules/kubernetes/accelerator-facts';
import { kubeContainer, kubeVolume } from '../synth/cdk8s-adapter';

/** The pod security context of the RESTRICTED preset (a new object each time: it goes into a manifest). */
const restrictedPodContext = (): k8s.PodSecurityContext => ({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });

/**
 * The pod template of one replica type (Master, Worker, PS, Launcher, ...), built from the
 * familiar cdk8s-plus pieces. The main container carries the framework's name and port; more
 * containers, init containers, volumes, environment and scheduling can be added after
 * construction, and land in the manifest because the job renders lazily.
 *
 * Every `add*` method sets a key once: adding the same key (or volume name) again with another
 * value is an error that names both values; adding an identical value again changes nothing.
 * Replica groups are made by the job constructs (`job.worker`, `job.master`, ...).
 */
export class ReplicaGroup extends Construct {
  /** @internal */
  public static _create(scope: Construct, replicaType: string, settings: ReplicaGroupSettings): ReplicaGroup {
    return new ReplicaGroup(scope, replicaType, settings);
  }

  /** The replica type, as the operator spells it (`Master`, `Worker`, ...). */
  public readonly replicaType: string;
  /** The container the operator looks for, named after the framework. */
  public readonly mainContainer: kplus.Container;

  private _replicas: number;
  private readonly _restartPolicy: RestartPolicy;
  private readonly options: ReplicaGroupSettings;
  private readonly countRule?: ReplicaCountRule;
  /** Whether the platform's RDMA devices apply to this group (not to the MPI launcher). */
  private readonly platformRdma: boolean;
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

  private constructor(scope: Construct, replicaType: string, settings: ReplicaGroupSettings) {
    super(scope, replicaType);
    const framework = settings.framework;
    this.replicaType = replicaType;
    this.options = settings;
    this.countRule = settings.count;
    this.platformRdma = settings.platformRdma ?? true;
    this._replicas = settings.replicas ?? 1;
    const count = countFinding('replicas', this._replicas, 0) ?? this.countRuleFinding(this._replicas);
    if (count) raise(this, this.named(count));
    this._restartPolicy = settings.restartPolicy ?? framework.defaultRestartPolicy;

    raiseFirst(this, amountFindings(settings.resources, settings.sharedMemory).map(f => this.named(f)));
    // Large-scale GPU options (topology, network, node health): values checked at once.
    raiseFirst(this, this.namedAll([
      ...(settings.topology?._findings('topology') ?? []),
      ...networkingFindings(settings.network, 'network'),
      ...nodeHealthFindings(settings.nodeHealth, 'nodeHealth'),
    ]));
    if (!settings.image) raise(this, this.named(finding('image', settings.image, 'expected a container image for the main container')));

    this.mainContainer = new kplus.Container({
      name: framework.containerName,
      image: settings.image,
      command: settings.command,
      args: settings.args,
      workingDir: settings.workingDir,
      imagePullPolicy: settings.imagePullPolicy,
      envVariables: settings.env,
      ports: framework.port ? [{ number: framework.port, name: framework.portName }] : undefined,
      // Resources are written below, with accelerators; an empty object keeps cdk8s-plus's
      // general-purpose defaults (1 CPU, 512 MiB) out of training pods.
      resources: {},
      securityContext: settings.securityContext ?? {},
    });
    this.containers.push(this.mainContainer);
    if (settings.securityContext) this.customSecurity.set(this.mainContainer, settings.securityContext);

    if (settings.sharedMemory) {
      this.mount(SHARED_MEMORY_PATH, sharedMemoryVolume(this, settings.sharedMemory));
    }
    for (const [key, value] of Object.entries(settings.nodeSelector ?? {})) this.addNodeSelector(key, value);
    for (const toleration of settings.tolerations ?? []) this.addToleration(toleration);
    for (const [key, value] of Object.entries(settings.podLabels ?? {})) this.addPodLabel(key, value);
    for (const [key, value] of Object.entries(settings.podAnnotations ?? {})) this.addPodAnnotation(key, value);

    addCheck(this, () => this.validatePod().map(f => this.named(f)));
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

  /** Topology-aware placement of this role, if any. @internal */
  public get _topology(): Topology | undefined {
    return this.options.topology;
  }

  /** The role's network over the platform's. @internal */
  public _network(defaults: PodRenderContext['defaults']): GpuNetworking | undefined {
    const platform = this.platformRdma ? defaults.network : withoutRdma(defaults.network);
    return mergeNetworking(platform, this.options.network);
  }

  /**
   * Changes the number of pods, within what the operator allows for this replica type (a Master or
   * launcher has exactly one, elastic workers stay within their bounds). Refused on a training
   * runtime's groups: its nodes are `numNodes` pods, its launcher and initializers one pod each.
   *
   * @param replicas the new number of pods, a whole number of 0 or more
   */
  public scale(replicas: number): void {
    // A group whose count another setting owns would render its own count and drop this one.
    if (this.options.scaleRefused) fail(this, 'replicas', replicas, `expected no scale() here: ${this.options.scaleRefused}`);
    this.checkReplicas(replicas);
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
   * Adds a volume to the pods without mounting it (a sidecar may mount it). A volume of the same
   * name must be the same volume; a different one is refused at synth, naming both.
   *
   * @param volume the volume, listed in the pod spec once by name
   */
  public addVolume(volume: kplus.Volume): void {
    // A different volume of a name already in the pod is kept too, for the check at synth to
    // name both (validatePod); the pod lists the first.
    if (!this.allVolumes().some(v => sameVolume(v, volume))) this.extraVolumes.push(volume);
  }

  /**
   * The volume of this name in the pods, if there is one.
   * @internal
   */
  public _volumeNamed(name: string): kplus.Volume | undefined {
    return this.allVolumes().find(v => v.name === name);
  }

  /**
   * Mounts a volume (a PVC, ConfigMap, Secret, emptyDir, ...) into the main container.
   *
   * @param path where to mount it; each path once per container
   * @param storage the volume, or anything that can be mounted as one
   * @param options read-only, sub-path and propagation
   */
  public mount(path: string, storage: kplus.IStorage, options?: kplus.MountOptions): void {
    const taken = this.mainContainer.mounts.find(m => normalPath(m.path) === normalPath(path));
    if (taken) {
      // Reported at synth with the app's other mistakes; the first mount stays.
      failAtSynth(this, `containers[${this.mainContainer.name}].volumeMounts.mountPath`, path, `expected every mount path of a container to be used once; volume "${taken.volume.name}" is mounted there`);
      return;
    }
    // A different volume of a name already in the pod is a finding at synth (validatePod), which
    // names both, beside the other mistakes of the app.
    this.mainContainer.mount(path, storage, options);
  }

  /**
   * Adds an environment variable to the main container.
   *
   * @param name the variable's name, set once
   * @param value its value, literal or taken from a ConfigMap, Secret or field
   */
  public addEnv(name: string, value: kplus.EnvValue): void {
    if (envToAdd(this, name, this.mainContainer.env.variables[name], value)) this.mainContainer.env.addVariable(name, value);
  }

  /**
   * Adds a node label the pods must match.
   *
   * @param key the node label's key, set once
   * @param value the value it must have
   */
  public addNodeSelector(key: string, value: string): void {
    setOnce(this, 'nodeSelector', this.nodeSelector, key, value);
  }

  /**
   * Lets the pods run on nodes with a matching taint; an identical toleration is added once.
   *
   * @param toleration the taint the pods tolerate
   */
  public addToleration(toleration: k8s.Toleration): void {
    if (uniqueByContent([...this.tolerations, toleration]).length > this.tolerations.length) this.tolerations.push(toleration);
  }

  /**
   * Adds a label to the pods.
   *
   * @param key the label's key, set once
   * @param value the label's value
   */
  public addPodLabel(key: string, value: string): void {
    setOnce(this, 'podLabels', this.podLabels, key, value);
  }

  /**
   * Adds an annotation to the pods.
   *
   * @param key the annotation's key, set once
   * @param value the annotation's value
   */
  public addPodAnnotation(key: string, value: string): void {
    setOnce(this, 'podAnnotations', this.podAnnotations, key, value);
  }

  /**
   * The value of a key of the pods' labels or annotations, if set.
   * @internal
   */
  public _podMetadataValue(field: 'podLabels' | 'podAnnotations', key: string): string | undefined {
    return (field === 'podLabels' ? this.podLabels : this.podAnnotations)[key];
  }

  /**
   * The main container's variable of this name, if set.
   * @internal
   */
  public _envValue(name: string): kplus.EnvValue | undefined {
    return this.mainContainer.env.variables[name];
  }

  /**
   * `addPodLabel` or `addPodAnnotation`, for the job or runtime that adds to every group.
   * @internal
   */
  public _addPodMetadata(field: 'podLabels' | 'podAnnotations', key: string, value: string): void {
    setOnce(this, field, field === 'podLabels' ? this.podLabels : this.podAnnotations, key, value);
  }

  /**
   * Adds the name of an image pull secret the pods use; a name is added once.
   *
   * @param secretName the name of a registry-credentials Secret in the job's namespace
   */
  public addImagePullSecret(secretName: string): void {
    if (!this.imagePullSecrets.includes(secretName)) this.imagePullSecrets.push(secretName);
  }

  /** Names of every environment variable set on any container of the pods. @internal */
  public _envNames(): string[] {
    return this.containers.flatMap(c => Object.keys(c.env.variables));
  }

  /** The pod's shared memory size, if any. @internal */
  public get _sharedMemory(): Size | undefined {
    return this.options.sharedMemory;
  }

  /**
   * The pod template, with platform defaults under this group's own settings.
   * @internal
   */
  public _toPodTemplate(context: PodRenderContext): k8s.PodTemplateSpec {
    const { defaults, security } = context;
    // RDMA devices, IPC_LOCK and NCCL env go on the main container only (the one that trains).
    const network = this._network(defaults);
    const containers = this.containers.map(c => {
      const rendered = this.renderContainer(c, security, c === this.mainContainer);
      return c === this.mainContainer ? withNetworking(rendered, network) : rendered;
    });
    const initContainers = this.initContainers.map(c => this.renderContainer(c, security, false));
    const serviceAccount = this.options.serviceAccount;
    const annotations = mergeMaps(
      defaults.podAnnotations,
      context.istioSidecar ? undefined : { 'sidecar.istio.io/inject': 'false' },
      this.options.topology?._podAnnotations(),
      network?.networks?.length ? { [MULTUS_NETWORKS_ANNOTATION]: network.networks.join(',') } : undefined,
      this.podAnnotations);
    const accelerator = this.accelerator;
    const tolerations = uniqueByContent([
      ...(defaults.tolerations ?? []),
      ...(accelerator ? [acceleratorToleration(accelerator.resourceName)] : []),
      ...this.tolerations,
    ]);
    const pullSecrets = uniqueByContent([...(defaults.imagePullSecrets ?? []), ...this.imagePullSecrets]);
    const volumes = volumesByName(this.allVolumes());
    const spec: k8s.PodSpec = {
      containers,
      initContainers: initContainers.length ? initContainers : undefined,
      volumes: volumes.length ? volumes.map(kubeVolume) : undefined,
      nodeSelector: mergeMaps(defaults.nodeSelector, this.nodeSelector),
      tolerations: tolerations.length ? tolerations : undefined,
      // Health requirements are merged into the user's affinity, never replacing it.
      affinity: withNodeHealth(this.options.affinity, [...(defaults.nodeHealth ?? []), ...(this.options.nodeHealth ?? [])]),
      serviceAccountName: serviceAccount?.name,
      automountServiceAccountToken: serviceAccount ? undefined : false,
      imagePullSecrets: pullSecrets.length ? pullSecrets.map(name => ({ name })) : undefined,
      priorityClassName: this.options.priorityClassName ?? defaults.priorityClassName,
      schedulerName: context.schedulerName,
      hostIpc: this.options.hostIpc || undefined,
      hostNetwork: this.options.hostNetwork || undefined,
      restartPolicy: this.options.podRestartPolicy?.value,
      securityContext: security.restricted ? restrictedPodContext() : undefined,
    };
    return {
      metadata: {
        labels: mergeMaps(context.podDefaultLabels ?? defaults.labels, this.podLabels),
        annotations,
      },
      spec: dropUndefined(spec),
    };
  }

  /**
   * What the security preset and the group's explicit options disagree on: under RESTRICTED, host
   * namespaces, hostPath volumes and container settings the standard forbids are errors rather
   * than silently replaced.
   * @internal
   */
  public _securityFindings(security: PodSecurity, defaults: PodRenderContext['defaults'] = {}): Finding[] {
    const out: Finding[] = [];
    const network = this._network(defaults);
    const count = rdmaCountFinding(network, 'network');
    if (count) out.push(count);
    if (!security.restricted) return out;
    // IPC_LOCK, which RDMA needs, is outside both levels (pod-security-admission check_capabilities_baseline.go).
    if (rdmaCount(network) > 0) {
      out.push(finding('network.rdmaDevice', network!.rdmaDevice!.resourceName, 'expected none under PodSecurity.RESTRICTED: RDMA needs the IPC_LOCK capability, which neither the baseline nor the restricted Pod Security level allows; use PodSecurity.DEFAULT in a namespace whose Pod Security level is privileged'));
    }
    // The pod as the user asked for it over the preset: the preset's own contexts pass the standard.
    out.push(...restrictedPodFindings({
      hostNetwork: this.options.hostNetwork,
      hostIPC: this.options.hostIpc,
      volumes: volumesByName(this.allVolumes()).map(kubeVolume),
      securityContext: restrictedPodContext(),
      containers: [...this.customSecurity].map(([c, asked]) => ({ name: c.name, securityContext: askedOverRestricted(asked) })),
    }, optionFieldName));
    return out;
  }

  private renderContainer(container: kplus.Container, security: PodSecurity, main: boolean): k8s.Container {
    const kube = kubeContainer(container);
    const resources = main ? this.resourceRequirements() : kube.resources;
    const custom = this.customSecurity.get(container);
    return dropUndefined({
      ...kube,
      // cdk8s-plus writes Always when nothing is asked; pulling a multi-gigabyte training image on
      // every restart is rarely wanted, so the cluster's default applies unless the user chose.
      imagePullPolicy: main && !this.options.imagePullPolicy ? undefined : kube.imagePullPolicy,
      resources,
      securityContext: custom && !security.restricted ? userSecurity(kube.securityContext, custom) : presetSecurity(security, custom),
    });
  }

  private resourceRequirements(): k8s.ResourceRequirements | undefined {
    const amounts = resourceQuantities(this.options.resources);
    if (Object.keys(amounts).length === 0) return undefined;
    return { limits: { ...amounts }, requests: { ...amounts } };
  }

  /** Every volume of the pods: added ones first, then mounted ones, in the order they came. */
  private allVolumes(): kplus.Volume[] {
    // Loops rather than spreads and flatMap: this runs for every mount and every rendering.
    const out = this.extraVolumes.slice();
    for (const list of [this.containers, this.initContainers]) {
      for (const c of list) for (const m of c.mounts) out.push(m.volume as kplus.Volume);
    }
    return out;
  }

  /**
   * A finding on a field the role's own options set names that option too (`image (worker.image)`),
   * so the message points at the prop written; a job-wide prop has the field's name already.
   */
  private named(f: Finding): Finding {
    const parent = this.node.scope;
    const kind = parent ? renderedKind(parent) : undefined;
    const prop = parent ? roleProp(f.field, checkedPropsOf(parent), kind, this.replicaType) : undefined;
    return prop === undefined || prop === f.field ? f : { ...f, field: `${f.field} (${prop})` };
  }

  private namedAll(findings: Array<Finding | undefined>): Array<Finding | undefined> {
    return findings.map(f => f && this.named(f));
  }

  private checkReplicas(replicas: number): void {
    const f = countFinding('replicas', replicas, 0) ?? this.countRuleFinding(replicas);
    if (f) raise(this, f);
  }

  private countRuleFinding(replicas: number): Finding | undefined {
    const rule = this.countRule;
    if (!rule || (replicas >= rule.min && (rule.max === undefined || replicas <= rule.max))) return undefined;
    return finding('replicas', replicas, `expected ${rule.expected}`);
  }

  private validatePod(): Finding[] {
    const errors: Finding[] = [];
    const counted = this.countRuleFinding(this._replicas);
    if (counted) errors.push(counted);
    // Container names and mount paths are the rule layer's (kubernetes/container-name-unique,
    // kubernetes/mount-path-unique); two volumes of one name can only be seen here, before the pod lists
    // each name once.
    errors.push(...volumeNameFindings(this.allVolumes()));
    // A podRestartPolicy the operator would overwrite is the document rule's
    // (training-operator/pod-restart-policy), which reads it in the rendered template.
    return errors;
  }
}

/**
 * The kind its parent renders, for naming role options: a v1 job creates its object before its
 * groups; a runtime makes its groups first (its roles' names do not depend on the kind).
 */
function renderedKind(parent: Construct | { apiObject?: { kind?: string } }): string | undefined {
  try {
    return (parent as { apiObject?: { kind?: string } }).apiObject?.kind;
  } catch {
    return undefined;
  }
}

/** User-added containers get cdk8s-plus's own defaults only where they asked for nothing. */
function withSafeSecurity(props: kplus.ContainerProps): kplus.ContainerProps {
  return { ...props, resources: props.resources ?? {}, securityContext: props.securityContext ?? {} };
}
