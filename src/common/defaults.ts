import { k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { GpuNetworking } from './networking';
import { NodeHealth } from './node-health';
import { canonicalJson, mergeMaps, uniqueByContent } from '../util/collections';
import { mergeNetworking, networkingFindings } from './internal/networking';
import { nodeHealthFindings } from './internal/node-health';
import { PodSecurity } from './security';
import { TargetVersions } from './target';
import { TargetError, targetFromValue, targetWindow } from '../rules/target';
import { fail, failAtSynth, raiseFirst } from '../synth/report';

/** What a platform team sets once for every workload below a scope. */
export interface PlatformDefaultsProps {
  /**
   * Node labels every pod must match.
   * @default - none
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Tolerations added to every pod.
   * @default - none
   */
  readonly tolerations?: k8s.Toleration[];
  /**
   * Priority class of every pod.
   * @default - none
   */
  readonly priorityClassName?: string;
  /**
   * Kueue LocalQueue for every job.
   * @default - not queued
   */
  readonly queue?: string;
  /**
   * Names of image pull secrets every pod uses.
   * @default - none
   */
  readonly imagePullSecrets?: string[];
  /**
   * Labels on every workload and its pods.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Annotations on every pod.
   * @default - none
   */
  readonly podAnnotations?: { [key: string]: string };
  /**
   * The security preset.
   * @default PodSecurity.DEFAULT
   */
  readonly security?: PodSecurity;
  /**
   * RDMA devices, secondary networks and NCCL settings of every training job's pods; a job's own
   * fields replace these one by one.
   * @default - none
   */
  readonly network?: GpuNetworking;
  /**
   * Nodes every training job's pods stay off (a health checker's verdict), added to every required
   * node-affinity term of the pods.
   * @default - none
   */
  readonly nodeHealth?: NodeHealth[];
  /**
   * The versions the cluster runs (docs/versions.md): the rules of versions outside them say
   * nothing below this scope. Merged key by key with the scopes above and the context key
   * `cdk8s-kubeflow/target`, the nearest scope's version winning.
   * @default - the context key `cdk8s-kubeflow/target`, else the whole support window
   */
  readonly target?: TargetVersions;
}

const ID = 'KubeflowPlatformDefaults';

/**
 * Platform defaults for a construct scope (a chart or any subtree). Every construct of this library
 * below the scope reads them when it renders, so the order of construction does not matter.
 *
 * Precedence, from strongest to weakest: what the construct itself is given, then the defaults of
 * the nearest scope, then those of scopes further up. Maps (labels, node selector, annotations) are
 * merged key by key with the same precedence; lists (tolerations, pull secrets) are concatenated,
 * outermost first, without duplicates.
 */
export class PlatformDefaults extends Construct {
  /**
   * Sets the defaults of `scope`. Calling it again for the same scope adds to the defaults already
   * set (modules of a template library may each set their own); giving a setting or map key a
   * different value than an earlier call is an error.
   *
   * @param scope the scope whose constructs, at any depth, get the defaults
   * @param props the defaults
   */
  public static set(scope: IConstruct, props: PlatformDefaultsProps): PlatformDefaults {
    const existing = scope.node.tryFindChild(ID);
    if (existing instanceof PlatformDefaults) {
      existing.add(props);
      return existing;
    }
    try {
      return new PlatformDefaults(scope, props);
    } catch (e) {
      // The constructor refused the props after it joined the tree: leave no half-made defaults
      // behind for the next call (or the renders) to find.
      scope.node.tryRemoveChild(ID);
      throw e;
    }
  }

  /**
   * The merged defaults that apply to `construct`, outermost scope first.
   *
   * @param construct the construct whose scopes are searched for defaults, itself included
   */
  public static of(construct: IConstruct): PlatformDefaultsProps {
    return PlatformDefaults._of(construct);
  }

  /**
   * `of` without the boundary's argument check, for the library's constructs, which look their
   * defaults up every time they render.
   * @internal
   */
  public static _of(construct: IConstruct): PlatformDefaultsProps {
    let merged: PlatformDefaultsProps = {};
    for (const scope of construct.node.scopes) {
      const child = scope.node.tryFindChild(ID);
      if (child instanceof PlatformDefaults) merged = mergeDefaults(merged, child._props);
    }
    return merged;
  }

  private _props: PlatformDefaultsProps;

  private constructor(scope: IConstruct, props: PlatformDefaultsProps) {
    super(scope as Construct, ID);
    checkValues(this, props);
    this._props = props;
  }

  /** The defaults set for this scope, every call to `set` merged. */
  public get props(): PlatformDefaultsProps {
    return this._props;
  }

  private add(props: PlatformDefaultsProps): void {
    checkValues(this, props);
    const current = this._props;
    // A value that contradicts an earlier call for this scope is reported at synth, with the app's
    // other mistakes, and left out: the earlier value stays.
    const kept: { [field: string]: unknown } = { ...props };
    // A network is one setting: a second, different one for the same scope is a conflict.
    if (current.network && props.network && canonicalJson(current.network) !== canonicalJson(props.network)) {
      failAtSynth(this, 'network', props.network, 'expected the value an earlier PlatformDefaults.set gave this scope, or none; set a different default on a child scope instead');
      delete kept.network;
    }
    for (const field of ['priorityClassName', 'queue', 'security'] as const) {
      const a = current[field];
      const b = props[field];
      if (a !== undefined && b !== undefined && a !== b) {
        failAtSynth(this, field, show(b), `expected the value an earlier PlatformDefaults.set gave this scope (${JSON.stringify(show(a))}), or none; set a different default on a child scope instead`);
        delete kept[field];
      }
    }
    for (const field of ['nodeSelector', 'labels', 'podAnnotations', 'target'] as const) {
      const map: { [key: string]: string | undefined } = { ...props[field] };
      for (const [key, value] of Object.entries(map)) {
        if (value === undefined) continue;
        const earlier = (current[field] as { readonly [key: string]: string | undefined } | undefined)?.[key];
        if (earlier !== undefined && earlier !== value) {
          failAtSynth(this, `${field}[${JSON.stringify(key)}]`, value, `expected the value an earlier PlatformDefaults.set gave this scope (${JSON.stringify(earlier)}), or none`);
          delete map[key];
        }
      }
      if (props[field] !== undefined) kept[field] = map;
    }
    this._props = mergeDefaults(current, kept as PlatformDefaultsProps);
  }
}

/** The network, node-health and target values are checked where they are set. */
function checkValues(scope: IConstruct, props: PlatformDefaultsProps): void {
  raiseFirst(scope, [...networkingFindings(props.network, 'network'), ...nodeHealthFindings(props.nodeHealth, 'nodeHealth')]);
  if (props.target === undefined) return;
  try {
    targetWindow(targetFromValue(withoutUndefined(props.target), 'target'), 'target', true);
  } catch (e) {
    if (e instanceof TargetError) fail(scope, e.field, e.value, e.allowed);
    throw e;
  }
}

/** A struct's keys that hold a value (jsii passes an unset optional property as undefined). */
function withoutUndefined(o: object): object {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function show(value: string | PodSecurity | undefined): string | undefined {
  return value instanceof PodSecurity ? `PodSecurity ${value.name}` : value;
}

function mergeDefaults(outer: PlatformDefaultsProps, inner: PlatformDefaultsProps): PlatformDefaultsProps {
  return {
    nodeSelector: mergeMaps(outer.nodeSelector, inner.nodeSelector),
    tolerations: uniqueByContent([...(outer.tolerations ?? []), ...(inner.tolerations ?? [])]),
    priorityClassName: inner.priorityClassName ?? outer.priorityClassName,
    queue: inner.queue ?? outer.queue,
    imagePullSecrets: uniqueByContent([...(outer.imagePullSecrets ?? []), ...(inner.imagePullSecrets ?? [])]),
    labels: mergeMaps(outer.labels, inner.labels),
    podAnnotations: mergeMaps(outer.podAnnotations, inner.podAnnotations),
    security: inner.security ?? outer.security,
    network: mergeNetworking(outer.network, inner.network),
    nodeHealth: outer.nodeHealth || inner.nodeHealth ? uniqueByContent([...(outer.nodeHealth ?? []), ...(inner.nodeHealth ?? [])]) : undefined,
    target: outer.target || inner.target ? { ...withoutUndefined(outer.target ?? {}), ...withoutUndefined(inner.target ?? {}) } : undefined,
  };
}
