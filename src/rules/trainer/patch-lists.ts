/**
 * Lists a runtime patch replaces whole. Trainer v2.3.0 lays each runtime patch over the runtime's
 * JobSet spec with a strategic merge (pkg/runtime/core/trainingruntime.go mergeRuntimePatches,
 * strategicpatch.StrategicMergePatch with the JobSetSpec type): replicated jobs, containers,
 * volumes, mounts and pull secrets merge by their keys, and nodeSelector key by key, but a list the
 * Pod type gives no merge key (tolerations; the node, pod and anti-affinity term lists) is replaced
 * whole by the patch's. A patch that adds one toleration then drops every toleration the runtime
 * had (a GPU taint's, say), and the pods no longer fit the nodes the runtime was written for.
 */
import { Rule } from '../rule';

export const PATCH_REPLACES_LIST = new Rule('trainer', 'trainer/patch-replaces-list', 'app',
  'kubeflow/trainer v2.3.0 pkg/runtime/core/trainingruntime.go mergeRuntimePatches (strategic merge with the JobSetSpec type: tolerations and affinity term lists have no merge key)',
  'a runtime patch that sets a list the strategic merge replaces whole (tolerations, affinity terms) keeps the entries the runtime (or an earlier patch) had there');

type Report = (field: string, value: unknown, allowed: string) => void;

/** The pod-spec lists without a merge key that a restricted pod patch may set, by path. */
const WHOLE_LISTS: ReadonlyArray<readonly string[]> = [
  ['tolerations'],
  ['affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'],
  ['affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution'],
  ['affinity', 'podAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'],
  ['affinity', 'podAffinity', 'preferredDuringSchedulingIgnoredDuringExecution'],
  ['affinity', 'podAntiAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'],
  ['affinity', 'podAntiAffinity', 'preferredDuringSchedulingIgnoredDuringExecution'],
];

const at = (o: any, path: readonly string[]) => path.reduce((v, k) => (v !== null && typeof v === 'object' ? v[k] : undefined), o);

/** JSON with sorted keys, so two entries written in different key order compare equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map(k => `${JSON.stringify(k)}:${canonical((v as any)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** The checks of a TrainJob's patches against the runtime's pod lists they replace. */
export function patchListFindings(job: any, runtime: any, origin: string, report: Report): void {
  const jobs: any[] = Array.isArray(runtime?.spec?.template?.spec?.replicatedJobs) ? runtime.spec.template.spec.replicatedJobs : [];
  const patches: any[] = Array.isArray(job?.spec?.runtimePatches) ? job.spec.runtimePatches : [];
  for (const rjob of jobs) {
    if (typeof rjob?.name !== 'string') continue;
    for (const path of WHOLE_LISTS) {
      const runtimeList = at(rjob.template?.spec?.template?.spec, path);
      let current: unknown[] = Array.isArray(runtimeList) ? runtimeList : [];
      let from = `the runtime "${runtime.metadata?.name}"${origin}`;
      patches.forEach((patch, i) => {
        const listed = patch?.trainingRuntimeSpec?.template?.spec?.replicatedJobs;
        (Array.isArray(listed) ? listed : []).forEach((p: any, j: number) => {
          if (p?.name !== rjob.name) return;
          const list = at(p?.template?.spec?.template?.spec, path);
          if (!Array.isArray(list)) return;
          const kept = new Set(list.map(canonical));
          const lost = current.filter(e => !kept.has(canonical(e)));
          const field = `spec.runtimePatches[${i}].trainingRuntimeSpec.template.spec.replicatedJobs[${j}].template.spec.template.spec.${path.join('.')}`;
          if (lost.length > 0) {
            report(field, list, `expected ${lost.map(e => JSON.stringify(e)).join(', ')} of ${from} in this list too: the Trainer merges a runtime patch strategically, and ${path[path.length - 1]} has no merge key, `
              + `so the patch's list replaces the one before it whole and the "${rjob.name}" pods lose ${lost.length === 1 ? 'that entry' : 'those entries'}`);
          }
          current = list;
          from = `spec.runtimePatches[${i}]`;
        });
      });
    }
  }
}
