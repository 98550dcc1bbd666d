/**
 * The audit's two decided tables. A member the walk finds without an effect on the manifest is in
 * INERT with the reason it has none by design; a member the construct refuses with its sample is
 * in REFUSED with the exact message (the member has no effect where it was given, and the construct
 * says so). Every other member changes the manifest. Both tables only shrink: an entry whose member
 * now changes the manifest, or is gone, fails the audit until it is removed.
 */

/** Why a value reader's calls leave the manifest alone. */
const READER = 'returns the value it read from a configuration file for the caller to pass to a construct (the manifest changes where the value is used); '
  + 'a refused value is reported at synth with the constructs\' findings (test/config/config-reader.test.ts)';
/** Why the target versions leave the manifest alone. */
const TARGET = 'selects which rules apply (the support window, docs/versions.md): it changes the findings a synth reports, never the manifest (test/common/target.test.ts)';

/** Why the escape hatch leaves the manifest alone. */
const ESCAPE = 'lets the strict schema check accept a field the caller wrote through the L1 escape hatch: it changes the findings, never the manifest (test/common/escape-hatch.test.ts)';

/** Members with no effect on the manifest by design, with the reason. */
export const INERT: { [member: string]: string } = {
  'PlatformDefaults: target.jobset': TARGET,
  'PlatformDefaults: target.kubernetes': TARGET,
  'PlatformDefaults: target.kueue': TARGET,
  'PlatformDefaults: target.notebooks': TARGET,
  'PlatformDefaults: target.trainer': TARGET,
  'PlatformDefaults: target.trainingOperator': TARGET,
  'EscapeHatch.allowUnknownField(apiObject)': ESCAPE,
  'EscapeHatch.allowUnknownField(pointer)': ESCAPE,
  'PlatformDefaults.of(construct)': 'reads the defaults that apply to a construct (the ones PlatformDefaults.set gave, walked as props); it sets nothing',
  'StableFileNamesApp: synth()': 'writes the app\'s files: it is the synth the audit compares, not a change to what is synthesized (its file names: test/common/stable-file-names-app.test.ts)',
  'ConfigReader: accelerator()': READER,
  'ConfigReader: check()': READER,
  'ConfigReader: cleanPodPolicy()': READER,
  'ConfigReader: count()': READER,
  'ConfigReader: cpu()': READER,
  'ConfigReader: duration()': READER,
  'ConfigReader: filterScope()': READER,
  'ConfigReader: gangScheduler()': READER,
  'ConfigReader: managedBy()': READER,
  'ConfigReader: ncclDebug()': READER,
  'ConfigReader: nodeHealth()': READER,
  'ConfigReader: nprocPerNode()': READER,
  'ConfigReader: paddleMode()': READER,
  'ConfigReader: podSecurity()': READER,
  'ConfigReader: preemptionPolicy()': READER,
  'ConfigReader: queueingStrategy()': READER,
  'ConfigReader: rdmaDevice()': READER,
  'ConfigReader: redirectLevel()': READER,
  'ConfigReader: rendezvousBackend()': READER,
  'ConfigReader: restartPolicy()': READER,
  'ConfigReader: size()': READER,
  'ConfigReader: successPolicy()': READER,
};

/** Members the construct refuses where the audit gives them, with the exact message. */
export const REFUSED: { [member: string]: string } = {
  // A v1 MPIJob: Kueue cannot admit it, its workers take no job-wide command, its launcher runs as
  // the operator's account beside the operator's own init container (no restricted preset), and its
  // containers have no port.
  'MpiAllReduce: args':
    'test/job: args is ["--audit"]; expected trainingCommand or launcherCommand; job-wide arguments would reach the workers too',
  'MpiAllReduce: command':
    'test/job: command is ["python", "audit.py"]; expected trainingCommand (the program mpirun starts on the workers) or launcherCommand; a job-wide command would also replace the idle process of the workers that the launcher execs into',
  'MpiAllReduce: topology':
    "Validation failed with the following errors:\n  [test/job] Launcher.topology is \"required cloud.provider.com/topology-block\"; expected no Kueue topology (Kueue cannot admit this kind): Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator\n  [test/job] Worker.topology is \"required cloud.provider.com/topology-block\"; expected no Kueue topology (Kueue cannot admit this kind): Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator",
  'MpiAllReduce: localQueue':
    "test/job: localQueue is \"audit\"; expected no Kueue queue: Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator",
  'MpiAllReduce: port':
    'test/job: port is 23457; expected none: the MPIJob containers have no port the operator wires up',
  'MpiAllReduce: queue':
    "test/job: queue is \"audit-queue\"; expected no Kueue queue: Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator",
  'MpiAllReduce: security':
    "Validation failed with the following errors:\n  [test/job] security is \"PodSecurity.RESTRICTED\"; expected PodSecurity.DEFAULT: the training operator adds its kubectl-delivery init container to the MPI launcher without a security context, so a namespace that enforces the \"restricted\" Pod Security Standard refuses the launcher whatever the job sets; run the job in a baseline namespace (harden its containers with securityContext) or use Trainer v2's MPI runtime",
  'MpiAllReduce: workloadPriority':
    "test/job: workloadPriority is \"audit\"; expected no Kueue queue: Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator",
  'MpiAllReduce: workloadPriorityClass':
    "test/job: workloadPriorityClass is \"audit-priority\"; expected no Kueue queue: Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator",
  'MpiAllReduce: launcher.serviceAccount':
    'test/job: launcher.serviceAccount is "audit-sa"; expected none: the operator runs the launcher as its own account "train-launcher", which may exec into the workers',
  'MpiAllReduce: launcher.topology':
    "Validation failed with the following errors:\n  [test/job] Launcher.topology is \"required cloud.provider.com/topology-block\"; expected no Kueue topology (Kueue cannot admit this kind): Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator",
  'MpiAllReduce: worker.topology':
    "Validation failed with the following errors:\n  [test/job] Worker.topology is \"required cloud.provider.com/topology-block\"; expected no Kueue topology (Kueue cannot admit this kind): Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator",
  // A training runtime: the Trainer has no pod restart policy of a v1 replica.
  'TrainingRuntime: podRestartPolicy':
    'test/runtime: podRestartPolicy is "OnFailure"; expected none on a training runtime: podRestartPolicy mirrors the restartPolicy of a v1 replica type, and the Trainer has no such policy (it runs each replicated job as a batch Job of a JobSet, and a failed Job fails the TrainJob)',
  'TrainingRuntime: launcher.podRestartPolicy':
    'test/runtime: launcher.podRestartPolicy is "OnFailure"; expected none on a training runtime: podRestartPolicy mirrors the restartPolicy of a v1 replica type, and the Trainer has no such policy (it runs each replicated job as a batch Job of a JobSet, and a failed Job fails the TrainJob)',
  'ClusterTrainingRuntime: podRestartPolicy':
    'test/runtime: podRestartPolicy is "OnFailure"; expected none on a training runtime: podRestartPolicy mirrors the restartPolicy of a v1 replica type, and the Trainer has no such policy (it runs each replicated job as a batch Job of a JobSet, and a failed Job fails the TrainJob)',
  'ClusterTrainingRuntime: launcher.podRestartPolicy':
    'test/runtime: launcher.podRestartPolicy is "OnFailure"; expected none on a training runtime: podRestartPolicy mirrors the restartPolicy of a v1 replica type, and the Trainer has no such policy (it runs each replicated job as a batch Job of a JobSet, and a failed Job fails the TrainJob)',
  // Found by this audit, now refused: a field with nowhere to go in the CRD.
  'ClusterQueue: preemption.borrowWithinCohortMaxPriorityThreshold':
    'test/cluster-queue: preemption.borrowWithinCohortMaxPriorityThreshold is 100; expected none without preemption.borrowWithinCohort: the threshold limits the workloads that policy preempts',
  'WorkspaceKind.addImageConfig: redirect.level':
    'test/kind: imageConfig[minimal].redirect.level is "Danger"; expected none without a redirect.message: the level is how the spawner shows the message',
  'WorkspaceKind.addPodConfig: redirect.level':
    'test/kind: podConfig[large].redirect.level is "Danger"; expected none without a redirect.message: the level is how the spawner shows the message',
  // A role with exactly one replica.
  'DistributedPyTorch.Master: scale()':
    'test/job/Master: replicas is 5; expected 1: a static PyTorchJob has exactly one Master, which the operator makes rank 0 and the rendezvous address',
  'MpiAllReduce.Launcher: scale()':
    'test/job/Launcher: replicas is 5; expected 1: an MPIJob has exactly one launcher',
  'DistributedXGBoost.Master: scale()':
    'test/job/Master: replicas is 5; expected exactly 1; the operator rejects an XGBoostJob whose Master does not have one replica',
  // Found by this audit, now refused: a runtime's group count is numNodes, or one pod.
  'TrainingRuntime.nodes: scale()':
    "test/runtime/node: replicas is 5; expected no scale() here: a runtime's nodes are its numNodes (a TrainJob may set its own numNodes)",
  'TrainingRuntime.launcher: scale()':
    "test/runtime/launcher: replicas is 5; expected no scale() here: the Trainer runs one pod of a runtime's launcher and of each initializer",
  'TrainingRuntime.datasetInitializer: scale()':
    "test/runtime/dataset-initializer: replicas is 5; expected no scale() here: the Trainer runs one pod of a runtime's launcher and of each initializer",
  'TrainingRuntime.modelInitializer: scale()':
    "test/runtime/model-initializer: replicas is 5; expected no scale() here: the Trainer runs one pod of a runtime's launcher and of each initializer",
  // Kueue objects describe no pods.
  'ClusterQueue: addPodAnnotation()':
    'test/cluster-queue: podAnnotations is "example.com/audit"; expected none: a ClusterQueue describes no pods; add pod annotations to the jobs it admits',
  'ClusterQueue: addPodLabel()':
    'test/cluster-queue: podLabels is "example.com/audit"; expected none: a ClusterQueue describes no pods; add pod labels to the jobs it admits',
  'Cohort: addPodAnnotation()':
    'test/cohort: podAnnotations is "example.com/audit"; expected none: a Cohort describes no pods; add pod annotations to the jobs it admits',
  'Cohort: addPodLabel()':
    'test/cohort: podLabels is "example.com/audit"; expected none: a Cohort describes no pods; add pod labels to the jobs it admits',
  'LocalQueue: addPodAnnotation()':
    'test/queue: podAnnotations is "example.com/audit"; expected none: a LocalQueue describes no pods; add pod annotations to the jobs it admits',
  'LocalQueue: addPodLabel()':
    'test/queue: podLabels is "example.com/audit"; expected none: a LocalQueue describes no pods; add pod labels to the jobs it admits',
  'ResourceFlavor: addPodAnnotation()':
    'test/flavor: podAnnotations is "example.com/audit"; expected none: a ResourceFlavor describes no pods; add pod annotations to the jobs it admits',
  'ResourceFlavor: addPodLabel()':
    'test/flavor: podLabels is "example.com/audit"; expected none: a ResourceFlavor describes no pods; add pod labels to the jobs it admits',
  'WorkloadPriorityClass: addPodAnnotation()':
    'test/priority: podAnnotations is "example.com/audit"; expected none: a WorkloadPriorityClass describes no pods; add pod annotations to the jobs it admits',
  'WorkloadPriorityClass: addPodLabel()':
    'test/priority: podLabels is "example.com/audit"; expected none: a WorkloadPriorityClass describes no pods; add pod labels to the jobs it admits',
  'KueueTopology: addPodAnnotation()':
    'test/topology: podAnnotations is "example.com/audit"; expected none: a Topology describes no pods; add pod annotations to the jobs it admits',
  'KueueTopology: addPodLabel()':
    'test/topology: podLabels is "example.com/audit"; expected none: a Topology describes no pods; add pod labels to the jobs it admits',
};
