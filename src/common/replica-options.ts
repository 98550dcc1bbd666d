import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { GpuNetworking } from './networking';
import { NodeHealth } from './node-health';
import { Resources } from './resources';
import { RestartPolicy } from './run-policy';
import { Topology } from './topology';

/** What can be set for every replica type of a job, or for one of them. */
export interface ReplicaOptions {
  /**
   * Container image.
   * @default - the job's image
   */
  readonly image?: string;
  /**
   * Entrypoint of the main container.
   * @default - the job's command, else the image's entrypoint
   */
  readonly command?: string[];
  /**
   * Arguments of the main container.
   * @default - the job's arguments
   */
  readonly args?: string[];
  /**
   * Working directory of the main container.
   * @default - the image's
   */
  readonly workingDir?: string;
  /**
   * When the image is pulled.
   * @default - the cluster's default (IfNotPresent unless the tag is latest)
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;
  /**
   * Environment variables of the main container; added to the job's.
   * @default - none
   */
  readonly env?: { [name: string]: kplus.EnvValue };
  /**
   * Resources per pod.
   * @default - the job's resources
   */
  readonly resources?: Resources;
  /**
   * Size of a memory-backed volume mounted at /dev/shm. Data loaders and NCCL need more than the
   * 64 MiB that containers get otherwise.
   * @default - the job's shared memory, else none
   */
  readonly sharedMemory?: Size;
  /**
   * Node labels the pods must match; merged with the job's and the platform defaults.
   * @default - none
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Tolerations, added to the job's and the platform's.
   * @default - none (a toleration for the accelerator's own taint is added when one is requested)
   */
  readonly tolerations?: k8s.Toleration[];
  /**
   * Node and pod affinity.
   * @default - none
   */
  readonly affinity?: k8s.Affinity;
  /**
   * Service account of the pods; its token is mounted only when one is given.
   * @default - the namespace's default account, without a mounted token
   */
  readonly serviceAccount?: kplus.IServiceAccount;
  /**
   * Priority class of the pods.
   * @default - the platform default, else none
   */
  readonly priorityClassName?: string;
  /**
   * Labels on the pods.
   * @default - none
   */
  readonly podLabels?: { [key: string]: string };
  /**
   * Annotations on the pods.
   * @default - none
   */
  readonly podAnnotations?: { [key: string]: string };
  /**
   * Share the node's IPC namespace (some NCCL set-ups want it; most need only shared memory).
   * @default false
   */
  readonly hostIpc?: boolean;
  /**
   * Use the node's network namespace (for RDMA set-ups without a CNI for it).
   * @default false
   */
  readonly hostNetwork?: boolean;
  /**
   * Security context of the main container, in place of the preset's.
   * @default - from the security preset
   */
  readonly securityContext?: kplus.ContainerSecurityContextProps;
  /**
   * A pod-level restart policy. The operator overrides it with the replica's restart policy, so
   * it must equal that one; it exists to mirror manifests that spell it out. v1 jobs only: a
   * training runtime refuses it (the Trainer has no replica restart policy for it to mirror).
   * @default - none
   */
  readonly podRestartPolicy?: RestartPolicy;
  /**
   * Topology-aware placement (Kueue's per role, or the KAI scheduler's for the whole job). A
   * training runtime takes Kueue's only: the KAI scheduler reads a TrainJob's topology from the
   * TrainJob itself.
   * @default - the job's, else none
   */
  readonly topology?: Topology;
  /**
   * RDMA devices, secondary networks and NCCL settings; over the platform default field by field.
   * @default - the platform default, else none
   */
  readonly network?: GpuNetworking;
  /**
   * Nodes to stay off (a health checker's verdict), added to every required node-affinity term;
   * added to the platform default's.
   * @default - the platform default, else none
   */
  readonly nodeHealth?: NodeHealth[];
}

/** Options of one replica type (role) of a job, over the job's own. */
export interface RoleOptions extends ReplicaOptions {
  /**
   * What the operator does when a pod of this role exits.
   * @default - the framework's default
   */
  readonly restartPolicy?: RestartPolicy;
}
