import { Finding, finding } from '../rules/finding';
import { SSH_PATH_TEXT } from '../rules/trainer/names';
import { countFinding } from '../synth/report';

/** Options of the MPI policy (OpenMPI, the only implementation Trainer v2.3 supports). */
export interface MpiPolicyOptions {
  /**
   * MPI slots (processes) per node, `mlPolicy.mpi.numProcPerNode`; usually the GPUs per node.
   * @default - the controller's default (1)
   */
  readonly slotsPerWorker?: number;
  /**
   * Where the controller mounts the generated SSH keys in every node and launcher container.
   * @default - the controller's default (/root/.ssh)
   */
  readonly sshAuthMountPath?: string;
  /**
   * The launcher also runs training processes, as one of the nodes.
   * @default false
   */
  readonly runLauncherAsNode?: boolean;
}

/** Options of the Flux policy. */
export interface FluxPolicyOptions {
  /**
   * Flux tasks per node.
   * @default - the controller's default (1)
   */
  readonly numProcPerNode?: number;
}

/**
 * The framework a runtime trains with (`spec.mlPolicy`): it decides what the Trainer controller
 * injects (torchrun's PET_* variables, the MPI hostfile and SSH keys, the JAX coordinator, the
 * XGBoost tracker, the Flux broker). One of them per runtime.
 */
export class MlPolicy {
  /** PyTorch through torchrun (the `torch` policy). */
  public static torch(): MlPolicy {
    return new MlPolicy('torch', {});
  }

  /**
   * MPI (OpenMPI): a launcher runs `mpirun` over SSH on the nodes; the runtime gets a `launcher`
   * and a `node` replicated job.
   *
   * @param options slots per node, the SSH key mount path and whether the launcher is a node
   */
  public static mpi(options: MpiPolicyOptions = {}): MlPolicy {
    return new MlPolicy('mpi', {
      numProcPerNode: options.slotsPerWorker,
      mpiImplementation: 'OpenMPI',
      sshAuthMountPath: options.sshAuthMountPath,
      runLauncherAsNode: options.runLauncherAsNode,
    }, options.slotsPerWorker, options.runLauncherAsNode ?? false);
  }

  /** JAX multi-process training (the controller sets the coordinator address and process ids). */
  public static jax(): MlPolicy {
    return new MlPolicy('jax', {});
  }

  /** XGBoost with the Rabit tracker (the controller sets the DMLC_* variables). */
  public static xgboost(): MlPolicy {
    return new MlPolicy('xgboost', {});
  }

  /**
   * Flux Framework, which the controller installs into the node pods for HPC-style jobs.
   *
   * @param options tasks per node
   */
  public static flux(options: FluxPolicyOptions = {}): MlPolicy {
    return new MlPolicy('flux', { numProcPerNode: options.numProcPerNode }, options.numProcPerNode);
  }

  private constructor(
    /** The policy's field under `spec.mlPolicy` (`torch`, `mpi`, `jax`, `xgboost`, `flux`). */
    public readonly framework: string,
    private readonly settings: { [key: string]: unknown },
    private readonly procs?: number,
    /** The MPI launcher also trains (false for every other policy). */
    public readonly runLauncherAsNode: boolean = false) {}

  /** True for MPI, whose runtimes have a launcher. */
  public get isMpi(): boolean {
    return this.framework === 'mpi';
  }

  /** The policy's own settings, as written under `spec.mlPolicy.<framework>`. @internal */
  public _render(): { [key: string]: unknown } {
    return Object.fromEntries(Object.entries(this.settings).filter(([, v]) => v !== undefined));
  }

  /** Processes per node the policy fixes, if any. @internal */
  public get _processesPerNode(): number | undefined {
    return this.procs;
  }

  /** What is wrong with the policy's numbers. @internal */
  public _findings(): Finding[] {
    const f = countFinding(`mlPolicy.${this.framework}.${this.framework === 'mpi' ? 'slotsPerWorker' : 'numProcPerNode'}`, this.procs, 1);
    const path = this.settings.sshAuthMountPath;
    const out = f ? [f] : [];
    // Only an empty path never mounts; the kubelet mounts a relative one under "/" (trainer/ssh-auth-mount-path).
    if (path === '') out.push(finding('mlPolicy.mpi.sshAuthMountPath', path, SSH_PATH_TEXT));
    return out;
  }
}
