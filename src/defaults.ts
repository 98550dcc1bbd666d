import { k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { PodSecurity } from './security';

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
   * Sets the defaults of `scope`. A scope has at most one set.
   *
   * @param scope the scope whose constructs, at any depth, get the defaults
   * @param props the defaults
   */
  public static set(scope: IConstruct, props: PlatformDefaultsProps): PlatformDefaults {
    return new PlatformDefaults(scope, props);
  }

  /**
   * The merged defaults that apply to `construct`, outermost scope first.
   *
   * @param construct the construct whose scopes are searched for defaults, itself included
   */
  public static of(construct: IConstruct): PlatformDefaultsProps {
    const layers = construct.node.scopes
      .map(s => s.node.tryFindChild(ID))
      .filter((c): c is PlatformDefaults => c instanceof PlatformDefaults)
      .map(d => d.props);
    return layers.reduce(mergeDefaults, {});
  }

  /** The defaults as given. */
  public readonly props: PlatformDefaultsProps;

  private constructor(scope: IConstruct, props: PlatformDefaultsProps) {
    super(scope as Construct, ID);
    this.props = props;
  }
}

function mergeDefaults(outer: PlatformDefaultsProps, inner: PlatformDefaultsProps): PlatformDefaultsProps {
  return {
    nodeSelector: mergeMaps(outer.nodeSelector, inner.nodeSelector),
    tolerations: unique([...(outer.tolerations ?? []), ...(inner.tolerations ?? [])]),
    priorityClassName: inner.priorityClassName ?? outer.priorityClassName,
    queue: inner.queue ?? outer.queue,
    imagePullSecrets: unique([...(outer.imagePullSecrets ?? []), ...(inner.imagePullSecrets ?? [])]),
    labels: mergeMaps(outer.labels, inner.labels),
    podAnnotations: mergeMaps(outer.podAnnotations, inner.podAnnotations),
    security: inner.security ?? outer.security,
  };
}

/** Later maps win key by key; undefined when both are empty. */
export function mergeMaps(...maps: Array<{ [key: string]: string } | undefined>): { [key: string]: string } | undefined {
  const out: { [key: string]: string } = {};
  for (const m of maps) Object.assign(out, m ?? {});
  return Object.keys(out).length ? out : undefined;
}

/** Keeps the first of equal items (compared as JSON). */
export function unique<T>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter(i => {
    const key = JSON.stringify(i);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
