/**
 * Every check the constructs make before or at synth, against what `cdk8s-kubeflow lint` runs on
 * YAML. A check is in exactly one of three tables:
 *
 * - MIRRORED_CHECKS: the manifest the construct would write shows the mistake, and a catalogue rule
 *   finds it there (in `lint`, and at synth through the engine). The construct keeps its own check
 *   only to stop earlier and name the prop it was given.
 * - CONSTRUCT_ONLY_CHECKS: the mistake leaves no trace a rule could read: an intent the props
 *   carry (a value the construct resolves, a key set twice, a preset), a value parsed or typed in
 *   code, or an object the manifest names but does not contain; or a value the manifest shows that
 *   is not certainly wrong (upstream accepts it and the job may run), which lint, having no
 *   warnings, must not refuse.
 * - NOT_YET_IN_LINT: the manifest would show the mistake, but no catalogue rule reads it yet. Each
 *   row says what a rule would check; the list only shrinks (test/cli/lint/lint-parity.test.ts pins it).
 *
 * Ids are `<folder>.<what it checks>` (a dot, so they never read as a rule id). A row names the file under `src/` and the error-raising calls it covers, as `<helper> <field
 * argument as the source writes it>` (`fail 'workers'`, `finding ${field}.url`): the lint-parity
 * test reads the construct sources and fails on a call no row covers, so a new construct check
 * needs a rule, or a row here that says why it has none.
 */

/** A group of construct checks: where they are raised and which calls raise them. */
export interface ConstructCheck {
  /** A stable id, `<folder>.<what it checks>`. */
  readonly id: string;
  /** The file under `src/` whose calls raise it. */
  readonly where: string;
  /** The calls, as `<helper> <field argument's source text, white space collapsed>`. */
  readonly calls: readonly string[];
}

/** A construct check whose mistake a catalogue rule finds in the manifest. */
export interface MirroredCheck extends ConstructCheck {
  /** The catalogue rules that find it (ids as `cdk8s-kubeflow rules` lists them). */
  readonly rules: readonly string[];
}

/** A construct check with the reason `lint` has no rule for it. */
export interface ExplainedCheck extends ConstructCheck {
  /** Why lint cannot judge it (construct-only), or what a rule would check (not yet in lint). */
  readonly why: string;
}

const MIRRORED = (id: string, where: string, calls: readonly string[], rules: readonly string[]): MirroredCheck => ({ id, where, calls, rules });
const EXPLAINED = (id: string, where: string, calls: readonly string[], why: string): ExplainedCheck => ({ id, where, calls, why });

/** Why a key set twice, a default set twice, or two volumes of one name cannot be linted. */
const ONE_VALUE = 'the manifest holds one value per key (or one volume per name), so a second, different value given in code leaves no trace in it';
/** Why a value parsed or typed in code cannot be linted. */
const IN_CODE = 'the value is code\'s input (a configuration text, a cdk8s Duration or Size, a JSON pointer): it is refused before anything is rendered, and the manifest could not hold it';
/**
 * Why a value the manifest shows stays the construct's: upstream takes it and the job may run, so
 * a rule would refuse YAML that works. The constructs refuse it because their props say what was
 * meant; lint has no warnings to give instead.
 */
const NOT_CERTAIN = 'not certainly wrong: upstream accepts it and it may run';
/** More processes than accelerators per node: a GPU program fails, a CPU one does not. */
const OVERSUBSCRIBED = `${NOT_CERTAIN} (more processes per node than accelerators put two ranks on one device, which NCCL refuses, while a CPU or Gloo program runs)`;

export const MIRRORED_CHECKS: readonly MirroredCheck[] = [
  MIRRORED('common.node-health', 'common/internal/node-health.ts', ['finding `${at}.labelKey`', 'finding `${at}.values`'], ['kubernetes/node-selector-requirement']),
  MIRRORED('common.mount-path', 'common/internal/paths.ts', ['finding field'], ['kubernetes/mount-path']),
  MIRRORED('common.amounts', 'common/internal/quantities.ts',
    ['finding `${prefix}.cpu`', 'finding `${field}.limits.cpu`', 'finding `${field}.limits.${part}`'], ['kubernetes/resource-quantity', 'kubernetes/resource-limit']),
  MIRRORED('common.replica-count', 'common/replica.ts', ['finding \'replicas\''], ['training-operator/replica-count', 'training-operator/elastic-bounds']),
  MIRRORED('common.replica-image', 'common/replica.ts', ['finding \'image\''], ['kubernetes/image']),
  MIRRORED('common.replica-mount-path-once', 'common/replica.ts', ['failAtSynth `containers[${this.mainContainer.name}].volumeMounts.mountPath`'], ['kubernetes/mount-path-unique']),
  MIRRORED('training.elastic-bounds', 'training/internal/elastic-bounds.ts', ['fail \'elastic.minWorkers\'', 'fail \'workers\''], ['training-operator/elastic-bounds']),
  MIRRORED('training.leader-count', 'training/tensorflow.ts', ['fail \'master\''], ['training-operator/replica-count']),
  MIRRORED('training.workers-with-leader', 'training/tensorflow.ts', ['fail \'workers\''], ['training-operator/replica-count']),
  MIRRORED('training.elastic-workers', 'training/pytorch.ts', ['fail \'workers\''], ['training-operator/replica-count']),
  MIRRORED('training.elastic-master', 'training/pytorch.ts', ['fail \'master\''], ['training-operator/pytorch-master']),
  MIRRORED('trainer.storage-uri', 'trainer/train-job.ts', ['fail `${field}.storageUri`'], ['library/schema']),
  MIRRORED('trainer.mount-path-once', 'trainer/train-job.ts', ['failAtSynth \'mount.path\''], ['kubernetes/mount-path-unique']),
  MIRRORED('notebooks.option-lengths', 'notebooks/internal/option-catalogue.ts', [
    'lengthFinding `${at}.displayName`', 'lengthFinding `${at}.description`', 'finding `${at}.labels`', 'lengthFinding `${at}.labels[${key}]`',
    'lengthFinding `${at}.redirect.message`',
  ], ['library/schema']),
  MIRRORED('notebooks.activity-probe', 'notebooks/workspace-activity.ts',
    ['finding \'activityProbe.portId\'', 'finding \'activityProbe.timeout\'', 'finding `activityProbe.${field}`', 'finding \'activityProbe.minInterval\''], ['library/schema']),
  MIRRORED('notebooks.kind-texts', 'notebooks/workspace-kind.ts', [
    'checkLength \'displayName\'', 'checkLength \'description\'', 'checkLength \'deprecationMessage\'', 'checkLength `${field}.ports[${port.id}].displayName`',
    'checkLength `ports[${port.id}].displayName`', 'checkLength `${field}.denyMessage`',
  ], ['library/schema']),
  MIRRORED('notebooks.image-ports', 'notebooks/workspace-kind.ts',
    ['fail `${field}.image`', 'fail `${field}.ports`', 'fail `${field}.ports.id`', 'fail `${field}.ports[${port.id}].port`', 'fail \'ports.id\'',
      'failAtSynth `${field}.id`', 'failAtSynth \'ports.id\''],
    ['library/schema', 'kubernetes/image', 'notebooks/image-port']),
  MIRRORED('notebooks.activity-rule-bounds', 'notebooks/workspace-kind.ts', ['fail `${field}.inactiveFor`'], ['library/schema']),
  MIRRORED('notebooks.filter-rules', 'notebooks/workspace-kind.ts', ['fail `${field}.namespaceSelector`', 'fail `${field}.hideInUi`', 'fail `${field}.deny`'], ['library/schema']),
  MIRRORED('notebooks.kind-options-required', 'notebooks/workspace-kind.ts',
    ['finding \'ports\'', 'finding \'imageConfig\'', 'finding \'podConfig\''], ['library/schema']),
  MIRRORED('notebooks.workspace-display-name', 'notebooks/workspace.ts', ['checkLength \'displayName\''], ['library/schema']),
  MIRRORED('notebooks.workspace-names', 'notebooks/workspace.ts', ['finding \'kind\'', 'finding `secrets[${i}].secret`'], ['library/schema']),
  MIRRORED('notebooks.icon-source', 'notebooks/workspace-options.ts',
    ['finding `${field}.url`', 'finding `${field}.configMap.name`', 'finding `${field}.configMap.namespace`', 'finding `${field}.configMap.key`'], ['library/schema']),
  MIRRORED('common.replica-count-floor', 'common/replica.ts', ['countFinding \'replicas\''], ['training-operator/replica-count']),
  MIRRORED('training.pytorch-workers-floor', 'training/pytorch.ts', ['checkCount \'workers\''], ['training-operator/replica-count']),
  MIRRORED('training.tf-counts', 'training/tensorflow.ts', ['checkCount \'parameterServers\'', 'checkCount \'workers\''], ['training-operator/replica-count']),
  MIRRORED('training.paddle-counts', 'training/paddle.ts', ['checkCount \'workers\'', 'checkCount \'parameterServers\''], ['training-operator/replica-count']),
  MIRRORED('training.mpi-workers-floor', 'training/mpi.ts', ['checkCount \'workers\''], ['training-operator/replica-count']),
  MIRRORED('training.jax-counts', 'training/jax.ts', ['checkCount \'workers\''], ['training-operator/replica-count']),
  MIRRORED('training.xgboost-counts', 'training/xgboost.ts', ['checkCount \'workers\''], ['training-operator/replica-count']),
  MIRRORED('training.nproc', 'training/pytorch.ts', ['checkCount \'nprocPerNode\''], ['training-operator/nproc-per-node']),
  MIRRORED('training.mpi-slots-floor', 'training/mpi.ts', ['checkCount \'slotsPerWorker\''], ['training-operator/mpi-slots']),
  MIRRORED('trainer.counts', 'trainer/train-job.ts', ['checkCount \'numNodes\'', 'checkCount \'numProcPerNode\''], ['trainer/counts']),
  MIRRORED('trainer.runtime-counts', 'trainer/training-runtime-base.ts', ['checkCount \'numNodes\''], ['trainer/counts']),
  MIRRORED('trainer.ml-policy', 'trainer/ml-policy.ts',
    ['countFinding `mlPolicy.${this.framework}.${this.framework === \'mpi\' ? \'slotsPerWorker\' : \'numProcPerNode\'}`', 'finding \'mlPolicy.mpi.sshAuthMountPath\''],
    ['trainer/counts', 'trainer/ssh-auth-mount-path', 'library/schema']),
  MIRRORED('notebooks.probe-script', 'notebooks/workspace-activity.ts', ['finding \'activityProbe.script\''], ['library/schema', 'notebooks/activity-probe']),
  MIRRORED('common.topology-values', 'common/topology.ts',
    ['finding `${field}.level`', 'finding `${field}.slices.level`', 'finding `${field}.slices.size`', 'finding `${field}.podSetGroup`'], ['kueue/topology']),
  MIRRORED('common.kai-topology-values', 'common/topology.ts', ['finding `${field}.topologyName`', 'finding `${field}.${key}`'], ['library/kai-topology']),
  MIRRORED('training.elastic-bound-floors', 'training/internal/elastic-bounds.ts', ['checkCount \'elastic.minWorkers\'', 'checkCount \'elastic.maxWorkers\''], ['training-operator/elastic-bounds']),
];

export const CONSTRUCT_ONLY_CHECKS: readonly ExplainedCheck[] = [
  EXPLAINED('boundary.types', 'boundary/check.ts', [],
    'the jsii boundary\'s type checks of what JavaScript and the bindings pass (a string where a number is declared, a missing required prop): a manifest has no such types to confuse'),
  EXPLAINED('common.parse', 'common/parse.ts',
    ['refuseValue \'Parse.cpu\'', 'refuseValue \'Parse.count\'', 'refuseValue \'Parse.size\'', 'refuseValue \'Parse.duration\''], IN_CODE),
  EXPLAINED('common.parse-value', 'common/internal/parse-value.ts', ['finding key ?? \'value\'', 'refuseValue method'], IN_CODE),
  EXPLAINED('config.config-reader', 'config/config-reader.ts', ['throw message', 'finding key'], IN_CODE),
  EXPLAINED('common.accelerator-parse', 'common/accelerator.ts', ['refuseValue \'Accelerator.parse\''], IN_CODE),
  EXPLAINED('common.accelerator-device', 'common/accelerator.ts', ['finding field'],
    'an Accelerator of 0 devices renders a valid limit of 0, so only the prop says a device was meant (a malformed resource name or a fraction is also found in the manifest, by kubernetes/resource-name and kubernetes/resource-integer)'),
  EXPLAINED('common.durations', 'common/internal/durations.ts', ['finding field'], IN_CODE),
  EXPLAINED('common.size-mebibytes', 'common/internal/quantities.ts', ['finding field'], IN_CODE),
  EXPLAINED('common.escape-hatch-pointer', 'common/escape-hatch.ts',
    ['throw `${apiObject.node.path}: pointer is ${JSON.stringify(pointer)}; expected a JSON pointer such as "/spec/newField"`'], IN_CODE),
  EXPLAINED('common.render-error', 'common/internal/resolve-props.ts',
    ['throw `Failed serializing construct at path \'${apiObject.node.path}\' with name \'${apiObject.name}\': ${e}`'],
    'an error thrown while an object renders (a Lazy of the program that throws), passed on in cdk8s\'s own words: a mistake in the program, not a value of the manifest'),
  EXPLAINED('common.api-object-early', 'common/kubeflow-resource.ts', ['throw `${this.node.path}: the API object is not created yet`'],
    'code that reads apiObject inside a subclass constructor before the object exists: a mistake in the program, with no manifest yet'),
  EXPLAINED('common.one-value-per-key', 'common/kubeflow-resource.ts',
    ['failAtSynth `metadata.labels[${JSON.stringify(key)}]`', 'failAtSynth `metadata.annotations[${JSON.stringify(key)}]`'], ONE_VALUE),
  EXPLAINED('common.set-once', 'common/internal/set-once.ts', ['failAtSynth `${field}[${JSON.stringify(key)}]`', 'failAtSynth `env[${name}]`'], ONE_VALUE),
  EXPLAINED('common.platform-defaults-once', 'common/defaults.ts',
    ['failAtSynth \'network\'', 'failAtSynth field', 'failAtSynth `${field}[${JSON.stringify(key)}]`'], ONE_VALUE),
  EXPLAINED('common.platform-defaults-target', 'common/defaults.ts', ['fail e.field'],
    'a target names the versions the cluster runs, an intent of the program that no manifest holds; lint takes the same as --target and checks it the same way (rules/target.ts)'),
  EXPLAINED('common.volume-names', 'common/internal/volumes.ts', ['finding field'], ONE_VALUE),
  EXPLAINED('common.rdma-device', 'common/internal/networking.ts', ['finding `${field}.rdmaDevicesPerPod`', 'finding `${field}.rdmaDevice`'],
    'rdmaDevicesPerPod without an rdmaDevice renders nothing, so only the props show it; a malformed device name is also found in the manifest\'s limits, by kubernetes/resource-name'),
  EXPLAINED('common.network-values', 'common/internal/networking.ts', [
    'finding `${field}.networks[${i}]`', 'finding `${field}.nccl.socketInterfaces[${i}]`', 'finding `${field}.nccl.ibHcas[${i}]`', 'finding `${field}.nccl.gidIndex`',
    'finding `${field}.nccl.netGdrLevel`',
  ], `${NOT_CERTAIN} (the API server takes any text in the Multus networks annotation and the NCCL_* variables; Multus reads the annotation only where it runs, `
    + 'and NCCL reads the variables only in a program that uses it, some of them only to narrow its choice of devices)'),
  EXPLAINED('common.rdma-restricted', 'common/replica.ts', ['finding \'network.rdmaDevice\''],
    'PodSecurity.RESTRICTED is the construct\'s preset and writes no label; lint judges Pod Security only for a namespace of the input labelled restricted (kubernetes/pss-capabilities)'),
  EXPLAINED('training.role-options-without-role', 'training/tensorflow.ts', ['fail \'worker\'', 'fail \'parameterServer\''],
    'options for a role the job does not have (workers or parameterServers 0): the role is left out of the manifest, so its options leave no trace'),
  EXPLAINED('training.mpi-role-options', 'training/mpi.ts', ['fail \'worker\''],
    'options for a role the job does not have (workers 0): the role is left out of the manifest, so its options leave no trace'),
  EXPLAINED('training.paddle-mode', 'training/paddle.ts', ['fail \'parameterServers\'', 'fail \'parameterServer\''],
    'the mode is the construct\'s choice: parameter-server props in collective mode would be dropped, and a manifest only shows the Master it wrote'),
  EXPLAINED('training.tf-success-policy', 'training/tensorflow.ts', ['fail \'successPolicy\'', 'finding \'successPolicy\''],
    'AllWorkers with no workers contradicts the props; the controller ignores the policy when a Chief or Master decides success, and a job with neither and no workers is training-operator/replica-count\'s'),
  EXPLAINED('training.mpi-commands', 'training/mpi.ts',
    ['fail \'command\'', 'fail \'args\'', 'fail \'launcherCommand\'', 'fail \'trainingCommand\'', 'fail \'mpirunArgs\'', 'fail field'],
    'trainingCommand, launcherCommand, mpirunArgs and the launcher role\'s command are options the construct turns into the launcher\'s command; the manifest holds only '
    + 'the command line, where a wrong -np is training-operator/mpi-np\'s (the container names it checks too are kubernetes/container-name\'s in the manifest)'),
  EXPLAINED('training.mpi-launcher-account', 'training/mpi.ts', ['fail \'launcher.serviceAccount\''],
    'the construct writes the launcher\'s account itself; the operator accepts an account a manifest names (and binds its role to it), so there is nothing for lint to refuse'),
  EXPLAINED('training.mpi-np-zero', 'training/mpi.ts', ['finding \'workers\''],
    'with trainingCommand the construct writes mpirun -np itself; the manifest holds -np 0, which only the intent shows was derived from workers'),
  EXPLAINED('training.port', 'training/training-job.ts', ['fail \'port\''],
    'port is the construct\'s option for the framework container\'s port; a manifest port is judged by kubernetes/port-number, and a kind without a wired port has no field to write it to'),
  EXPLAINED('training.not-queueable', 'training/training-job.ts',
    ['fail \'queue\'', 'fail \'workloadPriorityClass\'', 'finding \'queue (platform default)\'', 'fail \'localQueue\'', 'fail \'workloadPriority\''],
    'the queue and priority props of a kind Kueue cannot queue (MXJob): Kueue ignores the labels they would write, and the platform default is the construct\'s resolution'),
  EXPLAINED('training.restricted-kind', 'training/training-job.ts', ['finding \'security\''],
    'PodSecurity.RESTRICTED is the construct\'s preset; a kind whose operator adds containers the standard refuses is judged in lint only for a namespace labelled restricted (training-operator/restricted-operator-init)'),
  EXPLAINED('training.role-topology', 'training/training-job.ts', ['finding `${type}.topology`', 'finding `${type}.topology.podSetGroup`'],
    'the Topology options of one role against the job\'s queue and the other roles: the construct resolves them into Kueue and KAI annotations, and which role asked for what is not in the manifest'),
  EXPLAINED('training.nproc-per-accelerator', 'training/pytorch.ts', ['finding \'nprocPerNode\''], OVERSUBSCRIBED),
  EXPLAINED('trainer.procs-per-accelerator', 'trainer/train-job.ts', ['finding \'numProcPerNode\''], OVERSUBSCRIBED),
  EXPLAINED('trainer.runtime-slots-per-accelerator', 'trainer/training-runtime-base.ts', ['finding \'mlPolicy.mpi.slotsPerWorker\''], OVERSUBSCRIBED),
  EXPLAINED('training.elastic-max-restarts', 'training/internal/elastic-bounds.ts', ['checkCount \'elastic.maxRestarts\''],
    `${NOT_CERTAIN} (a negative elasticPolicy.maxRestarts reaches torchrun as PET_MAX_RESTARTS and restarts no worker group, as 0 does)`),
  EXPLAINED('training.backoff-limit', 'training/training-job.ts', ['checkCount \'runPolicy.backoffLimit\''],
    `${NOT_CERTAIN} (a negative runPolicy.backoffLimit fails the job at its first failed pod, as 0 does)`),
  EXPLAINED('training.gang-min-available-floor', 'training/training-job.ts', ['checkCount \'gangScheduling.minAvailable\''],
    `${NOT_CERTAIN} (a minAvailable below 1 gives a PodGroup that waits for no pod: no gang, rather than a stuck one; a minAvailable above the job's pods is training-operator/gang-min-available's)`),
  EXPLAINED('training.operator-config-user', 'training/operator-config.ts', ['checkCount \'user\''],
    'the user is written into a template file inside a ConfigMap\'s data, which lint reads only as text'),
  EXPLAINED('trainer.kueue-pod-metadata', 'trainer/train-job.ts', ['finding prop'],
    'the podLabels and podAnnotations props of a queued TrainJob: the manifest shows them in the runtime patch, where trainer/kueue-patch-metadata finds them; the construct names the props instead'),
  EXPLAINED('trainer.runtime-order', 'trainer/train-job.ts', ['finding \'runtime\''],
    'which chart a runtime is written in, and in what order cdk8s writes the charts: the app\'s structure, not a manifest\'s'),
  EXPLAINED('trainer.launcher-without-mpi', 'trainer/training-runtime-base.ts', ['finding \'launcher\''],
    'launcher options on a runtime whose policy is not MPI: the construct writes no launcher job, so the options leave no trace'),
  EXPLAINED('trainer.v1-only-options', 'trainer/training-runtime-base.ts', ['finding `${at}podRestartPolicy`', 'finding `${at}topology`'],
    'options a runtime shares with v1 jobs but cannot honour: the construct would drop them, so the manifest never shows them'),
  EXPLAINED('notebooks.kind-cluster-scoped', 'notebooks/workspace-kind.ts', ['fail \'metadata.namespace\''],
    'the API server clears the namespace of a cluster-scoped object on create, so a manifest with one is accepted; the construct refuses the prop, which cannot take effect'),
  EXPLAINED('notebooks.kind-deprecation', 'notebooks/workspace-kind.ts', ['fail \'deprecated\''],
    'deprecated: false with a deprecationMessage contradicts the props; the construct writes the message only on a deprecated kind'),
  EXPLAINED('notebooks.kind-accelerators', 'notebooks/workspace-kind.ts', ['fail `${field}.limits.accelerator`'],
    'two Accelerator objects for requests and limits: the construct writes one extended resource, at its request, so the manifest cannot differ (kubernetes/resource-not-overcommitted judges a written one)'),
  EXPLAINED('notebooks.activity-rules', 'notebooks/workspace-kind.ts', ['fail `${field}.${part}`'], IN_CODE),
  EXPLAINED('notebooks.env-path-prefix', 'notebooks/workspace-kind.ts', ['finding `env[${variable}]`'],
    `${NOT_CERTAIN} (the controller renders httpPathPrefix of a port the image does not define as an empty text, and the webhook only parses the template)`),
  EXPLAINED('notebooks.cluster-roles', 'notebooks/workspace-kind.ts', ['fail \'clusterRoles\''],
    'the ClusterRoles a kind needs are written into RBAC objects the construct makes, not into the WorkspaceKind; lint reads no RBAC kinds'),
  EXPLAINED('notebooks.workspace-kind-by-name', 'notebooks/workspace.ts', ['fail \'imageConfig\'', 'fail \'podConfig\''],
    'a kind known by name only (WorkspaceKindRef): the construct cannot look its defaults up; in a manifest an unset option is the kind\'s default, which notebooks/workspace-option checks against a kind of the input'),
  EXPLAINED('notebooks.workspace-claims', 'notebooks/workspace.ts',
    ['finding `${field}.storage`', 'fail \'home.accessMode\'', 'fail `data[${index}].readOnly`', 'fail `secrets[${index}].defaultMode`'],
    'the size and access modes come from the claim object passed in code, and a Secret\'s mode from its option; the Workspace manifest names the claim or Secret only'),
  EXPLAINED('notebooks.workspace-references', 'notebooks/workspace.ts', ['finding field'],
    'the kind object passed in code: its option ids and its mount paths; in a manifest they are notebooks/workspace-option\'s and notebooks/workspace-mount-path\'s against a kind of the input'),
  EXPLAINED('common.kai-topology-level', 'common/topology.ts', ['finding `${field}.requiredLevel`'],
    `${NOT_CERTAIN} (a KAI topology with neither a required nor a preferred level is legal: the KAI scheduler then places the pods without regard to topology, which the Topology prop was given to avoid)`),
  EXPLAINED('common.kueue-references', 'common/internal/kueue-references.ts',
    ['fail \'localQueue\'', 'fail \'workloadPriority\'', 'fail \'localQueue.namespace\''],
    'a LocalQueue or WorkloadPriorityClass passed in code beside a name for the same label (the manifest holds one label), and the namespace of the LocalQueue object passed: the job\'s manifest names the queue only'),
  EXPLAINED('kueue.no-pods', 'kueue/internal/no-pods.ts', ['fail field'],
    'addPodLabel or addPodAnnotation called on a Kueue object: a method call the construct refuses, which writes nothing'),
  EXPLAINED('common.runtime-group-scale', 'common/replica.ts', ['fail \'replicas\''],
    'scale() called on a training runtime\'s replica group, whose count numNodes (or one pod) sets: a method call the construct refuses, which writes nothing'),
  EXPLAINED('trainer.workspace-without-initializer', 'trainer/training-runtime-base.ts', ['finding \'workspace\''],
    'workspace options on a runtime with no initializer that mounts the workspace: the construct writes no claim, so the options leave no trace'),
  EXPLAINED('kueue.threshold-without-borrowing', 'kueue/cluster-queue.ts', ['fail \'preemption.borrowWithinCohortMaxPriorityThreshold\''],
    'a priority threshold without the borrowWithinCohort policy it belongs to: the construct writes no policy, so the threshold leaves no trace'),
  EXPLAINED('notebooks.redirect-level-without-message', 'notebooks/internal/option-catalogue.ts', ['finding `${at}.redirect.level`'],
    'a redirect level without a message: the CRD holds the level inside the message, so the construct writes neither and the manifest has no trace'),
];

export const NOT_YET_IN_LINT: readonly ExplainedCheck[] = [];
