import { AppDocument } from '../../../src/rules/app-document';
import { appFindings } from '../../../src/rules/rule-sets';
import { exampleDocument } from '../../harness/example-documents';

/*
 * notebooks/workspace-pod-annotations: the controller puts the WorkspaceKind's and the
 * Workspace's pod annotations on one pod template; Kubernetes counts them together.
 */

const at = (path: string, doc: any): AppDocument => ({ path, doc });
const kind = (): any => exampleDocument('notebooks-platform.k8s.yaml', 'WorkspaceKind');
const workspace = (): any => exampleDocument('notebooks-team-vision.k8s.yaml', 'Workspace', 'alice');

function withAnnotations(doc: any, annotations: Record<string, string>): any {
  doc.spec.podTemplate.podMetadata = { ...doc.spec.podTemplate.podMetadata, annotations };
  return doc;
}

const KIB = 1024;

describe('notebooks/workspace-pod-annotations', () => {
  test('each within 256 KiB, together over it: the Workspace is reported', () => {
    const k = withAnnotations(kind(), { 'example.com/kind': 'k'.repeat(150 * KIB) });
    const w = withAnnotations(workspace(), { 'example.com/workspace': 'w'.repeat(150 * KIB) });
    expect(appFindings([at('platform/kind', k), at('team/alice', w)])).toEqual([{
      path: 'team/alice',
      finding: {
        field: 'spec.podTemplate.podMetadata.annotations',
        value: `${300 * KIB + 'example.com/kind'.length + 'example.com/workspace'.length} bytes`,
        rule: 'notebooks/workspace-pod-annotations',
        allowed: 'expected at most 262144 bytes (256 KiB) of annotation keys and values in total once merged with the pod annotations of WorkspaceKind "jupyterlab": the controller puts both on one pod template, and Kubernetes refuses the StatefulSet',
      },
    }]);
  });

  test('a key both have counts once, with the Workspace\'s value', () => {
    const k = withAnnotations(kind(), { 'example.com/same': 'k'.repeat(200 * KIB) });
    const w = withAnnotations(workspace(), { 'example.com/same': 'w'.repeat(200 * KIB) });
    expect(appFindings([at('platform/kind', k), at('team/alice', w)])).toEqual([]);
  });

  test('no finding without the kind among the documents, or for another kind', () => {
    const w = withAnnotations(workspace(), { 'example.com/workspace': 'w'.repeat(150 * KIB) });
    const other = withAnnotations(kind(), { 'example.com/kind': 'k'.repeat(150 * KIB) });
    other.metadata.name = 'rstudio';
    expect(appFindings([at('team/alice', w)])).toEqual([]);
    expect(appFindings([at('platform/kind', other), at('team/alice', w)])).toEqual([]);
  });

  test('one document over the limit on its own is kubernetes/annotation-size\'s finding, not this rule\'s', () => {
    const k = withAnnotations(kind(), { 'example.com/kind': 'k'.repeat(300 * KIB) });
    const w = withAnnotations(workspace(), { 'example.com/workspace': 'w' });
    expect(appFindings([at('platform/kind', k), at('team/alice', w)])).toEqual([]);
  });
});
