import { documentFindings } from '../../../src/rules/rule-sets';
import { exampleDocument } from '../../harness/example-documents';

/*
 * notebooks/reserved-pod-label and notebooks/reserved-volume-name: what the workspace controller
 * and the StatefulSet controller set on a workspace's pod over what the documents write.
 */

const kind = (): any => exampleDocument('notebooks-platform.k8s.yaml', 'WorkspaceKind');
const workspace = (): any => exampleDocument('notebooks-team-vision.k8s.yaml', 'Workspace', 'alice');
const notebooks = (doc: any) => documentFindings(doc).filter(f => f.rule?.startsWith('notebooks/'));

const LABEL = 'expected a label key the controllers do not set on the workspace\'s pod: the workspace controller sets '
  + '"notebooks.kubeflow.org/workspace-name" and "statefulset" to the Workspace\'s name, the StatefulSet controller sets '
  + '"statefulset.kubernetes.io/pod-name", "apps.kubernetes.io/pod-index" and "controller-revision-hash", each over the value written';
const VOLUME = 'expected a name the controller does not give a Workspace\'s own volumes (home-volume, data-volume-<n>, secret-volume-<n>): '
  + 'a Workspace with that volume gets it in place of this one, and the kind\'s mounts of the name mount the Workspace\'s volume';

describe('notebooks/reserved-pod-label', () => {
  test('the examples set none', () => {
    expect(notebooks(kind())).toEqual([]);
    expect(notebooks(workspace())).toEqual([]);
  });

  test('a Workspace\'s pod label the workspace controller sets', () => {
    const w = workspace();
    w.spec.podTemplate.podMetadata = { labels: { statefulset: 'mine', team: 'vision' } };
    expect(notebooks(w)).toEqual([
      { field: 'spec.podTemplate.podMetadata.labels.statefulset', value: 'statefulset', allowed: LABEL, rule: 'notebooks/reserved-pod-label' },
    ]);
  });

  test('a WorkspaceKind\'s pod labels the controllers set', () => {
    const k = kind();
    k.spec.podTemplate.podMetadata = { labels: { 'notebooks.kubeflow.org/workspace-name': 'x', 'controller-revision-hash': 'y', 'apps.kubernetes.io/pod-index': '0' } };
    expect(notebooks(k)).toEqual([
      { field: 'spec.podTemplate.podMetadata.labels["notebooks.kubeflow.org/workspace-name"]', value: 'notebooks.kubeflow.org/workspace-name', allowed: LABEL, rule: 'notebooks/reserved-pod-label' },
      { field: 'spec.podTemplate.podMetadata.labels["controller-revision-hash"]', value: 'controller-revision-hash', allowed: LABEL, rule: 'notebooks/reserved-pod-label' },
      { field: 'spec.podTemplate.podMetadata.labels["apps.kubernetes.io/pod-index"]', value: 'apps.kubernetes.io/pod-index', allowed: LABEL, rule: 'notebooks/reserved-pod-label' },
    ]);
  });
});

describe('notebooks/reserved-volume-name', () => {
  test('a WorkspaceKind extra volume named as the controller names a Workspace\'s volumes', () => {
    const k = kind();
    k.spec.podTemplate.extraVolumes = [
      { name: 'home-volume', emptyDir: {} }, { name: 'data-volume-0', emptyDir: {} }, { name: 'secret-volume-12', emptyDir: {} },
      { name: 'data-volume', emptyDir: {} }, { name: 'my-home-volume', emptyDir: {} },
    ];
    k.spec.podTemplate.extraVolumeMounts = [];
    expect(notebooks(k)).toEqual([
      { field: 'spec.podTemplate.extraVolumes[0].name', value: 'home-volume', allowed: VOLUME, rule: 'notebooks/reserved-volume-name' },
      { field: 'spec.podTemplate.extraVolumes[1].name', value: 'data-volume-0', allowed: VOLUME, rule: 'notebooks/reserved-volume-name' },
      { field: 'spec.podTemplate.extraVolumes[2].name', value: 'secret-volume-12', allowed: VOLUME, rule: 'notebooks/reserved-volume-name' },
    ]);
  });
});
