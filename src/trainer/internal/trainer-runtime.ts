import type { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import type { Accelerator } from '../../common/accelerator';
import { runtimeIdentity } from '../../rules/trainer/runtime-lookup';
import { oncePerSynth } from '../../synth/render-hook';
import type { MlPolicy } from '../ml-policy';

/** What a TrainJob needs to know of a runtime defined in the same app. Internal plumbing. */
export interface RuntimeFacts {
  /** `TrainingRuntime` or `ClusterTrainingRuntime`. */
  readonly kind: string;
  /** The runtime's API object (its name and namespace are read at synth). */
  readonly apiObject: ApiObject;
  /** The runtime's ML policy. */
  readonly policy: MlPolicy;
  /** The replicated jobs of the runtime, in order. */
  readonly replicatedJobs: () => string[];
  /** The replicated jobs whose main container trains (`node`, and the MPI `launcher`). */
  readonly trainerJobs: () => string[];
  /** The accelerator of each node, if the runtime requests one. */
  readonly acceleratorPerNode: () => Accelerator | undefined;
}

/** A runtime construct of an app: its kind and API object. */
export interface AppRuntime {
  readonly kind: string;
  readonly apiObject: ApiObject;
}

/** The runtime constructs of each app, by the app's root. */
const appRuntimes = new WeakMap<IConstruct, AppRuntime[]>();

/** Records a runtime construct of the app `scope` belongs to. */
export function registerAppRuntime(scope: IConstruct, runtime: AppRuntime): void {
  const root = scope.node.root;
  const list = appRuntimes.get(root) ?? [];
  list.push(runtime);
  appRuntimes.set(root, list);
}

/**
 * The app's runtime constructs by identity (`runtimeIdentity`: a ClusterTrainingRuntime by name, a
 * TrainingRuntime by namespace and name; the first of an identity wins), what the one resolver
 * (rules/trainer/runtime-resolver.ts) looks a job's reference up in. Read at synth, when names and
 * namespaces are final: built once per synth for all the jobs of the app.
 */
export function appRuntimeIndex(root: IConstruct): ReadonlyMap<string, AppRuntime> {
  return oncePerSynth(root, 'app-runtime-index', () => {
    const index = new Map<string, AppRuntime>();
    for (const r of appRuntimes.get(root) ?? []) {
      const key = runtimeIdentity(r.kind, r.apiObject.metadata.namespace ?? '', r.apiObject.name);
      if (!index.has(key)) index.set(key, r);
    }
    return index;
  });
}
