import { Finding, finding } from '../rules/finding';
import { QUALIFIED_NAME_TEXT, isDns1123Subdomain, isQualifiedName } from '../rules/kubernetes/names';

/*
 * Annotation keys, as the schedulers define them:
 * - Kueue: apis/kueue/v1alpha1/topology_types.go (PodSetRequiredTopologyAnnotation,
 *   PodSetPreferredTopologyAnnotation, PodSetUnconstrainedTopologyAnnotation,
 *   PodSetSliceRequiredTopologyAnnotation, PodSetSliceSizeAnnotation), read from each PodSet's pod
 *   template (one PodSet per replica type of a Kubeflow job).
 * - KAI scheduler: pkg/podgrouper/podgrouper/plugins/defaultgrouper/default_grouper.go
 *   (GetPodGroupMetadata), read from the annotations of the pods' top owner, i.e. the job itself.
 */
const KUEUE_REQUIRED = 'kueue.x-k8s.io/podset-required-topology';
const KUEUE_PREFERRED = 'kueue.x-k8s.io/podset-preferred-topology';
const KUEUE_UNCONSTRAINED = 'kueue.x-k8s.io/podset-unconstrained-topology';
const KUEUE_SLICE_REQUIRED = 'kueue.x-k8s.io/podset-slice-required-topology';
const KUEUE_SLICE_SIZE = 'kueue.x-k8s.io/podset-slice-size';
// PodSetGroupName in the same file: PodSets of one group share a flavor and a topology domain.
const KUEUE_PODSET_GROUP = 'kueue.x-k8s.io/podset-group-name';
const KAI_TOPOLOGY = 'kai.scheduler/topology';
const KAI_REQUIRED = 'kai.scheduler/topology-required-placement';
const KAI_PREFERRED = 'kai.scheduler/topology-preferred-placement';

/** Kueue's Topology level `nodeLabel` is a label key (TopologyLevel in topology_types.go). */
/** A podset group together with slices, which Kueue's webhook refuses (the same text as kueue/topology's). */
const GROUP_WITH_SLICES = 'expected no podset group together with slices: Kueue refuses the two on one role';
const LEVEL_TEXT = `expected a node label key such as "cloud.provider.com/topology-block": ${QUALIFIED_NAME_TEXT}`;

/** Slices of a role's pods that Kueue places each within one domain of a lower level. */
export interface TopologySlices {
  /** The node label of the level each slice must fit in, such as `cloud.provider.com/topology-rack`. */
  readonly level: string;
  /** Pods per slice, a whole number of 1 or more. */
  readonly size: number;
}

/** More of Kueue's placement: slices and a group of two roles placed together. */
export interface TopologyOptions {
  /**
   * Also place each slice of `size` pods of the role within one domain of a lower level (Kueue's
   * podset slices).
   * @default - no slices
   */
  readonly slices?: TopologySlices;
  /**
   * Put this role and one other in the same domain (Kueue's podset group, which takes exactly two
   * roles with the same topology request): a PyTorch Master and its Workers in one block.
   * Not together with `slices`: Kueue refuses the two on one role.
   * @default - each role is placed on its own
   */
  readonly podSetGroup?: string;
}

/** Where the KAI scheduler places the job's pods. */
export interface KaiTopologyOptions {
  /** The name of the Topology object the cluster defines (the `kai.scheduler/topology` annotation). */
  readonly topologyName: string;
  /**
   * The node label of the level all pods must share; the job waits until that fits.
   * @default - none (give this or `preferredLevel`)
   */
  readonly requiredLevel?: string;
  /**
   * The node label of the level the scheduler tries first, relaxing upwards when the pods do not fit.
   * @default - none (give this or `requiredLevel`)
   */
  readonly preferredLevel?: string;
}

/**
 * Topology-aware placement of a job's pods: all pods of a role in one rack or block, so that the
 * traffic between them stays on the fastest links.
 *
 * Kueue's topology-aware scheduling reads annotations on each role's pod template, so the Kueue
 * variants apply per job or per role, and Kueue only acts on jobs it admits: a required or preferred
 * topology needs a Kueue queue. The KAI scheduler reads its annotations from the job object itself,
 * so its variant applies to the whole job.
 */
export class Topology {
  /**
   * Kueue: every pod of the role in one domain of `level`, or the job is not admitted.
   *
   * @param level the node label of the level, as in the cluster's Kueue Topology (`cloud.provider.com/topology-block`)
   * @param options slices, and a group of two roles placed together
   */
  public static required(level: string, options: TopologyOptions = {}): Topology {
    return new Topology('kueue', 'required', level, options);
  }

  /**
   * Kueue: the pods in one domain of `level` if they fit, else in the fewest domains above it.
   *
   * @param level the node label of the level to try first
   * @param options slices, and a group of two roles placed together
   */
  public static preferred(level: string, options: TopologyOptions = {}): Topology {
    return new Topology('kueue', 'preferred', level, options);
  }

  /**
   * Kueue: topology-aware admission without a placement constraint (Kueue still counts free
   * capacity node by node).
   */
  public static unconstrained(): Topology {
    return new Topology('kueue', 'unconstrained');
  }

  /**
   * The KAI scheduler's topology-aware placement, for the whole job.
   *
   * @param options the topology's name and the required or preferred level
   */
  public static kai(options: KaiTopologyOptions): Topology {
    return new Topology('kai', 'kai', options.requiredLevel ?? options.preferredLevel, {}, options);
  }

  /**
   * @param scheduler `kueue` or `kai`
   * @param mode `required`, `preferred`, `unconstrained` (Kueue) or `kai`
   * @param level the node label of the level, if any
   * @param options Kueue's slices and podset group
   * @param kaiOptions the KAI scheduler's options, if that is the scheduler
   */
  private constructor(
    public readonly scheduler: string,
    public readonly mode: string,
    public readonly level?: string,
    private readonly options: TopologyOptions = {},
    public readonly kaiOptions?: KaiTopologyOptions) {}

  /** Kueue's podset slices, if any. */
  public get slices(): TopologySlices | undefined {
    return this.options.slices;
  }

  /** Kueue's podset group, if any. */
  public get podSetGroup(): string | undefined {
    return this.options.podSetGroup;
  }

  /**
   * Whether Kueue acts on it only for a job it admits (every Kueue variant does; unconstrained
   * asks for nothing that would be lost without a queue, so it is not counted).
   * @internal
   */
  public get _needsKueueQueue(): boolean {
    return this.scheduler === 'kueue' && this.mode !== 'unconstrained';
  }

  /** Annotations on each pod template of the role (Kueue). @internal */
  public _podAnnotations(): { [key: string]: string } {
    if (this.scheduler !== 'kueue') return {};
    const out: { [key: string]: string } = {};
    if (this.mode === 'required') out[KUEUE_REQUIRED] = this.level!;
    if (this.mode === 'preferred') out[KUEUE_PREFERRED] = this.level!;
    // The annotation is typed boolean in Kueue (+kubebuilder:validation:Type=boolean).
    if (this.mode === 'unconstrained') out[KUEUE_UNCONSTRAINED] = 'true';
    if (this.slices) {
      out[KUEUE_SLICE_REQUIRED] = this.slices.level;
      out[KUEUE_SLICE_SIZE] = String(this.slices.size);
    }
    if (this.podSetGroup !== undefined) out[KUEUE_PODSET_GROUP] = this.podSetGroup;
    return out;
  }

  /** Annotations on the job object (KAI). @internal */
  public _jobAnnotations(): { [key: string]: string } {
    const kai = this.kaiOptions;
    if (this.scheduler !== 'kai' || !kai) return {};
    const out: { [key: string]: string } = { [KAI_TOPOLOGY]: kai.topologyName };
    if (kai.requiredLevel !== undefined) out[KAI_REQUIRED] = kai.requiredLevel;
    if (kai.preferredLevel !== undefined) out[KAI_PREFERRED] = kai.preferredLevel;
    return out;
  }

  /**
   * What is wrong with the values themselves: levels must be label keys, a slice size a whole
   * number of 1 or more, a KAI topology name an object name with at least one level.
   * @internal
   */
  public _findings(field: string): Finding[] {
    const out: Finding[] = [];
    if (this.scheduler === 'kueue' && this.mode !== 'unconstrained' && !isQualifiedName(this.level)) {
      out.push(finding(`${field}.level`, this.level, LEVEL_TEXT));
    }
    if (this.slices) {
      if (!isQualifiedName(this.slices.level)) out.push(finding(`${field}.slices.level`, this.slices.level, LEVEL_TEXT));
      if (!Number.isInteger(this.slices.size) || this.slices.size < 1) {
        out.push(finding(`${field}.slices.size`, this.slices.size, 'expected a whole number of 1 or more pods per slice'));
      }
    }
    if (this.podSetGroup !== undefined && (this.mode === 'unconstrained' || typeof this.podSetGroup !== 'string' || this.podSetGroup.length === 0)) {
      out.push(finding(`${field}.podSetGroup`, this.podSetGroup, 'expected a non-empty group name with a required or preferred topology (Kueue groups only those)'));
    } else if (this.podSetGroup !== undefined && this.slices) {
      // Kueue v0.15.2's webhook refuses the group annotation next to the slice ones (ValidateTASPodSetRequest).
      out.push(finding(`${field}.podSetGroup`, this.podSetGroup, GROUP_WITH_SLICES));
    }
    const kai = this.kaiOptions;
    if (kai) {
      // Topology objects are cluster-scoped objects named by a DNS-1123 subdomain.
      if (!isDns1123Subdomain(kai.topologyName)) {
        out.push(finding(`${field}.topologyName`, kai.topologyName, 'expected the name of the cluster\'s Topology object (a DNS-1123 subdomain)'));
      }
      if (kai.requiredLevel === undefined && kai.preferredLevel === undefined) {
        out.push(finding(`${field}.requiredLevel`, undefined, 'expected a requiredLevel or a preferredLevel; without either the KAI scheduler places the pods without regard to topology'));
      }
      for (const key of ['requiredLevel', 'preferredLevel'] as const) {
        if (kai[key] !== undefined && !isQualifiedName(kai[key])) out.push(finding(`${field}.${key}`, kai[key], LEVEL_TEXT));
      }
    }
    return out;
  }

  /** How the topology appears in messages. @internal */
  public _describe(): string {
    return this.scheduler === 'kai' ? `KAI ${this.kaiOptions?.topologyName}` : `${this.mode} ${this.level ?? ''}`.trim();
  }
}
