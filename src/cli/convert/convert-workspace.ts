/**
 * The L2 mapper of Workspaces: the `Workspace` construct renders a workspace of a kind known by
 * name with its two options, `paused` and the `volumes` object always written, a home claim and
 * data claims by name (`readOnly` always written), a display name, and pod labels and annotations
 * when there are any. A workspace with anything else (secrets, which the construct takes as Secret
 * constructs; an empty label map; a field the construct writes that the input leaves to the
 * default), or with findings the construct would refuse at synth, is left to the typed L1 class.
 */
import { Expr, array, json, object, print, quoteString } from './convert-code';
import type { L2Mapping } from './convert-l2-mapping';
import { Finding, describe } from '../../rules/finding';
import { isObject as isMap } from '../../rules/kubernetes/names';

const isStringMap = (v: unknown) => isMap(v) && Object.keys(v).length > 0 && Object.values(v).every(x => typeof x === 'string');
const keysWithin = (v: unknown, allowed: readonly string[]) => isMap(v) && Object.keys(v).every(k => allowed.includes(k));
const isDataVolume = (d: unknown) => isMap(d) && Object.keys(d).sort().join() === 'mountPath,pvcName,readOnly'
  && typeof d.pvcName === 'string' && typeof d.mountPath === 'string' && typeof d.readOnly === 'boolean';
const ref = (code: string): Expr => ({ type: 'ref', code, value: undefined });

/** The `Workspace` construct for `doc` (a Workspace manifest, nulls dropped), or what it cannot say. */
export function workspaceL2(doc: any, chart: string, id: string, findings: readonly Finding[]): L2Mapping {
  if (findings.length > 0) return { cannot: `the Workspace construct would refuse it at synth (${describe(findings[0])})` };
  const spec = doc.spec;
  const template = spec?.podTemplate;
  const podMetadata = template?.podMetadata;
  const volumes = template?.volumes;
  const options = template?.options;
  const checks: Array<[boolean, string]> = [
    [keysWithin(doc, ['apiVersion', 'kind', 'metadata', 'spec']), 'fields beside metadata and spec'],
    [keysWithin(doc.metadata, ['name', 'namespace', 'labels', 'annotations']) && typeof doc.metadata.name === 'string', 'metadata beyond name, namespace, labels and annotations'],
    [keysWithin(spec, ['displayName', 'kind', 'paused', 'podTemplate']) && typeof spec.kind === 'string', 'spec fields beside displayName, kind, paused and podTemplate'],
    [typeof spec?.paused === 'boolean', 'a spec without paused (the construct writes it)'],
    [spec?.displayName === undefined || typeof spec.displayName === 'string', 'spec.displayName as written'],
    [keysWithin(template, ['podMetadata', 'volumes', 'options']), 'podTemplate fields beside podMetadata, volumes and options'],
    [podMetadata === undefined || (keysWithin(podMetadata, ['labels', 'annotations']) && Object.keys(podMetadata).length > 0
      && Object.values(podMetadata).every(isStringMap)), 'podTemplate.podMetadata with an empty or missing map'],
    [keysWithin(volumes, ['home', 'data']), 'podTemplate.volumes other than home and data claims (secrets are Secret constructs), or none'],
    [volumes?.home === undefined || typeof volumes.home === 'string', 'podTemplate.volumes.home as written'],
    [volumes?.data === undefined || (Array.isArray(volumes.data) && volumes.data.length > 0 && volumes.data.every(isDataVolume)),
      'podTemplate.volumes.data as written (each with pvcName, mountPath and readOnly)'],
    [keysWithin(options, ['imageConfig', 'podConfig']) && typeof options.imageConfig === 'string' && typeof options.podConfig === 'string',
      'podTemplate.options without both option ids (a kind known by name has no defaults to look up)'],
  ];
  const cannot = checks.filter(([ok]) => !ok).map(([, what]) => what);
  if (cannot.length > 0) return { cannot: `the Workspace construct does not say ${cannot.join(', ')}` };

  const props: Array<[string, Expr]> = [
    ['metadata', json(doc.metadata)],
    ['kind', ref(`WorkspaceKind.fromName(${quoteString(spec.kind)})`)],
    ['imageConfig', json(options.imageConfig)],
    ['podConfig', json(options.podConfig)],
  ];
  if (volumes.home !== undefined) props.push(['home', ref(`WorkspaceClaim.fromClaimName(${quoteString(volumes.home)})`)]);
  if (volumes.data !== undefined) {
    props.push(['data', array(volumes.data.map((d: any) => object([
      ['mountPath', json(d.mountPath)],
      ['claim', ref(`WorkspaceClaim.fromClaimName(${quoteString(d.pvcName)})`)],
      ['readOnly', json(d.readOnly)],
    ])))]);
  }
  props.push(['paused', json(spec.paused)]);
  if (spec.displayName !== undefined) props.push(['displayName', json(spec.displayName)]);
  if (podMetadata?.labels !== undefined) props.push(['podLabels', json(podMetadata.labels)]);
  if (podMetadata?.annotations !== undefined) props.push(['podAnnotations', json(podMetadata.annotations)]);
  const imports = ['cdk8s-kubeflow Workspace', 'cdk8s-kubeflow WorkspaceKind'];
  if (volumes.home !== undefined || volumes.data !== undefined) imports.push('cdk8s-kubeflow WorkspaceClaim');
  return { code: `new Workspace(${chart}, ${quoteString(id)}, ${print(object(props))});`, imports };
}
