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

  /** Why this accelerator cannot be used, or undefined when it can. */
  public problems(): string | undefined {
    if (!/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(this.resourceName) || !this.resourceName.includes('/')) {
      return `expected a qualified extended resource name such as "vendor.com/device" (got "${this.resourceName}")`;
    }
    if (!Number.isInteger(this.count) || this.count < 1) {
      return `expected a whole number of devices greater than 0 (got ${this.count})`;
    }
    return undefined;
  }
}
