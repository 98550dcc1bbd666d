/**
 * What the Notebooks controller builds from a Workspace and its WorkspaceKind together: one pod
 * template (in a StatefulSet, then the StatefulSet's pod), whose metadata merges the kind's pod
 * metadata with the Workspace's, key by key, the Workspace's value winning (kubeflow/notebooks
 * notebooks-v2, workspaces/controller/internal/controller workspace_controller.go
 * generateStatefulSet). Each document's own annotations can be within Kubernetes' limit while the
 * merged ones are not: the StatefulSet is then refused and the Workspace never gets a pod. Judged
 * when the WorkspaceKind is among the same documents (at synth the app's, in lint the input).
 */
import { isDocumentOf } from '../../kinds/kind';
import { WORKSPACE, WORKSPACE_KIND } from '../../kinds/notebooks';
import { AppDocument, AppFinding } from '../app-document';
import { TOTAL_ANNOTATION_SIZE_LIMIT, utf8Length } from '../kubernetes/metadata';
import { isObject } from '../kubernetes/names';
import { Rule } from '../rule';

export const WORKSPACE_POD_ANNOTATIONS = new Rule('notebooks', 'notebooks/workspace-pod-annotations', 'app',
  'kubeflow/notebooks workspaces/controller/internal/controller workspace_controller.go generateStatefulSet (the kind\'s and the Workspace\'s pod annotations merged into one pod template); k8s.io/apimachinery ValidateAnnotationsSize',
  'a Workspace\'s pod annotations merged with its WorkspaceKind\'s hold at most 256 KiB');

export const WORKSPACE_POD_RULES = [WORKSPACE_POD_ANNOTATIONS];

const ANNOTATIONS_FIELD = 'spec.podTemplate.podMetadata.annotations';

/** Checks the pod each Workspace's controller builds with a WorkspaceKind of the same documents. */
export function checkWorkspacePods(docs: readonly AppDocument[], out: AppFinding[]): void {
  const kinds = new Map<string, any>();
  for (const d of docs) {
    const name = d.doc?.metadata?.name;
    // A second kind of one name is kubernetes/duplicate-object's finding; the first is judged with.
    if (isDocumentOf(d.doc, WORKSPACE_KIND) && typeof name === 'string' && !kinds.has(name)) kinds.set(name, d.doc);
  }
  if (kinds.size === 0) return;
  for (const d of docs) {
    if (!isDocumentOf(d.doc, WORKSPACE)) continue;
    const kindName = d.doc.spec?.kind;
    const kind = kinds.get(kindName);
    if (kind === undefined) continue;
    const own = podAnnotations(d.doc);
    const kindAnnotations = podAnnotations(kind);
    // Over the limit on its own, a document is kubernetes/annotation-size's finding.
    if (own === undefined || kindAnnotations === undefined || annotationBytes(own) > TOTAL_ANNOTATION_SIZE_LIMIT
      || annotationBytes(kindAnnotations) > TOTAL_ANNOTATION_SIZE_LIMIT) continue;
    const merged = annotationBytes({ ...kindAnnotations, ...own });
    if (merged > TOTAL_ANNOTATION_SIZE_LIMIT) {
      out.push({
        path: d.path,
        finding: {
          field: ANNOTATIONS_FIELD,
          value: `${merged} bytes`,
          rule: WORKSPACE_POD_ANNOTATIONS.id,
          allowed: `expected at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes (256 KiB) of annotation keys and values in total once merged with the pod annotations of WorkspaceKind "${kindName}": the controller puts both on one pod template, and Kubernetes refuses the StatefulSet`,
        },
      });
    }
  }
}

function podAnnotations(doc: any): Record<string, unknown> | undefined {
  const annotations = doc?.spec?.podTemplate?.podMetadata?.annotations;
  return isObject(annotations) ? annotations : undefined;
}

/** The bytes Kubernetes counts: every key and every string value, in UTF-8. */
function annotationBytes(annotations: Record<string, unknown>): number {
  let bytes = 0;
  for (const [key, value] of Object.entries(annotations)) bytes += utf8Length(key) + (typeof value === 'string' ? utf8Length(value) : 0);
  return bytes;
}
