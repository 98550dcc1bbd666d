import { didYouMean, quotedList, refuseValue, typoOf } from './internal/parse-value';
import { Finding, finding } from '../rules/finding';

/** The accelerators the library names, with their resource names (as the factories above write them). */
const KNOWN_ACCELERATORS: ReadonlyArray<readonly [string, string]> = [['nvidia', 'nvidia.com/gpu'], ['amd', 'amd.com/gpu'], ['intel', 'gpu.intel.com/i915']];

/** An extended resource name: an optional DNS-subdomain prefix and a qualified name. */
const EXTENDED_RESOURCE = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * An extended resource that a pod asks for in whole units: GPUs from NVIDIA, AMD or Intel, or any
 * device plugin's resource. It is written as a limit with an equal request, because Kubernetes
 * rejects extended resources that are requested without a limit.
 */
export class Accelerator {
  /**
   * NVIDIA GPUs (`nvidia.com/gpu`).
   *
   * @param count how many GPUs each pod needs
   */
  public static nvidia(count: number): Accelerator {
    return new Accelerator('nvidia.com/gpu', count);
  }

  /**
   * AMD GPUs (`amd.com/gpu`).
   *
   * @param count how many GPUs each pod needs
   */
  public static amd(count: number): Accelerator {
    return new Accelerator('amd.com/gpu', count);
  }

  /**
   * Intel GPUs (`gpu.intel.com/i915`).
   *
   * @param count how many GPUs each pod needs
   */
  public static intel(count: number): Accelerator {
    return new Accelerator('gpu.intel.com/i915', count);
  }

  /**
   * Any extended resource, for example `habana.ai/gaudi` or `aws.amazon.com/neuron`.
   *
   * @param resourceName the resource name the device plugin advertises
   * @param count how many the pod needs
   */
  public static custom(resourceName: string, count: number): Accelerator {
    return new Accelerator(resourceName, count);
  }

  /**
   * The accelerator a configuration file names: the library's names (`nvidia`, `amd`, `intel`),
   * their resource names (`nvidia.com/gpu`, `amd.com/gpu`, `gpu.intel.com/i915`), or another
   * device plugin's extended resource name with its domain (`habana.ai/gaudi`). A name close to a
   * known one but not equal (`nvidia.com/gpus`, `nvida`) is refused as a likely typo, with the
   * known name suggested; write such a resource with `Accelerator.custom`.
   *
   * The count is checked here too (a whole number, 1 or more), and a bad one is refused with the
   * key it came from: `countKey` when given, else the accelerator's key.
   *
   * @param value a name or an extended resource name
   * @param count how many each pod needs
   * @param key the configuration key the value came from, named in the error (such as `workers.accelerator`)
   * @param countKey the configuration key the count came from (such as `workers.gpus`); without it, a bad count is named as `count of <key>` (or `count` when no key is given either)
   */
  public static parse(value: string, count: number, key?: string, countKey?: string): Accelerator {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
      refuseValue('Accelerator.parse', countKey ?? (key === undefined ? 'count' : `count of ${key}`), count, 'expected a whole number of devices, 1 or more');
    }
    const known = KNOWN_ACCELERATORS.find(([name, resource]) => value === name || value === resource);
    if (known) return new Accelerator(known[1], count);
    const names = KNOWN_ACCELERATORS.flatMap(([name, resource]) => [name, resource]);
    // A resource name of another vendor may share most letters with a known one (`xyz.com/gpu`):
    // only one or two edits away is taken for a typo.
    const typo = typoOf(value, names, 2);
    if (!typo && value.includes('/') && EXTENDED_RESOURCE.test(value)) return new Accelerator(value, count);
    const guess = typo ? `: did you mean ${JSON.stringify(typo)}?` : didYouMean(value, names);
    return refuseValue('Accelerator.parse', key, value,
      `expected ${quotedList(KNOWN_ACCELERATORS.map(([name]) => name))}, one of their resource names ${quotedList(KNOWN_ACCELERATORS.map(([, resource]) => resource))}, or another extended resource name with its domain such as "habana.ai/gaudi"${guess}`);
  }

  /**
   * @param resourceName the extended resource name
   * @param count devices per pod; the construct that uses it checks that it is a whole number above 0
   */
  private constructor(public readonly resourceName: string, public readonly count: number) {}

  /**
   * What is wrong with this accelerator, if anything: the resource name must be a qualified
   * extended resource name and the count a whole number above 0.
   * @internal
   */
  public _finding(field: string): Finding | undefined {
    const shown = `${this.resourceName} x ${this.count}`;
    if (typeof this.resourceName !== 'string' || !EXTENDED_RESOURCE.test(this.resourceName) || !this.resourceName.includes('/')) {
      return finding(field, shown, `expected a qualified extended resource name such as "vendor.com/device" (got "${this.resourceName}")`);
    }
    if (!Number.isInteger(this.count) || this.count < 1) {
      return finding(field, shown, `expected a whole number of devices greater than 0 (got ${this.count})`);
    }
    return undefined;
  }
}
