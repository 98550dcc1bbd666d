import { Duration } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import * as notebooks from '../../imports/notebooks';
import { secondsOf, WHOLE_SECONDS } from '../common/internal/durations';
import { isPortId, PORT_ID_TEXT } from '../common/internal/names';
import { parseKnown } from '../common/internal/parse-value';
import { Finding, finding } from '../rules/finding';


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
   * @param options how often the probe runs
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
   * @param options how often the probe runs and how long the script may take
   */
  public static script(script: string, options: ScriptActivityProbeOptions = {}): ActivityProbe {
    return new ActivityProbe(options, { podExec: { script, timeoutSeconds: secondsOf(options.timeout ?? Duration.seconds(60)) } });
  }

  /** The port the probe uses, for a Jupyter probe. */
  public readonly portId?: string;
  private readonly interval: number;
  private readonly minInterval: number;

  private constructor(options: ActivityProbeOptions, private readonly kind: notebooks.WorkspaceKindSpecPodTemplateActivityProbe, portId?: string) {
    // Seconds, possibly fractional; _finding reports a fraction (cdk8s's toSeconds would throw here).
    this.interval = secondsOf(options.interval ?? Duration.hours(1));
    // The 5-minute default must not exceed an interval the user chose shorter.
    this.minInterval = secondsOf(options.minInterval ?? Duration.minutes(5));
    if (options.minInterval === undefined) this.minInterval = Math.min(this.minInterval, this.interval);
    this.portId = portId;
  }

  /**
   * What is wrong with the probe, if anything.
   * @internal
   */
  public _finding(): Finding | undefined {
    const script = this.kind.podExec;
    if (this.portId !== undefined && !isPortId(this.portId)) return finding('activityProbe.portId', this.portId, `expected ${PORT_ID_TEXT}`);
    if (script && (script.script.length < 1 || script.script.length > 2048)) {
      return finding('activityProbe.script', `${script.script.length} characters`, 'expected a script of 1 to 2048 characters');
    }
    if (script && !script.script.startsWith('#!')) {
      return finding('activityProbe.script', script.script.split('\n')[0], 'expected a script that starts with a shebang such as "#!/usr/bin/env bash"');
    }
    if (script && !Number.isInteger(script.timeoutSeconds)) return finding('activityProbe.timeout', `${script.timeoutSeconds}s`, WHOLE_SECONDS);
    if (script && script.timeoutSeconds! < 1) return finding('activityProbe.timeout', `${script.timeoutSeconds}s`, 'expected at least 1 second');
    for (const [field, seconds] of [['interval', this.interval], ['minInterval', this.minInterval]] as Array<[string, number]>) {
      if (!Number.isInteger(seconds)) return finding(`activityProbe.${field}`, `${seconds}s`, WHOLE_SECONDS);
      if (seconds < 1 || seconds > 31536000) return finding(`activityProbe.${field}`, `${seconds}s`, 'expected between 1 second and 365 days');
    }
    if (this.minInterval > this.interval) {
      return finding('activityProbe.minInterval', `${this.minInterval}s`, `expected at most activityProbe.interval (${this.interval}s)`);
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
  /**
   * The FilterScope a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the scope as the CRD spells it: `WORKSPACE_KIND`, `IMAGE_CONFIG` or `POD_CONFIG`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): FilterScope {
    return parseKnown('FilterScope.parse', value, key, [['WORKSPACE_KIND', FilterScope.WORKSPACE_KIND], ['IMAGE_CONFIG', FilterScope.IMAGE_CONFIG], ['POD_CONFIG', FilterScope.POD_CONFIG]], 'the filter scopes of the pinned Notebooks v2 CRD');
  }
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
