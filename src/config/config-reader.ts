import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Accelerator } from '../common/accelerator';
import { refusedFinding, refusedValue } from '../common/internal/parse-value';
import { NcclDebug, RdmaDevice } from '../common/networking';
import { NodeHealth } from '../common/node-health';
import { Parse } from '../common/parse';
import { CleanPodPolicy, ManagedBy, RestartPolicy } from '../common/run-policy';
import { GangScheduler } from '../common/scheduling';
import { PodSecurity } from '../common/security';
import { PreemptionPolicy } from '../kueue/preemption-policy';
import { QueueingStrategy } from '../kueue/queueing-strategy';
import { FilterScope } from '../notebooks/workspace-activity';
import { RedirectLevel } from '../notebooks/workspace-options';
import { Finding, describe, finding } from '../rules/finding';
import { PaddleMode } from '../training/paddle';
import { NprocPerNode, RendezvousBackend } from '../training/pytorch';
import { SuccessPolicy } from '../training/tensorflow';
import { userError } from '../util/user-error';

/**
 * Reads a configuration file's values and reports every refused one together, instead of stopping
 * at the first. Its methods mirror the `parse` functions (`Parse.cpu`, `Parse.size`,
 * `RestartPolicy.parse`, ...) and take the same spellings, but a value they refuse is recorded,
 * with the key it came from, and the method returns nothing (`undefined`), so that the template
 * goes on reading the rest of the config and building its constructs with the prop unset.
 *
 * The reader is a construct of the app: at synth, what it recorded is reported with the
 * constructs' own findings, in cdk8s's one list of errors, and nothing is written. A template
 * that wants to stop before building anything calls `check()`, which throws one error listing
 * every refused value.
 *
 * A value that is not in the config (`undefined` or `null`) is no mistake: the method returns
 * nothing and records nothing. Methods take any value (`any`), since a parsed YAML or JSON file
 * may hold a number where a string was meant (`restartPolicy: 1`), which is recorded as a mistake
 * of the config rather than thrown.
 *
 * @example
 * const app = new App();
 * const config = new ConfigReader(app, 'config');
 * const memory = config.size(job.memory, 'teams.vision.jobs[0].memory');
 * const cpu = config.cpu(job.cpu, 'teams.vision.jobs[0].cpu');
 * // ... build the constructs with the values read ...
 * app.synth(); // refuses every mistake of the config, and of the constructs, in one report
 */
export class ConfigReader extends Construct {
  private readonly refused: Finding[] = [];

  /**
   * @param scope the app (or a chart): the reader's findings are reported when it is synthesized
   * @param id the reader's id, such as `config`
   */
  public constructor(scope: Construct, id: string) {
    super(scope, id);
    this.node.addValidation({ validate: () => this.errors });
  }

  /**
   * Each refused value, as `<key> is <value>; expected ...`, in the order they were read.
   */
  public get errors(): string[] {
    return this.refused.map(describe);
  }

  /**
   * Throws one error listing every refused value, if there is one; otherwise does nothing.
   */
  public check(): void {
    const errors = this.errors;
    if (errors.length === 0) return;
    const mistakes = errors.length === 1 ? '1 mistake' : `${errors.length} mistakes`;
    const message = `${this.node.path}: the configuration has ${mistakes}:\n  ${errors.join('\n  ')}`;
    throw userError(message);
  }

  /**
   * CPU, as `Parse.cpu` reads it: `500m`, `2`, `1.5`.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public cpu(value: any, key: string): kplus.Cpu | undefined {
    return this.read(value, () => Parse.cpu(value, key));
  }

  /**
   * A size of memory or storage, as `Parse.size` reads it: `512Mi`, `16Gi`.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public size(value: any, key: string): Size | undefined {
    return this.read(value, () => Parse.size(this.text(value, key, 'a size such as "16Gi"'), key));
  }

  /**
   * A duration, as `Parse.duration` reads it: `90m`, `1h30m`, `1d`.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public duration(value: any, key: string): Duration | undefined {
    return this.read(value, () => Parse.duration(this.text(value, key, 'a duration such as "90m"'), key));
  }

  /**
   * A whole number no smaller than `minimum`, as `Parse.count` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   * @param minimum the smallest count allowed; 0 when not given
   */
  public count(value: any, key: string, minimum?: number): number | undefined {
    return this.read(value, () => Parse.count(value, key, minimum));
  }

  /**
   * An accelerator, as `Accelerator.parse` reads it, with its count (a whole number, 1 or more).
   *
   * @param value the config's accelerator name
   * @param count the config's count of devices per pod (a number, or its digits as text)
   * @param key the configuration key of the name
   * @param countKey the configuration key of the count; without it, a bad count is named as `count of <key>`
   */
  public accelerator(value: any, count: any, key: string, countKey?: string): Accelerator | undefined {
    return this.read(value, () => {
      // Both are read, so a bad name and a bad count are two findings.
      const name = this.read(value, () => Accelerator.parse(this.text(value, key, 'an accelerator such as "nvidia"'), 1, key));
      const devices = this.read(count, () => Parse.count(count, countKey ?? `count of ${key}`, 1)) ?? (count === undefined || count === null ? 1 : undefined);
      return name && devices !== undefined ? Accelerator.custom(name.resourceName, devices) : undefined;
    });
  }

  /**
   * A RestartPolicy, as `RestartPolicy.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public restartPolicy(value: any, key: string): RestartPolicy | undefined {
    return this.read(value, () => RestartPolicy.parse(this.text(value, key), key));
  }

  /**
   * A CleanPodPolicy, as `CleanPodPolicy.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public cleanPodPolicy(value: any, key: string): CleanPodPolicy | undefined {
    return this.read(value, () => CleanPodPolicy.parse(this.text(value, key), key));
  }

  /**
   * A ManagedBy, as `ManagedBy.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public managedBy(value: any, key: string): ManagedBy | undefined {
    return this.read(value, () => ManagedBy.parse(this.text(value, key), key));
  }

  /**
   * A RdmaDevice, as `RdmaDevice.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public rdmaDevice(value: any, key: string): RdmaDevice | undefined {
    return this.read(value, () => RdmaDevice.parse(this.text(value, key), key));
  }

  /**
   * A NcclDebug, as `NcclDebug.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public ncclDebug(value: any, key: string): NcclDebug | undefined {
    return this.read(value, () => NcclDebug.parse(this.text(value, key), key));
  }

  /**
   * A NodeHealth, as `NodeHealth.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public nodeHealth(value: any, key: string): NodeHealth | undefined {
    return this.read(value, () => NodeHealth.parse(this.text(value, key), key));
  }

  /**
   * A GangScheduler, as `GangScheduler.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public gangScheduler(value: any, key: string): GangScheduler | undefined {
    return this.read(value, () => GangScheduler.parse(this.text(value, key), key));
  }

  /**
   * A PodSecurity, as `PodSecurity.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public podSecurity(value: any, key: string): PodSecurity | undefined {
    return this.read(value, () => PodSecurity.parse(this.text(value, key), key));
  }

  /**
   * A FilterScope, as `FilterScope.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public filterScope(value: any, key: string): FilterScope | undefined {
    return this.read(value, () => FilterScope.parse(this.text(value, key), key));
  }

  /**
   * A RedirectLevel, as `RedirectLevel.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public redirectLevel(value: any, key: string): RedirectLevel | undefined {
    return this.read(value, () => RedirectLevel.parse(this.text(value, key), key));
  }

  /**
   * A PaddleMode, as `PaddleMode.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public paddleMode(value: any, key: string): PaddleMode | undefined {
    return this.read(value, () => PaddleMode.parse(this.text(value, key), key));
  }

  /**
   * Processes per node: `auto`, `cpu`, `gpu` or a whole number (as text or as a YAML number).
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public nprocPerNode(value: any, key: string): NprocPerNode | undefined {
    // `nprocPerNode: 8` in YAML is a number; the CRD's field is a string.
    return this.read(value, () => NprocPerNode.parse(typeof value === 'number' ? String(value) : this.text(value, key), key));
  }

  /**
   * A RendezvousBackend, as `RendezvousBackend.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public rendezvousBackend(value: any, key: string): RendezvousBackend | undefined {
    return this.read(value, () => RendezvousBackend.parse(this.text(value, key), key));
  }

  /**
   * A SuccessPolicy, as `SuccessPolicy.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public successPolicy(value: any, key: string): SuccessPolicy | undefined {
    return this.read(value, () => SuccessPolicy.parse(this.text(value, key), key));
  }

  /**
   * A PreemptionPolicy, as `PreemptionPolicy.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public preemptionPolicy(value: any, key: string): PreemptionPolicy | undefined {
    return this.read(value, () => PreemptionPolicy.parse(this.text(value, key), key));
  }

  /**
   * A QueueingStrategy, as `QueueingStrategy.parse` reads it.
   *
   * @param value the config's value
   * @param key the configuration key it came from
   */
  public queueingStrategy(value: any, key: string): QueueingStrategy | undefined {
    return this.read(value, () => QueueingStrategy.parse(this.text(value, key), key));
  }

  /**
   * The value `parse` makes of a config's value; nothing for a value the config does not hold, and
   * nothing, recorded, for one it refuses. Only refusals are recorded: any other error is thrown.
   */
  private read<T>(value: unknown, parse: () => T): T | undefined {
    if (value === undefined || value === null) return undefined;
    try {
      return parse();
    } catch (error) {
      const refused = refusedFinding(error);
      if (refused === undefined) throw error;
      this.refused.push(refused);
      return undefined;
    }
  }

  /** The config's value as a string, or the refusal of a value of another type (a YAML number or boolean). */
  private text(value: unknown, key: string, what = 'a string'): string {
    if (typeof value === 'string') return value;
    throw refusedValue('ConfigReader', finding(key, value, `expected ${what}`));
  }
}
