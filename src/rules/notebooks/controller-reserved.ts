/**
 * What the controllers behind a Workspace set on its pod themselves, over what a WorkspaceKind or
 * a Workspace writes (kubeflow/notebooks notebooks-v2, workspaces/controller/internal/controller
 * workspace_controller.go generateStatefulSet; Kubernetes' StatefulSet controller,
 * pkg/controller/statefulset stateful_set_utils.go). Nothing refuses these values: the one written
 * is silently replaced or dropped, so the pod never has what the document asked.
 *
 * - Pod labels: the workspace controller merges its own labels over the pod metadata, and the
 *   StatefulSet controller sets three more on the pod.
 * - Volume names: the controller names a Workspace's volumes `home-volume`, `data-volume-<i>` and
 *   `secret-volume-<i>` and adds them first; a WorkspaceKind extra volume of one of those names is
 *   then skipped, and the kind's mounts of that name mount the Workspace's volume instead.
 */
import { Finding } from '../finding';
import { child, indexed } from '../kubernetes/field-path';
import { isObject } from '../kubernetes/names';
import { Rule } from '../rule';

const CONTROLLER = 'kubeflow/notebooks workspaces/controller/internal/controller workspace_controller.go generateStatefulSet';

export const RESERVED_POD_LABEL = new Rule('notebooks', 'notebooks/reserved-pod-label', 'workspace-kind',
  `${CONTROLLER} (labels notebooks.kubeflow.org/workspace-name and statefulset merged over the pod metadata); k8s.io/kubernetes pkg/controller/statefulset updateIdentity, setPodRevision`,
  'pod metadata sets no label the workspace controller or the StatefulSet controller sets on the pod');
export const RESERVED_VOLUME_NAME = new Rule('notebooks', 'notebooks/reserved-volume-name', 'workspace-kind',
  `${CONTROLLER} (home-volume, data-volume-<i>, secret-volume-<i> added first; an extra volume of a name taken is skipped)`,
  'no WorkspaceKind extra volume has a name the controller gives a Workspace\'s volumes');

export const CONTROLLER_RESERVED_RULES = [RESERVED_POD_LABEL, RESERVED_VOLUME_NAME];

/** The label keys the controllers set on a workspace's pod, whatever the pod metadata says. */
const RESERVED_LABELS = [
  'notebooks.kubeflow.org/workspace-name', 'statefulset',
  'statefulset.kubernetes.io/pod-name', 'apps.kubernetes.io/pod-index', 'controller-revision-hash',
];

const RESERVED_LABEL_TEXT = 'expected a label key the controllers do not set on the workspace\'s pod: the workspace controller sets '
  + '"notebooks.kubeflow.org/workspace-name" and "statefulset" to the Workspace\'s name, the StatefulSet controller sets '
  + '"statefulset.kubernetes.io/pod-name", "apps.kubernetes.io/pod-index" and "controller-revision-hash", each over the value written';

const RESERVED_VOLUME = /^(home-volume|data-volume-\d+|secret-volume-\d+)$/;

/** Checks the pod labels of a WorkspaceKind or a Workspace. */
export function checkReservedPodLabels(doc: any, out: Finding[]): void {
  const labels = doc?.spec?.podTemplate?.podMetadata?.labels;
  if (!isObject(labels)) return;
  const at = 'spec.podTemplate.podMetadata.labels';
  for (const key of Object.keys(labels)) {
    if (RESERVED_LABELS.includes(key)) RESERVED_POD_LABEL.report(out, child(at, key), key, RESERVED_LABEL_TEXT);
  }
}

/** Checks the names of a WorkspaceKind's extra volumes. */
export function checkReservedVolumeNames(doc: any, out: Finding[]): void {
  const volumes = doc?.spec?.podTemplate?.extraVolumes;
  if (!Array.isArray(volumes)) return;
  volumes.forEach((volume: any, i: number) => {
    const name = volume?.name;
    if (typeof name === 'string' && RESERVED_VOLUME.test(name)) {
      RESERVED_VOLUME_NAME.report(out, child(indexed('spec.podTemplate.extraVolumes', i), 'name'), name,
        'expected a name the controller does not give a Workspace\'s own volumes (home-volume, data-volume-<n>, secret-volume-<n>): '
        + 'a Workspace with that volume gets it in place of this one, and the kind\'s mounts of the name mount the Workspace\'s volume');
    }
  });
}
