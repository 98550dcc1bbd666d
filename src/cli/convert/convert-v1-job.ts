/**
 * The L2 mapper of the six Training Operator v1 kinds: a job is read back into the props of its
 * construct (DistributedPyTorch, ParameterServerTF, MpiAllReduce, DistributedXGBoost,
 * DistributedPaddle, DistributedJax), and the manifest the construct renders from those props is
 * predicted (convert-v1-pod.ts for the pods, convert-v1-policies.ts for the job's policies, here for the job) and compared with the input, both
 * after upstream's defaulting (convert-v1-defaults.ts, the only differences accepted).
 *
 * What the props cannot say becomes a JSON patch on the construct's `apiObject`, with a comment
 * that names it. Two kinds of patch: the construct's pod hardening that an input without it needs
 * taken out (an unmounted service account token, a container security context that forbids
 * privilege escalation) is patched out on every pod, since it is what the construct adds rather
 * than what it cannot say; every other patch is a field the construct cannot say, and a job needs
 * at most MAX_PATCHES of those to be said by its construct (a field patched alike in several pods
 * counted once). A job with more, one whose replica
 * types or containers the construct does not make, or one `lint` finds fault with (the construct
 * would refuse it at synth), is left to its typed L1 class, and the comment says why.
 */
import { Expr, json, object, print, quoteString } from './convert-code';
import type { L2Mapping } from './convert-l2-mapping';
import { differences, escape } from './convert-typed';
import { OPERATOR_DEFAULTS, OperatorDefaults, withUpstreamDefaults } from './convert-v1-defaults';
import { V1_KINDS, V1Kind, V1Role } from './convert-v1-kinds';
import { ClaimMount, ISTIO_ANNOTATION, PodMapping, Said, mapPod, restrictedContainer, said } from './convert-v1-pod';
import { elasticProps, gangScheduling, runPolicyProps } from './convert-v1-policies';
import { Finding, describe } from '../../rules/finding';
import { isObject as isMap } from '../../rules/kubernetes/names';
import { TRAINING_JOB_REPLICA_KEYS } from '../../rules/kubernetes/replica-keys';
import { KUEUE_PRIORITY_LABEL, KUEUE_QUEUE_LABEL } from '../../rules/kueue/labels';

/** The most fields a job may need patched (beyond the hardening; one patched alike in several pods counted once) to be said by its construct. */
export const MAX_PATCHES = 2;

const isCount = (v: unknown, min: number): v is number => Number.isInteger(v) && (v as number) >= min;
const ref = (code: string): Expr => ({ type: 'ref', code, value: undefined });
const enumMember = (value: string) => value.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

/** The role options in the order the props are written. */
const OPTION_ORDER = ['containerName', 'image', 'command', 'args', 'workingDir', 'imagePullPolicy', 'env', 'resources', 'sharedMemory', 'nodeSelector',
  'tolerations', 'priorityClassName', 'podLabels', 'podAnnotations', 'securityContext', 'restartPolicy'];
/** MPI: the launcher takes neither the job's resources nor its shared memory, and the construct refuses a job-wide command. */
const MPI_ROLE_ONLY = ['command', 'args', 'resources', 'sharedMemory'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never', 'ExitCode'];

/** A v1 job read far enough for its construct: the facts every step below shares. */
interface JobReading {
  readonly doc: any;
  readonly kind: V1Kind;
  readonly construct: string;
  readonly defaults: OperatorDefaults;
  readonly replicaKey: string;
  /** The replica specs, upstream's defaults filled in. */
  readonly replicaSpecs: { readonly [type: string]: any };
  /** The replica types of the input, in its order. */
  readonly types: readonly string[];
  /** The kind's roles the input has, in the construct's order. */
  readonly roles: readonly V1Role[];
  readonly elastic: unknown;
  readonly mpi: boolean;
}

/** What the job's pods are read into: the role options and rendered template per type, and the claims mounted into all. */
interface PodsReading {
  readonly pods: ReadonlyMap<string, PodMapping>;
  readonly claims: readonly ClaimMount[];
  readonly port?: { readonly number: number; readonly name: string };
  readonly mainContainer: string;
  readonly istioSidecar: boolean;
  readonly restricted: boolean;
  readonly gang?: ReturnType<typeof gangScheduling>;
}

/** The props written so far, in order, and what the module imports for them. */
class Props {
  readonly entries: Array<[string, Expr]> = [];
  readonly imports: Set<string>;
  constructor(construct: string) {
    this.imports = new Set([`cdk8s-kubeflow ${construct}`]);
  }
  add(prop: string, expr: Expr): void {
    this.entries.push([prop, expr]);
  }
  /** A prop's code, its imports taken. */
  use(s: Said): Expr {
    s.imports.forEach(i => this.imports.add(i));
    return s.expr;
  }
}

/**
 * The construct for `doc` (a v1 job, nulls dropped), or why it cannot say it. The steps, in order:
 * what refuses the job outright, its pods, the props (metadata, counts, role options, the kind's
 * own fields, the job's policies), the manifest the props render, and the statement with the
 * patches that make that manifest the input.
 */
export function v1JobL2(doc: any, chart: string, id: string, findings: readonly Finding[]): L2Mapping {
  const job = readJob(doc, findings);
  if (typeof job === 'string') return { cannot: job };
  const pods = readPods(job);
  if (typeof pods === 'string') return { cannot: pods };
  const props = new Props(job.construct);
  metadataProps(job, props);
  countProps(job, props);
  optionProps(job, pods, props);
  const spec = kindFields(job, pods, props);
  if (typeof spec === 'string') return { cannot: spec };
  const runPolicy = policyProps(job, pods, props);
  spec[job.replicaKey] = Object.fromEntries(job.roles.map(r => [r.type, {
    replicas: job.replicaSpecs[r.type].replicas,
    restartPolicy: job.replicaSpecs[r.type].restartPolicy,
    template: pods.pods.get(r.type)!.rendered,
  }]));
  if (Object.keys(runPolicy).length > 0) spec.runPolicy = runPolicy;
  const rendered = { apiVersion: doc.apiVersion, kind: doc.kind, metadata: doc.metadata, spec };
  return statement(job, pods, rendered, props, chart, id);
}

/** The job read by its kind's construct, or why the construct cannot make it (its findings, its name, its replica types and counts). */
function readJob(doc: any, findings: readonly Finding[]): JobReading | string {
  const kind = V1_KINDS[doc.kind];
  const construct = kind.construct;
  if (findings.length > 0) return `the ${construct} construct would refuse it at synth (${describe(findings[0])})`;
  const replicaKey = TRAINING_JOB_REPLICA_KEYS[doc.kind];
  const replicaSpecs = withUpstreamDefaults(doc).spec?.[replicaKey];
  if (typeof doc.metadata?.name !== 'string') return `the ${construct} construct names every job (this one has no metadata.name)`;
  if (!isMap(replicaSpecs)) return `the ${construct} construct writes spec.${replicaKey}, which this job lacks`;
  const types = Object.keys(replicaSpecs);
  const known = kind.roles.map(r => r.type);
  const unknown = types.filter(t => !known.includes(t));
  if (unknown.length > 0) return `the ${construct} construct makes the replica types ${known.join(', ')}, not ${unknown.join(', ')}`;
  const missing = kind.roles.filter(r => r.required && !types.includes(r.type));
  if (missing.length > 0) return `the ${construct} construct always makes a ${missing[0].type}, which this job lacks`;
  const elastic = doc.kind === 'PyTorchJob' || doc.kind === 'PaddleJob' ? doc.spec.elasticPolicy : undefined;
  if (doc.kind === 'PyTorchJob' && (elastic === undefined) !== types.includes('Master')) {
    return 'the DistributedPyTorch construct makes a Master for a static job and none for an elastic one';
  }
  const roles = kind.roles.filter(r => types.includes(r.type));
  for (const role of roles) {
    const replicas = replicaSpecs[role.type].replicas;
    if (role.count === undefined ? replicas !== 1 : !isCount(replicas, role.count.min)) {
      return `the ${construct} construct does not make ${replicas} ${role.type} pods`;
    }
  }
  return { doc, kind, construct, defaults: OPERATOR_DEFAULTS[doc.kind], replicaKey, replicaSpecs, types, roles, elastic, mpi: doc.kind === 'MPIJob' };
}

/**
 * Each role's pod read into role options, with the job-wide facts the pods need first (the Istio
 * annotation, the port, the MPI containers, the security preset, gang scheduling); or why the
 * construct cannot make a pod (a container it does not write).
 */
function readPods(job: JobReading): PodsReading | string {
  const { doc, replicaSpecs, types, defaults, mpi } = job;
  const annotationOf = (t: string) => replicaSpecs[t].template?.metadata?.annotations?.[ISTIO_ANNOTATION];
  const istioSidecar = !types.every(t => annotationOf(t) === 'false');
  const containerOf = (t: string) => replicaSpecs[t].template?.spec?.containers?.[0];
  let port: { number: number; name: string } | undefined;
  if (defaults.port !== undefined) {
    const exact = types.map(t => containerOf(t)?.ports).find(p => Array.isArray(p) && p.length === 1 && isMap(p[0])
      && Object.keys(p[0]).sort().join() === 'containerPort,name' && p[0].name === defaults.port!.name && isCount(p[0].containerPort, 1));
    port = { number: exact?.[0].containerPort ?? defaults.port.number, name: defaults.port.name };
  }
  const mainContainer: string = mpi ? String(types.includes('Worker') ? containerOf('Worker')?.name : doc.spec.mainContainer ?? 'mpi') : defaults.containerName;
  const containerNameOf = (t: string) => (mpi && t === 'Launcher' ? String(containerOf(t)?.name) : mainContainer);

  // The security preset and gang scheduling are the job's: each holds for every pod or for none.
  const restricted = types.every(t => restrictedContainer(containerOf(t)?.securityContext) !== undefined);
  const gang = gangScheduling(doc.spec.runPolicy?.schedulingPolicy, types.map(t => replicaSpecs[t].template?.spec?.schedulerName),
    types.reduce((n, t) => n + replicaSpecs[t].replicas, 0));
  // Claims are mounted with `job.mount`, into every pod alike: read them only when every pod has the same.
  const podOf = (t: string, claims: boolean) => mapPod(replicaSpecs[t].template, {
    containerName: containerNameOf(t),
    port,
    istioSidecar,
    serviceAccountName: mpi && t === 'Launcher' ? `${doc.metadata.name}-launcher` : undefined,
    claims,
    restricted,
    schedulerName: gang?.schedulerName,
  });
  const claimLists = new Set(types.map(t => JSON.stringify(podOf(t, true)?.claims ?? [])));
  const claims = claimLists.size === 1 ? JSON.parse([...claimLists][0]) as ClaimMount[] : [];
  const pods = new Map<string, PodMapping>();
  for (const role of job.roles) {
    const pod = podOf(role.type, claimLists.size === 1);
    if (pod === undefined) {
      return `the ${job.construct} construct writes one container named ${containerNameOf(role.type)} in the ${role.type} pods (sidecars are added after construction, which convert does not write)`;
    }
    const options = new Map(pod.options);
    const restartPolicy = replicaSpecs[role.type].restartPolicy;
    if (restartPolicy !== defaults.restartPolicy) {
      options.set('restartPolicy', said(ref(RESTART_POLICIES.includes(restartPolicy) ? `RestartPolicy.${enumMember(restartPolicy)}`
        : `RestartPolicy.of(${quoteString(String(restartPolicy))})`), ['cdk8s-kubeflow RestartPolicy']));
    }
    if (mpi && role.type === 'Launcher' && containerNameOf('Launcher') !== mainContainer) {
      options.set('containerName', said(json(containerNameOf('Launcher'))));
    }
    pods.set(role.type, { ...pod, options });
  }
  return { pods, claims, port, mainContainer, istioSidecar, restricted, gang };
}

/** Metadata as written; Kueue's labels through the props that write them (a kind Kueue queues). */
function metadataProps(job: JobReading, props: Props): void {
  const doc = job.doc;
  const labels = { ...doc.metadata.labels };
  const queue = job.kind.queueable ? labels[KUEUE_QUEUE_LABEL] : undefined;
  const priority = job.kind.queueable ? labels[KUEUE_PRIORITY_LABEL] : undefined;
  if (typeof queue === 'string') delete labels[KUEUE_QUEUE_LABEL];
  if (typeof priority === 'string') delete labels[KUEUE_PRIORITY_LABEL];
  props.add('metadata', object(Object.entries(doc.metadata).filter(([k]) => k !== 'labels' || Object.keys(labels).length > 0)
    .map(([k, v]): [string, Expr] => [k, json(k === 'labels' ? labels : v)])));
  if (typeof queue === 'string') props.add('queue', json(queue));
  if (typeof priority === 'string') props.add('workloadPriorityClass', json(priority));
}

/** The pod count of each counted role that is not the construct's default. */
function countProps(job: JobReading, props: Props): void {
  for (const role of job.kind.roles.filter(r => r.count !== undefined)) {
    const count = job.types.includes(role.type) ? job.replicaSpecs[role.type].replicas : 0;
    if (count !== role.count!.default) props.add(role.count!.prop, json(count));
  }
}

/** The role options: those every pod has alike said once, for the job; the rest under each role's options prop. */
function optionProps(job: JobReading, pods: PodsReading, props: Props): void {
  const jobOptions = new Map<string, Said>();
  for (const option of OPTION_ORDER) {
    const all = job.roles.map(r => pods.pods.get(r.type)!.options.get(option));
    if (option === 'containerName' || (job.mpi && MPI_ROLE_ONLY.includes(option)) || all.some(o => o === undefined)) continue;
    if (new Set(all.map(o => print(o!.expr))).size === 1) jobOptions.set(option, all[0]!);
  }
  for (const [option, s] of jobOptions) props.add(option, props.use(s));
  for (const role of job.roles) {
    const own = [...pods.pods.get(role.type)!.options]
      .filter(([o]) => !jobOptions.has(o))
      .sort(([a], [b]) => OPTION_ORDER.indexOf(a) - OPTION_ORDER.indexOf(b));
    if (own.length > 0 || role.madeByOptions) props.add(role.options, object(own.map(([o, s]) => [o, props.use(s)])));
  }
}

/**
 * Adds the props of a kind's own spec fields and writes into `spec` what the construct renders of
 * them; returns why the construct cannot say them, or undefined.
 */
type KindFields = (job: JobReading, pods: PodsReading, props: Props, spec: { [field: string]: unknown }) => string | undefined;

/** PyTorch's processes per node: as given, or one per accelerator when told nothing (the operator's default is "auto"). */
const pytorchFields: KindFields = (job, pods, props, spec) => {
  const nproc = job.doc.spec.nprocPerNode;
  const accelerators = pods.pods.get(job.types.includes('Worker') ? 'Worker' : 'Master')?.accelerators;
  const nprocProp = (code: string) => props.add('nprocPerNode', props.use(said(ref(code), ['cdk8s-kubeflow NprocPerNode'])));
  if (typeof nproc === 'string' && ['auto', 'cpu', 'gpu'].includes(nproc)) {
    nprocProp(`NprocPerNode.${nproc.toUpperCase()}`);
    spec.nprocPerNode = nproc;
  } else if (typeof nproc === 'string' && /^[1-9]\d*$/.test(nproc)) {
    nprocProp(`NprocPerNode.of(${nproc})`);
    spec.nprocPerNode = nproc;
  } else if (accelerators !== undefined && (job.elastic as any)?.nProcPerNode === undefined) {
    nprocProp('NprocPerNode.AUTO');
    spec.nprocPerNode = 'auto';
  }
  return elasticFields(job, pods, props, spec);
};

/** The elastic policy of PyTorch and Paddle: bounds that hold the workers, rendezvous settings by name. */
const elasticFields: KindFields = (job, _pods, props, spec) => {
  const elastic = job.elastic;
  if (!isMap(elastic)) return undefined;
  const bounds = elasticProps(elastic, job.doc.kind === 'PyTorchJob', props.imports);
  const workers = job.replicaSpecs.Worker?.replicas;
  if (bounds === undefined || workers < elastic.minReplicas || workers > elastic.maxReplicas) {
    return `the ${job.construct} construct does not say spec.elasticPolicy as written (bounds that hold the workers, rendezvous settings by name)`;
  }
  props.add('elastic', bounds.props);
  spec.elasticPolicy = bounds.rendered;
  return undefined;
};

const tfFields: KindFields = (job, _pods, props, spec) => {
  if (job.doc.spec.successPolicy === 'AllWorkers') {
    props.add('successPolicy', props.use(said(ref('SuccessPolicy.ALL_WORKERS'), ['cdk8s-kubeflow SuccessPolicy'])));
    spec.successPolicy = 'AllWorkers';
  }
  if (job.doc.spec.enableDynamicWorker === true) {
    props.add('enableDynamicWorker', json(true));
    spec.enableDynamicWorker = true;
  }
  return undefined;
};

/** MPI: slots per worker (one per accelerator unless given) and the container mpirun execs into. */
const mpiFields: KindFields = (job, pods, props, spec) => {
  const slots = job.doc.spec.slotsPerWorker;
  if (isCount(slots, 1)) props.add('slotsPerWorker', json(slots));
  spec.slotsPerWorker = isCount(slots, 1) ? slots : pods.pods.get('Worker')?.accelerators ?? 1;
  if (pods.mainContainer !== 'mpi') props.add('mainContainer', json(pods.mainContainer));
  spec.mainContainer = pods.mainContainer;
  return undefined;
};

/** Each kind's own spec fields, by kind; a kind without a row has none. */
const KIND_FIELDS: { readonly [kind: string]: KindFields } = {
  PyTorchJob: pytorchFields,
  PaddleJob: elasticFields,
  TFJob: tfFields,
  MPIJob: mpiFields,
};

/** The kind's own fields and the framework port, and the spec the construct writes of them; or why it cannot say them. */
function kindFields(job: JobReading, pods: PodsReading, props: Props): { [field: string]: unknown } | string {
  const spec: { [field: string]: unknown } = {};
  const cannot = KIND_FIELDS[job.doc.kind]?.(job, pods, props, spec);
  if (typeof cannot === 'string') return cannot;
  if (pods.port !== undefined && pods.port.number !== job.defaults.port!.number) props.add('port', json(pods.port.number));
  return spec;
}

/** The job's policies (run policy, gang scheduling, security preset, Istio), and the runPolicy the construct writes. */
function policyProps(job: JobReading, pods: PodsReading, props: Props): { [key: string]: unknown } {
  const runPolicy = runPolicyProps(job.doc.spec.runPolicy, job.kind.cleansRunningPods(job.types), props.imports);
  if (runPolicy.props.length > 0) props.add('runPolicy', object(runPolicy.props));
  if (pods.gang !== undefined) {
    props.add('gangScheduling', pods.gang.props);
    pods.gang.imports.forEach(i => props.imports.add(i));
    runPolicy.rendered.schedulingPolicy = pods.gang.rendered;
  }
  if (pods.restricted) {
    props.add('security', ref('PodSecurity.RESTRICTED'));
    props.imports.add('cdk8s-kubeflow PodSecurity');
  }
  if (pods.istioSidecar) props.add('istioSidecar', json(true));
  return runPolicy.rendered;
}

/**
 * The construct's statement: the JSON patches that make what it renders (`rendered`) the input,
 * the note on what upstream's defaulting adds, and the claims' mounts; or why it cannot say the
 * job (more than MAX_PATCHES fields patched).
 */
function statement(job: JobReading, pods: PodsReading, rendered: any, props: Props, chart: string, id: string): L2Mapping {
  const { doc, construct, replicaKey } = job;
  const imports = props.imports;
  const patches = patchesFor(doc, rendered, replicaKey);
  const fields = patches.filter(p => !p.hardening);
  // A field patched alike in several pods (the same value, or removed from each) is one thing the construct cannot say.
  const distinct = new Set(fields.map(p => JSON.stringify([p.path[1] === replicaKey ? p.path.slice(3) : p.path, p.op, p.value]))).size;
  if (distinct > MAX_PATCHES) {
    return { cannot: `the ${construct} construct does not say ${fields.map(p => p.field).join(', ')} (${distinct} fields, one patched alike in several pods counted once; convert patches at most ${MAX_PATCHES})` };
  }
  const defaulted = defaultedFields(doc, rendered, patches, replicaKey);
  const note = defaulted === undefined ? '' : `${commentLines(defaulted, '').join('\n')}\n`;
  const code = `new ${construct}(${chart}, ${quoteString(id)}, ${print(object(props.entries))})`;
  const patchLines = patches.flatMap(p => [...commentLines(p.reason, '  '), `  ${patchCode(p)},`]);
  if (patches.length > 0) imports.add('cdk8s JsonPatch');
  if (pods.claims.length === 0) {
    const body = patches.length === 0 ? `${code};` : [`${code}.apiObject.addJsonPatch(`, ...patchLines, ');'].join('\n');
    return { code: `${note}${body}`, imports: [...imports], patched: patches.length > 0 };
  }
  // Mounts are calls on the job: a block gives it a name of its own.
  imports.add('cdk8s-plus-28 PersistentVolumeClaim');
  imports.add('cdk8s-plus-28 Volume');
  const lines = [
    ...note === '' ? [] : [note.trimEnd()],
    '{',
    `  const job = ${code.replace(/\n/g, '\n  ')};`,
    ...pods.claims.flatMap(c => mountCode(c, chart, id).map(l => `  ${l}`)),
    ...patches.length === 0 ? [] : ['  job.apiObject.addJsonPatch(', ...patchLines.map(l => `  ${l}`), '  );'],
    '}',
  ];
  return { code: lines.join('\n'), imports: [...imports], patched: patches.length > 0 };
}

/** A JSON patch on the construct's object, and what it stands for. */
interface Patch {
  readonly op: 'add' | 'remove';
  readonly path: readonly string[];
  readonly value?: unknown;
  /** The construct's hardening of a pod, taken out (not a field the construct cannot say). */
  readonly hardening: boolean;
  /** The field, for the comment of a job left to its L1. */
  readonly field: string;
  readonly reason: string;
}

/**
 * The patches that make what the construct renders (`rendered`, predicted) the input `doc`: one
 * per field where they differ after upstream's defaulting, set to the input's value or removed
 * when the input has none; a list is patched whole (but the one container, whose fields are
 * patched one by one).
 */
function patchesFor(doc: any, rendered: any, replicaKey: string): Patch[] {
  const diffs = differences(withUpstreamDefaults(doc), withUpstreamDefaults(rendered));
  const seen = new Set<string>();
  const out: Patch[] = [];
  for (const diff of diffs) {
    const cut = diff.findIndex((s, i) => /^\d+$/.test(s) && !(diff[i - 1] === 'containers' && diff[i - 2] === 'spec' && diff[i - 3] === 'template'));
    const path = cut < 0 ? diff : diff.slice(0, cut);
    const key = path.join('/');
    if (seen.has(key)) continue;
    seen.add(key);
    const value = valueAt(doc, path);
    const role = path[0] === 'spec' && path[1] === replicaKey ? path[2] : undefined;
    const field = role === undefined ? path.join('.') : `${role}.${path.slice(3).join('.')}`;
    const last = path[path.length - 1];
    if (value === undefined && role !== undefined && last === 'automountServiceAccountToken' && path.length === 6) {
      out.push({ op: 'remove', path, hardening: true, field, reason: `The input mounts the service account token in the ${role} pods; the construct leaves it unmounted unless a service account is named` });
    } else if (value === undefined && role !== undefined && last === 'securityContext' && path[path.length - 3] === 'containers') {
      out.push({ op: 'remove', path, hardening: true, field, reason: `The input gives the ${role} container no security context; the construct forbids privilege escalation and privileged mode` });
    } else if (value === undefined && role !== undefined && last === 'tolerations' && path.length === 6) {
      // Like the hardening, the construct's own addition rather than a field it cannot say: not counted.
      out.push({ op: 'remove', path, hardening: true, field, reason: `The construct lets the ${role} pods tolerate their accelerator's taint, which the input leaves out` });
    } else if (value === undefined) {
      const what = role !== undefined && last === 'tolerations' ? `lets the ${role} pods tolerate their accelerator's taint`
        : field === 'spec.mainContainer' ? 'names the container mpirun execs into (spec.mainContainer)' : `writes ${field}`;
      out.push({ op: 'remove', path, hardening: false, field, reason: `The construct ${what}, which the input leaves out` });
    } else {
      out.push({ op: 'add', path, value, hardening: false, field, reason: `The construct does not say ${field} as written` });
    }
  }
  return out;
}

/**
 * What the construct writes that the input as written has not, and upstream's defaulting writes
 * anyway (convert-v1-defaults.ts), as a comment beside the object: a reviewer of the synthesized
 * YAML sees these fields appear and reads why; undefined when there are none. The fields a patch
 * sets are left out (the patch has its own comment).
 */
function defaultedFields(doc: any, rendered: any, patches: readonly Patch[], replicaKey: string): string | undefined {
  const patched = patches.map(p => p.path.join('/'));
  const jobWide: string[] = [];
  const perRole = new Map<string, string[]>();
  for (const at of differences(doc, rendered)) {
    if (patched.some(p => at.join('/').startsWith(p))) continue;
    const role = at[0] === 'spec' && at[1] === replicaKey ? at[2] : undefined;
    const field = role === undefined ? at.join('.') : at.slice(3).join('.');
    const given = valueAt(doc, at);
    // A quantity as a number here and a string there: the prediction spells it so, the construct as written.
    if (given !== undefined && typeof given !== 'object' && String(given) === String(valueAt(rendered, at))) continue;
    const text = `${field}: ${flow(valueAt(rendered, at))}${given === undefined ? '' : ` (written ${flow(given)})`}`;
    if (role === undefined) jobWide.push(text);
    else perRole.set(text, [...perRole.get(text) ?? [], role]);
  }
  const fields = [...new Set(jobWide), ...[...perRole].map(([f, roles]) => `${f} in ${roles.join(' and ')}`)];
  if (fields.length === 0) return undefined;
  return 'Upstream\'s defaulting (or reading a quantity) gives the job these anyway, and the construct writes them, so the '
    + `synthesized YAML has them where the input has not: ${fields.join('; ')}`;
}

/** A value as YAML's flow style writes it, scalars bare (`{containerPort: 23456, name: pytorchjob-port}`): a quantity's quotes are no matter. */
function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  if (isMap(value)) return `{${Object.entries(value).map(([k, v]) => `${k}: ${flow(v)}`).join(', ')}}`;
  return String(value);
}

/**
 * The volume of a claim, in a constant, and `job.mount(path, volume)`; the claim and the volume are
 * made in the chart under ids of the job's.
 */
function mountCode(c: ClaimMount, chart: string, id: string): string[] {
  const words = c.volumeName.split(/[^A-Za-z0-9]+/).filter(w => w !== '');
  const variable = `${words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('')}Volume`;
  const name = /^[A-Za-z]/.test(variable) ? variable : `volume${variable}`;
  const volumeOptions = [
    ...c.volumeName === `pvc-${c.claimName}` ? [] : [`name: ${quoteString(c.volumeName)}`],
    ...c.volumeReadOnly ? ['readOnly: true'] : [],
  ];
  return [
    `const ${name} = Volume.fromPersistentVolumeClaim(`,
    `  ${chart},`,
    `  ${quoteString(`${id}-${c.volumeName}`)},`,
    `  PersistentVolumeClaim.fromClaimName(${chart}, ${quoteString(`${id}-${c.volumeName}-claim`)}, ${quoteString(c.claimName)}),`,
    ...volumeOptions.length > 0 ? [`  { ${volumeOptions.join(', ')} },`] : [],
    ');',
    `job.mount(${quoteString(c.mountPath)}, ${name}${c.mountReadOnly ? ', { readOnly: true }' : ''});`,
  ];
}

function valueAt(doc: unknown, path: readonly string[]): unknown {
  let v: any = doc;
  for (const p of path) v = v === undefined || v === null ? undefined : v[p];
  return v;
}

function patchCode(p: Patch): string {
  const pointer = quoteString(`/${p.path.map(escape).join('/')}`);
  return p.op === 'remove' ? `JsonPatch.remove(${pointer})` : `JsonPatch.add(${pointer}, ${print(json(p.value), '  ')})`;
}

/** `// text` lines at `indent`, wrapped before 120 columns. */
function commentLines(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = `${indent}//`;
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > 118 && line !== `${indent}//`) {
      lines.push(line);
      line = `${indent}//`;
    }
    line += ` ${word}`;
  }
  return [...lines, `${line}.`];
}
