/**
 * What a Kubeflow Notebooks v2 Workspace asks of the cluster. The controller runs a Workspace as
 * one pod (a StatefulSet of one replica, none while `spec.paused` is true) whose container takes
 * the `spec.resources` of the pod-config option the Workspace chooses
 * (`spec.podTemplate.options.podConfig`) from its WorkspaceKind
 * (`spec.podTemplate.options.podConfig.values[].spec.resources`). The kind is looked up in the
 * same input; a kind or option that is not there leaves the pod uncounted, with a note. A redirected
 * option is counted as the Workspace names it, with a note naming the option it redirects to (what
 * the Workspace will ask for once the controller has moved it). The Kueue queue is the `kueue.x-k8s.io/queue-name` label of the pod
 * (`spec.podTemplate.podMetadata.labels`), else of the Workspace.
 */
import { Amounts, NO_AMOUNTS, podAmounts } from './amounts';
import { isDocumentOf } from '../../kinds/kind';
import { WORKSPACE, WORKSPACE_KIND } from '../../kinds/notebooks';
import { KUEUE_QUEUE_LABEL } from '../../rules/kueue/labels';


export const isWorkspace = (doc: any) => isDocumentOf(doc, WORKSPACE);
const isWorkspaceKind = (doc: any) => isDocumentOf(doc, WORKSPACE_KIND);

/** The WorkspaceKinds of an input, by name. */
export type WorkspaceKindIndex = ReadonlyMap<string, any>;

export function workspaceKindIndex(docs: readonly any[]): WorkspaceKindIndex {
  return new Map(docs.filter(d => isWorkspaceKind(d) && typeof d.metadata?.name === 'string').map(d => [d.metadata.name, d]));
}

/** What one Workspace asks for. */
export interface WorkspaceDemand {
  /** The WorkspaceKind's name (`spec.kind`). */
  readonly workspaceKind: string;
  /** The chosen pod-config option (`spec.podTemplate.options.podConfig`). */
  readonly podConfig: string;
  readonly paused: boolean;
  readonly queue: string;
  readonly pods: number;
  readonly amounts: Amounts;
  readonly note?: string;
}

export function workspaceDemand(doc: any, kinds: WorkspaceKindIndex): WorkspaceDemand {
  const workspaceKind = text(doc.spec?.kind);
  const podConfig = text(doc.spec?.podTemplate?.options?.podConfig);
  const paused = doc.spec?.paused === true;
  const queue = text(doc.spec?.podTemplate?.podMetadata?.labels?.[KUEUE_QUEUE_LABEL]) || text(doc.metadata?.labels?.[KUEUE_QUEUE_LABEL]);
  const pods = paused ? 0 : 1;
  const base = { workspaceKind, podConfig, paused, queue, pods };
  const kind = kinds.get(workspaceKind);
  if (kind === undefined) {
    return { ...base, amounts: NO_AMOUNTS, note: `WorkspaceKind ${workspaceKind || '(no name)'} is not in the input: its pod's resources are not counted` };
  }
  const values = kind.spec?.podTemplate?.options?.podConfig?.values;
  const option = Array.isArray(values) ? values.find((v: any) => v?.id === podConfig) : undefined;
  if (option === undefined) {
    return { ...base, amounts: NO_AMOUNTS, note: `WorkspaceKind ${workspaceKind} has no podConfig "${podConfig}": its pod's resources are not counted` };
  }
  const amounts = paused ? NO_AMOUNTS : podAmounts({ containers: [{ resources: option.spec?.resources }] });
  const to = option.redirect?.to;
  return { ...base, amounts, ...(typeof to === 'string' ? { note: `podConfig "${podConfig}" redirects to "${to}": counted as "${podConfig}", not as "${to}"` } : {}) };
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
