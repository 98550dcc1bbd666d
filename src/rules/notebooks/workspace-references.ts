/**
 * A Workspace names its WorkspaceKind and the image and pod-config options it runs with; the
 * Workspace webhook rejects a kind that does not exist and option ids the kind does not have
 * (kubeflow/notebooks notebooks-v2, workspaces/controller/internal/webhook workspace_webhook.go).
 * Judged only when the WorkspaceKind is in the same input: a kind already on the cluster is not
 * known here.
 */
import { unknownOptionFinding } from './option-ids';
import { isDocumentOf } from '../../kinds/kind';
import { WORKSPACE, WORKSPACE_KIND } from '../../kinds/notebooks';
import { Finding } from '../finding';
import { Rule } from '../rule';
import { DocumentFinding } from '../training-operator/restricted-namespaces';

export const WORKSPACE_OPTION = new Rule('notebooks', 'notebooks/workspace-option', 'workspace-kind',
  'kubeflow/notebooks workspaces/controller/internal/webhook workspace_webhook.go (imageConfig and podConfig ids exist in the kind)',
  'the WorkspaceKind a Workspace names exists');

export const WORKSPACE_REFERENCE_RULES = [WORKSPACE_OPTION];

/** Checks the option ids of every Workspace whose WorkspaceKind is in the input. */
export function workspaceOptionFindings(docs: readonly any[], out: DocumentFinding[]): void {
  const kinds = new Map<string, any>();
  for (const doc of docs) {
    if (isDocumentOf(doc, WORKSPACE_KIND) && typeof doc.metadata?.name === 'string') {
      kinds.set(doc.metadata.name, doc);
    }
  }
  if (kinds.size === 0) return;
  docs.forEach((doc, index) => {
    if (!isDocumentOf(doc, WORKSPACE)) return;
    const kind = kinds.get(doc.spec?.kind);
    if (kind === undefined) return;
    for (const catalogue of ['imageConfig', 'podConfig']) {
      const chosen = doc.spec?.podTemplate?.options?.[catalogue];
      if (typeof chosen !== 'string') continue;
      const values = kind.spec?.podTemplate?.options?.[catalogue]?.values;
      const ids: string[] = Array.isArray(values) ? values.map((v: any) => v?.id).filter((id: unknown) => typeof id === 'string') : [];
      const unknown = unknownOptionFinding(`spec.podTemplate.options.${catalogue}`, catalogue, chosen, doc.spec.kind, ids);
      if (unknown) {
        const f: Finding[] = [];
        WORKSPACE_OPTION.report(f, unknown.field, unknown.value, unknown.allowed);
        out.push({ index, finding: f[0] });
      }
    }
  });
}
