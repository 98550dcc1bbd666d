/**
 * The L2 mapper of TrainingRuntimes and ClusterTrainingRuntimes, for the runtimes of one training
 * step: a torch, JAX or XGBoost policy with its node count and nothing else, and a JobSet template
 * of one replicated job `node` (the `trainer` step label) whose pod runs one container `node` with
 * an image, and a command and arguments if given. That is what the construct renders from
 * `mlPolicy`, `numNodes`, `image`, `command` and `args`, with the `trainer.kubeflow.org/framework`
 * label (`frameworkLabel` when it is not the policy's name) and three settings of its own: the
 * pods opted out of Istio's sidecar (`sidecar.istio.io/inject: "false"`), the service-account
 * token not mounted and the container's `securityContext` of `PodSecurity.DEFAULT`. A runtime
 * written without them (upstream's) is said by the construct and one JSON patch per setting,
 * which takes it out; a runtime with anything else (initializers, an MPI launcher, resources, pod
 * settings) is left to the typed L1 class, and the comment says which.
 */
import { Expr, json, object, print, quoteString } from './convert-code';
import type { L2Mapping } from './convert-mappers';
import { ANCESTOR_LABEL, NODE_JOB } from '../rules/trainer/names';

const FRAMEWORK_LABEL = 'trainer.kubeflow.org/framework';
const ISTIO_ANNOTATION = 'sidecar.istio.io/inject';
/** The container securityContext of PodSecurity.DEFAULT. */
const DEFAULT_CONTAINER_SECURITY = { allowPrivilegeEscalation: false, privileged: false };
const POLICIES: { readonly [framework: string]: string } = { torch: 'MlPolicy.torch()', jax: 'MlPolicy.jax()', xgboost: 'MlPolicy.xgboost()' };
const POD = ['spec', 'template', 'spec', 'replicatedJobs', '0', 'template', 'spec', 'template'];

const isMap = (v: unknown): v is { [key: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isStringList = (v: unknown) => Array.isArray(v) && v.every(isString);
const keysWithin = (v: unknown, allowed: readonly string[]) => isMap(v) && Object.keys(v).every(k => allowed.includes(k));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

interface Patch {
  readonly path: readonly string[];
  readonly reason: string;
}

/** The runtime construct for `doc` (a runtime manifest, nulls dropped), or what it cannot say. */
export function runtimeL2(doc: any, chart: string, id: string, findings: readonly string[]): L2Mapping {
  const kind: string = doc.kind;
  if (findings.length > 0) return { cannot: `the ${kind} construct would refuse it at synth (${findings[0]})` };
  const metadata = doc.metadata;
  const policy = doc.spec?.mlPolicy;
  const frameworks = isMap(policy) ? Object.keys(policy).filter(k => k !== 'numNodes') : [];
  const framework = frameworks.length === 1 && POLICIES[frameworks[0]] !== undefined && same(policy[frameworks[0]], {}) ? frameworks[0] : undefined;
  const jobs = doc.spec?.template?.spec?.replicatedJobs;
  const job = Array.isArray(jobs) && jobs.length === 1 ? jobs[0] : undefined;
  const pod = job?.template?.spec?.template;
  const containers = pod?.spec?.containers;
  const container = Array.isArray(containers) && containers.length === 1 ? containers[0] : undefined;
  const checks: Array<[boolean, string]> = [
    [keysWithin(doc, ['apiVersion', 'kind', 'metadata', 'spec']), 'fields beside metadata and spec'],
    [keysWithin(metadata, kind === 'TrainingRuntime' ? ['name', 'namespace', 'labels', 'annotations'] : ['name', 'labels', 'annotations'])
      && isString(metadata.name), 'metadata beyond a name, labels and annotations'],
    [isString(metadata?.labels?.[FRAMEWORK_LABEL]), `metadata without the ${FRAMEWORK_LABEL} label (the construct writes it)`],
    [keysWithin(doc.spec, ['mlPolicy', 'template']), 'spec fields beside mlPolicy and template'],
    [framework !== undefined, 'an mlPolicy other than torch, jax or xgboost without settings'],
    [Number.isInteger(policy?.numNodes), 'an mlPolicy without numNodes (the construct writes it)'],
    [keysWithin(doc.spec?.template, ['spec']) && keysWithin(doc.spec.template.spec, ['replicatedJobs']), 'JobSet settings beside the replicated jobs'],
    [job !== undefined && keysWithin(job, ['name', 'template']) && job.name === NODE_JOB && keysWithin(job.template, ['metadata', 'spec'])
      && same(job.template.metadata, { labels: { [ANCESTOR_LABEL]: 'trainer' } }) && keysWithin(job.template.spec, ['template']),
    'replicated jobs other than one `node` job of the trainer step'],
    [keysWithin(pod, ['metadata', 'spec']) && (pod.metadata === undefined || same(pod.metadata, { annotations: { [ISTIO_ANNOTATION]: 'false' } })),
      'pod metadata of its own'],
    [keysWithin(pod?.spec, ['containers', 'automountServiceAccountToken']) && [undefined, false].includes(pod.spec.automountServiceAccountToken),
      'pod settings beside its container'],
    [container !== undefined && keysWithin(container, ['name', 'image', 'command', 'args', 'securityContext']) && container.name === 'node'
      && isString(container.image) && [container.command, container.args].every(v => v === undefined || isStringList(v))
      && (container.securityContext === undefined || same(container.securityContext, DEFAULT_CONTAINER_SECURITY)),
    'a container other than `node` with an image, command and arguments'],
  ];
  const cannot = checks.filter(([ok]) => !ok).map(([, what]) => what);
  if (cannot.length > 0) return { cannot: `the ${kind} construct does not say ${cannot.join(', ')}` };

  const patches: Patch[] = [];
  if (pod.metadata === undefined) {
    patches.push({ path: [...POD, 'metadata'], reason: `The construct opts the pods out of Istio's sidecar (${ISTIO_ANNOTATION}: "false"), which the input does not` });
  }
  if (pod.spec.automountServiceAccountToken === undefined) {
    patches.push({ path: [...POD, 'spec', 'automountServiceAccountToken'], reason: 'PodSecurity.DEFAULT does not mount the service-account token, which the input leaves to Kubernetes' });
  }
  if (container.securityContext === undefined) {
    patches.push({ path: [...POD, 'spec', 'containers', '0', 'securityContext'], reason: 'PodSecurity.DEFAULT turns off privilege escalation and privileged mode, which the input leaves to Kubernetes' });
  }

  const labels: { [key: string]: unknown } = { ...metadata.labels };
  const label = labels[FRAMEWORK_LABEL];
  delete labels[FRAMEWORK_LABEL];
  const props: Array<[string, Expr]> = [
    ['metadata', object(Object.entries(metadata).filter(([k]) => k !== 'labels' || Object.keys(labels).length > 0)
      .map(([k, v]): [string, Expr] => [k, json(k === 'labels' ? labels : v)]))],
    ['mlPolicy', { type: 'ref', code: POLICIES[framework!], value: undefined }],
  ];
  if (policy.numNodes !== 1) props.push(['numNodes', json(policy.numNodes)]);
  if (label !== framework) props.push(['frameworkLabel', json(label)]);
  props.push(['image', json(container.image)]);
  if (container.command !== undefined) props.push(['command', json(container.command)]);
  if (container.args !== undefined) props.push(['args', json(container.args)]);
  const construct = `new ${kind}(${chart}, ${quoteString(id)}, ${print(object(props))})`;
  const imports = [`cdk8s-kubeflow ${kind}`, 'cdk8s-kubeflow MlPolicy'];
  if (patches.length === 0) return { code: `${construct};`, imports };
  return {
    code: [
      `${construct}.apiObject.addJsonPatch(`,
      ...patches.map(p => `  JsonPatch.remove(${quoteString(`/${p.path.join('/')}`)}),`),
      ');',
    ].join('\n'),
    imports: [...imports, 'cdk8s JsonPatch'],
    patches: patches.map(p => `${p.reason}: a JSON patch removes it.`),
  };
}
