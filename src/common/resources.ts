import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator } from './accelerator';

/** CPU, memory, local storage and accelerators of one pod's main container. */
export interface Resources {
  /**
   * CPU, as both request and limit.
   * @default - no CPU request or limit
   */
  readonly cpu?: kplus.Cpu;
  /**
   * Memory, as both request and limit (a training process that outgrows its request is the
   * first one the kubelet evicts, so they are kept equal).
   * @default - no memory request or limit
   */
  readonly memory?: Size;
  /**
   * Local ephemeral storage, as both request and limit.
   * @default - none
   */
  readonly ephemeralStorage?: Size;
  /**
   * GPUs or other devices per pod, written as a limit with an equal request.
   * @default - none
   */
  readonly accelerator?: Accelerator;
}
