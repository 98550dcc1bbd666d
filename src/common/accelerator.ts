import { Finding, finding } from '../rules/finding';

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
