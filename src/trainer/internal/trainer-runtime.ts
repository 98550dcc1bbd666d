import type { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import type { Accelerator } from '../../common/accelerator';
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
 * The app's runtime a reference by name resolves to, as the controller looks it up: a
 * ClusterTrainingRuntime by name, a TrainingRuntime by name in the job's namespace. Read at synth,
 * when names and namespaces are final.
 */
export function appRuntimeNamed(job: ApiObject, kind: string, name: string): AppRuntime | undefined {
  return (appRuntimes.get(job.node.root) ?? []).find(r => r.kind === kind && r.apiObject.name === name
    && (kind === 'ClusterTrainingRuntime' || (r.apiObject.metadata.namespace ?? '') === (job.metadata.namespace ?? '')));
}
