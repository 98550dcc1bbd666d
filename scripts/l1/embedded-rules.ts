/**
 * Where a CRD embeds a Kubernetes core type, and which one. Paths are dotted schema paths from the
 * kind's root; `*` stands for a map value and `[]` for an array item. Everything below a match is
 * typed by the cdk8s-plus-28 `k8s` type of that name (or by our core module where the CRD is newer).
 */
export const EMBEDDED_TYPE_RULES: ReadonlyArray<{ readonly path: RegExp; readonly type: string }> = [
  // Training Operator v1: every replica's pod template, and the elastic HPA metrics.
  { path: /^spec\.\w+ReplicaSpecs\.\*\.template$/, type: 'PodTemplateSpec' },
  { path: /^spec\.elasticPolicy\.metrics\.\[\]$/, type: 'MetricSpecV2' },
  // Notebooks v2 WorkspaceKind: the pod-level settings an admin publishes.
  { path: /^spec\.podTemplate\.options\.podConfig\.values\.\[\]\.spec\.affinity$/, type: 'Affinity' },
  { path: /^spec\.podTemplate\.options\.podConfig\.values\.\[\]\.spec\.tolerations\.\[\]$/, type: 'Toleration' },
  { path: /^spec\.podTemplate\.options\.podConfig\.values\.\[\]\.spec\.resources$/, type: 'ResourceRequirements' },
  { path: /^spec\.podTemplate\.extraEnv\.\[\]$/, type: 'EnvVar' },
  { path: /^spec\.podTemplate\.extraVolumeMounts\.\[\]$/, type: 'VolumeMount' },
  { path: /^spec\.podTemplate\.extraVolumes\.\[\]$/, type: 'Volume' },
  { path: /^spec\.podTemplate\.securityContext$/, type: 'PodSecurityContext' },
  { path: /^spec\.podTemplate\.containerSecurityContext$/, type: 'SecurityContext' },
  { path: /^spec\.podTemplate\.probes\.\w+Probe$/, type: 'Probe' },
  // Trainer v2 runtimes: each replicated job's pod template inside the JobSet template.
  { path: /^spec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template$/, type: 'PodTemplateSpec' },
  // Trainer v2 TrainJob: the trainer's env and resources, the initializers' env and secret.
  { path: /^spec\.trainer\.env\.\[\]$/, type: 'EnvVar' },
  { path: /^spec\.trainer\.resourcesPerNode$/, type: 'ResourceRequirements' },
  { path: /^spec\.initializer\.(dataset|model)\.env\.\[\]$/, type: 'EnvVar' },
  { path: /^spec\.initializer\.(dataset|model)\.secretRef$/, type: 'LocalObjectReference' },
  // The TrainJob's runtime patch is not a pod template (containers need no image there, and
  // PodSpec's required containers is optional), so only its parts that are whole core types are
  // typed by them; a PodTemplateSpec rule here would make the merged core.PodSpec loosen required.
  { path: /^spec\.runtimePatches\.\[\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template\.spec\.affinity$/, type: 'Affinity' },
  { path: /^spec\.runtimePatches\.\[\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template\.spec\.tolerations\.\[\]$/, type: 'Toleration' },
  { path: /^spec\.runtimePatches\.\[\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template\.spec\.volumes\.\[\]$/, type: 'Volume' },
  { path: /^spec\.runtimePatches\.\[\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template\.spec\.securityContext$/, type: 'PodSecurityContext' },
  { path: /^spec\.runtimePatches\.\[\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template\.spec\.imagePullSecrets\.\[\]$/, type: 'LocalObjectReference' },
  { path: /^spec\.runtimePatches\.\[\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template\.spec\.(initContainers|containers)\.\[\]\.env\.\[\]$/, type: 'EnvVar' },
  { path: /^spec\.runtimePatches\.\[\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template\.spec\.(initContainers|containers)\.\[\]\.volumeMounts\.\[\]$/, type: 'VolumeMount' },
  { path: /^spec\.runtimePatches\.\[\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\.\[\]\.template\.spec\.template\.spec\.(initContainers|containers)\.\[\]\.securityContext$/, type: 'SecurityContext' },
  { path: /\.selector$/, type: 'LabelSelector' },
];

export function embeddedTypeAt(path: string): string | undefined {
  return EMBEDDED_TYPE_RULES.find(rule => rule.path.test(path))?.type;
}
