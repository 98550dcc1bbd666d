/**
 * A TrainJob against the runtime it names, where that runtime is in the same app: what the Trainer
 * v2.3.0 webhook checks when the job is applied (pkg/runtime/framework/plugins/jobset/jobset.go,
 * torch.go, mpi.go and xgboost.go Validate), and what it leaves to the controller (a namespaced
 * runtime in another namespace is never found). A ClusterTrainingRuntime that the app does not
 * define but the Trainer release ships (`torch-distributed`...) is checked as that release has it.
 * Any other runtime outside the app is an error when the app defines runtimes (a misspelt name, or
 * the wrong kind), unless the job says the cluster provides it (`TrainingRuntimeRef.providedByCluster`,
 * an annotation); when the app defines none, there is nothing to compare against and it is not checked.
 */
import { AppDocument, AppFinding, namespaceOf, showNamespace } from '../app-document';
import type { DocumentIndex } from '../document-index';
import { JOB_SPEC, MAX_PARALLELISM_INDEXED } from '../kubernetes/job-spec';
import { Rule } from '../rule';
import { JOBSET_CLAIM_NAME, JOBSET_COORDINATOR, builtJobSetFindings } from './built-jobset';
import { BUILTIN_RUNTIMES, BUILTIN_RUNTIMES_RELEASE } from './builtin-runtimes.generated';
import { INITIALIZER_STORAGE_URI, initializerUriFindings } from './initializer-uri';
import { DATASET_INITIALIZER, INITIALIZER_VOLUME, LAUNCHER_JOB, MODEL_INITIALIZER, NODE_JOB, RESERVED_ENV, RUNTIME_PROVIDED_ANNOTATION } from './names';
import { PATCH_REPLACES_LIST, patchListFindings } from './patch-lists';
import { CLUSTER_RUNTIME, RuntimeReference, isTrainJob, runtimeReferenceOf } from './runtime-lookup';
import { torchtuneFindings } from './torchtune';
import { JOBSET_POD_NAME, TRAINJOB_REACH, jobSetShape, reachFindings } from './trainjob-reach';
import { MPI_LAUNCHER_IMAGE, MPI_NODE_IMAGE, PRTE_ENV, trainJobLauncherImage, trainJobPrteEnv } from './v2-4';
import { nearest } from '../../util/nearest';
import { KUEUE_SLICE_SIZE, sliceSizeOf, trainJobSliceProblem } from '../kueue/topology-slices';

export const TRAINJOB_RUNTIME = new Rule('trainer', 'trainer/trainjob-runtime', 'app',
  'kubeflow/trainer v2.3.0 plugins/jobset, torch, mpi, xgboost, volcano Validate (a TrainJob against its runtime); the controller finds a TrainingRuntime only in the job\'s namespace',
  'the runtime a TrainJob names exists (a TrainingRuntime in the job\'s namespace)');

const POLICIES = ['torch', 'mpi', 'jax', 'xgboost', 'flux'];

export function trainJobRuntimes(index: DocumentIndex, out: AppFinding[]): void {
  // The runtime each job names is resolved once per run, by the index, for every rule that asks.
  const runtimes = index.runtimeDocs;
  for (const d of index.documents) {
    const ref = isTrainJob(d.doc) ? runtimeReferenceOf(d.doc) : undefined;
    if (ref === undefined) continue;
    const reporter = (rule: string): Report => (field, value, allowed) => out.push({ path: d.path, finding: { field, value, allowed, rule } });
    const report = reporter(TRAINJOB_RUNTIME.id);
    const reach = reporter(TRAINJOB_REACH.id);
    const podNames = reporter(JOBSET_POD_NAME.id);
    const built: BuiltReports = {
      coordinator: reporter(JOBSET_COORDINATOR.id),
      claims: reporter(JOBSET_CLAIM_NAME.id),
      slices: reporter(KUEUE_SLICE_SIZE.id),
      launcherImage: reporter(MPI_LAUNCHER_IMAGE.id),
      prteEnv: reporter(PRTE_ENV.id),
      nodeImage: reporter(MPI_NODE_IMAGE.id),
      jobSpec: reporter(JOB_SPEC.id),
      initializerUri: reporter(INITIALIZER_STORAGE_URI.id),
      patchLists: reporter(PATCH_REPLACES_LIST.id),
    };
    const resolution = index.runtimes.runtimeOf(d.doc);
    const elsewhere = resolution !== undefined ? undefined : runtimes.find(r => r.doc.kind === ref.kind && r.doc.metadata?.name === ref.name);
    if (resolution?.own !== undefined) {
      checkAgainst(d.doc, resolution.own, '', report, reach, podNames, built);
    } else if (elsewhere) {
      // Only a namespaced runtime can be elsewhere: the controller looks in the job's namespace.
      report('spec.runtimeRef.name', ref.name, `expected a TrainingRuntime in the job's ${showNamespace(namespaceOf(d.doc))}; the app's "${ref.name}" is in ${showNamespace(namespaceOf(elsewhere.doc))}, where the controller does not look`);
    } else if (resolution?.builtIn !== undefined) {
      checkAgainst(d.doc, resolution.builtIn, ` (built into ${BUILTIN_RUNTIMES_RELEASE})`, report, reach, podNames, built);
    } else if (runtimes.length > 0 && d.doc.metadata?.annotations?.[RUNTIME_PROVIDED_ANNOTATION] !== 'true') {
      unknownRuntime(d.doc, ref, runtimes, report);
    }
  }
}

/**
 * A job whose runtime is none of the input's, when the input defines runtimes (with none, there is
 * nothing to compare against): the controller would not find it unless the cluster provides it,
 * which the job says with the annotation `TrainingRuntimeRef.providedByCluster` writes.
 */
function unknownRuntime(job: any, ref: RuntimeReference, runtimes: readonly AppDocument[], report: Report): void {
  const other = runtimes.find(r => r.doc.kind !== ref.kind && r.doc.metadata?.name === ref.name);
  if (other) {
    const where = other.doc.kind === CLUSTER_RUNTIME ? '' : ` in ${showNamespace(namespaceOf(other.doc))}`;
    const otherFactory = other.doc.kind === CLUSTER_RUNTIME ? 'cluster' : 'namespaced';
    report('spec.runtimeRef.kind', ref.kind, `expected ${other.doc.kind}: the app's "${ref.name}" is a ${other.doc.kind}${where}, and the app defines no ${ref.kind} of that name (TrainingRuntimeRef.${otherFactory}("${ref.name}"), or the runtime's ref)`);
    return;
  }
  const namespace = namespaceOf(job);
  const sameKind = runtimes.filter(r => r.doc.kind === ref.kind && (ref.kind === CLUSTER_RUNTIME || namespaceOf(r.doc) === namespace))
    .map(r => String(r.doc.metadata?.name));
  const builtins = ref.kind === CLUSTER_RUNTIME ? Object.keys(BUILTIN_RUNTIMES) : [];
  const near = nearest(ref.name, [...sameKind, ...builtins]);
  const what = ref.kind === CLUSTER_RUNTIME ? `a ClusterTrainingRuntime of the app or one built into ${BUILTIN_RUNTIMES_RELEASE}` : `a TrainingRuntime of the app in the job's ${showNamespace(namespace)}`;
  const guess = near !== undefined
    ? `did you mean "${near}"${builtins.includes(near) && !sameKind.includes(near) ? ` (built into ${BUILTIN_RUNTIMES_RELEASE})` : ''}?`
    : `the app defines ${sameKind.length ? sameKind.map(n => `"${n}"`).join(', ') : 'none'}.`;
  const provided = ref.kind === CLUSTER_RUNTIME ? 'providedByCluster' : 'providedInNamespace';
  report('spec.runtimeRef.name', ref.name, `expected ${what}; ${guess} A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.${provided}("${ref.name}") (the annotation ${RUNTIME_PROVIDED_ANNOTATION}: "true")`);
}

type Report = (field: string, value: unknown, allowed: string) => void;

/** The annotation the volcano plugin reads the PodGroup's queue from (volcano.sh QueueNameAnnotationKey). */
const VOLCANO_QUEUE = 'scheduling.volcano.sh/queue-name';

/**
 * plugins/volcano Validate: the queue annotation, when set, is not empty. The plugin reads the
 * runtime template's annotations with each patch's laid over them in order (newRuntimeInfo), so the
 * last one to set it decides.
 */
function volcanoQueue(job: any, runtime: any, origin: string, report: Report): void {
  if (runtime.spec?.podGroupPolicy?.volcano === undefined) return;
  let value: unknown = runtime.spec?.template?.metadata?.annotations?.[VOLCANO_QUEUE];
  let field = 'spec.runtimeRef.name';
  const patches: any[] = Array.isArray(job.spec?.runtimePatches) ? job.spec.runtimePatches : [];
  patches.forEach((p, i) => {
    const annotations = p?.trainingRuntimeSpec?.template?.metadata?.annotations;
    if (annotations && Object.prototype.hasOwnProperty.call(annotations, VOLCANO_QUEUE)) {
      value = annotations[VOLCANO_QUEUE];
      field = `spec.runtimePatches[${i}].trainingRuntimeSpec.template.metadata.annotations.${VOLCANO_QUEUE}`;
    }
  });
  if (value !== '') return;
  const name = runtime.metadata?.name;
  report(field, field === 'spec.runtimeRef.name' ? name : value, field === 'spec.runtimeRef.name'
    ? `expected a runtime whose "${VOLCANO_QUEUE}" annotation is a queue name or absent: the volcano runtime "${name}"${origin} sets it empty, and the Trainer webhook refuses the job (or patch it with a queue name)`
    : `expected a queue name, or no "${VOLCANO_QUEUE}" annotation (the queue then is Volcano's default): the volcano runtime "${name}"${origin} refuses an empty one`);
}
interface BuiltReports {
  readonly coordinator: Report;
  readonly claims: Report;
  readonly slices: Report;
  /** Trainer v2.4.0's changes for MPI jobs (v2-4.ts). */
  readonly launcherImage: Report;
  readonly prteEnv: Report;
  readonly nodeImage: Report;
  /** What the API server refuses in the Jobs the JobSet controller creates (kubernetes/job-spec). */
  readonly jobSpec: Report;
  /** The storage URIs the runtime's initializer images receive (initializer-uri.ts). */
  readonly initializerUri: Report;
  /** The runtime's lists a patch replaces whole (patch-lists.ts). */
  readonly patchLists: Report;
}

/** `origin` follows the runtime's name in messages: empty for the app's, the release for a built-in. */
function checkAgainst(job: any, runtime: any, origin: string, report: Report, reach: Report, podNames: Report, built: BuiltReports): void {
  const { name, jobs, byName, policy } = runtimeFacts(runtime);
  for (const [key, step] of [['dataset', DATASET_INITIALIZER], ['model', MODEL_INITIALIZER]] as const) {
    if (!job.spec?.initializer?.[key]) continue;
    const field = `spec.initializer.${key}`;
    const stepJob = byName.get(step);
    const container = stepJob?.template?.spec?.template?.spec?.containers?.find((c: any) => c?.name === step);
    if (!stepJob) {
      report(field, job.spec.initializer[key], `expected a runtime with a "${step}" step; the runtime "${name}"${origin} has only ${jobs.map(j => `"${j?.name}"`).join(', ')}`);
    } else if (!container) {
      report(field, job.spec.initializer[key], `expected the "${step}" step of the runtime "${name}"${origin} to have a container named "${step}"`);
    } else if (!(container.volumeMounts ?? []).some((m: any) => m?.name === INITIALIZER_VOLUME)) {
      report(field, job.spec.initializer[key], `expected the runtime "${name}"${origin} to mount the "${INITIALIZER_VOLUME}" volume in its "${step}" container, where the initializer writes (the Trainer webhook refuses the job otherwise)`);
    }
  }
  const patches: any[] = Array.isArray(job.spec?.runtimePatches) ? job.spec.runtimePatches : [];
  patches.forEach((patch, i) => {
    const listed = patch?.trainingRuntimeSpec?.template?.spec?.replicatedJobs;
    const patched: any[] = Array.isArray(listed) ? listed : [];
    patched.forEach((p, j) => {
      const at = `spec.runtimePatches[${i}].trainingRuntimeSpec.template.spec.replicatedJobs[${j}]`;
      const target = byName.get(p?.name);
      if (!target) {
        report(`${at}.name`, p?.name, `expected a replicated job of the runtime "${name}"${origin}: ${jobs.map(x => `"${x?.name}"`).join(', ')}`);
        return;
      }
      const have = containerNames(target);
      const spec = p?.template?.spec?.template?.spec ?? {};
      for (const list of ['initContainers', 'containers']) {
        (spec[list] ?? []).forEach((c: any, k: number) => {
          if (!have.includes(c?.name)) {
            report(`${at}.template.spec.template.spec.${list}[${k}].name`, c?.name, `expected a container of the "${p.name}" job of the runtime "${name}"${origin}: ${have.map(h => `"${h}"`).join(', ')}`);
          }
        });
      }
    });
  });
  const reserved = policy ? RESERVED_ENV[policy] ?? [] : [];
  (job.spec?.trainer?.env ?? []).forEach((e: any, i: number) => {
    if (reserved.includes(e?.name)) {
      report(`spec.trainer.env[${i}].name`, e.name, `expected a variable the ${policy} runtime "${name}"${origin} does not set itself (it sets ${reserved.join(', ')})`);
    }
  });
  if (policy === 'torch') torchtuneFindings(job, name, report);
  if (policy === 'mpi') {
    trainJobPrteEnv(job, `"${name}"${origin}`, built.prteEnv);
    trainJobLauncherImage(job, runtime, `"${name}"${origin}`, built.launcherImage);
  }
  // plugins/mpi Validate: a launcher that trains as a node spreads over more nodes only with both jobs.
  const numNodes = job.spec?.trainer?.numNodes ?? 1;
  if (policy === 'mpi' && runtime.spec.mlPolicy.mpi.runLauncherAsNode === true && numNodes >= 2 && !(byName.has(LAUNCHER_JOB) && byName.has(NODE_JOB))) {
    report('spec.trainer.numNodes', numNodes, `expected 1: the MPI runtime "${name}"${origin} runs the launcher as a node but lacks a "${LAUNCHER_JOB}" or "${NODE_JOB}" job`);
  }
  // plugins/flux Validate refuses a job's numProcPerNode below 1: trainer/counts finds that on every
  // TrainJob, whatever its runtime, so it is not reported here a second time.
  volcanoQueue(job, runtime, origin, report);
  initializerUriFindings(job, runtime, origin, built.initializerUri);
  patchListFindings(job, runtime, origin, built.patchLists);
  reachFindings(job, runtime, policy, origin, reach, podNames, built.nodeImage);
  builtJobSetFindings(job, runtime, policy, origin, built.coordinator, built.claims);
  sliceSizes(job, jobs, patches, runtime, policy, origin, built.slices);
  indexedParallelism(job, jobs, runtime, policy, `"${name}"${origin}`, built.jobSpec);
}

/**
 * validateJobSpec: an Indexed Job (the JobSet's default) runs at most 100000 pods at once, and the
 * plugins set the trainer step's parallelism from the job's nodes, which neither the Trainer nor
 * the JobSet webhook bounds: the JobSet is created, its Jobs never are.
 */
function indexedParallelism(job: any, jobs: any[], runtime: any, policy: string | undefined, rt: string, report: Report): void {
  for (const j of jobs) {
    if ((j?.template?.spec?.completionMode ?? 'Indexed') !== 'Indexed') continue;
    const { pods } = jobSetShape(job, j, runtime, policy);
    if (!(pods > MAX_PARALLELISM_INDEXED) || pods === Number(j?.template?.spec?.parallelism)) continue;
    const nodes = job.spec?.trainer?.numNodes;
    report(nodes !== undefined ? 'spec.trainer.numNodes' : 'spec.runtimeRef.name', nodes ?? runtime.metadata?.name,
      `expected at most ${MAX_PARALLELISM_INDEXED} pods in the "${j.name}" job of the runtime ${rt}, here ${pods}: the job is Indexed (the JobSet's default), `
      + 'and the API server refuses an Indexed Job with a larger parallelism, so the JobSet\'s Jobs are never created and the TrainJob never gets pods');
  }
}

interface RuntimeFacts {
  readonly name: any;
  readonly jobs: any[];
  readonly byName: ReadonlyMap<unknown, any>;
  readonly policy: string | undefined;
}

const factsOf = new WeakMap<object, RuntimeFacts>();

/** What every job on a runtime is checked against, worked out once per runtime document. */
function runtimeFacts(runtime: any): RuntimeFacts {
  let facts = factsOf.get(runtime);
  if (facts === undefined) {
    const jobs: any[] = Array.isArray(runtime.spec?.template?.spec?.replicatedJobs) ? runtime.spec.template.spec.replicatedJobs : [];
    facts = {
      name: runtime.metadata?.name,
      jobs,
      byName: new Map(jobs.map(j => [j?.name, j])),
      policy: POLICIES.find(x => runtime.spec?.mlPolicy?.[x] !== undefined),
    };
    factsOf.set(runtime, facts);
  }
  return facts;
}

function containerNames(job: any): unknown[] {
  const spec = job?.template?.spec?.template?.spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].map((c: any) => c?.name);
}

/** Kueue's podsets of the JobSet built for `job`: each replicated job's slice size, a runtime patch's over the runtime's, against its pods. */
function sliceSizes(job: any, jobs: any[], patches: any[], runtime: any, policy: string | undefined, origin: string, report: Report): void {
  for (const j of jobs) {
    if (typeof j?.name !== 'string') continue;
    let sliceSize = sliceSizeOf(j.template?.spec?.template?.metadata?.annotations);
    let patchedAt: string | undefined;
    patches.forEach((patch, i) => {
      const listed = patch?.trainingRuntimeSpec?.template?.spec?.replicatedJobs;
      const patched: any[] = Array.isArray(listed) ? listed : [];
      patched.forEach((p, k) => {
        const annotations = p?.name === j.name ? p?.template?.spec?.template?.metadata?.annotations : undefined;
        const size = sliceSizeOf(annotations);
        if (size === undefined) return;
        sliceSize = size;
        patchedAt = `spec.runtimePatches[${i}].trainingRuntimeSpec.template.spec.replicatedJobs[${k}].template.spec.template.metadata.annotations["kueue.x-k8s.io/podset-slice-size"]`;
      });
    });
    if (sliceSize === undefined) continue;
    const { replicas, pods } = jobSetShape(job, j, runtime, policy);
    const problem = trainJobSliceProblem({ job: j.name, pods: replicas * pods, sliceSize, patchedAt }, `"${runtime.metadata?.name}"${origin}`);
    if (problem) report(...problem);
  }
}
