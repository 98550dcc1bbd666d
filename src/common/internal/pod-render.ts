import type { PlatformDefaultsProps } from '../defaults';
import type { RoleOptions } from '../replica-options';
import type { RestartPolicy } from '../run-policy';
import type { PodSecurity } from '../security';

/*
 * What a job tells its replica groups: the framework's container, the group's count rules, and,
 * when it renders, the settings that come from the job and the platform. Internal plumbing.
 */

/** Facts about the framework's container that the job passes to a replica group. */
export interface FrameworkContainer {
  /** The container name the operator looks for. */
  readonly containerName: string;
  /** The port the operator wires up, if any. */
  readonly port?: number;
  /** The port's name, if any. */
  readonly portName?: string;
  /** Restart policy when none is given. */
  readonly defaultRestartPolicy: RestartPolicy;
}

/**
 * How many pods a replica type may have, declared once where the group is made and enforced by
 * `scale()` and at synth: `min` and `max` inclusive, and why (the operator's rule).
 */
export interface ReplicaCountRule {
  readonly min: number;
  readonly max?: number;
  /** Completes `expected ...`, e.g. `1: a PyTorchJob has exactly one Master`. */
  readonly expected: string;
}

/** A replica group's settings: its role options, the framework container, pod count and its rule. */
export interface ReplicaGroupSettings extends RoleOptions {
  readonly framework: FrameworkContainer;
  /** Number of pods (default 1). */
  readonly replicas?: number;
  /** The count rule of this replica type (default: any whole number of 0 or more). */
  readonly count?: ReplicaCountRule;
  /**
   * Whether the platform's RDMA devices apply (default true); false for a role whose resources
   * are its own, such as the MPI launcher.
   */
  readonly platformRdma?: boolean;
  /**
   * Why `scale()` is refused, for a group whose pod count another setting owns (a training
   * runtime's nodes are its numNodes, its launcher and initializers run one pod each); default:
   * scale() sets the count.
   */
  readonly scaleRefused?: string;
}

/** What the job passes down when it renders its pods. */
export interface PodRenderContext {
  /** Platform defaults that apply to the job. */
  readonly defaults: PlatformDefaultsProps;
  /** Labels every pod carries from the platform, with the job's own value where it set the same key. */
  readonly podDefaultLabels?: { [key: string]: string };
  /** The security preset in force. */
  readonly security: PodSecurity;
  /** Keep Istio sidecars (they keep pods running after the main container exits). */
  readonly istioSidecar: boolean;
  /** The gang scheduler's name, if any. */
  readonly schedulerName?: string;
}
