/**
 * The L2 mapper of TrainJobs: the `TrainJob` construct renders a job that names its runtime and sets
 * the trainer's image, command, arguments, node count and processes per node exactly as given
 * (apiGroup and kind of the runtime reference always written, metadata as given, and the
 * `runtime-provided` annotation from `TrainingRuntimeRef.providedByCluster`/`providedInNamespace`),
 * and literal environment variables in the order given (the `env` prop is a map, which keeps the
 * order of names that are not array indices).
 * A job with anything else, with a runtime reference that leaves apiGroup or kind to the defaults,
 * or with findings the construct would refuse at synth, is left to the typed L1 class, and the
 * comment says which.
 */
import { Expr, json, object, print, quoteString } from './convert-code';
import type { L2Mapping } from './convert-l2-mapping';
import { Finding, describe } from '../../rules/finding';
import { isObject as isMap } from '../../rules/kubernetes/names';
import { RUNTIME_PROVIDED_ANNOTATION, TRAINER_GROUP } from '../../rules/trainer/names';


const METADATA = ['name', 'namespace', 'labels', 'annotations'];
const SPEC = ['runtimeRef', 'trainer'];
const TRAINER: { readonly [field: string]: (v: unknown) => boolean } = {
  image: v => typeof v === 'string',
  command: v => Array.isArray(v) && v.every(s => typeof s === 'string'),
  args: v => Array.isArray(v) && v.every(s => typeof s === 'string'),
  numNodes: v => Number.isInteger(v),
  // The construct's prop is a number; "auto" and other strings are the L1's.
  numProcPerNode: v => Number.isInteger(v),
  env: v => Array.isArray(v) && v.length > 0 && v.every(e => isMap(e) && Object.keys(e).sort().join() === 'name,value'
    && typeof e.name === 'string' && typeof e.value === 'string' && !/^(0|[1-9]\d*)$/.test(e.name))
    && new Set(v.map(e => e.name)).size === v.length,
};
const REFERENCES: { readonly [kind: string]: readonly [provided: string, named: string] } = {
  ClusterTrainingRuntime: ['providedByCluster', 'cluster'],
  TrainingRuntime: ['providedInNamespace', 'namespaced'],
};

const outside = (value: unknown, allowed: readonly string[], at: string) =>
  (isMap(value) ? Object.keys(value).filter(k => !allowed.includes(k)).map(k => `${at}.${k}`) : [at]);

/** The `TrainJob` construct for `doc` (a TrainJob manifest, nulls dropped), or what it cannot say. */
export function trainJobL2(doc: any, chart: string, id: string, findings: readonly Finding[]): L2Mapping {
  if (findings.length > 0) return { cannot: `the TrainJob construct would refuse it at synth (${describe(findings[0])})` };
  const spec = doc.spec;
  const ref = spec?.runtimeRef;
  const trainer = spec?.trainer;
  const extra = [
    ...outside(doc.metadata, METADATA, 'metadata'),
    ...Object.keys(doc).filter(k => !['apiVersion', 'kind', 'metadata', 'spec'].includes(k)),
    ...outside(spec, SPEC, 'spec'),
    ...outside(ref, ['apiGroup', 'kind', 'name'], 'spec.runtimeRef'),
    ...trainer === undefined ? [] : outside(trainer, Object.keys(TRAINER), 'spec.trainer'),
    ...isMap(trainer) ? Object.entries(trainer).filter(([k, v]) => TRAINER[k] !== undefined && !TRAINER[k](v)).map(([k]) => `spec.trainer.${k} as written`) : [],
  ];
  if (typeof doc.metadata?.name !== 'string') extra.push('a job without metadata.name');
  if (isMap(ref) && (ref.apiGroup !== TRAINER_GROUP || REFERENCES[String(ref.kind)] === undefined || typeof ref.name !== 'string')) {
    extra.push('a spec.runtimeRef without its apiGroup and kind (the construct writes both)');
  }
  if (extra.length > 0) return { cannot: `the TrainJob construct does not say ${extra.join(', ')}` };

  const annotations: { [key: string]: unknown } = { ...doc.metadata.annotations };
  const provided = annotations[RUNTIME_PROVIDED_ANNOTATION] === 'true';
  delete annotations[RUNTIME_PROVIDED_ANNOTATION];
  const metadata = Object.entries(doc.metadata)
    .filter(([k]) => k !== 'annotations' || Object.keys(annotations).length > 0)
    .map(([k, v]): [string, Expr] => [k, json(k === 'annotations' ? annotations : v)]);
  const [providedFactory, namedFactory] = REFERENCES[ref.kind];
  const props: Array<[string, Expr]> = [
    ['metadata', object(metadata)],
    ['runtime', { type: 'ref', code: `TrainingRuntimeRef.${provided ? providedFactory : namedFactory}(${quoteString(ref.name)})`, value: undefined }],
    ...Object.entries(trainer ?? {}).map(([k, v]): [string, Expr] => [k, k === 'env' ? envProp(v as EnvVar[]) : json(v)]),
  ];
  return {
    code: `new TrainJob(${chart}, ${quoteString(id)}, ${print(object(props))});`,
    imports: ['cdk8s-kubeflow TrainJob', 'cdk8s-kubeflow TrainingRuntimeRef', ...trainer?.env === undefined ? [] : ['cdk8s-plus-28 EnvValue']],
  };
}

interface EnvVar { readonly name: string; readonly value: string }

/** `{ NAME: EnvValue.fromValue('value') }`, which the construct renders back as the list. */
function envProp(env: readonly EnvVar[]): Expr {
  return object(env.map(e => [e.name, { type: 'ref', code: `EnvValue.fromValue(${quoteString(e.value)})`, value: undefined }]));
}
