/**
 * The bad-input catalogue: one row per wrong input to an L2 construct, with the exact message a
 * user gets (construct path, field, value, what is allowed), either thrown at construction or
 * reported by `app.synth()`'s validation. A changed message is a changed user experience, so each
 * one is compared in full.
 */
import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, ActivityProbe, DistributedJax, DistributedPaddle, DistributedPyTorch, DistributedXGBoost, FilterScope,
  GangScheduler, MpiAllReduce, NprocPerNode, PaddleMode, ParameterServerTF, RestartPolicy, SuccessPolicy, Workspace,
  WorkspaceClaim, WorkspaceKind, WorkspaceKindProps, Nccl, NodeHealth, RdmaDevice, Topology, ClusterTrainingRuntime,
  MlPolicy, PodGroupPolicy, PodSecurity, RedirectLevel, TrainingRuntime, TrainingRuntimeRef, TrainJob,
} from '../../src';
import { DNS_1035_LABEL, HOME_MOUNT_TAKEN, INJECTED_ENV, PORT_NUMBER, WHOLE_NUMBER_0_OR_MORE, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';
import { JUPYTERLAB_KIND as KIND, SCIPY_IMAGE as SCIPY } from '../harness/notebook-fixtures';

type Construct = 'DistributedPyTorch' | 'ParameterServerTF' | 'MpiAllReduce' | 'DistributedXGBoost' | 'DistributedPaddle' | 'DistributedJax' | 'Workspace' | 'WorkspaceKind'
  | 'ClusterTrainingRuntime' | 'TrainingRuntime' | 'TrainJob';

interface Case {
  readonly construct: Construct;
  /** What is wrong, in words. */
  readonly input: string;
  /** Builds the wrong input inside the chart "test". */
  readonly build: (chart: Chart) => void;
  /** Whether the construct throws at once or the validation of `app.synth()` reports it. */
  readonly at: 'construction' | 'synth';
  /** The exact message. */
  readonly message: string;
}

const IMAGE = 'registry.example.com/train:1.0';
const REPORT = 'Validation failed with the following errors:\n';
const value = (v: string) => kplus.EnvValue.fromValue(v);

const pytorch = (props: object = {}) => (c: Chart) => new DistributedPyTorch(c, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
const tf = (props: object = {}) => (c: Chart) => new ParameterServerTF(c, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
const mpi = (props: object = {}) => (c: Chart) => new MpiAllReduce(c, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
const xgb = (props: object = {}) => (c: Chart) => new DistributedXGBoost(c, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
const paddle = (props: object = {}) => (c: Chart) => new DistributedPaddle(c, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
const jax = (props: object = {}) => (c: Chart) => new DistributedJax(c, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });

const ctr = (props: object = {}) => (c: Chart) => new ClusterTrainingRuntime(c, 'rt', { metadata: { name: 'torch' }, mlPolicy: MlPolicy.torch(), image: IMAGE, ...props });
const tr = (props: object = {}) => (c: Chart) => new TrainingRuntime(c, 'rt', { metadata: { name: 'torch' }, mlPolicy: MlPolicy.torch(), image: IMAGE, ...props });
const trainJob = (props: object = {}) => (c: Chart) => new TrainJob(c, 'job', { metadata: { name: 'train' }, runtime: TrainingRuntimeRef.cluster('torch-distributed'), ...props });

/** A valid kind with one image and one pod config; `props` and `after` make it wrong. */
const kind = (props: Partial<WorkspaceKindProps> = {}, after?: (k: WorkspaceKind) => void) => (c: Chart): WorkspaceKind => {
  const k = new WorkspaceKind(c, 'kind', { ...KIND, ...props });
  k.addImageConfig('scipy', SCIPY);
  k.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  after?.(k);
  return k;
};
/** A workspace of a valid kind of this app (or one known by name); `props` make it wrong. */
const workspace = (props: object = {}, after?: (w: Workspace, c: Chart) => void) => (c: Chart) => {
  const k = kind()(c);
  const w = new Workspace(c, 'ws', { metadata: { name: 'alice' }, kind: k, ...props });
  after?.(w, c);
};
const byName = (props: object) => (c: Chart) => new Workspace(c, 'ws', { metadata: { name: 'alice' }, kind: WorkspaceKind.fromName('jupyterlab'), ...props });

const CASES: Case[] = [
  // ------------------------------------------------------------------ DistributedPyTorch
  {
    construct: 'DistributedPyTorch',
    input: 'a negative worker count',
    at: 'construction',
    build: pytorch({ workers: -1 }),
    message: `test/job: workers is -1; ${WHOLE_NUMBER_0_OR_MORE}`,
  },
  {
    construct: 'DistributedPyTorch',
    input: 'elastic bounds the wrong way round',
    at: 'construction',
    build: pytorch({ elastic: { minWorkers: 3, maxWorkers: 2 } }),
    message: 'test/job: elastic.minWorkers is 3; expected at most elastic.maxWorkers (2)',
  },
  {
    construct: 'DistributedPyTorch',
    input: 'master options on an elastic job',
    at: 'construction',
    build: pytorch({ elastic: { minWorkers: 1, maxWorkers: 2 }, master: { image: 'x:1' } }),
    message: 'test/job: master is "set"; expected no master options for an elastic job, which has no Master',
  },
  {
    construct: 'DistributedPyTorch',
    input: 'zero GPUs',
    at: 'construction',
    build: pytorch({ resources: { accelerator: Accelerator.nvidia(0) } }),
    message: 'test/job: resources.accelerator is "nvidia.com/gpu x 0"; expected a whole number of devices greater than 0 (got 0)',
  },
  {
    construct: 'DistributedPyTorch',
    input: 'no image',
    at: 'construction',
    build: pytorch({ image: undefined }),
    message: 'test/job/Master: image is not set; expected a container image for the main container',
  },
  {
    construct: 'DistributedPyTorch',
    input: 'more processes per node than GPUs',
    at: 'synth',
    build: pytorch({ workers: 0, nprocPerNode: NprocPerNode.of(4), resources: { accelerator: Accelerator.nvidia(2) } }),
    message: `${REPORT}  [test/job] nprocPerNode is 4; expected at most the 2 accelerators per Master pod; more processes than devices oversubscribe them`,
  },
  {
    construct: 'DistributedPyTorch',
    input: 'PYTHONUNBUFFERED, which the operator sets',
    at: 'synth',
    build: pytorch({ workers: 0, env: { PYTHONUNBUFFERED: value('1') } }),
    message: `${REPORT}  [test/job] spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].env[PYTHONUNBUFFERED] (env) is {"name":"PYTHONUNBUFFERED","value":"1"}; ${INJECTED_ENV}`,
  },
  {
    construct: 'DistributedPyTorch',
    input: 'a name with upper-case letters',
    at: 'synth',
    build: pytorch({ metadata: { name: 'Train' }, workers: 0 }),
    message: `${REPORT}  [test/job] metadata.name is "Train"; ${DNS_1035_LABEL}`,
  },
  {
    construct: 'DistributedPyTorch',
    input: 'a name too long for its pods',
    at: 'synth',
    build: pytorch({ metadata: { name: 'a'.repeat(60) }, workers: 0 }),
    message: `${REPORT}  [test/job] metadata.name is "${'a'.repeat(60)}"; expected a name of at most 54 characters, so that the pod and service name "${'a'.repeat(60)}-master-0" fits in 63`,
  },
  // ------------------------------------------------------------------ ParameterServerTF
  {
    construct: 'ParameterServerTF',
    input: 'both a Chief and a Master',
    at: 'construction',
    build: tf({ chief: {}, master: {} }),
    message: 'test/job: master is "set"; expected no master together with chief: a TFJob has at most one Chief or Master',
  },
  {
    construct: 'ParameterServerTF',
    input: 'no workers and no Chief',
    at: 'construction',
    build: tf({ workers: 0 }),
    message: 'test/job: workers is 0; expected at least 1 when there is no chief or master: the Chief, else worker 0, decides when the job succeeds',
  },
  {
    construct: 'ParameterServerTF',
    input: 'parameter-server options without parameter servers',
    at: 'construction',
    build: tf({ parameterServer: { image: 'x:1' } }),
    message: 'test/job: parameterServer is "set"; expected no parameter server options when parameterServers is 0',
  },
  {
    construct: 'ParameterServerTF',
    input: 'AllWorkers with no workers',
    at: 'construction',
    build: tf({ chief: {}, workers: 0, successPolicy: SuccessPolicy.ALL_WORKERS }),
    message: 'test/job: successPolicy is "AllWorkers"; expected SuccessPolicy.DEFAULT when workers is 0; AllWorkers waits for workers the job does not have',
  },
  {
    construct: 'ParameterServerTF',
    input: 'a port out of range',
    at: 'construction',
    build: tf({ port: 70000 }),
    message: `test/job: port is 70000; ${PORT_NUMBER}`,
  },
  {
    construct: 'ParameterServerTF',
    input: 'TF_CONFIG set by the user',
    at: 'synth',
    build: tf({ env: { TF_CONFIG: value('{}') } }),
    message: `${REPORT}  [test/job] spec.tfReplicaSpecs.Worker.template.spec.containers[tensorflow].env[TF_CONFIG] (env) is {"name":"TF_CONFIG","value":"{}"}; ${INJECTED_ENV}`,
  },
  {
    construct: 'ParameterServerTF',
    input: 'the Chief scaled to two',
    at: 'construction',
    build: c => tf({ chief: {} })(c).chief!.scale(2),
    message: 'test/job/Chief: replicas is 2; expected 1: a TFJob has exactly one Chief when chief is set',
  },
  {
    construct: 'ParameterServerTF',
    input: 'gang minAvailable above the pods',
    at: 'synth',
    build: tf({ workers: 2, gangScheduling: { scheduler: GangScheduler.VOLCANO, minAvailable: 3 } }),
    message: `${REPORT}  [test/job] spec.runPolicy.schedulingPolicy.minAvailable (gangScheduling.minAvailable) is 3; expected at most the job's 2 pods, or the group can never be scheduled`,
  },
  // ------------------------------------------------------------------ MpiAllReduce
  {
    construct: 'MpiAllReduce',
    input: 'a job-wide command',
    at: 'construction',
    build: mpi({ command: ['python', 'train.py'] }),
    message: 'test/job: command is ["python", "train.py"]; expected trainingCommand (the program mpirun starts on the workers) or launcherCommand; '
      + 'a job-wide command would also replace the idle process of the workers that the launcher execs into',
  },
  {
    construct: 'MpiAllReduce',
    input: 'both trainingCommand and launcherCommand',
    at: 'construction',
    build: mpi({ trainingCommand: ['python', 'train.py'], launcherCommand: ['mpirun'] }),
    message: 'test/job: launcherCommand is ["mpirun"]; expected either trainingCommand or launcherCommand, not both',
  },
  {
    construct: 'MpiAllReduce',
    input: 'a container name with upper-case letters',
    at: 'construction',
    build: mpi({ mainContainer: 'MPI' }),
    message: 'test/job: mainContainer is "MPI"; expected a container name: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit',
  },
  {
    construct: 'MpiAllReduce',
    input: 'zero slots per worker',
    at: 'construction',
    build: mpi({ slotsPerWorker: 0 }),
    message: `test/job: slotsPerWorker is 0; ${WHOLE_NUMBER_1_OR_MORE}`,
  },
  {
    construct: 'MpiAllReduce',
    input: 'PodSecurity.RESTRICTED, which the launcher cannot meet on a cluster',
    at: 'synth',
    build: mpi({ trainingCommand: ['python', 'train.py'], security: PodSecurity.RESTRICTED }),
    message: `${REPORT}  [test/job] security is "PodSecurity.RESTRICTED"; expected PodSecurity.DEFAULT: the training operator adds its kubectl-delivery init container to the MPI launcher `
      + 'without a security context, so a namespace that enforces the "restricted" Pod Security Standard refuses the launcher whatever the job sets; '
      + 'run the job in a baseline namespace (harden its containers with securityContext) or use Trainer v2\'s MPI runtime',
  },
  {
    construct: 'MpiAllReduce',
    input: 'a port, which MPI containers do not have',
    at: 'construction',
    build: mpi({ port: 2222 }),
    message: 'test/job: port is 2222; expected none: the MPIJob containers have no port the operator wires up',
  },
  {
    construct: 'MpiAllReduce',
    input: '-np above the slots of the hostfile',
    at: 'synth',
    build: mpi({ workers: 2, resources: { accelerator: Accelerator.nvidia(2) }, launcherCommand: ['mpirun', '-np', '8', 'python', 'train.py'] }),
    message: `${REPORT}  [test/job] spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].command (launcherCommand) is "-np 8"; expected at most 4 processes (2 workers x 2 slotsPerWorker); `
      + 'mpirun cannot start more processes than the hostfile has slots (add --oversubscribe if that is meant)',
  },
  {
    construct: 'MpiAllReduce',
    input: 'a generated mpirun with no workers',
    at: 'synth',
    build: mpi({ workers: 0, trainingCommand: ['python', 'train.py'] }),
    message: `${REPORT}  [test/job] workers is 0; expected at least 1 with trainingCommand: mpirun -np would be 0`,
  },
  {
    construct: 'MpiAllReduce',
    input: 'NVIDIA_VISIBLE_DEVICES on a launcher without GPUs',
    at: 'synth',
    build: mpi({ launcherCommand: ['mpirun', 'hostname'], launcher: { env: { NVIDIA_VISIBLE_DEVICES: value('all') } } }),
    message: `${REPORT}  [test/job] spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].env[NVIDIA_VISIBLE_DEVICES] (launcher.env) is {"name":"NVIDIA_VISIBLE_DEVICES","value":"all"}; expected a variable the operator does not set itself; `
      + 'it sets this one to "" in a launcher without GPUs, so a user value would be lost',
  },
  {
    construct: 'MpiAllReduce',
    input: 'the Open MPI hostfile variable, which the operator sets on the launcher (the workers do not get it)',
    at: 'synth',
    build: mpi({ launcherCommand: ['mpirun', 'hostname'], env: { OMPI_MCA_orte_default_hostfile: value('/tmp/hosts') } }),
    message: `${REPORT}  [test/job] spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].env[OMPI_MCA_orte_default_hostfile] (env) is {"name":"OMPI_MCA_orte_default_hostfile","value":"/tmp/hosts"}; ${INJECTED_ENV}`,
  },
  // ------------------------------------------------------------------ DistributedXGBoost
  {
    construct: 'DistributedXGBoost',
    input: 'a fractional worker count',
    at: 'construction',
    build: xgb({ workers: 1.5 }),
    message: `test/job: workers is 1.5; ${WHOLE_NUMBER_0_OR_MORE}`,
  },
  {
    construct: 'DistributedXGBoost',
    input: 'port 0',
    at: 'construction',
    build: xgb({ port: 0 }),
    message: `test/job: port is 0; ${PORT_NUMBER}`,
  },
  {
    construct: 'DistributedXGBoost',
    input: 'the Master scaled to two',
    at: 'construction',
    build: c => xgb({ workers: 0 })(c).master.scale(2),
    message: 'test/job/Master: replicas is 2; expected exactly 1; the operator rejects an XGBoostJob whose Master does not have one replica',
  },
  {
    construct: 'DistributedXGBoost',
    input: 'MASTER_ADDR set by the user',
    at: 'synth',
    build: xgb({ workers: 0, env: { MASTER_ADDR: value('localhost') } }),
    message: `${REPORT}  [test/job] spec.xgbReplicaSpecs.Master.template.spec.containers[xgboost].env[MASTER_ADDR] (env) is {"name":"MASTER_ADDR","value":"localhost"}; ${INJECTED_ENV}`,
  },
  {
    construct: 'DistributedXGBoost',
    input: 'a job-wide accelerator every role replaces',
    at: 'construction',
    build: xgb({ workers: 0, resources: { accelerator: Accelerator.custom('gpu', 1) }, master: { resources: {} } }),
    message: 'test/job: resources.accelerator is "gpu x 1"; expected a qualified extended resource name such as "vendor.com/device" (got "gpu")',
  },
  {
    construct: 'DistributedXGBoost',
    input: 'a CPU below zero',
    at: 'construction',
    build: xgb({ resources: { cpu: kplus.Cpu.units(-1) } }),
    message: 'test/job: resources.cpu is "-1"; expected a finite amount of CPU, 0 or more',
  },
  // ------------------------------------------------------------------ DistributedPaddle
  {
    construct: 'DistributedPaddle',
    input: 'parameter servers in collective mode',
    at: 'construction',
    build: paddle({ mode: PaddleMode.COLLECTIVE, parameterServers: 2 }),
    message: 'test/job: parameterServers is 2; expected none in collective mode; use mode PaddleMode.PARAMETER_SERVER for a job with parameter servers',
  },
  {
    construct: 'DistributedPaddle',
    input: 'no workers',
    at: 'construction',
    build: paddle({ workers: 0 }),
    message: `test/job: workers is 0; ${WHOLE_NUMBER_1_OR_MORE}`,
  },
  {
    construct: 'DistributedPaddle',
    input: 'elastic bounds the wrong way round',
    at: 'construction',
    build: paddle({ elastic: { minWorkers: 4, maxWorkers: 2 } }),
    message: 'test/job: elastic.minWorkers is 4; expected at most elastic.maxWorkers (2)',
  },
  {
    construct: 'DistributedPaddle',
    input: 'workers outside the elastic bounds',
    at: 'construction',
    build: paddle({ workers: 1, elastic: { minWorkers: 2, maxWorkers: 8 } }),
    message: 'test/job: workers is 1; expected a count between elastic.minWorkers (2) and elastic.maxWorkers (8)',
  },
  {
    construct: 'DistributedPaddle',
    input: 'the parameter servers scaled to zero',
    at: 'construction',
    build: c => paddle({ mode: PaddleMode.PARAMETER_SERVER })(c).parameterServer!.scale(0),
    message: 'test/job/Master: replicas is 0; expected at least 1 in parameter-server mode; parameter server 0 is the rendezvous endpoint',
  },
  {
    construct: 'DistributedPaddle',
    input: 'PADDLE_MASTER set by the user',
    at: 'synth',
    build: paddle({ worker: { env: { PADDLE_MASTER: value('x:1') } } }),
    message: `${REPORT}  [test/job] spec.paddleReplicaSpecs.Worker.template.spec.containers[paddle].env[PADDLE_MASTER] (worker.env) is {"name":"PADDLE_MASTER","value":"x:1"}; ${INJECTED_ENV}`,
  },
  {
    construct: 'DistributedPaddle',
    input: 'a pod restartPolicy that the replica one overrides',
    at: 'synth',
    build: paddle({ worker: { restartPolicy: RestartPolicy.ON_FAILURE, podRestartPolicy: RestartPolicy.NEVER } }),
    message: `${REPORT}  [test/job] spec.paddleReplicaSpecs.Worker.template.spec.restartPolicy (worker.podRestartPolicy) is "Never"; expected OnFailure (the replica's restartPolicy, which the operator applies over it) or none`,
  },
  // ------------------------------------------------------------------ DistributedJax
  {
    construct: 'DistributedJax',
    input: 'no workers',
    at: 'construction',
    build: jax({ workers: 0 }),
    message: `test/job: workers is 0; ${WHOLE_NUMBER_1_OR_MORE}`,
  },
  {
    construct: 'DistributedJax',
    input: 'a fractional port',
    at: 'construction',
    build: jax({ port: 1.5 }),
    message: `test/job: port is 1.5; ${PORT_NUMBER}`,
  },
  {
    construct: 'DistributedJax',
    input: 'a negative backoff limit',
    at: 'construction',
    build: jax({ runPolicy: { backoffLimit: -1 } }),
    message: `test/job: runPolicy.backoffLimit is -1; ${WHOLE_NUMBER_0_OR_MORE}`,
  },
  {
    construct: 'DistributedJax',
    input: 'a deadline in milliseconds',
    at: 'construction',
    build: jax({ runPolicy: { activeDeadline: Duration.millis(1500) } }),
    message: 'test/job: runPolicy.activeDeadline is "1.5s"; expected a whole number of seconds, which the manifest counts in',
  },
  {
    construct: 'DistributedJax',
    input: 'shared memory of a few KiB',
    at: 'construction',
    build: jax({ sharedMemory: Size.kibibytes(100) }),
    message: 'test/job: sharedMemory is "100Ki"; expected a whole number of mebibytes, as the manifest writes sizes in Mi or Gi',
  },
  {
    construct: 'DistributedJax',
    input: 'the workers scaled to zero',
    at: 'construction',
    build: c => jax()(c).worker.scale(0),
    message: 'test/job/Worker: replicas is 0; expected at least 1; worker 0 is the JAX coordinator',
  },
  {
    construct: 'DistributedJax',
    input: 'COORDINATOR_ADDRESS added later',
    at: 'synth',
    build: c => jax()(c).addEnv('COORDINATOR_ADDRESS', value('x')),
    message: `${REPORT}  [test/job] spec.jaxReplicaSpecs.Worker.template.spec.containers[jax].env[COORDINATOR_ADDRESS] is {"name":"COORDINATOR_ADDRESS","value":"x"}; ${INJECTED_ENV}`,
  },
  {
    construct: 'DistributedJax',
    input: 'one path mounted twice',
    at: 'synth',
    build: c => {
      const job = jax()(c);
      job.mount('/data', kplus.Volume.fromPersistentVolumeClaim(c, 'a', kplus.PersistentVolumeClaim.fromClaimName(c, 'ca', 'a')));
      job.mount('/data/', kplus.Volume.fromPersistentVolumeClaim(c, 'b', kplus.PersistentVolumeClaim.fromClaimName(c, 'cb', 'b')));
    },
    message: `${REPORT}  [test/job/Worker] containers[jax].volumeMounts.mountPath is "/data/"; expected every mount path of a container to be used once; volume "pvc-a" is mounted there`,
  },
  {
    construct: 'DistributedJax',
    input: 'a sidecar named like the main container',
    at: 'synth',
    build: c => jax()(c).worker.addContainer({ name: 'jax', image: 'busybox:1.36' }),
    message: `${REPORT}  [test/job] spec.jaxReplicaSpecs.Worker.template.spec.containers[jax].name is "jax"; expected a name no other container or init container of the pod has`,
  },
  // ------------------------------------------------------------------ Workspace
  {
    construct: 'Workspace',
    input: 'a kind known by name without an image option',
    at: 'construction',
    build: byName({ podConfig: 'small' }),
    message: 'test/ws: imageConfig is not set; expected an image option id: the kind is known by name only, so its default cannot be looked up',
  },
  {
    construct: 'Workspace',
    input: 'an empty option id',
    at: 'construction',
    build: byName({ imageConfig: '', podConfig: 'small' }),
    message: 'test/ws: imageConfig is ""; expected an option id of 1 to 256 characters',
  },
  {
    construct: 'Workspace',
    input: 'an empty display name',
    at: 'construction',
    build: workspace({ displayName: '' }),
    message: 'test/ws: displayName is ""; expected 1 to 128 characters',
  },
  {
    construct: 'Workspace',
    input: 'secret file permissions above 0o777',
    at: 'construction',
    build: workspace({}, (w, c) => w.addSecret('/secrets/git', kplus.Secret.fromSecretName(c, 'git', 'git-credentials'), { defaultMode: 0o1000 })),
    message: 'test/ws: secrets[0].defaultMode is 512; expected permission bits from 0 to 0o777 (511)',
  },
  {
    construct: 'Workspace',
    input: 'a relative data mount path',
    at: 'construction',
    build: workspace({ data: [{ mountPath: 'data', claim: WorkspaceClaim.fromClaimName('datasets') }] }),
    message: 'test/ws: data[0].mountPath is "data"; expected an absolute path such as "/data" (2 to 4096 characters, without ":"), as the Notebooks CRD requires',
  },
  {
    construct: 'Workspace',
    input: 'a new home claim of 500 MiB',
    at: 'construction',
    build: workspace({ home: WorkspaceClaim.newClaim({ storage: Size.mebibytes(500) }) }),
    message: 'test/ws: home.storage is "500Mi"; expected a whole number of gibibytes, 1 or more (the claim is written in Gi)',
  },
  {
    construct: 'Workspace',
    input: 'an image option the kind does not have',
    at: 'synth',
    build: workspace({ imageConfig: 'tensorflow' }),
    message: `${REPORT}  [test/ws] imageConfig is "tensorflow"; expected the id of an image option of WorkspaceKind "jupyterlab": "scipy"`,
  },
  {
    construct: 'Workspace',
    input: 'a data volume on the home volume',
    at: 'synth',
    build: workspace({ home: WorkspaceClaim.fromClaimName('alice-home'), data: [{ mountPath: '/home/jovyan', claim: WorkspaceClaim.fromClaimName('datasets') }] }),
    message: `${REPORT}  [test/ws] data[0].mountPath is "/home/jovyan"; ${HOME_MOUNT_TAKEN}`,
  },
  {
    construct: 'Workspace',
    input: 'a claim name with an underscore',
    at: 'synth',
    build: workspace({ home: WorkspaceClaim.fromClaimName('alice_home') }),
    message: `${REPORT}  [test/ws] home is "alice_home"; expected a claim name, a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit`,
  },
  // ------------------------------------------------------------------ WorkspaceKind
  {
    construct: 'WorkspaceKind',
    input: 'a namespace on a cluster-scoped kind',
    at: 'construction',
    build: kind({ metadata: { name: 'jupyterlab', namespace: 'kubeflow' } }),
    message: 'test/kind: metadata.namespace is "kubeflow"; expected none: a WorkspaceKind is cluster-scoped',
  },
  {
    construct: 'WorkspaceKind',
    input: 'a redirect level without a message to show',
    at: 'construction',
    build: kind({}, k => k.addImageConfig('old', { ...SCIPY, redirect: { to: 'scipy', level: RedirectLevel.WARNING } })),
    message: 'test/kind: imageConfig[old].redirect.level is "Warning"; expected none without a redirect.message: the level is how the spawner shows the message',
  },
  {
    construct: 'WorkspaceKind',
    input: 'a one-letter display name',
    at: 'construction',
    build: kind({ displayName: 'J' }),
    message: 'test/kind: displayName is "J"; expected 2 to 128 characters',
  },
  {
    construct: 'WorkspaceKind',
    input: 'a relative home mount path',
    at: 'construction',
    build: kind({ homeMountPath: 'home/jovyan' }),
    message: 'test/kind: homeMountPath is "home/jovyan"; expected an absolute path such as "/data" (2 to 4096 characters, without ":"), as the Notebooks CRD requires',
  },
  {
    construct: 'WorkspaceKind',
    input: 'an image option without ports',
    at: 'construction',
    build: kind({}, k => k.addImageConfig('bare', { ...SCIPY, ports: [] })),
    message: 'test/kind: imageConfig[bare].ports is []; expected at least one port the image listens on',
  },
  {
    construct: 'WorkspaceKind',
    input: 'a memory limit below its request',
    at: 'construction',
    build: kind({}, k => k.addPodConfig('tight', { requests: { memory: Size.gibibytes(4) }, limits: { memory: Size.gibibytes(2) } })),
    message: 'test/kind: podConfig[tight].limits.memory is "2Gi"; expected at least the request (4Gi)',
  },
  {
    construct: 'WorkspaceKind',
    input: 'a GPU limit that differs from the request',
    at: 'construction',
    build: kind({}, k => k.addPodConfig('gpu', { requests: { accelerator: Accelerator.nvidia(1) }, limits: { accelerator: Accelerator.nvidia(2) } })),
    message: 'test/kind: podConfig[gpu].limits.accelerator is "nvidia.com/gpu x 2"; '
      + 'expected the accelerator of requests (nvidia.com/gpu x 1) or none; extended resources are limited at their request',
  },
  {
    construct: 'WorkspaceKind',
    input: 'a filter rule that matches nothing',
    at: 'construction',
    build: kind({ filterRules: [{ scope: FilterScope.POD_CONFIG, hideInUi: true }] }),
    message: 'test/kind: filterRules[0].namespaceSelector is not set; expected at least one of namespaceSelector, imageConfigSelector and podConfigSelector',
  },
  {
    construct: 'WorkspaceKind',
    input: 'a probe interval in milliseconds',
    at: 'construction',
    build: kind({ activityProbe: ActivityProbe.jupyter('jupyterlab', { interval: Duration.millis(90_500) }) }),
    message: 'test/kind: activityProbe.interval is "90.5s"; expected a whole number of seconds, which the manifest counts in',
  },
  {
    construct: 'WorkspaceKind',
    input: 'redirects that form a cycle',
    at: 'synth',
    build: kind({}, k => { k.addPodConfig('old', { redirect: { to: 'new' } }); k.addPodConfig('new', { redirect: { to: 'old' } }); }),
    message: `${REPORT}  [test/kind] spec.podTemplate.options.podConfig.values[old].redirect.to is "new"; expected redirects that end at an option without one, but old -> new -> old is a cycle`,
  },
  {
    construct: 'WorkspaceKind',
    input: 'an image port the kind does not declare',
    at: 'synth',
    build: kind({}, k => k.addImageConfig('code', { ...SCIPY, ports: [{ id: 'vscode', port: 8080 }] })),
    message: `${REPORT}  [test/kind] spec.podTemplate.options.imageConfig.values[code].spec.ports[0].id is "vscode"; expected the id of a port in spec.podTemplate.ports: "jupyterlab"`,
  },
  {
    construct: 'WorkspaceKind',
    input: 'a pausing rule without an activity probe',
    at: 'synth',
    build: kind({ activityRules: [{ inactiveFor: Duration.hours(1) }] }),
    message: `${REPORT}  [test/kind] spec.activityRules[0].effect.pauseWorkspace (activityRules) is true; expected an activityProbe on the kind; without one the controller cannot tell inactivity and rejects pausing rules`,
  },
  {
    construct: 'WorkspaceKind',
    input: 'no options at all',
    at: 'synth',
    build: c => new WorkspaceKind(c, 'kind', KIND),
    message: `${REPORT}  [test/kind] imageConfig is []; expected at least one image option (addImageConfig)\n`
      + '  [test/kind] podConfig is []; expected at least one pod-config option (addPodConfig)',
  },
  // ------------------------------------------------------------------ Large GPU jobs (topology, network, node health)
  {
    construct: 'DistributedPyTorch',
    input: 'a required Kueue topology without a Kueue queue',
    at: 'synth',
    build: pytorch({ workers: 0, topology: Topology.required('cloud.provider.com/topology-block') }),
    message: `${REPORT}  [test/job] Master.topology is "required cloud.provider.com/topology-block"; expected a Kueue queue on the job (the queue prop or the PlatformDefaults queue): Kueue reads the topology annotations only on jobs it admits and ignores them otherwise`,
  },
  {
    construct: 'DistributedPyTorch',
    input: 'a topology level that is not a label key',
    at: 'construction',
    build: pytorch({ queue: 'q', topology: Topology.preferred('topology block') }),
    message: 'test/job: topology.level is "topology block"; expected a node label key such as "cloud.provider.com/topology-block": an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit',
  },
  {
    construct: 'DistributedPyTorch',
    input: 'RDMA devices under PodSecurity.RESTRICTED',
    at: 'synth',
    build: pytorch({ workers: 0, security: PodSecurity.RESTRICTED, network: { rdmaDevice: RdmaDevice.SHARED_DEVICE_A } }),
    message: `${REPORT}  [test/job] Master.network.rdmaDevice is "rdma/rdma_shared_device_a"; expected none under PodSecurity.RESTRICTED: RDMA needs the IPC_LOCK capability, which neither the baseline nor the restricted Pod Security level allows; use PodSecurity.DEFAULT in a namespace whose Pod Security level is privileged`,
  },
  {
    construct: 'MpiAllReduce',
    input: 'a secondary network that is not [namespace/]name[@interface]',
    at: 'construction',
    build: mpi({ network: { networks: ['fabric/ib_net'] } }),
    message: 'test/job: network.networks[0] is "fabric/ib_net"; expected "[namespace/]name[@interface]": namespace and name DNS-1123 labels (lower-case letters, digits, "-"), interface a Linux interface name',
  },
  {
    construct: 'ParameterServerTF',
    input: 'a Kueue podset group of three roles',
    at: 'synth',
    build: tf({ queue: 'q', chief: {}, parameterServers: 1, workers: 1, topology: Topology.required('cloud.provider.com/topology-rack', { podSetGroup: 'job' }) }),
    message: `${REPORT}  [test/job] Chief.topology.podSetGroup is "job"; expected exactly 2 roles with pods in a Kueue podset group; it has 3 (Chief, PS, Worker)`,
  },
  {
    construct: 'DistributedJax',
    input: 'a KAI topology on one role',
    at: 'synth',
    build: jax({ worker: { topology: Topology.kai({ topologyName: 'cluster-topology', requiredLevel: 'cloud.provider.com/topology-rack' }) } }),
    message: `${REPORT}  [test/job] Worker.topology is "KAI cluster-topology"; expected Topology.kai(...) on the job, not on one role: the KAI scheduler reads its topology annotations from the job object (defaultgrouper GetPodGroupMetadata)`,
  },
  {
    construct: 'DistributedXGBoost',
    input: 'a node-health rule without values',
    at: 'construction',
    build: xgb({ nodeHealth: [NodeHealth.labelNotIn('health.example.com/verdict', [])] }),
    message: 'test/job: nodeHealth[0].values is []; expected at least one label value; a NotIn requirement without values is refused by the API server',
  },
  {
    construct: 'DistributedPaddle',
    input: 'a negative NCCL GID index',
    at: 'construction',
    build: paddle({ network: { nccl: Nccl.roce({ gidIndex: -3 }) } }),
    message: `test/job: network.nccl.gidIndex is -3; ${WHOLE_NUMBER_0_OR_MORE}`,
  },

  // Trainer v2.
  { construct: 'ClusterTrainingRuntime', input: 'no nodes', at: 'construction', build: ctr({ numNodes: 0 }), message: `test/rt: numNodes is 0; ${WHOLE_NUMBER_1_OR_MORE}` },
  { construct: 'ClusterTrainingRuntime', input: 'a launcher for a torch runtime', at: 'construction', build: ctr({ launcher: { image: IMAGE } }), message: 'test/rt: launcher is {"image":"registry.example.com/train:1.0"}; expected none: only MPI runtimes have a launcher (the policy is torch)' },
  {
    construct: 'ClusterTrainingRuntime',
    input: 'workspace options with no initializer to mount the workspace',
    at: 'construction',
    build: ctr({ workspace: { storageClassName: 'fast' } }),
    message: 'test/rt: workspace is {"storageClassName":"fast"}; expected none without a datasetInitializer or modelInitializer that mounts the workspace: the claim is written only for the initializers to share with the trainer',
  },
  { construct: 'ClusterTrainingRuntime', input: 'no MPI slots', at: 'construction', build: ctr({ mlPolicy: MlPolicy.mpi({ slotsPerWorker: 0 }) }), message: `test/rt: mlPolicy.mpi.slotsPerWorker is 0; ${WHOLE_NUMBER_1_OR_MORE}` },
  { construct: 'ClusterTrainingRuntime', input: 'more MPI slots than GPUs per node', at: 'synth', build: ctr({ mlPolicy: MlPolicy.mpi({ slotsPerWorker: 8 }), resources: { accelerator: Accelerator.nvidia(4) } }), message: `${REPORT}  [test/rt] mlPolicy.mpi.slotsPerWorker is 8; expected at most the 4 accelerators per node (one process per device)` },
  { construct: 'ClusterTrainingRuntime', input: 'a coscheduling timeout of a fraction of a second', at: 'construction', build: ctr({ podGroupPolicy: PodGroupPolicy.coscheduling({ scheduleTimeout: Duration.millis(1500) }) }), message: 'test/rt: podGroupPolicy.coscheduling.scheduleTimeout is "1.5s"; expected a whole number of seconds, which the manifest counts in' },
  { construct: 'ClusterTrainingRuntime', input: 'no image', at: 'construction', build: ctr({ image: undefined }), message: 'test/rt/node: image is not set; expected a container image for the main container' },
  { construct: 'TrainingRuntime', input: 'an empty SSH key path', at: 'construction', build: tr({ mlPolicy: MlPolicy.mpi({ sshAuthMountPath: '' }) }), message: 'test/rt: mlPolicy.mpi.sshAuthMountPath is ""; expected a directory for the SSH keys such as /home/mpiuser/.ssh (the Trainer mounts them there, and Kubernetes refuses an empty mount path)' },
  { construct: 'TrainingRuntime', input: 'no nodes', at: 'construction', build: tr({ numNodes: -1 }), message: `test/rt: numNodes is -1; ${WHOLE_NUMBER_1_OR_MORE}` },
  { construct: 'TrainingRuntime', input: 'hostNetwork under RESTRICTED', at: 'synth', build: tr({ hostNetwork: true, security: PodSecurity.RESTRICTED }), message: `${REPORT}  [test/rt] node.hostNetwork is true; expected false or not set under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)` },
  {
    construct: 'TrainingRuntime',
    input: 'in another namespace than the TrainJob',
    at: 'synth',
    message: `${REPORT}  [test/job] spec.runtimeRef.name is "torch"; expected a TrainingRuntime in the job's namespace "team-a"; the app's "torch" is in namespace "platform", where the controller does not look`,
    build: c => {
      const rt = new TrainingRuntime(new Chart(c, 'platform', { namespace: 'platform' }), 'rt', { metadata: { name: 'torch' }, mlPolicy: MlPolicy.torch(), image: IMAGE });
      new TrainJob(c, 'job', { metadata: { name: 'train', namespace: 'team-a' }, runtime: rt.ref });
    },
  },
  { construct: 'TrainJob', input: 'more processes per node than GPUs', at: 'synth', build: trainJob({ numProcPerNode: 8, resourcesPerNode: { accelerator: Accelerator.nvidia(4) } }), message: `${REPORT}  [test/job] numProcPerNode is 8; expected at most the 4 accelerators per node (one process per device)` },
  { construct: 'TrainJob', input: 'no nodes', at: 'construction', build: trainJob({ numNodes: 0 }), message: `test/job: numNodes is 0; ${WHOLE_NUMBER_1_OR_MORE}` },
  { construct: 'TrainJob', input: 'a deadline of half a second', at: 'construction', build: trainJob({ activeDeadline: Duration.millis(500) }), message: 'test/job: activeDeadline is "0.5s"; expected a whole number of seconds, which the manifest counts in' },
  { construct: 'TrainJob', input: 'limits below the requests', at: 'construction', build: trainJob({ resourcesPerNode: { memory: Size.gibibytes(8) }, resourceLimitsPerNode: { memory: Size.gibibytes(4) } }), message: 'test/job: resourcesPerNode.limits.memory is "4Gi"; expected at least the request (8Gi)' },
  {
    construct: 'TrainJob',
    input: 'two mounts at one path',
    at: 'synth',
    message: `${REPORT}  [test/job] mount.path is "/data/"; expected every mount path to be used once; volume "a" is mounted there`,
    build: c => {
      const job = trainJob()(c);
      job.mount('/data', kplus.Volume.fromEmptyDir(c, 'a', 'a'));
      job.mount('/data/', kplus.Volume.fromEmptyDir(c, 'b', 'b'));
    },
  },
  {
    construct: 'TrainJob',
    input: 'two claims mounted under one volume name',
    at: 'synth',
    message: `${REPORT}  [test/job] volumes is "data"; expected each volume name to stand for one volume; it stands for claim "team-a-data" and claim "team-b-data": give one of them another name`,
    build: c => {
      const job = trainJob()(c);
      const claim = (id: string, name: string) => kplus.Volume.fromPersistentVolumeClaim(c, id, kplus.PersistentVolumeClaim.fromClaimName(c, `${id}Claim`, name), { name: 'data' });
      job.mount('/data', claim('a', 'team-a-data'));
      job.mount('/shared', claim('b', 'team-b-data'));
    },
  },
  {
    construct: 'TrainJob',
    input: 'a dataset for a runtime whose initializer lacks the workspace mount (upstream jobs/05-multi-step.yaml)',
    at: 'synth',
    message: `${REPORT}  [test/job] spec.initializer.dataset (datasetInitializer) is {"storageUri":"hf://tatsu-lab/alpaca"}; expected the runtime "torch-with-dataset-init" to mount the "initializer" volume in its "dataset-initializer" container, where the initializer writes (the Trainer webhook refuses the job otherwise)`,
    build: c => {
      const rt = new TrainingRuntime(c, 'rt', { metadata: { name: 'torch-with-dataset-init' }, mlPolicy: MlPolicy.torch(), image: IMAGE, datasetInitializer: { image: IMAGE, mountWorkspace: false } });
      new TrainJob(c, 'job', { metadata: { name: 'train' }, runtime: rt.ref, datasetInitializer: { storageUri: 'hf://tatsu-lab/alpaca' } });
    },
  },
  { construct: 'TrainJob', input: 'a patch manager without a domain', at: 'synth', build: trainJob({ nodeSelector: { pool: 'a100' }, patchManager: 'platform' }), message: `${REPORT}  [test/job] spec.runtimePatches[0].manager is "platform"; expected a domain-prefixed path such as "example.io/platform-team"` },
  { construct: 'TrainJob', input: 'a storage URI without a scheme', at: 'construction', build: trainJob({ datasetInitializer: { storageUri: 'tatsu-lab/alpaca' } }), message: 'test/job: datasetInitializer.storageUri is "tatsu-lab/alpaca"; expected a URI with a scheme, such as hf://tatsu-lab/alpaca or s3://bucket/path' },
];

/** The message of what `f` throws, and that it is a plain Error (never a TypeError or the like). */
function thrown(f: () => void): string | undefined {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).constructor).toBe(Error);
    return (e as Error).message;
  }
  return undefined;
}

test.each(CASES.map(c => [`${c.construct}: ${c.input} (${c.at})`, c] as const))('%s', (_name, c) => {
  const app = Testing.app();
  const chart = new Chart(app, 'test');
  if (c.at === 'construction') {
    expect(thrown(() => c.build(chart))).toBe(c.message);
  } else {
    // The construct accepts it, and synthesis reports it in full.
    c.build(chart);
    expect(thrown(() => app.synth())).toBe(c.message);
  }
});

test('the catalogue covers every L2 construct', () => {
  const counts = Object.fromEntries(['DistributedPyTorch', 'ParameterServerTF', 'MpiAllReduce', 'DistributedXGBoost', 'DistributedPaddle', 'DistributedJax', 'Workspace', 'WorkspaceKind',
    'ClusterTrainingRuntime', 'TrainingRuntime', 'TrainJob']
    .map(k => [k, CASES.filter(c => c.construct === k).length]));
  console.log(`bad-input catalogue: ${CASES.length} cases (${CASES.filter(c => c.at === 'construction').length} at construction, `
    + `${CASES.filter(c => c.at === 'synth').length} at synth): ${JSON.stringify(counts)}`);
  expect(CASES.length).toBeGreaterThanOrEqual(40);
  for (const n of Object.values(counts)) expect(n).toBeGreaterThanOrEqual(4);
});
