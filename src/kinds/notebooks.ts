/** Kubeflow Notebooks v2's kinds (kubeflow.org/v1beta1). */
import { KindFacts } from './kind';

const NOTEBOOKS = { family: 'notebooks', group: 'kubeflow.org', versions: ['v1beta1'] } as const;

export const WORKSPACE_KIND: KindFacts = {
  ...NOTEBOOKS,
  kind: 'WorkspaceKind',
  namespaced: false,
  l1: { module: 'notebooks', className: 'WorkspaceKind' },
  l2: 'WorkspaceKind',
};

export const WORKSPACE: KindFacts = {
  ...NOTEBOOKS,
  kind: 'Workspace',
  namespaced: true,
  l1: { module: 'notebooks', className: 'Workspace' },
  l2: 'Workspace',
};

/** The notebooks' kinds, in the order the document rules list them. */
export const NOTEBOOK_KINDS: readonly KindFacts[] = [WORKSPACE_KIND, WORKSPACE];
