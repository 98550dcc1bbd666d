import * as kplus from 'cdk8s-plus-28';
import * as core from '../../../imports/core';
import * as notebooks from '../../../imports/notebooks';
import type { PlatformDefaultsProps } from '../../common/defaults';
import { resourceQuantities } from '../../common/internal/quantities';
import { acceleratorToleration } from '../../rules/kubernetes/accelerator-facts';
import { dropUndefined, mergeMaps, nonEmpty, uniqueByContent } from '../../util/collections';
import type { ActivityRule, FilterRule } from '../workspace-activity';
import { OptionRedirect, PodConfigOptions, RedirectLevel, WorkspaceOptionProps, WorkspacePort } from '../workspace-options';

/*
 * How a WorkspaceKind's options, ports, mounts and rules are written into its L1 spec. Each
 * function renders one of the option structs of workspace-options.ts and workspace-activity.ts.
 */

/** A volume mounted into the workspace container of every workspace of the kind. */
export interface ExtraMount {
  readonly path: string;
  readonly volume: kplus.Volume;
  readonly options: kplus.MountOptions;
}

export function renderOptionSpawner(id: string, o: WorkspaceOptionProps): notebooks.ValueSpawner {
  const labels = Object.entries(o.labels ?? {}).map(([key, value]) => ({ key, value }));
  return dropUndefined({
    displayName: o.displayName ?? id,
    description: o.description,
    hidden: o.hidden,
    labels: labels.length ? labels : undefined,
  });
}

export function renderRedirect(r: OptionRedirect | undefined): notebooks.Redirect | undefined {
  if (!r) return undefined;
  return dropUndefined({
    to: r.to,
    message: r.message !== undefined
      ? { level: (r.level ?? RedirectLevel.INFO).value as notebooks.RedirectMessageLevel, text: r.message }
      : undefined,
  });
}

export function renderPort(p: WorkspacePort): notebooks.WorkspaceKindSpecPodTemplatePorts {
  const requestHeaders = dropUndefined({
    set: nonEmpty(p.setRequestHeaders),
    add: nonEmpty(p.addRequestHeaders),
    remove: p.removeRequestHeaders?.length ? p.removeRequestHeaders : undefined,
  });
  return {
    id: p.id,
    defaultDisplayName: p.displayName,
    protocol: notebooks.WorkspaceKindSpecPodTemplatePortsProtocol.HTTP,
    httpProxy: dropUndefined({
      removePathPrefix: p.removePathPrefix ?? false,
      requestHeaders: Object.keys(requestHeaders).length ? requestHeaders : undefined,
    }),
  };
}

export function renderMount(m: ExtraMount): core.VolumeMount {
  return dropUndefined({
    name: m.volume.name,
    mountPath: m.path,
    readOnly: m.options.readOnly,
    subPath: m.options.subPath,
    subPathExpr: m.options.subPathExpr,
    mountPropagation: m.options.propagation,
  });
}

type PodConfigSpec = notebooks.WorkspaceKindSpecPodTemplateOptionsPodConfigValuesSpec;

export function renderPodConfig(o: PodConfigOptions, defaults: PlatformDefaultsProps): PodConfigSpec {
  const accelerator = o.requests?.accelerator ?? o.limits?.accelerator;
  const requests = resourceQuantities({ ...o.requests, accelerator });
  const limits = resourceQuantities({ ...o.limits, accelerator });
  const tolerations = uniqueByContent([
    ...(defaults.tolerations ?? []),
    ...(accelerator ? [acceleratorToleration(accelerator.resourceName)] : []),
    ...(o.tolerations ?? []),
  ]);
  const resources: core.ResourceRequirements = dropUndefined({
    requests: Object.keys(requests).length ? requests : undefined,
    limits: Object.keys(limits).length ? limits : undefined,
  });
  return dropUndefined({
    affinity: o.affinity as core.Affinity | undefined,
    nodeSelector: mergeMaps(defaults.nodeSelector, o.nodeSelector),
    tolerations: tolerations.length ? tolerations : undefined,
    resources: Object.keys(resources).length ? resources : undefined,
  });
}

export function renderActivityRule(r: ActivityRule): notebooks.WorkspaceKindSpecActivityRules {
  const match = dropUndefined({
    matchNamespace: r.namespaceSelector ? { selector: r.namespaceSelector } : undefined,
    matchPodConfig: r.podConfigSelector ? { selector: r.podConfigSelector } : undefined,
  });
  return dropUndefined({
    config: dropUndefined({ secondsSinceActive: r.inactiveFor.toSeconds(), minRunningSeconds: r.minRunning?.toSeconds() }),
    match: Object.keys(match).length ? match : undefined,
    effect: { pauseWorkspace: r.pauseWorkspace ?? true },
  });
}

export function renderFilterRule(r: FilterRule): notebooks.WorkspaceKindSpecFilterRules {
  const match: notebooks.WorkspaceKindSpecFilterRulesMatch[] = [
    ...(r.namespaceSelector ? [{ matchNamespace: { selector: r.namespaceSelector } }] : []),
    ...(r.imageConfigSelector ? [{ matchImageConfig: { selector: r.imageConfigSelector } }] : []),
    ...(r.podConfigSelector ? [{ matchPodConfig: { selector: r.podConfigSelector } }] : []),
  ];
  const api = dropUndefined({
    hide: r.hideInApi,
    deny: r.deny,
    denyMessage: r.denyMessage !== undefined ? { text: r.denyMessage } : undefined,
  });
  return {
    scope: r.scope.value as notebooks.WorkspaceKindSpecFilterRulesScope,
    match,
    effect: dropUndefined({
      ui: r.hideInUi !== undefined ? { hide: r.hideInUi } : undefined,
      api: Object.keys(api).length ? api : undefined,
    }),
  };
}
