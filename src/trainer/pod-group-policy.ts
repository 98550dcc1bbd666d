import { Duration } from 'cdk8s';
import { secondsOf, wholeSecondsFinding } from '../common/internal/durations';
import { Finding } from '../rules/finding';

/** Options of Volcano gang scheduling. */
export interface VolcanoPodGroupOptions {
  /**
   * Network topology mode of the PodGroup: `hard` keeps the pods within `highestTierAllowed`,
   * `soft` prefers it.
   * @default - no network-topology constraint
   */
  readonly networkTopologyMode?: string;
  /**
   * The highest network tier the pods may span.
   * @default - Volcano's default
   */
  readonly highestTierAllowed?: number;
}

/** Options of scheduler-plugins coscheduling. */
export interface CoschedulingOptions {
  /**
   * How long the PodGroup may wait for all its pods to be scheduled, in whole seconds.
   * @default - the controller's default (60 seconds)
   */
  readonly scheduleTimeout?: Duration;
}

/**
 * All-or-nothing scheduling of a TrainJob's pods (`spec.podGroupPolicy`): the Trainer controller
 * creates the PodGroup and sets the scheduler name on the pods.
 */
export class PodGroupPolicy {
  /**
   * The coscheduling plugin of kubernetes-sigs/scheduler-plugins.
   *
   * @param options the PodGroup's schedule timeout
   */
  public static coscheduling(options: CoschedulingOptions = {}): PodGroupPolicy {
    return new PodGroupPolicy('coscheduling', {}, options.scheduleTimeout);
  }

  /**
   * Volcano.
   *
   * @param options network topology of the PodGroup
   */
  public static volcano(options: VolcanoPodGroupOptions = {}): PodGroupPolicy {
    const topology = options.networkTopologyMode !== undefined || options.highestTierAllowed !== undefined
      ? { mode: options.networkTopologyMode, highestTierAllowed: options.highestTierAllowed }
      : undefined;
    return new PodGroupPolicy('volcano', { networkTopology: topology });
  }

  private constructor(
    /** The plugin's field under `spec.podGroupPolicy` (`coscheduling` or `volcano`). */
    public readonly plugin: string,
    private readonly settings: { [key: string]: unknown },
    private readonly timeout?: Duration) {}

  /** What is wrong with the policy's durations. @internal */
  public _findings(): Finding[] {
    const f = wholeSecondsFinding('podGroupPolicy.coscheduling.scheduleTimeout', this.timeout);
    return f ? [f] : [];
  }

  /** The policy as written under `spec.podGroupPolicy`. @internal */
  public _render(): { [key: string]: unknown } {
    const strip = (o: { [key: string]: unknown }) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    const own = strip({ ...this.settings, scheduleTimeoutSeconds: this.timeout ? secondsOf(this.timeout) : undefined });
    if (own.networkTopology) own.networkTopology = strip(own.networkTopology as { [key: string]: unknown });
    return { [this.plugin]: own };
  }
}
