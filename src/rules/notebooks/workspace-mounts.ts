/**
 * The mounts the controller puts in a Workspace's pod: the home PVC at its WorkspaceKind's home
 * path, the kind's extra mounts, then the Workspace's data and Secret mounts. It skips, without a
 * word, a mount at a path already mounted (kubeflow/notebooks notebooks-v2,
 * workspaces/controller/internal/controller workspace_controller.go generateStatefulSet), so that
 * volume is never in the pod. A Workspace construct refuses such a path itself (it holds its kind);
 * this is the same check on YAML, in `lint` only, with the construct's wording: data and Secret
 * mounts against each other, and against the kind's mounts when the kind is in the input.
 */
import { isDocumentOf } from '../../kinds/kind';
import { WORKSPACE, WORKSPACE_KIND } from '../../kinds/notebooks';
import { Finding } from '../finding';
import { mountPointOf } from '../kubernetes/mount-point';
import { Rule } from '../rule';
import { DocumentFinding } from '../training-operator/restricted-namespaces';

export const WORKSPACE_MOUNT_PATH = new Rule('notebooks', 'notebooks/workspace-mount-path', 'workspace-kind',
  'kubeflow/notebooks workspaces/controller/internal/controller workspace_controller.go generateStatefulSet (a data, secret or extra mount at a path already mounted is skipped)',
  'a Workspace\'s data and Secret mounts use paths no other mount of its pod uses (trailing slashes aside)');

export const WORKSPACE_MOUNT_RULES = [WORKSPACE_MOUNT_PATH];

/** Checks the mount paths of every Workspace, with its WorkspaceKind's when the input has it. */
export function workspaceMountFindings(docs: readonly any[], out: DocumentFinding[]): void {
  const kinds = new Map<string, any>();
  for (const doc of docs) {
    const name = doc?.metadata?.name;
    if (isDocumentOf(doc, WORKSPACE_KIND) && typeof name === 'string' && !kinds.has(name)) kinds.set(name, doc);
  }
  docs.forEach((doc, index) => {
    if (!isDocumentOf(doc, WORKSPACE)) return;
    const volumes = doc.spec?.podTemplate?.volumes;
    const taken = new Map<string, string>();
    const kind = kinds.get(doc.spec?.kind);
    const kindTemplate = kind?.spec?.podTemplate;
    const home = kindTemplate?.volumeMounts?.home;
    if (typeof home === 'string' && typeof volumes?.home === 'string') taken.set(mountPointOf(home), 'the home volume');
    for (const m of Array.isArray(kindTemplate?.extraVolumeMounts) ? kindTemplate.extraVolumeMounts : []) {
      const p = m?.mountPath;
      if (typeof p === 'string' && !taken.has(mountPointOf(p))) taken.set(mountPointOf(p), `a volume of WorkspaceKind "${kind.metadata.name}"`);
    }
    const mounts: Array<[string, unknown, string]> = [
      ...list(volumes?.data).map((d, i) => [`spec.podTemplate.volumes.data[${i}].mountPath`, d?.mountPath, `data volume "${d?.pvcName}"`] as [string, unknown, string]),
      ...list(volumes?.secrets).map((s, i) => [`spec.podTemplate.volumes.secrets[${i}].mountPath`, s?.mountPath, `secret "${s?.secretName}"`] as [string, unknown, string]),
    ];
    for (const [field, path, what] of mounts) {
      if (typeof path !== 'string') continue;
      const other = taken.get(mountPointOf(path));
      if (other === undefined) {
        taken.set(mountPointOf(path), what);
        continue;
      }
      const f: Finding[] = [];
      WORKSPACE_MOUNT_PATH.report(f, field, path, `expected a path no other mount uses; ${other} is mounted there`);
      out.push({ index, finding: f[0] });
    }
  });
}

function list(v: unknown): any[] {
  return Array.isArray(v) ? v : [];
}
