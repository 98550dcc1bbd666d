import { inputFindings } from '../../../src/rules/rule-sets';
import { exampleDocument } from '../../harness/example-documents';
import { HOME_MOUNT_TAKEN } from '../../harness/messages';

/*
 * notebooks/workspace-mount-path: the controller skips a mount at a path already mounted. In lint
 * only, with the Workspace construct's wording (test/notebooks/workspace.test.ts).
 */

const kind = (): any => exampleDocument('notebooks-platform.k8s.yaml', 'WorkspaceKind');
const workspace = (): any => exampleDocument('notebooks-team-vision.k8s.yaml', 'Workspace', 'alice');
const mountFindings = (docs: any[]) => inputFindings(docs).filter(f => f.finding.rule === 'notebooks/workspace-mount-path');
const finding = (index: number, field: string, value: string, allowed: string) => ({ index, finding: { field, value, allowed, rule: 'notebooks/workspace-mount-path' } });

describe('notebooks/workspace-mount-path', () => {
  test('the examples mount each path once', () => {
    expect(mountFindings([kind(), workspace()])).toEqual([]);
  });

  test('data at the home path, a Secret at the kind\'s mount and at a data path', () => {
    const w = workspace();
    w.spec.podTemplate.volumes.data = [
      { pvcName: 'a', mountPath: '/home/jovyan/', readOnly: false },
      { pvcName: 'c', mountPath: '/data', readOnly: false },
    ];
    w.spec.podTemplate.volumes.secrets = [{ secretName: 's', mountPath: '/dev/shm' }, { secretName: 't', mountPath: '//data' }];
    expect(mountFindings([kind(), w])).toEqual([
      finding(1, 'spec.podTemplate.volumes.data[0].mountPath', '/home/jovyan/', HOME_MOUNT_TAKEN),
      finding(1, 'spec.podTemplate.volumes.secrets[0].mountPath', '/dev/shm', 'expected a path no other mount uses; a volume of WorkspaceKind "jupyterlab" is mounted there'),
      finding(1, 'spec.podTemplate.volumes.secrets[1].mountPath', '//data', 'expected a path no other mount uses; data volume "c" is mounted there'),
    ]);
  });

  test('without the kind in the input, data and Secrets against each other only', () => {
    const w = workspace();
    w.spec.podTemplate.volumes.data = [{ pvcName: 'a', mountPath: '/home/jovyan', readOnly: false }];
    w.spec.podTemplate.volumes.secrets = [{ secretName: 's', mountPath: '/home/jovyan' }];
    expect(mountFindings([w])).toEqual([
      finding(0, 'spec.podTemplate.volumes.secrets[0].mountPath', '/home/jovyan', 'expected a path no other mount uses; data volume "a" is mounted there'),
    ]);
  });

  test('without a home volume, the home path is free', () => {
    const w = workspace();
    delete w.spec.podTemplate.volumes.home;
    w.spec.podTemplate.volumes.data = [{ pvcName: 'a', mountPath: '/home/jovyan', readOnly: false }];
    expect(mountFindings([kind(), w])).toEqual([]);
  });
});
