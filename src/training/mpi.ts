import { Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { TrainingKind, trainingKind } from './internal/training-kind';
import { TrainingJob, TrainingJobProps } from './training-job';
import * as kubeflow from '../../imports/kubeflow';
import { isLabel } from '../common/internal/names';
import { FrameworkContainer } from '../common/internal/pod-render';
import { ReplicaGroup } from '../common/replica';
import { RoleOptions } from '../common/replica-options';
import { CleanPodPolicy, RestartPolicy } from '../common/run-policy';
import { MPI_JOB } from '../kinds/training-operator';
import { Finding, finding } from '../rules/finding';
import { operatorCountsAsGpu } from '../rules/kubernetes/accelerator-facts';
import { checkCount, fail } from '../synth/report';
import { lazy } from '../util/lazy';

/** The operator's reading of mpirun's process count (a rule module), loaded by the first MPI job. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mpiProcesses = lazy(() => require('../rules/training-operator/mpi-processes') as typeof import('../rules/training-operator/mpi-processes'));

/** Options of the MPI launcher, the pod that runs `mpirun`. */
export interface MpiLauncherOptions extends RoleOptions {
  /**
   * Name of the launcher's container.
   * @default - the job's `mainContainer`
   */
  readonly containerName?: string;
}

/**
 * An MPI allreduce job (Horovod, NCCL, plain MPI): one launcher that runs `mpirun`, and workers
 * that host the processes.
 */
export interface MpiAllReduceProps extends TrainingJobProps {
  /**
   * Worker pods. Each gets `slotsPerWorker` processes.
   * @default 1
   */
  readonly workers?: number;
  /**
   * Options of the workers only.
   * @default - the job's options
   */
  readonly worker?: RoleOptions;
  /**
   * Options of the launcher only. The launcher does not take the job's `resources`, which describe a
   * worker: it gets no accelerator (so no GPU limit and no GPU toleration) and no CPU or memory
   * unless given here. Its service account is the one the operator makes for it.
   * @default - the job's options, without resources
   */
  readonly launcher?: MpiLauncherOptions;
  /**
   * Processes per worker (`spec.slotsPerWorker`, the `slots=` of the hostfile).
   * @default - the accelerators per worker, else 1
   */
  readonly slotsPerWorker?: number;
  /**
   * The program every MPI process runs, such as `['python', '/workspace/train.py']`. The launcher
   * command is then built as `mpirun -np <processes> --allow-run-as-root -bind-to none -map-by slot
   * -x NCCL_DEBUG=INFO -x LD_LIBRARY_PATH -x PATH -mca pml ob1 -mca btl ^openib <mpirunArgs>
   * <trainingCommand>`, where processes is workers x slotsPerWorker (plus one host's slots when the
   * launcher has GPUs, since the operator then lists it in the hostfile too).
   * @default - no generated command; see `launcherCommand`
   */
  readonly trainingCommand?: string[];
  /**
   * Extra `mpirun` flags, placed after the standard ones and before `trainingCommand`.
   * @default - none
   */
  readonly mpirunArgs?: string[];
  /**
   * The launcher's whole command, in place of the generated one (for `horovodrun`, a wrapper
   * script, or other `mpirun` flags). Its `-np` is still checked against the slots the workers have.
   * @default - built from `trainingCommand`, else the image's entrypoint
   */
  readonly launcherCommand?: string[];
  /**
   * Name of the workers' container, which the launcher execs into (`spec.mainContainer`); also the
   * launcher's container name unless `launcher.containerName` is given.
   * @default "mpi"
   */
  readonly mainContainer?: string;
}

/** The container the operator's defaults name (`spec.mainContainer` unset). */
const DEFAULT_CONTAINER = MPI_JOB.container;
const ONE_LAUNCHER = { min: 1, max: 1, expected: '1: an MPIJob has exactly one launcher' };
/**
 * The v1 operator adds a `kubectl-delivery` init container to the launcher in code
 * (`newLauncher`, pkg/controller.v1/mpi), without a security context and without a template a
 * platform could replace, so the restricted standard cannot hold for the launcher.
 */
const NOT_RESTRICTABLE = 'expected PodSecurity.DEFAULT: the training operator adds its kubectl-delivery init container to the MPI launcher without a security context, so a namespace that enforces the "restricted" Pod Security Standard refuses the launcher whatever the job sets; run the job in a baseline namespace (harden its containers with securityContext) or use Trainer v2\'s MPI runtime';

/** The flags the generated `mpirun` passes before the user's own. */
const MPIRUN_FLAGS = [
  '--allow-run-as-root',
  '-bind-to', 'none',
  '-map-by', 'slot',
  '-x', 'NCCL_DEBUG=INFO',
  '-x', 'LD_LIBRARY_PATH',
  '-x', 'PATH',
  '-mca', 'pml', 'ob1',
  '-mca', 'btl', '^openib',
];


/**
 * An MPIJob (`kubeflow.org/v1`, the Training Operator's own; not the mpi-operator's v2beta1): exactly
 * one `Launcher` and any number of `Worker`s. Workers idle (the operator runs `sleep` when they have
 * no command) until the launcher's `mpirun` execs the processes into them, so the job ends when the
 * launcher does and defaults to `cleanPodPolicy: Running` to stop the idle workers.
 *
 * The launcher stays CPU-only unless given accelerators; the operator then also hides GPUs from it
 * (NVIDIA_VISIBLE_DEVICES=""). `slotsPerWorker` follows the accelerators per worker. The v1 MPIJob has
 * no admission webhook, so a launcher command whose `-np` exceeds the slots fails at synth time here.
 */
export class MpiAllReduce extends TrainingJob {
  /** The launcher, the one pod that runs `mpirun`. */
  public readonly launcher: ReplicaGroup;
  /** The workers, absent when the job has none. */
  public readonly worker?: ReplicaGroup;

  private readonly props: MpiAllReduceProps;
  private readonly slots: number;
  private readonly mainContainerName: string;

  /**
   * @param scope the construct this job belongs to
   * @param id the job's construct id, unique within `scope`
   * @param props the workers and their slots, the launcher's command and the options of every pod
   */
  public constructor(scope: Construct, id: string, props: MpiAllReduceProps) {
    super(scope, id, props);
    this.props = props;
    checkCount(this, 'workers', props.workers, 0);
    checkCount(this, 'slotsPerWorker', props.slotsPerWorker, 1);
    const workers = props.workers ?? 1;
    const launcher = props.launcher ?? {};

    this.mainContainerName = props.mainContainer ?? DEFAULT_CONTAINER;
    checkContainerName(this, 'mainContainer', this.mainContainerName);
    const launcherContainer = launcher.containerName ?? this.mainContainerName;
    checkContainerName(this, 'launcher.containerName', launcherContainer);

    if (props.command) {
      fail(this, 'command', props.command, 'expected trainingCommand (the program mpirun starts on the workers) or launcherCommand; a job-wide command would also replace the idle process of the workers that the launcher execs into');
    }
    if (props.args) {
      fail(this, 'args', props.args, 'expected trainingCommand or launcherCommand; job-wide arguments would reach the workers too');
    }
    if (props.trainingCommand && props.launcherCommand) {
      fail(this, 'launcherCommand', props.launcherCommand, 'expected either trainingCommand or launcherCommand, not both');
    }
    if (props.trainingCommand?.length === 0) fail(this, 'trainingCommand', props.trainingCommand, 'expected the program and its arguments');
    if (props.launcherCommand?.length === 0) fail(this, 'launcherCommand', props.launcherCommand, 'expected the program and its arguments');
    const npFlag = props.mpirunArgs?.map(a => a.split('=')[0]).find(a => mpiProcesses().NP_FLAGS.includes(a));
    if (npFlag) {
      fail(this, 'mpirunArgs', props.mpirunArgs, `expected no ${npFlag}: with trainingCommand the launcher runs mpirun -np <workers x slotsPerWorker>, which follows scale(); a second ${npFlag} would contradict it`);
    }
    if (props.mpirunArgs && !props.trainingCommand) {
      fail(this, 'mpirunArgs', props.mpirunArgs, 'expected only together with trainingCommand; put the flags into launcherCommand instead');
    }
    if ((props.trainingCommand || props.launcherCommand) && (launcher.command || launcher.args)) {
      const field = launcher.command ? 'launcher.command' : 'launcher.args';
      fail(this, field, launcher.command ?? launcher.args, `expected none when ${props.trainingCommand ? 'trainingCommand' : 'launcherCommand'} gives the launcher's command`);
    }
    if (launcher.serviceAccount) {
      fail(this, 'launcher.serviceAccount', launcher.serviceAccount.name, `expected none: the operator runs the launcher as its own account "${this.name}-launcher", which may exec into the workers`);
    }
    if (workers === 0 && props.worker) {
      fail(this, 'worker', 'set', 'expected no worker options when workers is 0');
    }

    const workerRole = props.worker ?? {};
    this.slots = props.slotsPerWorker ?? (workerRole.resources ?? props.resources)?.accelerator?.count ?? 1;

    const launcherRole: RoleOptions = Object.fromEntries(Object.entries(launcher).filter(([key]) => key !== 'containerName'));
    const command = props.trainingCommand ? ['mpirun'] : props.launcherCommand ?? launcher.command;
    const args = props.trainingCommand
      ? ['-np', Lazy.any({ produce: () => String(this.processes()) }) as unknown as string, ...MPIRUN_FLAGS, ...props.mpirunArgs ?? [], ...props.trainingCommand]
      : launcher.args;
    this.launcher = this._addReplicaGroup('Launcher', {
      ...launcherRole,
      replicas: 1,
      command,
      args,
      // Job-wide resources and shared memory describe a worker; the launcher has only its own.
      resources: launcher.resources ?? {},
      sharedMemory: launcher.sharedMemory,
      // The operator sets this account on the launcher pod whatever the template says, and the
      // launcher needs its token to exec into the workers; naming it keeps the token mounted.
      serviceAccount: kplus.ServiceAccount.fromServiceAccountName(this, 'LauncherServiceAccount', `${this.name}-launcher`),
    }, ONE_LAUNCHER, framework(launcherContainer), { ownResources: true });
    if (workers > 0) {
      this.worker = this._addReplicaGroup('Worker', { ...workerRole, replicas: workers }, undefined, framework(this.mainContainerName));
    }
  }

  /** Processes per worker, as written to `spec.slotsPerWorker`. */
  public get slotsPerWorker(): number {
    return this.slots;
  }

  /** @internal */
  protected _withKindDefaults(props: TrainingJobProps): TrainingJobProps {
    return withCleanPodDefault(props as MpiAllReduceProps);
  }

  /** @internal */
  protected _kind(): TrainingKind {
    return trainingKind(MPI_JOB, { notRestrictable: NOT_RESTRICTABLE });
  }

  /** @internal */
  protected _renderKindSpec(): { [field: string]: any } {
    // The deprecated top-level cleanPodPolicy is never written; runPolicy.cleanPodPolicy wins anyway.
    const spec: Omit<kubeflow.MpiJobSpec, 'mpiReplicaSpecs'> = {
      slotsPerWorker: this.slots,
      mainContainer: this.mainContainerName,
    };
    return spec;
  }

  /** @internal */
  protected _validateKind(): Finding[] {
    // The launcher's environment the operator sets (training-operator/injected-env,
    // training-operator/mpi-launcher-gpu-env) and a `-np` above the hostfile's slots in a command the user
    // wrote (training-operator/mpi-np) are the document rules'. With trainingCommand the construct writes
    // `-np` itself, so only it can say that the count it derives is 0.
    if (this.props.trainingCommand && this.processes() < 1) {
      return [finding('workers', this.worker?.replicas ?? 0, 'expected at least 1 with trainingCommand: mpirun -np would be 0')];
    }
    return [];
  }

  /** @internal */
  protected _propOf(field: string): string | undefined {
    // The launcher's command line is launcherCommand, or the launcher role's own command and args.
    const at = `spec.mpiReplicaSpecs.Launcher.template.spec.containers[${this.launcher.mainContainer.name}]`;
    if (field === `${at}.command`) return this.props.launcherCommand ? 'launcherCommand' : this.props.launcher?.command ? 'launcher.command' : undefined;
    if (field === `${at}.args`) return this.props.launcher?.args ? 'launcher.args' : undefined;
    return undefined;
  }

  /** Every slot of the hostfile: the workers', and the launcher's when it has GPUs. */
  private processes(): number {
    return ((this.worker?.replicas ?? 0) + (this.gpuLauncher() ? 1 : 0)) * this.slots;
  }

  /** The operator's own test: a launcher that asks for GPUs is listed in the hostfile too. */
  private gpuLauncher(): boolean {
    const name = this.launcher.accelerator?.resourceName;
    return name !== undefined && operatorCountsAsGpu(name);
  }
}

/** The container facts of an MPI role: any name, no port, restarts Never. */
function framework(containerName: string): FrameworkContainer {
  return { containerName, defaultRestartPolicy: RestartPolicy.NEVER };
}

function checkContainerName(scope: Construct, field: string, name: string): void {
  if (!isLabel(name)) {
    fail(scope, field, name, 'expected a container name: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit');
  }
}

/** Idle workers outlive the launcher: delete them when it ends, unless told otherwise. */
function withCleanPodDefault(props: MpiAllReduceProps): MpiAllReduceProps {
  if (props.runPolicy?.cleanPodPolicy) return props;
  return { ...props, runPolicy: { ...props.runPolicy, cleanPodPolicy: CleanPodPolicy.RUNNING } };
}
