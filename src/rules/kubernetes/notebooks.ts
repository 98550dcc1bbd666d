/**
 * The pod pieces of Kubeflow Notebooks v2 (kubeflow.org/v1beta1): a WorkspaceKind carries parts of
 * the pod the controller builds (metadata, env, volumes, mounts, security contexts, probes, per-option node
 * selectors, tolerations, affinity, resources, images); a Workspace carries pod metadata. Each piece
 * is checked with the same rule as in a pod spec, at its place in the document.
 */
import { Finding } from '../finding';
import { checkEnv, checkImage, checkProbes, checkVolumeMounts, IMAGE_PULL_POLICY } from './containers';
import { child, indexed } from './field-path';
import { checkTemplateMeta } from './metadata';
import { isObject } from './names';
import { checkContainerClaims } from './pod-resources';
import { checkPodSecurityFields } from './pod-security-context';
import { checkResources } from './resources';
import { checkAffinity, checkNodeSelector, checkTolerations } from './scheduling';
import { checkContainerSecurityContext, checkPodSecurityContext } from './security';
import { checkVolumes } from './volumes';
import { WINDOWS_OPTIONS, checkOptions, checkWindowsOptions } from './windows-options';


const PULL_POLICIES = new Set(['Always', 'IfNotPresent', 'Never']);

/** Checks the pod pieces of a WorkspaceKind. */
export function checkWorkspaceKind(doc: any, out: Finding[]): void {
  const template = doc?.spec?.podTemplate;
  if (!isObject(template)) return;
  const at = 'spec.podTemplate';
  checkTemplateMeta(template.podMetadata, child(at, 'podMetadata'), out);
  checkEnv(template.extraEnv, child(at, 'extraEnv'), out);
  const volumes = checkVolumes(template.extraVolumes, child(at, 'extraVolumes'), out);
  checkVolumeMounts(template.extraVolumeMounts, child(at, 'extraVolumeMounts'), volumes, out);
  const podScAt = child(at, 'securityContext');
  checkPodSecurityContext(template.securityContext, podScAt, out);
  checkContainerSecurityContext(template.containerSecurityContext, child(at, 'containerSecurityContext'), template.securityContext, podScAt, out);
  // The pod-wide fields the controller copies into the pod it builds (sysctls, the fsGroup and
  // supplemental groups policies, Windows options), judged as a pod spec's; that pod has no host network.
  checkPodSecurityFields({ securityContext: template.securityContext }, at, out);
  checkWindowsOptions({ securityContext: template.securityContext }, at, out);
  const containerWindows = template.containerSecurityContext?.windowsOptions;
  if (isObject(containerWindows)) {
    const wAt = child(child(at, 'containerSecurityContext'), 'windowsOptions');
    checkOptions(containerWindows, wAt, out);
    if (containerWindows.hostProcess === true) {
      WINDOWS_OPTIONS.report(out, child(wAt, 'hostProcess'), true, 'expected false or none: a host process container needs hostNetwork, which the pods of a WorkspaceKind do not have');
    }
  }
  checkProbes(template.probes, child(at, 'probes'), out);
  const options = template.options;
  if (!isObject(options)) return;
  const podValues = options.podConfig?.values;
  if (Array.isArray(podValues)) {
    const valuesAt = child(child(child(at, 'options'), 'podConfig'), 'values');
    for (let i = 0; i < podValues.length; i++) {
      const spec = podValues[i]?.spec;
      if (!isObject(spec)) continue;
      const specAt = child(indexed(valuesAt, i), 'spec');
      checkNodeSelector(spec.nodeSelector, child(specAt, 'nodeSelector'), out);
      checkTolerations(spec.tolerations, child(specAt, 'tolerations'), out);
      checkAffinity(spec.affinity, child(specAt, 'affinity'), out);
      checkResources(spec.resources, child(specAt, 'resources'), out);
      // The controller's pods have no resourceClaims for a container's claim to name.
      if (isObject(spec.resources)) checkContainerClaims(spec.resources.claims, child(child(specAt, 'resources'), 'claims'), new Set(), out);
    }
  }
  const imageValues = options.imageConfig?.values;
  if (Array.isArray(imageValues)) {
    const valuesAt = child(child(child(at, 'options'), 'imageConfig'), 'values');
    for (let i = 0; i < imageValues.length; i++) {
      const spec = imageValues[i]?.spec;
      if (!isObject(spec)) continue;
      const specAt = child(indexed(valuesAt, i), 'spec');
      checkImage(spec.image, child(specAt, 'image'), out);
      if (spec.imagePullPolicy !== undefined && !PULL_POLICIES.has(spec.imagePullPolicy)) {
        IMAGE_PULL_POLICY.report(out, child(specAt, 'imagePullPolicy'), spec.imagePullPolicy, 'expected "Always", "IfNotPresent" or "Never"');
      }
    }
  }
}

/** Checks the pod metadata of a Workspace. */
export function checkWorkspace(doc: any, out: Finding[]): void {
  const template = doc?.spec?.podTemplate;
  if (!isObject(template)) return;
  checkTemplateMeta(template.podMetadata, 'spec.podTemplate.podMetadata', out);
}
