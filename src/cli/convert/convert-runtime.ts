/**
 * The L2 mapper of TrainingRuntimes and ClusterTrainingRuntimes, for the runtimes of one training
 * step: a torch, JAX or XGBoost policy with its node count and nothing else, and a JobSet template
 * of one replicated job `node` (the `trainer` step label) whose pod runs one container `node` with
 * an image, a command and arguments, resources and shared memory, on nodes it may select. That is
 * what the construct renders from `mlPolicy`, `numNodes`, `image`, `command`, `args`, `resources`
 * (requests equal to limits, and the accelerator's toleration on the pod), `sharedMemory` (a
 * memory-backed `dshm` volume at /dev/shm), `nodeSelector` and `topology` (Kueue's required or preferred level, a pod annotation), with the `trainer.kubeflow.org/framework` label (`frameworkLabel` when it
 * is not the policy's name) and three settings of its own: the pods opted out of Istio's sidecar
 * (`sidecar.istio.io/inject: "false"`), the service-account token not mounted and the container's
 * `securityContext` of `PodSecurity.DEFAULT`. A runtime written without them (upstream's) is said
 * by the construct and one JSON patch per setting, which takes it out; a runtime with anything
 * else (initializers, an MPI launcher, pod settings) is left to the typed L1 class, and the
 * comment says which. */
import { Expr, json, object, print, quoteString } from './convert-code';
import type { L2Mapping } from './convert-l2-mapping';
import type { ChartInput } from './convert-reader';
import { isDocumentOf } from '../../kinds/kind';
import { CLUSTER_TRAINING_RUNTIME, TRAINING_RUNTIME, TRAIN_JOB } from '../../kinds/trainer';
import { Finding, describe } from '../../rules/finding';
import { SHARED_MEMORY_PATH, SHARED_MEMORY_VOLUME, acceleratorToleration } from '../../rules/kubernetes/accelerator-facts';
import { isObject as isMap } from '../../rules/kubernetes/names';
import { ANCESTOR_LABEL, FRAMEWORK_LABEL, NODE_JOB } from '../../rules/trainer/names';
import { canonicalJson } from '../../util/collections';

const ISTIO_ANNOTATION = 'sidecar.istio.io/inject';
/** The container securityContext of PodSecurity.DEFAULT. */
const DEFAULT_CONTAINER_SECURITY = { allowPrivilegeEscalation: false, privileged: false };
const POLICIES: { readonly [framework: string]: string } = { torch: 'MlPolicy.torch()', jax: 'MlPolicy.jax()', xgboost: 'MlPolicy.xgboost()' };
const KUEUE_TOPOLOGY: { readonly [annotation: string]: string } = {
  'kueue.x-k8s.io/podset-required-topology': 'required', 'kueue.x-k8s.io/podset-preferred-topology': 'preferred',
};
const POD = ['spec', 'template', 'spec', 'replicatedJobs', '0', 'template', 'spec', 'template'];

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringList = (v: unknown) => Array.isArray(v) && v.every(isString);
const keysWithin = (v: unknown, allowed: readonly string[]) => isMap(v) && Object.keys(v).every(k => allowed.includes(k));
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
const ref = (code: string): Expr => ({ type: 'ref', code, value: undefined });
const ACCELERATORS: { readonly [resourceName: string]: string } = { 'nvidia.com/gpu': 'nvidia', 'amd.com/gpu': 'amd', 'gpu.intel.com/i915': 'intel' };


/** `Size.gibibytes(n)`, or `Size.mebibytes(n)` when not whole gibibytes, for an amount of mebibytes. */
const sizeCode = (mebibytes: number) => (mebibytes % 1024 === 0 ? `Size.gibibytes(${mebibytes / 1024})` : `Size.mebibytes(${mebibytes})`);

/**
 * The `resources` prop that renders a container's resources, or undefined: requests equal to
 * limits (the construct writes both), CPU as a string of units or millis, memory and ephemeral
 * storage as `<n>Gi`, or `<n>Mi` when not whole gibibytes (the construct's `sizeQuantity`), and at
 * most one accelerator, a count written as a number. `accelerator` is its resource name and count.
 */
function resourcesProp(r: unknown): { entries: Array<[string, string]>; imports: string[]; accelerator?: [string, number] } | undefined {
  if (!isMap(r) || !keysWithin(r, ['limits', 'requests']) || !isMap(r.limits) || !same(r.limits, r.requests)) return undefined;
  const entries: Array<[string, string]> = [];
  const imports: string[] = [];
  let accelerator: [string, number] | undefined;
  for (const [name, amount] of Object.entries(r.limits)) {
    const size = isString(amount) ? /^(0|[1-9]\d*)(Gi|Mi)$/.exec(amount) : null;
    const mebibytes = size === null ? undefined : Number(size[1]) * (size[2] === 'Gi' ? 1024 : 1);
    if (name === 'cpu' && isString(amount) && /^(0|[1-9]\d*)m?$/.test(amount)) {
      entries.push(['cpu', amount.endsWith('m') ? `Cpu.millis(${amount.slice(0, -1)})` : `Cpu.units(${amount})`]);
      imports.push('cdk8s-plus-28 Cpu');
    } else if ((name === 'memory' || name === 'ephemeral-storage') && mebibytes !== undefined && (size![2] === 'Gi') === (mebibytes % 1024 === 0)) {
      entries.push([name === 'memory' ? 'memory' : 'ephemeralStorage', sizeCode(mebibytes)]);
      imports.push('cdk8s Size');
    } else if (name.includes('/') && Number.isInteger(amount) && (amount as number) > 0 && accelerator === undefined) {
      accelerator = [name, amount as number];
      const vendor = ACCELERATORS[name];
      entries.push(['accelerator', vendor === undefined ? `Accelerator.custom(${quoteString(name)}, ${amount})` : `Accelerator.${vendor}(${amount})`]);
      imports.push('cdk8s-kubeflow Accelerator');
    } else {
      return undefined;
    }
  }
  return entries.length === 0 ? undefined : { entries, imports, accelerator };
}

/**
 * The `topology` prop's code for the pod metadata the construct writes: the Istio opt-out, and
 * Kueue's annotation of a required or preferred topology level (`Topology.required(level)`); ''
 * for the opt-out alone; undefined for other metadata.
 */
function topologyProp(metadata: unknown): string | undefined {
  if (!isMap(metadata) || !keysWithin(metadata, ['annotations']) || !isMap(metadata.annotations)) return undefined;
  const { [ISTIO_ANNOTATION]: istio, ...rest } = metadata.annotations;
  const entries = Object.entries(rest);
  if (istio !== 'false' || entries.length > 1) return undefined;
  if (entries.length === 0) return '';
  const [[key, level]] = entries;
  const mode = KUEUE_TOPOLOGY[key];
  return mode === undefined || !isString(level) ? undefined : `Topology.${mode}(${quoteString(level)})`;
}

/** The `sharedMemory` prop's code for the construct's memory-backed `dshm` volume at /dev/shm, or undefined. */
function sharedMemoryProp(volumes: unknown, mounts: unknown): string | undefined {
  const mount = { mountPath: SHARED_MEMORY_PATH, name: SHARED_MEMORY_VOLUME };
  if (!Array.isArray(volumes) || volumes.length !== 1 || !same(mounts, [mount])) return undefined;
  const v = volumes[0];
  const limit = isString(v?.emptyDir?.sizeLimit) ? /^([1-9]\d*)Mi$/.exec(v.emptyDir.sizeLimit) : null;
  if (limit === null || !same(v, { name: SHARED_MEMORY_VOLUME, emptyDir: { medium: 'Memory', sizeLimit: v.emptyDir.sizeLimit } })) return undefined;
  return sizeCode(Number(limit[1]));
}

interface Patch {
  readonly path: readonly string[];
  readonly reason: string;
}

/** The runtime construct for `doc` (a runtime manifest, nulls dropped), or what it cannot say. */
export function runtimeL2(doc: any, chart: string, id: string, findings: readonly Finding[]): L2Mapping {
  if (findings.length > 0) return { cannot: `the ${doc.kind} construct would refuse it at synth (${describe(findings[0])})` };
  const runtime = readRuntime(doc);
  const cannot = unsaid(runtime);
  if (cannot.length > 0) return { cannot: `the ${doc.kind} construct does not say ${cannot.join(', ')}` };
  return runtimeCode(runtime, chart, id);
}

/** The parts of a runtime its construct's props say, read from the manifest. */
function readRuntime(doc: any) {
  const kind: string = doc.kind;
  const metadata = doc.metadata;
  const policy = doc.spec?.mlPolicy;
  const frameworks = isMap(policy) ? Object.keys(policy).filter(k => k !== 'numNodes') : [];
  const framework = frameworks.length === 1 && POLICIES[frameworks[0]] !== undefined && same(policy[frameworks[0]], {}) ? frameworks[0] : undefined;
  const jobs = doc.spec?.template?.spec?.replicatedJobs;
  const job = Array.isArray(jobs) && jobs.length === 1 ? jobs[0] : undefined;
  const pod = job?.template?.spec?.template;
  const containers = pod?.spec?.containers;
  const container = Array.isArray(containers) && containers.length === 1 ? containers[0] : undefined;
  const resources = resourcesProp(container?.resources);
  const sharedMemory = sharedMemoryProp(pod?.spec?.volumes, container?.volumeMounts);
  const topology = topologyProp(pod?.metadata);
  return { doc, kind, metadata, policy, framework, job, pod, container, resources, sharedMemory, topology };
}

type RuntimeReading = ReturnType<typeof readRuntime>;

/** What of the runtime its construct does not say (empty when it says all of it). */
function unsaid(runtime: RuntimeReading): string[] {
  const { doc, kind, metadata, policy, framework, job, pod, container, resources, sharedMemory, topology } = runtime;
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
  ];
  // The pod's settings, when there is one pod to look at.
  if (job !== undefined) {
    checks.push(
      [keysWithin(pod, ['metadata', 'spec']) && (pod.metadata === undefined || topology !== undefined),
        'pod metadata other than the Istio opt-out and a Kueue topology level'],
      [keysWithin(pod?.spec, ['containers', 'automountServiceAccountToken', 'tolerations', 'volumes', 'nodeSelector'])
        && [undefined, false].includes(pod.spec.automountServiceAccountToken)
        && (pod.spec.nodeSelector === undefined || (isMap(pod.spec.nodeSelector) && Object.values(pod.spec.nodeSelector).every(isString))),
      'pod settings beside its container and node selector'],
      [container !== undefined && keysWithin(container, ['name', 'image', 'command', 'args', 'securityContext', 'resources', 'volumeMounts'])
      && container.name === 'node' && isString(container.image) && [container.command, container.args].every(v => v === undefined || isStringList(v))
      && (container.securityContext === undefined || same(container.securityContext, DEFAULT_CONTAINER_SECURITY)),
      'a container other than `node` with an image, command, arguments, resources and shared memory'],
      [container?.resources === undefined || resources !== undefined,
        'resources other than CPU, memory, ephemeral storage and one accelerator with the same requests and limits, as the construct writes them'],
      [same(pod?.spec?.tolerations, resources?.accelerator === undefined ? undefined : [acceleratorToleration(resources.accelerator[0])]),
        'tolerations other than the one of the accelerator, which the construct writes'],
      [(pod?.spec?.volumes === undefined && container?.volumeMounts === undefined) || sharedMemory !== undefined,
        'volumes other than shared memory'],
    );
  }
  return checks.filter(([ok]) => !ok).map(([, what]) => what);
}

/** The construct's code for a runtime it says, with a JSON patch for each of its own settings the input does not have. */
function runtimeCode(runtime: RuntimeReading, chart: string, id: string): L2Mapping {
  const { kind, metadata, policy, framework, pod, container, resources, sharedMemory, topology } = runtime;
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
    ['mlPolicy', ref(POLICIES[framework!])],
  ];
  if (policy.numNodes !== 1) props.push(['numNodes', json(policy.numNodes)]);
  if (label !== framework) props.push(['frameworkLabel', json(label)]);
  props.push(['image', json(container.image)]);
  if (container.command !== undefined) props.push(['command', json(container.command)]);
  if (container.args !== undefined) props.push(['args', json(container.args)]);
  const imports = [`cdk8s-kubeflow ${kind}`, 'cdk8s-kubeflow MlPolicy'];
  if (resources !== undefined) {
    props.push(['resources', object(resources.entries.map(([k, code]) => [k, ref(code)]))]);
    imports.push(...resources.imports);
  }
  if (topology !== undefined && topology !== '') {
    props.push(['topology', ref(topology)]);
    imports.push('cdk8s-kubeflow Topology');
  }
  if (sharedMemory !== undefined) {
    props.push(['sharedMemory', ref(sharedMemory)]);
    imports.push('cdk8s Size');
  }
  if (pod.spec.nodeSelector !== undefined) props.push(['nodeSelector', json(pod.spec.nodeSelector)]);
  const construct = `new ${kind}(${chart}, ${quoteString(id)}, ${print(object(props))})`;
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

/**
 * The runtimes of the input that a TrainJob names from another file, or from before them in their
 * file, with why their construct cannot say them: the TrainJob construct refuses a job that names
 * a runtime of the app by name unless it is written after it in the same chart (a name orders
 * nothing across charts), and convert gives a job the runtime's name, not its construct.
 */
export function runtimesNamedAhead(charts: readonly ChartInput[]): Map<any, L2Mapping> {
  const objects = charts.flatMap((c, chart) => c.objects.map((o, index) => ({ chart, index, doc: o.doc, file: c.file })));
  const out = new Map<any, L2Mapping>();
  for (const runtime of objects.filter(o => isDocumentOf(o.doc, TRAINING_RUNTIME) || isDocumentOf(o.doc, CLUSTER_TRAINING_RUNTIME))) {
    const job = objects.find(o => isDocumentOf(o.doc, TRAIN_JOB)
      && (o.doc.spec?.runtimeRef?.kind ?? CLUSTER_TRAINING_RUNTIME.kind) === runtime.doc.kind
      && o.doc.spec?.runtimeRef?.name === runtime.doc.metadata?.name
      && (o.chart !== runtime.chart || o.index < runtime.index));
    if (job === undefined) continue;
    const where = job.chart === runtime.chart ? 'before it in its file' : `in ${job.file}`;
    out.set(runtime.doc, {
      cannot: `the TrainJob ${String(job.doc.metadata?.name)} ${where} names it, and the TrainJob construct refuses a runtime of the app `
        + 'that it is not written after in the same chart',
    });
  }
  return out;
}
