import { ApiObjectMetadata, Lazy, Size, SizeRoundingBehavior } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { IWorkspaceKind, WorkspaceKind } from './workspace-kind';
import * as notebooks from '../../imports/notebooks';
import { DNS_SUBDOMAIN_TEXT, isSubdomain } from '../common/internal/names';
import { checkMountPath, normalPath } from '../common/internal/paths';
import { KubeflowResource } from '../common/kubeflow-resource';
import { Finding, finding } from '../rules/finding';
import { optionIdLengthFinding, unknownOptionFinding } from '../rules/notebooks/option-ids';
import { checkLength, fail, raise, raiseFirst } from '../synth/report';
import { dropUndefined, mergeMaps } from '../util/collections';

/** A PersistentVolumeClaim the construct creates for a workspace. */
export interface NewClaimOptions {
  /** How much storage the claim asks for. */
  readonly storage: Size;
  /**
   * The storage class.
   * @default - the cluster's default storage class
   */
  readonly storageClassName?: string;
  /**
   * How the volume can be mounted. A home volume is written to, so it cannot be ReadOnlyMany.
   * @default kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE
   */
  readonly accessMode?: kplus.PersistentVolumeAccessMode;
  /**
   * The claim's name.
   * @default - `<workspace name>-home` for a home volume, `<workspace name>-data-<n>` for the n-th
   * data volume (counted from 0)
   */
  readonly claimName?: string;
}

/**
 * The PersistentVolumeClaim behind a workspace's home or data volume: an existing claim known by
 * name, a claim construct of this app (`kplus.PersistentVolumeClaim`), or a new claim the
 * Workspace creates in its own chart and namespace.
 */
export class WorkspaceClaim {
  /**
   * A claim that already exists in the workspace's namespace.
   *
   * @param claimName the claim's name
   */
  public static fromClaimName(claimName: string): WorkspaceClaim {
    return new WorkspaceClaim(claimName, undefined, undefined);
  }

  /**
   * A claim of this app, or one imported with `kplus.PersistentVolumeClaim.fromClaimName`. One
   * claim can back volumes of several workspaces (a shared read-only dataset, for instance).
   *
   * @param claim the claim, which must be in the workspace's namespace
   */
  public static fromClaim(claim: kplus.IPersistentVolumeClaim): WorkspaceClaim {
    return new WorkspaceClaim(undefined, claim, undefined);
  }

  /**
   * A new claim, created beside the first Workspace that uses it (same chart, same namespace).
   *
   * @param options the claim's size, storage class, access mode and name
   */
  public static newClaim(options: NewClaimOptions): WorkspaceClaim {
    return new WorkspaceClaim(undefined, undefined, options);
  }

  private created?: kplus.PersistentVolumeClaim;

  private constructor(
    private readonly claimName: string | undefined,
    private readonly claim: kplus.IPersistentVolumeClaim | undefined,
    private readonly newOptions: NewClaimOptions | undefined) {}

  /**
   * What is wrong with a new claim's size, if anything: cdk8s-plus writes a claim's storage in
   * whole gibibytes, and a claim of nothing cannot be bound.
   * @internal
   */
  public _finding(field: string): Finding | undefined {
    const storage = this.newOptions?.storage;
    if (!storage) return undefined;
    const kib = storage.toKibibytes({ rounding: SizeRoundingBehavior.NONE });
    if (kib > 0 && kib % (1024 * 1024) === 0) return undefined;
    const shown = kib % (1024 * 1024) === 0 ? `${kib / 1024 / 1024}Gi` : kib % 1024 === 0 ? `${kib / 1024}Mi` : `${kib}Ki`;
    return finding(`${field}.storage`, shown, 'expected a whole number of gibibytes, 1 or more (the claim is written in Gi)');
  }

  /**
   * The claim construct, creating it on first use for a new claim.
   * @internal
   */
  public _bind(workspace: Workspace, id: string, defaultName: string, namespace: string | undefined): BoundClaim {
    if (this.claimName !== undefined) return { name: this.claimName };
    if (this.claim) return { name: this.claim.name, claim: this.claim };
    const o = this.newOptions!;
    if (!this.created) {
      this.created = new kplus.PersistentVolumeClaim(workspace, id, {
        metadata: { name: o.claimName ?? defaultName, namespace },
        storage: o.storage,
        storageClassName: o.storageClassName,
        accessModes: [o.accessMode ?? kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE],
      });
    }
    return { name: this.created.name, claim: this.created };
  }
}

/** @internal */
export interface BoundClaim {
  readonly name: string;
  readonly claim?: kplus.IPersistentVolumeClaim;
}

/** How a data volume is mounted. */
export interface DataVolumeOptions {
  /**
   * Mount the claim read-only (a dataset shared by several workspaces, for instance).
   * @default false
   */
  readonly readOnly?: boolean;
}

/** A data volume of a workspace: a claim mounted at a path. */
export interface DataVolume extends DataVolumeOptions {
  /** Where the claim is mounted in the workspace container. */
  readonly mountPath: string;
  /** The claim. */
  readonly claim: WorkspaceClaim;
}

/** How a Secret is mounted. */
export interface SecretVolumeOptions {
  /**
   * Permission bits of the files, as a number (use an octal literal such as `0o600`).
   * @default 0o644 (420)
   */
  readonly defaultMode?: number;
}

/** A Secret mounted into a workspace as a folder with one file per key. */
export interface SecretVolume extends SecretVolumeOptions {
  /** Where the Secret is mounted in the workspace container. */
  readonly mountPath: string;
  /** The Secret, which must exist in the workspace's namespace (`kplus.Secret.fromSecretName` for one known by name). */
  readonly secret: kplus.ISecret;
}

/** A Workspace's settings. Data volumes, secrets and pod metadata can also be added later. */
export interface WorkspaceProps {
  /**
   * Name, namespace, labels and annotations.
   * @default - a name generated by cdk8s from the construct path, in the chart's namespace
   */
  readonly metadata?: ApiObjectMetadata;
  /**
   * The WorkspaceKind: one of this app, whose options are then checked at synth time, or one
   * known by name (`WorkspaceKind.fromName`). It cannot change once the workspace exists.
   */
  readonly kind: IWorkspaceKind;
  /**
   * The id of the kind's image option.
   * @default - the kind's default image option (required when the kind is known by name only)
   */
  readonly imageConfig?: string;
  /**
   * The id of the kind's pod-config option.
   * @default - the kind's default pod-config option (required when the kind is known by name only)
   */
  readonly podConfig?: string;
  /**
   * The home volume, mounted where the kind says (`WorkspaceKind.homeMountPath`).
   * @default - no home volume: the home directory lives in the container and is lost when the
   * workspace pauses or restarts
   */
  readonly home?: WorkspaceClaim;
  /**
   * More claims to mount; more can be added with `addDataVolume`.
   * @default - none
   */
  readonly data?: DataVolume[];
  /**
   * Secrets to mount; more can be added with `addSecret`.
   * @default - none
   */
  readonly secrets?: SecretVolume[];
  /**
   * Stop the workspace's pod, keeping its volumes.
   * @default false
   */
  readonly paused?: boolean;
  /**
   * Name shown in the UI instead of `metadata.name` (1 to 128 characters).
   * @default - the UI shows `metadata.name`
   */
  readonly displayName?: string;
  /**
   * Labels on the workspace pod (PodDefaults select pods by them), over the platform defaults' labels.
   * @default - the platform defaults' labels, else none
   */
  readonly podLabels?: { [key: string]: string };
  /**
   * Annotations on the workspace pod, over the platform defaults' pod annotations.
   * @default - the platform defaults' pod annotations, else none
   */
  readonly podAnnotations?: { [key: string]: string };
}

interface DataMount {
  readonly mountPath: string;
  readonly bound: BoundClaim;
  readonly readOnly: boolean;
}

interface SecretMount {
  readonly mountPath: string;
  readonly secret: kplus.ISecret;
  readonly defaultMode: number;
}

const WRITABLE_MODES = [
  kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE,
  kplus.PersistentVolumeAccessMode.READ_WRITE_MANY,
  kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE_POD,
];

/**
 * A Kubeflow Notebooks v2 Workspace (namespaced): one user's notebook server, made from a
 * WorkspaceKind's image and pod-config options, with a home volume, data volumes and secrets.
 *
 * When the kind is a `WorkspaceKind` of this app, the options, default ids and mount paths are
 * checked against it at synth time, as the notebooks admission webhook would check them.
 */
export class Workspace extends KubeflowResource {
  /** The WorkspaceKind the workspace uses. */
  public readonly kind: IWorkspaceKind;

  private readonly props: WorkspaceProps;
  private readonly homeClaim?: BoundClaim;
  private readonly data: DataMount[] = [];
  private readonly secrets: SecretMount[] = [];

  /**
   * @param scope the construct this workspace belongs to
   * @param id the workspace's construct id, unique within `scope`
   * @param props the kind and the options chosen from it, the volumes and secrets, and the workspace's metadata
   */
  public constructor(scope: Construct, id: string, props: WorkspaceProps) {
    super(scope, id, props);
    this.props = props;
    this.kind = props.kind;
    if (!(props.kind instanceof WorkspaceKind)) {
      if (props.imageConfig === undefined) fail(this, 'imageConfig', undefined, 'expected an image option id: the kind is known by name only, so its default cannot be looked up');
      if (props.podConfig === undefined) fail(this, 'podConfig', undefined, 'expected a pod-config option id: the kind is known by name only, so its default cannot be looked up');
    }
    for (const [field, value] of [['imageConfig', props.imageConfig], ['podConfig', props.podConfig]] as const) {
      if (value !== undefined) raiseFirst(this, [optionIdLengthFinding(field, value)]);
    }
    if (props.displayName !== undefined) checkLength(this, 'displayName', props.displayName, 1, 128);

    this._adopt(new notebooks.Workspace(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this.renderSpec() }) as any,
    }), {
      lateMetadata: () => ({ labels: this._platformDefaults.labels }),
      validate: () => this.validateWorkspace(),
    });

    if (props.home) {
      const storage = props.home._finding('home');
      if (storage) raise(this, storage);
      this.homeClaim = props.home._bind(this, 'Home', `${this.name}-home`, props.metadata?.namespace);
      const claim = this.homeClaim.claim;
      if (claim instanceof kplus.PersistentVolumeClaim && claim.accessModes && !claim.accessModes.some(m => WRITABLE_MODES.includes(m))) {
        fail(this, 'home.accessMode', claim.accessModes.join(', '), 'expected ReadWriteOnce, ReadWriteMany or ReadWriteOncePod: the home volume is written to');
      }
    }
    for (const d of props.data ?? []) this.addDataVolume(d.mountPath, d.claim, d);
    for (const s of props.secrets ?? []) this.addSecret(s.mountPath, s.secret, s);
    for (const [key, value] of Object.entries(props.podLabels ?? {})) this.addPodLabel(key, value);
    for (const [key, value] of Object.entries(props.podAnnotations ?? {})) this.addPodAnnotation(key, value);
  }

  /** The name of the home volume's claim, if the workspace has one. */
  public get homeClaimName(): string | undefined {
    return this.homeClaim?.name;
  }

  /** The image option the workspace uses, when it is known (given, or the kind's default). */
  public get imageConfig(): string | undefined {
    return this.props.imageConfig ?? (this.kind instanceof WorkspaceKind ? this.kind.defaultImageConfig : undefined);
  }

  /** The pod-config option the workspace uses, when it is known (given, or the kind's default). */
  public get podConfig(): string | undefined {
    return this.props.podConfig ?? (this.kind instanceof WorkspaceKind ? this.kind.defaultPodConfig : undefined);
  }

  /**
   * Mounts a claim into the workspace container.
   *
   * @param mountPath where to mount it
   * @param claim the claim
   * @param options whether the claim is mounted read-only
   */
  public addDataVolume(mountPath: string, claim: WorkspaceClaim, options: DataVolumeOptions = {}): void {
    const index = this.data.length;
    // The Workspace CRD's pattern (^/[^/].*$) refuses a relative data path, as the API server would.
    checkMountPath(this, `data[${index}].mountPath`, mountPath);
    const storage = claim._finding(`data[${index}]`);
    if (storage) raise(this, storage);
    const bound = claim._bind(this, `Data${index}`, `${this.name}-data-${index}`, this.props.metadata?.namespace);
    const readOnly = options.readOnly ?? false;
    const c = bound.claim;
    if (!readOnly && c instanceof kplus.PersistentVolumeClaim && c.accessModes && !c.accessModes.some(m => WRITABLE_MODES.includes(m))) {
      fail(this, `data[${index}].readOnly`, false, `expected true: claim "${c.name}" is ${c.accessModes.join(', ')}`);
    }
    this.data.push({ mountPath, bound, readOnly });
  }

  /**
   * Mounts a Secret into the workspace container, one file per key.
   *
   * @param mountPath where to mount it
   * @param secret the Secret (`kplus.Secret.fromSecretName` for one known by name)
   * @param options the permission bits of the files
   */
  public addSecret(mountPath: string, secret: kplus.ISecret, options: SecretVolumeOptions = {}): void {
    const index = this.secrets.length;
    checkMountPath(this, `secrets[${index}].mountPath`, mountPath);
    const mode = options.defaultMode ?? 0o644;
    if (!Number.isInteger(mode) || mode < 0 || mode > 0o777) {
      fail(this, `secrets[${index}].defaultMode`, mode, 'expected permission bits from 0 to 0o777 (511)');
    }
    this.secrets.push({ mountPath, secret, defaultMode: mode });
  }

  private renderSpec(): notebooks.WorkspaceSpec {
    const defaults = this._platformDefaults;
    const labels = mergeMaps(defaults.labels, this._podLabels);
    const annotations = mergeMaps(defaults.podAnnotations, this._podAnnotations);
    return dropUndefined({
      displayName: this.props.displayName,
      kind: this.kind.name,
      paused: this.props.paused ?? false,
      podTemplate: dropUndefined({
        podMetadata: labels || annotations ? dropUndefined({ labels, annotations }) : undefined,
        volumes: dropUndefined({
          home: this.homeClaim?.name,
          data: this.data.length
            ? this.data.map(d => ({ pvcName: d.bound.name, mountPath: d.mountPath, readOnly: d.readOnly }))
            : undefined,
          secrets: this.secrets.length
            ? this.secrets.map(s => ({ secretName: s.secret.name, mountPath: s.mountPath, defaultMode: s.defaultMode }))
            : undefined,
        }),
        options: {
          imageConfig: this.imageConfig ?? '',
          podConfig: this.podConfig ?? '',
        },
      }),
    });
  }

  private validateWorkspace(): Finding[] {
    const errors: Finding[] = [];
    // The name's format is the rule layer's (kubernetes/object-name), as is a claim of this app in another
    // namespace (kubernetes/claim-namespace).
    if (!isSubdomain(this.kind.name)) errors.push(finding('kind', this.kind.name, `expected the name of a WorkspaceKind, ${DNS_SUBDOMAIN_TEXT}`));

    const kind = this.kind instanceof WorkspaceKind ? this.kind : undefined;
    if (kind) {
      for (const [field, chosen, ids] of [
        ['imageConfig', this.imageConfig, kind.imageConfigIds],
        ['podConfig', this.podConfig, kind.podConfigIds],
      ] as Array<[string, string | undefined, string[]]>) {
        if (chosen === undefined) {
          errors.push(finding(field, undefined, `expected an option id; WorkspaceKind "${kind.name}" has no options to default to`));
        } else {
          const unknown = unknownOptionFinding(field, field, chosen, kind.name, ids);
          if (unknown) errors.push(unknown);
        }
      }
    }

    // Mount paths: the kind's (home, when the workspace has one, and extra mounts), then data and secrets.
    const taken = new Map<string, string>();
    if (kind) {
      kind.mountPaths.forEach((p, i) => {
        if (i > 0 || this.homeClaim) taken.set(normalPath(p), i === 0 ? 'the home volume' : `a volume of WorkspaceKind "${kind.name}"`);
      });
    }
    const mounts: Array<[string, string, string]> = [
      ...this.data.map((d, i) => [`data[${i}].mountPath`, d.mountPath, `data volume "${d.bound.name}"`] as [string, string, string]),
      ...this.secrets.map((s, i) => [`secrets[${i}].mountPath`, s.mountPath, `secret "${s.secret.name}"`] as [string, string, string]),
    ];
    for (const [field, path, what] of mounts) {
      const other = taken.get(normalPath(path));
      if (other) errors.push(finding(field, path, `expected a path no other mount uses; ${other} is mounted there`));
      else taken.set(normalPath(path), what);
    }

    // Claims and secrets: valid names.
    const claims: Array<[string, BoundClaim]> = [
      ...(this.homeClaim ? [['home', this.homeClaim] as [string, BoundClaim]] : []),
      ...this.data.map((d, i) => [`data[${i}].claim`, d.bound] as [string, BoundClaim]),
    ];
    for (const [field, bound] of claims) {
      if (!isSubdomain(bound.name)) errors.push(finding(field, bound.name, `expected a claim name, ${DNS_SUBDOMAIN_TEXT}`));
    }
    this.secrets.forEach((s, i) => {
      if (!isSubdomain(s.secret.name)) errors.push(finding(`secrets[${i}].secret`, s.secret.name, `expected a Secret name, ${DNS_SUBDOMAIN_TEXT}`));
    });
    return errors;
  }
}
