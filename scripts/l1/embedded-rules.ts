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
  { path: /\.selector$/, type: 'LabelSelector' },
];

export function embeddedTypeAt(path: string): string | undefined {
  return EMBEDDED_TYPE_RULES.find(rule => rule.path.test(path))?.type;
}
