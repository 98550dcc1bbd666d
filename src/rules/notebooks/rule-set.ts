/**
 * Kubeflow Notebooks v2's rules: its webhooks on a WorkspaceKind, a Workspace's options against a
 * WorkspaceKind of the same input (lint only: a Workspace construct checks them itself), and the
 * pod the controller builds from a Workspace and its WorkspaceKind together (at synth and in lint).
 */
import { WORKSPACE_KIND_ACTIVITY_RULES, checkWorkspaceKindActivity } from './workspace-kind-activity';
import { WORKSPACE_KIND_RULES, checkWorkspaceKindOptions } from './workspace-kind-options';
import { WORKSPACE_KIND_SELECTOR_RULES, checkWorkspaceKindSelectors } from './workspace-kind-selectors';
import { WORKSPACE_KIND_TEMPLATE_RULES, checkWorkspaceKindTemplates } from './workspace-kind-templates';
import { WORKSPACE_POD_RULES, checkWorkspacePods } from './workspace-pod';
import { WORKSPACE_REFERENCE_RULES, workspaceOptionFindings } from './workspace-references';
import { isDocumentOf } from '../../kinds/kind';
import { WORKSPACE_KIND } from '../../kinds/notebooks';
import { Finding } from '../finding';
import type { RuleSet } from '../rule-set';

/** The checks of a WorkspaceKind. */
function checkWorkspaceKind(doc: any, out: Finding[]): void {
  if (!isDocumentOf(doc, WORKSPACE_KIND)) return;
  checkWorkspaceKindOptions(doc, out);
  checkWorkspaceKindActivity(doc, out);
  checkWorkspaceKindSelectors(doc, out);
  checkWorkspaceKindTemplates(doc, out);
}

export const NOTEBOOKS_RULE_SET: RuleSet = {
  source: 'notebooks',
  title: 'Kubeflow Notebooks v2 (webhooks)',
  rules: [
    ...WORKSPACE_KIND_RULES, ...WORKSPACE_KIND_ACTIVITY_RULES, ...WORKSPACE_KIND_SELECTOR_RULES, ...WORKSPACE_KIND_TEMPLATE_RULES,
    ...WORKSPACE_REFERENCE_RULES, ...WORKSPACE_POD_RULES,
  ],
  checkDocument: checkWorkspaceKind,
  checkDocuments: (index, out) => checkWorkspacePods(index.documents, out),
  checkInput: workspaceOptionFindings,
};
