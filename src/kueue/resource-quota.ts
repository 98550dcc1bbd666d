import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import * as kueue from '../../imports/kueue';
import { Accelerator } from '../common/accelerator';
import { sizeQuantity } from '../common/internal/quantities';

/**
 * How much of one resource a ClusterQueue has in one flavor: the nominal quota, and how much more
 * it may borrow from its cohort and how much of its quota it may lend (both need a cohort). CPU
 * and sizes are written as Kubernetes quantities, accelerators by their resource name, as the jobs
 * write them, so a queue's quota and a job's request name a resource alike.
 */
export class ResourceQuota {
  /**
   * CPU (`cpu`).
   *
   * @param nominal the quota
   * @param borrowingLimit how much more the queue may borrow from its cohort (default: no limit)
   * @param lendingLimit how much of its quota the queue may lend to its cohort (default: all of it)
   */
  public static cpu(nominal: kplus.Cpu, borrowingLimit?: kplus.Cpu, lendingLimit?: kplus.Cpu): ResourceQuota {
    return new ResourceQuota('cpu', nominal.amount, borrowingLimit?.amount, lendingLimit?.amount);
  }

  /**
   * Memory (`memory`), written in Gi, or Mi for a size that is not whole gibibytes.
   *
   * @param nominal the quota
   * @param borrowingLimit how much more the queue may borrow from its cohort (default: no limit)
   * @param lendingLimit how much of its quota the queue may lend to its cohort (default: all of it)
   */
  public static memory(nominal: Size, borrowingLimit?: Size, lendingLimit?: Size): ResourceQuota {
    return ResourceQuota.sized('memory', nominal, borrowingLimit, lendingLimit);
  }

  /**
   * Local ephemeral storage (`ephemeral-storage`).
   *
   * @param nominal the quota
   * @param borrowingLimit how much more the queue may borrow from its cohort (default: no limit)
   * @param lendingLimit how much of its quota the queue may lend to its cohort (default: all of it)
   */
  public static ephemeralStorage(nominal: Size, borrowingLimit?: Size, lendingLimit?: Size): ResourceQuota {
    return ResourceQuota.sized('ephemeral-storage', nominal, borrowingLimit, lendingLimit);
  }

  /**
   * Accelerators: the resource name and count of an `Accelerator` (`Accelerator.nvidia(64)` is a
   * quota of 64 `nvidia.com/gpu`).
   *
   * @param nominal the accelerator and how many the queue has
   * @param borrowingLimit how many more the queue may borrow from its cohort (default: no limit)
   * @param lendingLimit how many of its own the queue may lend to its cohort (default: all of them)
   */
  public static accelerator(nominal: Accelerator, borrowingLimit?: number, lendingLimit?: number): ResourceQuota {
    return new ResourceQuota(nominal.resourceName, nominal.count, borrowingLimit, lendingLimit);
  }

  /**
   * Pods (`pods`): how many pods the queue's admitted jobs may have at once.
   *
   * @param nominal the quota
   * @param borrowingLimit how many more the queue may borrow from its cohort (default: no limit)
   * @param lendingLimit how many of its own the queue may lend to its cohort (default: all of them)
   */
  public static pods(nominal: number, borrowingLimit?: number, lendingLimit?: number): ResourceQuota {
    return new ResourceQuota('pods', nominal, borrowingLimit, lendingLimit);
  }

  /**
   * Any other resource, with its amounts as Kubernetes quantities (`"100"`, `"1500m"`, `"2Ti"`).
   *
   * @param resourceName the resource name, such as `example.com/license`
   * @param nominal the quota
   * @param borrowingLimit how much more the queue may borrow from its cohort (default: no limit)
   * @param lendingLimit how much of its quota the queue may lend to its cohort (default: all of it)
   */
  public static custom(resourceName: string, nominal: string, borrowingLimit?: string, lendingLimit?: string): ResourceQuota {
    return new ResourceQuota(resourceName, nominal, borrowingLimit, lendingLimit);
  }

  private static sized(name: string, nominal: Size, borrowingLimit?: Size, lendingLimit?: Size): ResourceQuota {
    return new ResourceQuota(name, sizeQuantity(nominal), borrowingLimit && sizeQuantity(borrowingLimit), lendingLimit && sizeQuantity(lendingLimit));
  }

  private constructor(
    /** The resource name (`cpu`, `memory`, `nvidia.com/gpu`, ...). */
    public readonly resourceName: string,
    private readonly nominal: string | number,
    private readonly borrowingLimit?: string | number,
    private readonly lendingLimit?: string | number) {}

  /**
   * The quota as a ClusterQueue's or a Cohort's manifest writes it.
   * @internal
   */
  public _render(): kueue.ResourceGroupFlavorsResources {
    return {
      name: this.resourceName,
      nominalQuota: quantity(this.nominal),
      borrowingLimit: this.borrowingLimit === undefined ? undefined : quantity(this.borrowingLimit),
      lendingLimit: this.lendingLimit === undefined ? undefined : quantity(this.lendingLimit),
    };
  }
}

function quantity(amount: string | number): k8s.Quantity {
  return typeof amount === 'number' ? k8s.Quantity.fromNumber(amount) : k8s.Quantity.fromString(amount);
}
