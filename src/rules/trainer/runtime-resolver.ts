/*
 * The one resolver of the runtime a TrainJob names, as the Trainer v2.3 controller finds it: the
 * app's runtime of that identity (`runtimeKey`: a ClusterTrainingRuntime by name, a TrainingRuntime
 * by name in the job's namespace), else, for a ClusterTrainingRuntime, the one of that name the
 * Trainer release ships (builtin-runtimes.generated.ts). Both sides call it once per job and keep
 * the answer: the TrainJob construct for its render (trainer/internal/train-job-runtime.ts, once
 * per synth) and the rules over documents through the `DocumentIndex` of a run (its `runtimeOf`).
 * What each side calls "the app's runtimes" differs (runtime constructs, runtime documents), so the
 * lookup is generic over it.
 */
import { CLUSTER_RUNTIME, RuntimeReference } from './runtime-lookup';
import { lazy } from '../../util/lazy';

/** The built-in runtimes' catalogue, loaded at the first job that names a runtime outside the app (not at require()). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const builtins = lazy(() => (require('./builtin-runtimes.generated') as typeof import('./builtin-runtimes.generated')).BUILTIN_RUNTIMES);

/** The runtime a job resolves to: the app's (`own`), or the document of a runtime the Trainer ships. */
export type RuntimeResolution<T> =
  | { readonly own: T; readonly builtIn?: undefined }
  | { readonly own?: undefined; readonly builtIn: any };

/**
 * The runtime `ref` names among `own` (the app's runtimes by `runtimeKey`), else the built-in
 * ClusterTrainingRuntime of that name; undefined when neither.
 */
export function resolveRuntime<T>(ref: RuntimeReference, own: ReadonlyMap<string, T>): RuntimeResolution<T> | undefined {
  const found = own.get(ref.key);
  if (found !== undefined) return { own: found };
  if (ref.kind !== CLUSTER_RUNTIME) return undefined;
  const catalogue = builtins();
  return Object.prototype.hasOwnProperty.call(catalogue, ref.name) ? { builtIn: catalogue[ref.name] } : undefined;
}
