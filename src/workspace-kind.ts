import { ApiObject, ApiObjectMetadata, ApiObjectMetadataDefinition, Duration, Lazy, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { PlatformDefaults, PlatformDefaultsProps, mergeMaps, unique } from './defaults';
import { fail, problem } from './errors';
import { applyLateMetadata } from './late-metadata';
import { Resources, amountProblems, dropUndefined, presetSecurity, resourceQuantities, sizeQuantity } from './replica';
import { PodSecurity } from './security';
import * as core from '../imports/core';
import * as notebooks from '../imports/notebooks';

// ---------------------------------------------------------------------------------------------
// Spawner display
// ---------------------------------------------------------------------------------------------

/**
 * An icon or logo shown by the Workspace spawner UI: a URL, or an SVG held in a ConfigMap.
 */
export class SpawnerImage {
  /**
   * An image the browser loads from a URL.
   *
   * @param url where the image is, for example `https://jupyter.org/assets/favicons/apple-touch-icon-152x152.png`
   */
  public static fromUrl(url: string): SpawnerImage {
    return new SpawnerImage({ url });
  }

  /**
   * An SVG image stored under a key of a ConfigMap (the only media type the CRD accepts is
   * `image/svg+xml`).
   *
   * @param name the ConfigMap's name
   * @param key the key that holds the SVG, for example `logo.svg`
   * @param namespace the ConfigMap's namespace (a WorkspaceKind is cluster-scoped, so it is required)
   */
  public static fromConfigMap(name: string, key: string, namespace: string): SpawnerImage {
    return new SpawnerImage({
      configMap: { name, key, namespace, mediaType: notebooks.IconOrLogoConfigMapMediaType.IMAGE_FORWARD_SLASH_SVG_XML },
    });
  }

  private constructor(private readonly source: notebooks.IconOrLogo) {}

  /** The URL, when the image is loaded from one. */
  public get url(): string | undefined {
    return this.source.url;
  }

  /**
   * What is wrong with the image, as `[field, value, allowed]`, or undefined.
   * @internal
   */
  public _problem(field: string): [string, unknown, string] | undefined {
    const cm = this.source.configMap;
    if (!cm) {
      return this.source.url ? undefined : [`${field}.url`, this.source.url, 'expected the URL of an image'];
    }
    if (!isSubdomain(cm.name)) return [`${field}.configMap.name`, cm.name, `expected ${DNS_SUBDOMAIN_TEXT}`];
    if (!isLabel(cm.namespace)) return [`${field}.configMap.namespace`, cm.namespace, `expected ${DNS_LABEL_TEXT}`];
    if (!/^[-._a-zA-Z0-9]+$/.test(cm.key) || cm.key.length > 253) {
      return [`${field}.configMap.key`, cm.key, 'expected a ConfigMap key: letters, digits, "-", "_" and ".", at most 253 characters'];
    }
    return undefined;
  }

  /** @internal */
  public _toL1(): notebooks.IconOrLogo {
    return this.source;
  }
}

/** How prominently the spawner shows the message of a redirect. */
export class RedirectLevel {
  /** An informational note. */
  public static readonly INFO = new RedirectLevel('Info');
  /** A change the user should read before restarting. */
  public static readonly WARNING = new RedirectLevel('Warning');
  /** A change that is likely to break the user's work. */
  public static readonly DANGER = new RedirectLevel('Danger');
  /** The level as the CRD spells it. */
  public readonly value: string;
  private constructor(value: string) {
    this.value = value;
  }
}

/**
 * Sends workspaces that use an option to a newer one. Redirected options are hidden from the
 * spawner; existing workspaces show a pending restart until their owner updates them.
 */
export interface OptionRedirect {
  /** The id of the option to move to; it must exist in the same list and the chain must end. */
  readonly to: string;
  /**
   * What changes for the user, shown with the pending restart.
   * @default - no message
   */
  readonly message?: string;
  /**
   * How prominently the message is shown.
   * @default RedirectLevel.INFO
   */
  readonly level?: RedirectLevel;
}

/** How an image or pod-config option appears in the spawner, common to both kinds of option. */
export interface WorkspaceOptionProps {
  /**
   * Name shown in the spawner (2 to 128 characters).
   * @default - the option's id
   */
  readonly displayName?: string;
  /**
   * Longer description shown in the spawner.
   * @default - none
   */
  readonly description?: string;
  /**
   * Hide the option from the spawner; workspaces can still name it.
   * @default false
   */
  readonly hidden?: boolean;
  /**
   * Key-value labels shown with the option, in this order; activity and filter rules select
   * options by them.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Move workspaces that use this option to another one.
   * @default - not redirected
   */
  readonly redirect?: OptionRedirect;
}

/** A port an image listens on, naming one of the kind's port definitions. */
export interface ImagePort {
  /** The id of a port the kind declares (see `WorkspaceKind.addPort`). */
  readonly id: string;
  /** The TCP port the container listens on (1 to 65535). */
  readonly port: number;
  /**
   * Name of the port's "connect" entry for this image.
   * @default - the kind's display name of the port
   */
  readonly displayName?: string;
}

/** An image option: the container image users can choose and the ports it serves. */
export interface ImageConfigOptions extends WorkspaceOptionProps {
  /** The container image. */
  readonly image: string;
  /**
   * When the image is pulled.
   * @default kplus.ImagePullPolicy.IF_NOT_PRESENT
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;
  /** The ports the image listens on; each id must be declared on the kind, and used once. */
  readonly ports: ImagePort[];
}

/** A pod-config option: the size and placement of the workspace pod users can choose. */
export interface PodConfigOptions extends WorkspaceOptionProps {
  /**
   * What the workspace container requests. CPU, memory and ephemeral storage are written as
   * requests only (notebooks are idle most of the time and burst when used); an accelerator is
   * written as a limit with an equal request, because Kubernetes rejects extended resources that
   * are requested without a limit.
   * @default - no requests
   */
  readonly requests?: Resources;
  /**
   * Upper bounds of the workspace container: CPU, memory and ephemeral storage written as limits
   * (each at least its request). Pass the same value as `requests` for the Guaranteed QoS class.
   * An accelerator here must equal the one in `requests`.
   * @default - no limits but the accelerator's
   */
  readonly limits?: Resources;
  /**
   * Node labels the pod must match; merged over the platform defaults' node selector.
   * @default - the platform defaults' node selector, else none
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Tolerations, added to the platform defaults' ones (a toleration of the accelerator's own taint
   * is added when one is requested).
   * @default - none
   */
  readonly tolerations?: k8s.Toleration[];
  /**
   * Node and pod affinity.
   * @default - none
   */
  readonly affinity?: k8s.Affinity;
}

/**
 * A port definition of the kind: the "type" of service an image can offer, with how the
 * Istio-based proxy forwards requests to it. Images map the id to the port they listen on.
 */
export interface WorkspacePort {
  /** The id (lower-case letters, digits, "-" and "_", at most 32 characters); part of the URL. */
  readonly id: string;
  /** Name of the port's "connect" entry in the UI (2 to 64 characters). */
  readonly displayName: string;
  /**
   * Strip the `/workspace/connect/<namespace>/<workspace>/` prefix from requests, so the
   * application sees `/...`; it only works for applications that use relative URLs.
   * @default false
   */
  readonly removePathPrefix?: boolean;
  /**
   * Request headers to set (the template `{{ .PathPrefix }}` is available).
   * @default - none
   */
  readonly setRequestHeaders?: { [name: string]: string };
  /**
   * Request headers to append to.
   * @default - none
   */
  readonly addRequestHeaders?: { [name: string]: string };
  /**
   * Request headers to remove.
   * @default - none
   */
  readonly removeRequestHeaders?: string[];
}

// ---------------------------------------------------------------------------------------------
// Activity (culling) and filter rules
// ---------------------------------------------------------------------------------------------

/** How often an activity probe runs. */
export interface ActivityProbeOptions {
  /**
   * The time between two successful probes; a workspace may keep running up to this long after
   * it becomes eligible for pausing.
   * @default Duration.hours(1)
   */
  readonly interval?: Duration;
  /**
   * The least time between two probes, which is also the wait after a failed one; at most `interval`.
   * @default - 5 minutes, or `interval` when that is shorter
   */
  readonly minInterval?: Duration;
}

/** Options of a script-based activity probe. */
export interface ScriptActivityProbeOptions extends ActivityProbeOptions {
  /**
   * How long the script may run.
   * @default Duration.seconds(60)
   */
  readonly timeout?: Duration;
}

/** How the controller decides whether a workspace is in use; activity rules need one to pause. */
export class ActivityProbe {
  /**
   * Asks the Jupyter server for its last activity, through one of the kind's ports.
   *
   * @param portId the id of a port the kind declares, served by a Jupyter server
   */
  public static jupyter(portId: string, options: ActivityProbeOptions = {}): ActivityProbe {
    return new ActivityProbe(options, { jupyter: { lastActivity: true, portId } }, portId);
  }

  /**
   * Runs a script in the workspace container. It must start with a shebang, exit 0, and write
   * `{"has_activity": false}` (or `{"last_activity": "<ISO 8601>"}`) to `$OUTPUT_JSON_PATH` to
   * report inactivity; the image needs `/bin/sh`, `cat`, `chmod` and `rm`.
   *
   * @param script the script's text (at most 2048 characters)
   */
  public static script(script: string, options: ScriptActivityProbeOptions = {}): ActivityProbe {
    return new ActivityProbe(options, { podExec: { script, timeoutSeconds: secondsOf(options.timeout ?? Duration.seconds(60)) } });
  }

  /** The port the probe uses, for a Jupyter probe. */
  public readonly portId?: string;
  private readonly interval: number;
  private readonly minInterval: number;

  private constructor(options: ActivityProbeOptions, private readonly kind: notebooks.WorkspaceKindSpecPodTemplateActivityProbe, portId?: string) {
    // Seconds, possibly fractional; _problem reports a fraction (cdk8s's toSeconds would throw here).
    this.interval = secondsOf(options.interval ?? Duration.hours(1));
    // The 5-minute default must not exceed an interval the user chose shorter.
    this.minInterval = secondsOf(options.minInterval ?? Duration.minutes(5));
    if (options.minInterval === undefined) this.minInterval = Math.min(this.minInterval, this.interval);
    this.portId = portId;
  }

  /**
   * What is wrong with the probe, as `[field, value, allowed]`, or undefined.
   * @internal
   */
  public _problem(): [string, unknown, string] | undefined {
    const script = this.kind.podExec;
    if (this.portId !== undefined && !isPortId(this.portId)) return ['activityProbe.portId', this.portId, `expected ${PORT_ID_TEXT}`];
    if (script && (script.script.length < 1 || script.script.length > 2048)) {
      return ['activityProbe.script', `${script.script.length} characters`, 'expected a script of 1 to 2048 characters'];
    }
    if (script && !script.script.startsWith('#!')) {
      return ['activityProbe.script', script.script.split('\n')[0], 'expected a script that starts with a shebang such as "#!/usr/bin/env bash"'];
    }
    if (script && !Number.isInteger(script.timeoutSeconds)) return ['activityProbe.timeout', `${script.timeoutSeconds}s`, WHOLE_SECONDS];
    if (script && script.timeoutSeconds! < 1) return ['activityProbe.timeout', `${script.timeoutSeconds}s`, 'expected at least 1 second'];
    for (const [field, seconds] of [['interval', this.interval], ['minInterval', this.minInterval]] as Array<[string, number]>) {
      if (!Number.isInteger(seconds)) return [`activityProbe.${field}`, `${seconds}s`, WHOLE_SECONDS];
      if (seconds < 1 || seconds > 31536000) return [`activityProbe.${field}`, `${seconds}s`, 'expected between 1 second and 365 days'];
    }
    if (this.minInterval > this.interval) {
      return ['activityProbe.minInterval', `${this.minInterval}s`, `expected at most activityProbe.interval (${this.interval}s)`];
    }
    return undefined;
  }

  /** @internal */
  public _toL1(): notebooks.WorkspaceKindSpecPodTemplateActivityProbe {
    return { ...this.kind, minProbeIntervalSeconds: this.minInterval, probeIntervalSeconds: this.interval };
  }
}

/**
 * A culling rule: what happens to workspaces that have been inactive for a while. Rules are
 * evaluated top to bottom and the first match wins; a rule without selectors matches every
 * workspace and must come last.
 */
export interface ActivityRule {
  /** Inactivity after which the rule applies (`secondsSinceActive`, at least 16 seconds). */
  readonly inactiveFor: Duration;
  /**
   * The least time a workspace must have run before the rule pauses it.
   * @default - no minimum
   */
  readonly minRunning?: Duration;
  /**
   * Pause matching workspaces; false exempts them from the rules below.
   * @default true
   */
  readonly pauseWorkspace?: boolean;
  /**
   * Only workspaces in namespaces with these labels.
   * @default - every namespace
   */
  readonly namespaceSelector?: k8s.LabelSelector;
  /**
   * Only workspaces whose pod-config option has these spawner labels.
   * @default - every pod config
   */
  readonly podConfigSelector?: k8s.LabelSelector;
}

/** What a filter rule hides or denies. */
export class FilterScope {
  /** The WorkspaceKind itself. */
  public static readonly WORKSPACE_KIND = new FilterScope('WORKSPACE_KIND');
  /** The kind's image options. */
  public static readonly IMAGE_CONFIG = new FilterScope('IMAGE_CONFIG');
  /** The kind's pod-config options. */
  public static readonly POD_CONFIG = new FilterScope('POD_CONFIG');
  /** The scope as the CRD spells it. */
  public readonly value: string;
  private constructor(value: string) {
    this.value = value;
  }
}

/**
 * A rule the backend API server (not the controller) applies to hide or deny the kind or some of
 * its options in some contexts. Every selector given must match (they are ANDed); at least one
 * selector and one effect are needed.
 */
export interface FilterRule {
  /** What the rule hides or denies. */
  readonly scope: FilterScope;
  /**
   * Match the labels of the namespace the workspace would be created in.
   * @default - not matched by namespace
   */
  readonly namespaceSelector?: k8s.LabelSelector;
  /**
   * Match the spawner labels of an image option.
   * @default - not matched by image option
   */
  readonly imageConfigSelector?: k8s.LabelSelector;
  /**
   * Match the spawner labels of a pod-config option.
   * @default - not matched by pod-config option
   */
  readonly podConfigSelector?: k8s.LabelSelector;
  /**
   * Suggest that the UI hides matched items (they are still returned by the API).
   * @default - no UI effect
   */
  readonly hideInUi?: boolean;
  /**
   * Leave matched items out of API responses.
   * @default - not hidden from the API
   */
  readonly hideInApi?: boolean;
  /**
   * Reject creating or updating workspaces that select matched items.
   * @default false
   */
  readonly deny?: boolean;
  /**
   * Why matched items are denied; only with `deny: true`.
   * @default - no message
   */
  readonly denyMessage?: string;
}

// ---------------------------------------------------------------------------------------------
// The WorkspaceKind
// ---------------------------------------------------------------------------------------------

/** A WorkspaceKind that a Workspace can use: one defined in this app, or one known by name. */
export interface IWorkspaceKind {
  /** The WorkspaceKind's name (`metadata.name`), which a Workspace writes as `spec.kind`. */
  readonly name: string;
}

/** A WorkspaceKind's settings. Options, ports, rules and mounts can also be added later. */
export interface WorkspaceKindProps {
  /**
   * Name, labels and annotations. A WorkspaceKind is cluster-scoped: it has no namespace, and the
   * chart's namespace is not written on it.
   * @default - a name generated by cdk8s from the construct path
   */
  readonly metadata?: ApiObjectMetadata;
  /** Name shown in the spawner (2 to 128 characters). */
  readonly displayName: string;
  /** Description shown in the spawner (2 to 4096 characters). */
  readonly description: string;
  /** Small (favicon-sized) icon. */
  readonly icon: SpawnerImage;
  /**
   * Square (card-sized) logo.
   * @default - the icon
   */
  readonly logo?: SpawnerImage;
  /**
   * Hide the kind from the spawner; workspaces can still use it.
   * @default false
   */
  readonly hidden?: boolean;
  /**
   * Mark the kind as deprecated in the spawner.
   * @default - true when a deprecation message is given, else false
   */
  readonly deprecated?: boolean;
  /**
   * What users of a deprecated kind should do (2 to 256 characters).
   * @default - no message
   */
  readonly deprecationMessage?: string;
  /**
   * Where the home volume is mounted; it cannot change once the kind exists.
   * @default '/home/jovyan' (the user of Jupyter Docker Stacks and Kubeflow notebook images)
   */
  readonly homeMountPath?: string;
  /**
   * Port definitions that image options refer to; more can be added with `addPort`.
   * @default - none (at least one is needed by synth time)
   */
  readonly ports?: WorkspacePort[];
  /**
   * The id of the image option the spawner selects first.
   * @default - the first image option added that is neither hidden nor redirected
   */
  readonly defaultImageConfig?: string;
  /**
   * The id of the pod-config option the spawner selects first.
   * @default - the first pod-config option added that is neither hidden nor redirected
   */
  readonly defaultPodConfig?: string;
  /**
   * How the controller tells whether a workspace is in use; needed by rules that pause.
   * @default - no probe: workspaces are never paused for inactivity
   */
  readonly activityProbe?: ActivityProbe;
  /**
   * Culling rules, evaluated in order; more can be added with `addActivityRule`.
   * @default - none
   */
  readonly activityRules?: ActivityRule[];
  /**
   * Rules that hide or deny the kind or its options; more can be added with `addFilterRule`.
   * @default - none
   */
  readonly filterRules?: FilterRule[];
  /**
   * Environment variables of the workspace container (Go templates such as
   * `WorkspaceKind.httpPathPrefix('jupyterlab')` are expanded by the controller).
   * @default - none
   */
  readonly env?: { [name: string]: kplus.EnvValue };
  /**
   * Size of a memory-backed volume mounted at /dev/shm, which PyTorch data loaders and NCCL
   * need beyond the 64 MiB containers get otherwise.
   * @default - none
   */
  readonly sharedMemory?: Size;
  /**
   * ClusterRoles bound, in each workspace's namespace, to the service account the controller
   * creates for the workspace (`ws-<workspace name>`).
   * @default - none
   */
  readonly clusterRoles?: string[];
  /**
   * Labels on workspace pods, over the platform defaults' labels.
   * @default - the platform defaults' labels, else none
   */
  readonly podLabels?: { [key: string]: string };
  /**
   * Annotations on workspace pods, over the platform defaults' pod annotations.
   * @default - the platform defaults' pod annotations, else none
   */
  readonly podAnnotations?: { [key: string]: string };
  /**
   * Startup probe of the workspace container.
   * @default - none
   */
  readonly startupProbe?: k8s.Probe;
  /**
   * Liveness probe of the workspace container.
   * @default - none
   */
  readonly livenessProbe?: k8s.Probe;
  /**
   * Readiness probe of the workspace container.
   * @default - none
   */
  readonly readinessProbe?: k8s.Probe;
  /**
   * Security preset of the default security contexts; under RESTRICTED, explicit contexts are
   * checked against the "restricted" Pod Security Standard.
   * @default - the platform default, else PodSecurity.DEFAULT
   */
  readonly security?: PodSecurity;
  /**
   * Pod security context, in place of the preset's.
   * @default - `fsGroup: 100` (the `users` group that Jupyter images write the home volume as) and
   * the runtime's default seccomp profile; RESTRICTED adds `runAsNonRoot: true`
   */
  readonly podSecurityContext?: core.PodSecurityContext;
  /**
   * Security context of the workspace container, in place of the preset's.
   * @default - no privilege escalation and no privileged mode; RESTRICTED adds `runAsNonRoot`,
   * every capability dropped and the runtime's default seccomp profile
   */
  readonly containerSecurityContext?: core.SecurityContext;
}

interface ImageOption {
  readonly id: string;
  readonly options: ImageConfigOptions;
}

interface PodOption {
  readonly id: string;
  readonly options: PodConfigOptions;
}

interface ExtraMount {
  readonly path: string;
  readonly volume: kplus.Volume;
  readonly options: kplus.MountOptions;
}

type PullPolicy = notebooks.WorkspaceKindSpecPodTemplateOptionsImageConfigValuesSpecImagePullPolicy;

const DEFAULT_HOME = '/home/jovyan';
/** The `users` group of Jupyter Docker Stacks images, which owns the home directory. */
const JUPYTER_USERS_GID = 100;
const SHM_VOLUME = 'dshm';
const HTTP_PATH_PREFIX = /\{\{-?\s*httpPathPrefix\s+(?:"([^"]*)"|'([^']*)'|`([^`]*)`)\s*-?\}\}/g;

/**
 * A Kubeflow Notebooks v2 WorkspaceKind (cluster-scoped, written by platform admins): the template
 * of every workspace of one kind (JupyterLab, code-server, RStudio, ...). It names the image and
 * pod-config options users pick from, the ports the proxy exposes, how inactivity is detected
 * and acted on, and the pod settings every workspace shares.
 *
 * The L1 object (id `Resource`) is created at once and its spec is rendered lazily, so `add*`
 * calls made after construction land; cross-field checks run at synth time.
 */
export class WorkspaceKind extends Construct implements IWorkspaceKind {
  /**
   * A WorkspaceKind that exists in the cluster (or another app), known by name. Workspaces that
   * use it must name their image and pod-config options, which cannot be checked at synth time.
   *
   * @param name the WorkspaceKind's `metadata.name`
   */
  public static fromName(name: string): IWorkspaceKind {
    return new NamedWorkspaceKind(name);
  }

  /**
   * The Go template the controller replaces with the HTTP path prefix of a port, for
   * environment variables such as Jupyter's `NB_PREFIX`.
   *
   * @param portId the id of a port the kind declares
   */
  public static httpPathPrefix(portId: string): string {
    return `{{ httpPathPrefix "${portId}" }}`;
  }

  /** The L1 API object this construct renders into. */
  public readonly apiObject: ApiObject;

  private readonly props: WorkspaceKindProps;
  private readonly images: ImageOption[] = [];
  private readonly pods: PodOption[] = [];
  private readonly ports: WorkspacePort[] = [];
  private readonly activityRules: ActivityRule[] = [];
  private readonly filterRules: FilterRule[] = [];
  private readonly env = new Map<string, kplus.EnvValue>();
  private readonly mounts: ExtraMount[] = [];
  private readonly clusterRoles: string[] = [];
  private readonly podLabels: { [key: string]: string } = {};
  private readonly podAnnotations: { [key: string]: string } = {};

  public constructor(scope: Construct, id: string, props: WorkspaceKindProps) {
    super(scope, id);
    this.props = props;
    if (props.metadata?.namespace !== undefined) {
      fail(this, 'metadata.namespace', props.metadata.namespace, 'expected none: a WorkspaceKind is cluster-scoped');
    }
    checkLength(this, 'displayName', props.displayName, 2, 128);
    checkLength(this, 'description', props.description, 2, 4096);
    if (props.deprecationMessage !== undefined) checkLength(this, 'deprecationMessage', props.deprecationMessage, 2, 256);
    if (props.deprecated === false && props.deprecationMessage !== undefined) {
      fail(this, 'deprecated', false, 'expected true (or not set) with a deprecationMessage');
    }
    for (const [field, image] of [['icon', props.icon], ['logo', props.logo]] as Array<[string, SpawnerImage | undefined]>) {
      const p = image?._problem(field);
      if (p) fail(this, ...p);
    }
    checkMountPath(this, 'homeMountPath', this.homeMountPath);
    const probeProblem = props.activityProbe?._problem();
    if (probeProblem) fail(this, ...probeProblem);

    for (const port of props.ports ?? []) this.addPort(port);
    for (const rule of props.activityRules ?? []) this.addActivityRule(rule);
    for (const rule of props.filterRules ?? []) this.addFilterRule(rule);
    for (const [name, value] of Object.entries(props.env ?? {})) this.addEnv(name, value);
    for (const role of props.clusterRoles ?? []) this.addClusterRole(role);
    for (const [key, value] of Object.entries(props.podLabels ?? {})) this.addPodLabel(key, value);
    for (const [key, value] of Object.entries(props.podAnnotations ?? {})) this.addPodAnnotation(key, value);
    for (const [field, value, allowed] of amountProblems(undefined, props.sharedMemory)) fail(this, field, value, allowed);
    if (props.sharedMemory) {
      const shm = kplus.Volume.fromEmptyDir(this, 'SharedMemory', SHM_VOLUME, { medium: kplus.EmptyDirMedium.MEMORY, sizeLimit: props.sharedMemory });
      this.mount('/dev/shm', shm);
    }

    this.apiObject = new notebooks.WorkspaceKind(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this.renderSpec() }) as any,
    });
    applyLateMetadata(this.apiObject, () => ({ labels: this.platformDefaults.labels }));
    omitNamespace(this.apiObject);
    this.node.addValidation({ validate: () => this.validateKind() });
  }

  /** The WorkspaceKind's name, which workspaces write as `spec.kind`. */
  public get name(): string {
    return this.apiObject.name;
  }

  /** The WorkspaceKind's metadata, for labels and annotations added later. */
  public get metadata(): ApiObjectMetadataDefinition {
    return this.apiObject.metadata;
  }

  /** Where the home volume is mounted. */
  public get homeMountPath(): string {
    return this.props.homeMountPath ?? DEFAULT_HOME;
  }

  /** The ids of the image options, in the order they were added. */
  public get imageConfigIds(): string[] {
    return this.images.map(o => o.id);
  }

  /** The ids of the pod-config options, in the order they were added. */
  public get podConfigIds(): string[] {
    return this.pods.map(o => o.id);
  }

  /** The ids of the declared ports, in the order they were added. */
  public get portIds(): string[] {
    return this.ports.map(p => p.id);
  }

  /** The id of the image option the spawner selects first, if there is any option. */
  public get defaultImageConfig(): string | undefined {
    return this.props.defaultImageConfig ?? firstShown(this.images);
  }

  /** The id of the pod-config option the spawner selects first, if there is any option. */
  public get defaultPodConfig(): string | undefined {
    return this.props.defaultPodConfig ?? firstShown(this.pods);
  }

  /**
   * Every mount path of the workspace container that the kind defines: home and extra mounts.
   * Workspaces must not mount their data or secrets on one of these.
   */
  public get mountPaths(): string[] {
    return [this.homeMountPath, ...this.mounts.map(m => m.path)];
  }

  /**
   * Adds an image option.
   *
   * @param id the option's id (1 to 256 characters), which workspaces name; options can be hidden
   * or redirected later but should not be removed while workspaces use them
   */
  public addImageConfig(id: string, options: ImageConfigOptions): void {
    const field = `imageConfig[${id}]`;
    this.checkOption(field, id, options, this.images.map(o => o.id));
    if (!options.image || options.image.length < 2) fail(this, `${field}.image`, options.image, 'expected a container image');
    if (!options.ports || options.ports.length === 0) fail(this, `${field}.ports`, [], 'expected at least one port the image listens on');
    const ids = new Set<string>();
    const numbers = new Set<number>();
    for (const port of options.ports) {
      if (!isPortId(port.id)) fail(this, `${field}.ports.id`, port.id, `expected ${PORT_ID_TEXT}`);
      if (ids.has(port.id)) fail(this, `${field}.ports.id`, port.id, 'expected every port id of an image once');
      if (!Number.isInteger(port.port) || port.port < 1 || port.port > 65535) {
        fail(this, `${field}.ports[${port.id}].port`, port.port, 'expected a whole number from 1 to 65535');
      }
      if (numbers.has(port.port)) fail(this, `${field}.ports[${port.id}].port`, port.port, 'expected every port number of an image once');
      if (port.displayName !== undefined) checkLength(this, `${field}.ports[${port.id}].displayName`, port.displayName, 2, 64);
      ids.add(port.id);
      numbers.add(port.port);
    }
    this.images.push({ id, options });
  }

  /**
   * Adds a pod-config option.
   *
   * @param id the option's id (1 to 256 characters), which workspaces name
   */
  public addPodConfig(id: string, options: PodConfigOptions = {}): void {
    const field = `podConfig[${id}]`;
    this.checkOption(field, id, options, this.pods.map(o => o.id));
    const requested = options.requests?.accelerator;
    const limited = options.limits?.accelerator;
    for (const [part, acc] of [['requests', requested], ['limits', limited]] as const) {
      const p = acc?.problems();
      if (acc && p) fail(this, `${field}.${part}.accelerator`, `${acc.resourceName} x ${acc.count}`, p);
    }
    if (requested && limited && (requested.resourceName !== limited.resourceName || requested.count !== limited.count)) {
      fail(this, `${field}.limits.accelerator`, `${limited.resourceName} x ${limited.count}`,
        `expected the accelerator of requests (${requested.resourceName} x ${requested.count}) or none; extended resources are limited at their request`);
    }
    for (const part of ['requests', 'limits'] as const) {
      for (const [f, value, allowed] of amountProblems(options[part])) fail(this, `${field}.${part}.${f.replace(/^resources\./, '')}`, value, allowed);
    }
    checkLimits(this, field, options.requests, options.limits);
    this.pods.push({ id, options });
  }

  /** Declares a port that image options can serve. */
  public addPort(port: WorkspacePort): void {
    if (!isPortId(port.id)) fail(this, 'ports.id', port.id, `expected ${PORT_ID_TEXT}`);
    if (this.ports.some(p => p.id === port.id)) fail(this, 'ports.id', port.id, 'expected every port id once');
    checkLength(this, `ports[${port.id}].displayName`, port.displayName, 2, 64);
    this.ports.push(port);
  }

  /** Appends a culling rule; rules are evaluated in order and the first match wins. */
  public addActivityRule(rule: ActivityRule): void {
    const field = `activityRules[${this.activityRules.length}]`;
    for (const [part, duration] of [['inactiveFor', rule.inactiveFor], ['minRunning', rule.minRunning]] as const) {
      const fraction = duration === undefined ? undefined : secondsOf(duration);
      if (fraction !== undefined && !Number.isInteger(fraction)) fail(this, `${field}.${part}`, `${fraction}s`, WHOLE_SECONDS);
    }
    const seconds = rule.inactiveFor.toSeconds();
    if (seconds < 16) fail(this, `${field}.inactiveFor`, `${seconds}s`, 'expected at least 16 seconds, so workspaces are not paused while they start');
    this.activityRules.push(rule);
  }

  /** Appends a rule that hides or denies the kind or some of its options. */
  public addFilterRule(rule: FilterRule): void {
    const field = `filterRules[${this.filterRules.length}]`;
    if (!rule.namespaceSelector && !rule.imageConfigSelector && !rule.podConfigSelector) {
      fail(this, `${field}.namespaceSelector`, undefined, 'expected at least one of namespaceSelector, imageConfigSelector and podConfigSelector');
    }
    if (rule.hideInUi === undefined && rule.hideInApi === undefined && rule.deny === undefined) {
      fail(this, `${field}.hideInUi`, undefined, 'expected at least one effect: hideInUi, hideInApi or deny');
    }
    if (rule.denyMessage !== undefined && rule.deny !== true) {
      fail(this, `${field}.deny`, rule.deny, 'expected true with a denyMessage');
    }
    if (rule.denyMessage !== undefined) checkLength(this, `${field}.denyMessage`, rule.denyMessage, 2, 1024);
    this.filterRules.push(rule);
  }

  /** Adds an environment variable to the workspace container. */
  public addEnv(name: string, value: kplus.EnvValue): void {
    if (this.env.has(name)) fail(this, 'env', name, 'expected every variable once');
    this.env.set(name, value);
  }

  /**
   * Mounts a volume (an emptyDir, ConfigMap, Secret, ...) into the workspace container of every
   * workspace of this kind.
   *
   * @param path where to mount it
   * @param storage the volume, or anything that can be mounted as one
   * @param options read-only, sub-path and propagation
   */
  public mount(path: string, storage: kplus.IStorage, options: kplus.MountOptions = {}): void {
    checkMountPath(this, 'volumeMounts.mountPath', path);
    this.mounts.push({ path, volume: storage.asVolume(), options });
  }

  /** Binds a ClusterRole to each workspace's service account, in the workspace's namespace. */
  public addClusterRole(name: string): void {
    if (!name || name.length > 253 || name.includes('/') || name.includes('%')) {
      fail(this, 'clusterRoles', name, 'expected a ClusterRole name: 1 to 253 characters without "/" or "%"');
    }
    if (!this.clusterRoles.includes(name)) this.clusterRoles.push(name);
  }

  /** Adds a label to workspace pods. */
  public addPodLabel(key: string, value: string): void {
    this.podLabels[key] = value;
  }

  /** Adds an annotation to workspace pods. */
  public addPodAnnotation(key: string, value: string): void {
    this.podAnnotations[key] = value;
  }

  /** The platform defaults that apply to this kind. */
  private get platformDefaults(): PlatformDefaultsProps {
    return PlatformDefaults.of(this);
  }

  private get security(): PodSecurity {
    return this.props.security ?? this.platformDefaults.security ?? PodSecurity.DEFAULT;
  }

  private checkOption(field: string, id: string, options: WorkspaceOptionProps, taken: string[]) {
    if (!id || id.length > 256) fail(this, `${field}.id`, id, 'expected an id of 1 to 256 characters');
    if (taken.includes(id)) fail(this, `${field}.id`, id, 'expected every option id once');
    checkLength(this, `${field}.displayName`, options.displayName ?? id, 2, 128);
    if (options.description !== undefined) checkLength(this, `${field}.description`, options.description, 2, 1024);
    const labels = Object.entries(options.labels ?? {});
    if (labels.length > 32) fail(this, `${field}.labels`, `${labels.length} labels`, 'expected at most 32');
    for (const [key, value] of labels) {
      if (key.length < 2 || key.length > 64) fail(this, `${field}.labels`, key, 'expected label keys of 2 to 64 characters');
      checkLength(this, `${field}.labels[${key}]`, value, 1, 64);
    }
    const redirect = options.redirect;
    if (redirect) {
      if (!redirect.to || redirect.to.length > 256) fail(this, `${field}.redirect.to`, redirect.to, 'expected an option id of 1 to 256 characters');
      if (redirect.message !== undefined) checkLength(this, `${field}.redirect.message`, redirect.message, 2, 1024);
    }
  }

  private renderSpec(): notebooks.WorkspaceKindSpec {
    const defaults = this.platformDefaults;
    const security = this.security;
    const restricted = security.restricted;
    const labels = mergeMaps(defaults.labels, this.podLabels);
    const annotations = mergeMaps(defaults.podAnnotations, this.podAnnotations);
    const probes = dropUndefined({
      startupProbe: this.props.startupProbe,
      livenessProbe: this.props.livenessProbe,
      readinessProbe: this.props.readinessProbe,
    });
    const volumes = this.extraVolumes();
    const podTemplate: notebooks.WorkspaceKindSpecPodTemplate = {
      podMetadata: labels || annotations ? dropUndefined({ labels, annotations }) : undefined,
      serviceAccount: this.clusterRoles.length ? { clusterRoles: this.clusterRoles.map(name => ({ name })) } : undefined,
      activityProbe: this.props.activityProbe?._toL1(),
      probes: Object.keys(probes).length ? probes : undefined,
      volumeMounts: { home: this.homeMountPath },
      ports: this.ports.map(renderPort),
      extraEnv: this.env.size
        ? [...this.env.entries()].map(([name, v]) => dropUndefined({ name, value: v.value, valueFrom: v.valueFrom }))
        : undefined,
      extraVolumeMounts: this.mounts.length ? this.mounts.map(renderMount) : undefined,
      extraVolumes: volumes.length ? volumes.map(v => v._toKube() as core.Volume) : undefined,
      securityContext: this.props.podSecurityContext ?? dropUndefined({
        fsGroup: JUPYTER_USERS_GID,
        runAsNonRoot: restricted ? true : undefined,
        seccompProfile: { type: 'RuntimeDefault' },
      }),
      containerSecurityContext: this.props.containerSecurityContext ?? presetSecurity(security, undefined),
      options: {
        imageConfig: {
          spawner: { default: this.defaultImageConfig ?? '' },
          values: this.images.map(o => ({
            id: o.id,
            spawner: renderOptionSpawner(o.id, o.options),
            redirect: renderRedirect(o.options.redirect),
            spec: {
              image: o.options.image,
              imagePullPolicy: (o.options.imagePullPolicy ?? kplus.ImagePullPolicy.IF_NOT_PRESENT) as string as PullPolicy,
              ports: o.options.ports.map(p => dropUndefined({ id: p.id, displayName: p.displayName, port: p.port })),
            },
          })),
        },
        podConfig: {
          spawner: { default: this.defaultPodConfig ?? '' },
          values: this.pods.map(o => ({
            id: o.id,
            spawner: renderOptionSpawner(o.id, o.options),
            redirect: renderRedirect(o.options.redirect),
            spec: renderPodConfig(o.options, defaults),
          })),
        },
      },
    };
    return dropUndefined({
      spawner: {
        displayName: this.props.displayName,
        description: this.props.description,
        hidden: this.props.hidden ?? false,
        deprecated: this.props.deprecated ?? this.props.deprecationMessage !== undefined,
        deprecationMessage: this.props.deprecationMessage,
        icon: this.props.icon._toL1(),
        logo: (this.props.logo ?? this.props.icon)._toL1(),
      },
      filterRules: this.filterRules.length ? this.filterRules.map(renderFilterRule) : undefined,
      activityRules: this.activityRules.length ? this.activityRules.map(renderActivityRule) : undefined,
      podTemplate: dropUndefined(podTemplate),
    });
  }

  /** Every volume of the extra mounts, each once, in the order first mounted. */
  private extraVolumes(): kplus.Volume[] {
    const byName = new Map<string, kplus.Volume>();
    for (const m of this.mounts) if (!byName.has(m.volume.name)) byName.set(m.volume.name, m.volume);
    return [...byName.values()];
  }

  private validateKind(): string[] {
    const errors: string[] = [];
    const name = this.name;
    if (!isSubdomain(name)) errors.push(problem('metadata.name', name, `expected ${DNS_SUBDOMAIN_TEXT}`));

    const portIds = this.portIds;
    if (portIds.length === 0) errors.push(problem('ports', [], 'expected at least one port definition (addPort); image options refer to them'));
    if (this.images.length === 0) errors.push(problem('imageConfig', [], 'expected at least one image option (addImageConfig)'));
    if (this.pods.length === 0) errors.push(problem('podConfig', [], 'expected at least one pod-config option (addPodConfig)'));

    for (const o of this.images) {
      for (const p of o.options.ports) {
        if (!portIds.includes(p.id)) {
          errors.push(problem(`imageConfig[${o.id}].ports.id`, p.id, `expected a port the kind declares: ${listOf(portIds)}`));
        }
      }
    }
    errors.push(...this.validateOptions('imageConfig', this.images, this.props.defaultImageConfig, this.defaultImageConfig));
    errors.push(...this.validateOptions('podConfig', this.pods, this.props.defaultPodConfig, this.defaultPodConfig));

    const probe = this.props.activityProbe;
    if (probe?.portId !== undefined && !portIds.includes(probe.portId)) {
      errors.push(problem('activityProbe.portId', probe.portId, `expected a port the kind declares: ${listOf(portIds)}`));
    }
    this.activityRules.forEach((rule, i) => {
      const catchAll = !rule.namespaceSelector && !rule.podConfigSelector;
      if ((rule.pauseWorkspace ?? true) && !probe) {
        errors.push(problem(`activityRules[${i}].pauseWorkspace`, true, 'expected an activityProbe on the kind; without one the controller cannot tell inactivity and rejects pausing rules'));
      }
      if (catchAll && i !== this.activityRules.length - 1) {
        errors.push(problem(`activityRules[${i}]`, 'a catch-all rule (no selector)', `expected it to be the last rule; rules are matched in order and the ${this.activityRules.length - 1 - i} after it could never apply`));
      }
    });

    for (const [variable, value] of this.env) {
      for (const match of String(value.value ?? '').matchAll(HTTP_PATH_PREFIX)) {
        const portId = match[1] ?? match[2] ?? match[3];
        if (!portIds.includes(portId)) {
          errors.push(problem(`env[${variable}]`, value.value, `expected httpPathPrefix of a port the kind declares: ${listOf(portIds)}`));
        }
      }
    }

    const paths = new Map<string, string>([[normalPath(this.homeMountPath), 'the home volume']]);
    for (const m of this.mounts) {
      const taken = paths.get(normalPath(m.path));
      if (taken) errors.push(problem('volumeMounts.mountPath', m.path, `expected a path no other mount uses; ${taken} is mounted there`));
      else paths.set(normalPath(m.path), `volume "${m.volume.name}"`);
    }
    const volumes = new Map<string, string>();
    for (const m of this.mounts) {
      const json = JSON.stringify(m.volume._toKube());
      const previous = volumes.get(m.volume.name);
      if (previous !== undefined && previous !== json) {
        errors.push(problem('volumes', m.volume.name, 'expected each volume name to stand for one volume; two different volumes share it'));
      }
      volumes.set(m.volume.name, json);
    }
    if (this.security.restricted) errors.push(...this.restrictedProblems());
    return errors;
  }

  private validateOptions(field: string, options: Array<ImageOption | PodOption>, given: string | undefined, chosen: string | undefined): string[] {
    const errors: string[] = [];
    const ids = options.map(o => o.id);
    const byId = new Map(options.map(o => [o.id, o.options.redirect?.to]));
    if (given !== undefined && !ids.includes(given)) {
      errors.push(problem(`default${field[0].toUpperCase()}${field.slice(1)}`, given, `expected the id of an option: ${listOf(ids)}`));
    } else if (chosen !== undefined && byId.get(chosen) !== undefined) {
      errors.push(problem(`default${field[0].toUpperCase()}${field.slice(1)}`, chosen, `expected an option that is not redirected (it redirects to "${byId.get(chosen)}"); the spawner does not show redirected options`));
    }
    const reported = new Set<string>();
    for (const o of options) {
      const to = o.options.redirect?.to;
      if (to === undefined) continue;
      if (!byId.has(to)) {
        errors.push(problem(`${field}[${o.id}].redirect.to`, to, `expected the id of another option: ${listOf(ids.filter(i => i !== o.id))}`));
        continue;
      }
      // Follow the chain; a cycle is reported once, at the first option of it in the list.
      const chain = [o.id];
      let next: string | undefined = to;
      while (next !== undefined && byId.has(next) && !chain.includes(next)) {
        chain.push(next);
        next = byId.get(next);
      }
      if (next !== undefined && chain.includes(next)) {
        const cycle = chain.slice(chain.indexOf(next));
        const key = [...cycle].sort().join('\n');
        if (!reported.has(key)) {
          reported.add(key);
          const first = options.find(x => cycle.includes(x.id))!;
          const at = cycle.indexOf(first.id);
          const loop = [...cycle.slice(at), ...cycle.slice(0, at), first.id];
          errors.push(problem(`${field}[${first.id}].redirect.to`, first.options.redirect!.to, `expected redirects that end at an option without one, but ${loop.join(' -> ')} is a cycle`));
        }
      }
    }
    return errors;
  }

  /** Explicit security contexts against the "restricted" Pod Security Standard. */
  private restrictedProblems(): string[] {
    const pod = this.props.podSecurityContext;
    const c = this.props.containerSecurityContext;
    if (!pod && !c) return [];
    const errors: string[] = [];
    const allowed = (what: string) => `expected ${what} under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)`;
    const container = c ?? presetSecurity(PodSecurity.RESTRICTED, undefined) as core.SecurityContext;
    const podContext = pod ?? {};
    if (container.allowPrivilegeEscalation !== false) {
      errors.push(problem('containerSecurityContext.allowPrivilegeEscalation', container.allowPrivilegeEscalation, allowed('false')));
    }
    if (container.privileged === true) errors.push(problem('containerSecurityContext.privileged', true, allowed('false or not set')));
    if (!(container.runAsNonRoot === true || (podContext.runAsNonRoot === true && container.runAsNonRoot !== false))) {
      errors.push(problem('containerSecurityContext.runAsNonRoot', container.runAsNonRoot, allowed('true here or on podSecurityContext')));
    }
    if (container.runAsUser === 0) errors.push(problem('containerSecurityContext.runAsUser', 0, allowed('a non-zero user id')));
    if (podContext.runAsUser === 0) errors.push(problem('podSecurityContext.runAsUser', 0, allowed('a non-zero user id')));
    const seccomp = container.seccompProfile?.type ?? podContext.seccompProfile?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
      errors.push(problem('containerSecurityContext.seccompProfile.type', seccomp, allowed('RuntimeDefault or Localhost, here or on podSecurityContext')));
    }
    if (!(container.capabilities?.drop ?? []).includes('ALL')) {
      errors.push(problem('containerSecurityContext.capabilities.drop', container.capabilities?.drop ?? [], allowed('to include "ALL"')));
    }
    const added = (container.capabilities?.add ?? []).filter(a => a !== 'NET_BIND_SERVICE');
    if (added.length) errors.push(problem('containerSecurityContext.capabilities.add', added, allowed('at most "NET_BIND_SERVICE"')));
    return errors;
  }
}

/** A WorkspaceKind known by name only (jsii hands a class instance to other languages). */
class NamedWorkspaceKind implements IWorkspaceKind {
  public constructor(public readonly name: string) {}
}

// ---------------------------------------------------------------------------------------------
// Rendering helpers
// ---------------------------------------------------------------------------------------------

/** The first option the spawner shows (neither hidden nor redirected), else the first one. */
function firstShown(options: Array<ImageOption | PodOption>): string | undefined {
  return (options.find(o => !o.options.hidden && !o.options.redirect) ?? options[0])?.id;
}

function renderOptionSpawner(id: string, o: WorkspaceOptionProps): notebooks.ValueSpawner {
  const labels = Object.entries(o.labels ?? {}).map(([key, value]) => ({ key, value }));
  return dropUndefined({
    displayName: o.displayName ?? id,
    description: o.description,
    hidden: o.hidden,
    labels: labels.length ? labels : undefined,
  });
}

function renderRedirect(r: OptionRedirect | undefined): notebooks.Redirect | undefined {
  if (!r) return undefined;
  return dropUndefined({
    to: r.to,
    message: r.message !== undefined
      ? { level: (r.level ?? RedirectLevel.INFO).value as notebooks.RedirectMessageLevel, text: r.message }
      : undefined,
  });
}

function renderPort(p: WorkspacePort): notebooks.WorkspaceKindSpecPodTemplatePorts {
  const requestHeaders = dropUndefined({
    set: nonEmpty(p.setRequestHeaders),
    add: nonEmpty(p.addRequestHeaders),
    remove: p.removeRequestHeaders?.length ? p.removeRequestHeaders : undefined,
  });
  return {
    id: p.id,
    defaultDisplayName: p.displayName,
    protocol: notebooks.WorkspaceKindSpecPodTemplatePortsProtocol.HTTP,
    httpProxy: dropUndefined({
      removePathPrefix: p.removePathPrefix ?? false,
      requestHeaders: Object.keys(requestHeaders).length ? requestHeaders : undefined,
    }),
  };
}

function renderMount(m: ExtraMount): core.VolumeMount {
  return dropUndefined({
    name: m.volume.name,
    mountPath: m.path,
    readOnly: m.options.readOnly,
    subPath: m.options.subPath,
    subPathExpr: m.options.subPathExpr,
    mountPropagation: m.options.propagation,
  });
}

function renderPodConfig(o: PodConfigOptions, defaults: PlatformDefaultsProps): notebooks.WorkspaceKindSpecPodTemplateOptionsPodConfigValuesSpec {
  const accelerator = o.requests?.accelerator ?? o.limits?.accelerator;
  const requests = resourceQuantities({ ...o.requests, accelerator });
  const limits = resourceQuantities({ ...o.limits, accelerator });
  const tolerations = uniqueByContent([
    ...(defaults.tolerations ?? []),
    ...(accelerator ? [{ key: accelerator.resourceName, operator: 'Exists', effect: 'NoSchedule' }] : []),
    ...(o.tolerations ?? []),
  ]);
  const resources: core.ResourceRequirements = dropUndefined({
    requests: Object.keys(requests).length ? requests : undefined,
    limits: Object.keys(limits).length ? limits : undefined,
  });
  return dropUndefined({
    affinity: o.affinity as core.Affinity | undefined,
    nodeSelector: mergeMaps(defaults.nodeSelector, o.nodeSelector),
    tolerations: tolerations.length ? tolerations : undefined,
    resources: Object.keys(resources).length ? resources : undefined,
  });
}

function renderActivityRule(r: ActivityRule): notebooks.WorkspaceKindSpecActivityRules {
  const match = dropUndefined({
    matchNamespace: r.namespaceSelector ? { selector: r.namespaceSelector } : undefined,
    matchPodConfig: r.podConfigSelector ? { selector: r.podConfigSelector } : undefined,
  });
  return dropUndefined({
    config: dropUndefined({ secondsSinceActive: r.inactiveFor.toSeconds(), minRunningSeconds: r.minRunning?.toSeconds() }),
    match: Object.keys(match).length ? match : undefined,
    effect: { pauseWorkspace: r.pauseWorkspace ?? true },
  });
}

function renderFilterRule(r: FilterRule): notebooks.WorkspaceKindSpecFilterRules {
  const match: notebooks.WorkspaceKindSpecFilterRulesMatch[] = [
    ...(r.namespaceSelector ? [{ matchNamespace: { selector: r.namespaceSelector } }] : []),
    ...(r.imageConfigSelector ? [{ matchImageConfig: { selector: r.imageConfigSelector } }] : []),
    ...(r.podConfigSelector ? [{ matchPodConfig: { selector: r.podConfigSelector } }] : []),
  ];
  const api = dropUndefined({
    hide: r.hideInApi,
    deny: r.deny,
    denyMessage: r.denyMessage !== undefined ? { text: r.denyMessage } : undefined,
  });
  return {
    scope: r.scope.value as notebooks.WorkspaceKindSpecFilterRulesScope,
    match,
    effect: dropUndefined({
      ui: r.hideInUi !== undefined ? { hide: r.hideInUi } : undefined,
      api: Object.keys(api).length ? api : undefined,
    }),
  };
}

/** Drops the namespace cdk8s copies from the chart: a cluster-scoped object has none. */
function omitNamespace(apiObject: ApiObject): void {
  const render = apiObject.toJson.bind(apiObject);
  apiObject.toJson = () => {
    const json = render();
    if (!json.metadata || json.metadata.namespace === undefined) return json;
    const { namespace: _ignored, ...metadata } = json.metadata;
    return { ...json, metadata };
  };
}

// ---------------------------------------------------------------------------------------------
// Checks shared with workspace.ts
// ---------------------------------------------------------------------------------------------

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PORT_ID = /^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$/;
const MOUNT_PATH = /^\/[^/].*$/;

/** @internal */
export const DNS_LABEL_TEXT = 'a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit';
/** @internal */
export const DNS_SUBDOMAIN_TEXT = 'a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" and ".", each part starting and ending with a letter or digit';
const PORT_ID_TEXT = 'a port id: at most 32 lower-case letters, digits, "-" and "_", starting and ending with a letter or digit';

/** @internal */
export function isLabel(value: string): boolean {
  return value.length <= 63 && DNS_LABEL.test(value);
}

/** @internal */
export function isSubdomain(value: string): boolean {
  return value.length <= 253 && DNS_SUBDOMAIN.test(value);
}

function isPortId(value: string): boolean {
  return value.length <= 32 && PORT_ID.test(value);
}

/** @internal */
export function checkMountPath(scope: Construct, field: string, path: string): void {
  if (typeof path !== 'string' || path.length < 2 || path.length > 4096 || !MOUNT_PATH.test(path) || path.includes(':')) {
    fail(scope, field, path, 'expected an absolute path such as "/data" (2 to 4096 characters, without ":")');
  }
}

/** @internal */
export function checkLength(scope: Construct, field: string, value: string, min: number, max: number): void {
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    fail(scope, field, value, `expected ${min} to ${max} characters`);
  }
}

/** A mount path without trailing slashes, so `/data/` and `/data` compare equal. @internal */
export function normalPath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** `"a", "b"`, or `none` for an empty list. @internal */
export function listOf(values: string[]): string {
  return values.length ? values.map(v => JSON.stringify(v)).join(', ') : 'none is defined';
}

const WHOLE_SECONDS = 'expected a whole number of seconds, which the manifest counts in';

/** A duration in seconds, fractional when it is not whole (cdk8s's toSeconds would throw). */
function secondsOf(duration: Duration): number {
  return duration.toMilliseconds({ integral: false }) / 1000;
}

function nonEmpty(map: { [key: string]: string } | undefined): { [key: string]: string } | undefined {
  return map && Object.keys(map).length ? map : undefined;
}

/** Keeps the first of equal items, compared with sorted keys (a user may write fields in any order). */
function uniqueByContent<T>(items: T[]): T[] {
  const canonical = (v: unknown): string => JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map(k => [k, x[k]])) : x);
  const seen = new Set<string>();
  return unique(items).filter(i => {
    const key = canonical(i);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Limits at least the requests, as Kubernetes requires. */
function checkLimits(scope: Construct, field: string, requests: Resources | undefined, limits: Resources | undefined): void {
  if (!requests || !limits) return;
  const cpu = (c: kplus.Cpu) => (c.amount.endsWith('m') ? Number(c.amount.slice(0, -1)) / 1000 : Number(c.amount));
  if (requests.cpu && limits.cpu && cpu(limits.cpu) < cpu(requests.cpu)) {
    fail(scope, `${field}.limits.cpu`, limits.cpu.amount, `expected at least the request (${requests.cpu.amount})`);
  }
  for (const part of ['memory', 'ephemeralStorage'] as const) {
    const r = requests[part];
    const l = limits[part];
    if (r && l && l.toMebibytes() < r.toMebibytes()) {
      fail(scope, `${field}.limits.${part}`, sizeQuantity(l), `expected at least the request (${sizeQuantity(r)})`);
    }
  }
}
