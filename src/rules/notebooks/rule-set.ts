/**
 * Kubeflow Notebooks v2's rules: its webhooks on a WorkspaceKind; a Workspace's options and mount
 * paths against a WorkspaceKind of the same input (lint only: a Workspace construct checks them
 * itself); what its controller sets over the documents; and the pod the controller builds from a
 * Workspace and its WorkspaceKind together (at synth and in lint).
 */
import { CONTROLLER_RESERVED_RULES, checkReservedPodLabels, checkReservedVolumeNames } from './controller-reserved';
import { WORKSPACE_KIND_ACTIVITY_RULES, checkWorkspaceKindActivity } from './workspace-kind-activity';
import { WORKSPACE_KIND_RULES, checkWorkspaceKindOptions } from './workspace-kind-options';
import { WORKSPACE_KIND_SELECTOR_RULES, checkWorkspaceKindSelectors } from './workspace-kind-selectors';
import { WORKSPACE_KIND_TEMPLATE_RULES, checkWorkspaceKindTemplates } from './workspace-kind-templates';
import { WORKSPACE_MOUNT_RULES, workspaceMountFindings } from './workspace-mounts';
import { WORKSPACE_POD_RULES, checkWorkspacePods } from './workspace-pod';
import { WORKSPACE_REFERENCE_RULES, workspaceOptionFindings } from './workspace-references';
import { isDocumentOf } from '../../kinds/kind';
import { WORKSPACE, WORKSPACE_KIND } from '../../kinds/notebooks';
import { Finding } from '../finding';
import type { RuleSet } from '../rule-set';

/** The checks of a WorkspaceKind, and of a Workspace alone. */
function checkNotebooksDocument(doc: any, out: Finding[]): void {
  if (isDocumentOf(doc, WORKSPACE)) {
    checkReservedPodLabels(doc, out);
    return;
  }
  if (!isDocumentOf(doc, WORKSPACE_KIND)) return;
  checkWorkspaceKindOptions(doc, out);
  checkWorkspaceKindActivity(doc, out);
  checkWorkspaceKindSelectors(doc, out);
  checkWorkspaceKindTemplates(doc, out);
  checkReservedPodLabels(doc, out);
  checkReservedVolumeNames(doc, out);
}

export const NOTEBOOKS_RULE_SET: RuleSet = {
  source: 'notebooks',
  title: 'Kubeflow Notebooks v2 (webhooks)',
  rules: [
    ...WORKSPACE_KIND_RULES, ...WORKSPACE_KIND_ACTIVITY_RULES, ...WORKSPACE_KIND_SELECTOR_RULES, ...WORKSPACE_KIND_TEMPLATE_RULES,
    ...WORKSPACE_REFERENCE_RULES, ...WORKSPACE_POD_RULES, ...CONTROLLER_RESERVED_RULES, ...WORKSPACE_MOUNT_RULES,
  ],
  checkDocument: checkNotebooksDocument,
  checkDocuments: (index, out) => checkWorkspacePods(index.documents, out),
  checkInput: (docs, out) => {
    workspaceOptionFindings(docs, out);
    workspaceMountFindings(docs, out);
  },
};
