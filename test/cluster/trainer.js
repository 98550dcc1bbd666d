// Kubeflow Trainer v2 on the control plane: the set-up the JobSet and Trainer controllers need
// (CRDs, RBAC, webhooks registered by URL), the upstream corpus as a control, and what the
// Trainer v2.3.0 controller, JobSet v0.12.0 and the Job controller make of each TrainJob.
// Expected values come from the Trainer's sources at v2.3.0, named at each rule.
'use strict';

const fs = require('fs');
const path = require('path');
const { sleep, waitUntil, create, createOrFail, list, get, mergePatch, readDocs } = require('./api');

const root = process.env.CLUSTER_ROOT;
const upstreamDir = path.join(root, 'upstream', 'examples', 'upstream-v2');

const TRAINER_API = 'trainer.kubeflow.org/v1alpha1';
const JOBSET_API = '/apis/jobset.x-k8s.io/v1alpha2';
// pkg/constants: LabelTrainJobAncestor, Node, Launcher, ContainerTrainerPort, JobCompletionIndexFieldPath.
const ANCESTOR_LABEL = 'trainer.kubeflow.org/trainjob-ancestor-step';
const NODE = 'node';
const LAUNCHER = 'launcher';
const TRAINER_PORT = '29500';
const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
const COMPLETION_INDEX_FIELD = `metadata.annotations['${COMPLETION_INDEX}']`;
// JobSet's labels on its Jobs and pods (sigs.k8s.io/jobset api/jobset/v1alpha2: JobSetNameKey, ReplicatedJobNameKey).
const JOBSET_NAME_LABEL = 'jobset.sigs.k8s.io/jobset-name';
const RJOB_NAME_LABEL = 'jobset.sigs.k8s.io/replicatedjob-name';
const QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';

// ---------------------------------------------------------------- the upstream corpus

// The built-in runtimes a Trainer installation ships (manifests/base/runtimes), applied before
// the examples, which name two of them (torch-distributed, torchtune-llama3.2-1b).
const corpusRuntimeFiles = () => fs.readdirSync(path.join(upstreamDir, 'runtimes')).filter((f) => f.endsWith('.yaml')).sort()
  .map((f) => path.join(upstreamDir, 'runtimes', f));
// The job files, a file that holds runtimes only first (flux-runtime.yaml, which the Flux jobs
// name; in alphabetical order flux-interactive.yaml would come before it and be refused).
const runtimesOnly = (file) => readDocs(file).every((d) => d.kind === 'ClusterTrainingRuntime' || d.kind === 'TrainingRuntime');
const corpusJobFiles = () => {
  const files = fs.readdirSync(path.join(upstreamDir, 'jobs')).filter((f) => f.endsWith('.yaml')).sort()
    .map((f) => path.join(upstreamDir, 'jobs', f));
  return [...files.filter(runtimesOnly), ...files.filter((f) => !runtimesOnly(f))];
};

const isCorpus = (file) => file.startsWith(upstreamDir + path.sep);
const displayName = (file) => (isCorpus(file) ? `upstream-v2/${path.relative(upstreamDir, file)}` : path.basename(file));

// The upstream examples name no namespace, and two of them use the same TrainJob name
// (lammps-flux), so each job file gets a namespace of its own.
const corpusNamespace = (file) => `upstream-${path.basename(file, '.yaml').toLowerCase().replace(/[^a-z0-9-]/g, '-')}`;
const NAMESPACED_KINDS = new Set(['TrainJob', 'TrainingRuntime']);

function corpusDocs(file) {
  return readDocs(file).map((doc) => {
    if (!NAMESPACED_KINDS.has(doc.kind) || doc.metadata.namespace) return doc;
    return { ...doc, metadata: { ...doc.metadata, namespace: corpusNamespace(file) } };
  });
}

// The TrainJob of the corpus the Trainer's own webhook refuses, with the parts its refusal must
// contain: its runtime's dataset-initializer container mounts no "initializer" volume, which
// the jobset plugin's Validate requires of a TrainJob with a dataset initializer.
const EXPECTED_REFUSALS = {
  'jobs/05-multi-step.yaml': {
    kind: 'TrainJob',
    parts: ['admission webhook "validator.trainjob.trainer.kubeflow.org" denied the request',
      'must have volumeMount with name - initializer in container dataset-initializer of the dataset-initializer job'],
  },
};

// The parts of the refusal a document must get, or undefined when it must be accepted.
function expectedRefusal(file, doc) {
  if (!isCorpus(file)) return undefined;
  const r = EXPECTED_REFUSALS[path.relative(upstreamDir, file)];
  return r && r.kind === doc.kind ? r.parts : undefined;
}

// The Trainer's TrainJob webhook looks the runtime up in its informer cache
// (TrainJobValidator.ValidateCreate -> the runtime's ValidateObjects), so a TrainJob created right
// after its runtime can be refused until the cache has seen it: "specified trainingRuntime must
// be created before the TrainJob is created". A GitOps tool retries the sync (Argo CD:
// syncPolicy.retry; Flux: the next reconciliation); so does this, for at most 10 s, and says so.
async function createRetryingRuntimeLookup(doc) {
  const started = Date.now();
  let err = await create(doc);
  let tries = 0;
  while (doc.kind === 'TrainJob' && err && err.includes('must be created before the TrainJob is created') && Date.now() - started < 10000) {
    tries++;
    await sleep(500);
    err = await create(doc);
  }
  const retried = tries ? `refused ${tries} time(s) while the Trainer's cache had not seen its runtime, then ${err ? 'still refused' : 'accepted'} after ${((Date.now() - started) / 1000).toFixed(1)} s` : undefined;
  return { err, retried };
}

// ---------------------------------------------------------------- runtimes

const runtimeKey = (kind, name, ns) => (kind === 'TrainingRuntime' ? `TrainingRuntime/${ns}/${name}` : `ClusterTrainingRuntime/${name}`);

function runtimeIndex(docs) {
  const index = new Map();
  for (const d of docs) {
    if (d.apiVersion === TRAINER_API && (d.kind === 'ClusterTrainingRuntime' || d.kind === 'TrainingRuntime')) {
      index.set(runtimeKey(d.kind, d.metadata.name, d.metadata.namespace), d);
    }
  }
  return index;
}

// The TrainJob defaulter (pkg/webhooks/trainjob_webhook.go) fills runtimeRef.kind with
// ClusterTrainingRuntime.
function runtimeOf(job, runtimes) {
  const ref = job.spec.runtimeRef;
  return runtimes.get(runtimeKey(ref.kind || 'ClusterTrainingRuntime', ref.name, job.metadata.namespace));
}

// The pod templates of a TrainJob's runtime, for the namespace's Pod Security level.
function podTemplates(doc, runtimes) {
  if (doc.apiVersion !== TRAINER_API || doc.kind !== 'TrainJob') return [];
  const runtime = runtimeOf(doc, runtimes);
  if (!runtime) return [];
  return runtime.spec.template.spec.replicatedJobs.map((r) => r.template.spec.template);
}

// ---------------------------------------------------------------- setup

// Volcano publishes its PodGroup CRD in no Go module the module proxy serves (the Trainer's
// Makefile downloads it from the Volcano repository), so the tier serves the kind with an open
// schema: enough for the Trainer's volcano plugin to find the kind at start and create a
// PodGroup; no Volcano scheduler runs.
const VOLCANO_PODGROUP_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: 'podgroups.scheduling.volcano.sh' },
  spec: {
    group: 'scheduling.volcano.sh', scope: 'Namespaced',
    names: { kind: 'PodGroup', listKind: 'PodGroupList', plural: 'podgroups', singular: 'podgroup' },
    versions: [{
      name: 'v1beta1', served: true, storage: true, subresources: { status: {} },
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    }],
  },
};

// The CRDs JobSet and the Trainer need besides the Trainer's own: JobSet's and the coscheduling
// PodGroup, which build.sh copied from the pinned modules, and Volcano's PodGroup.
function extraCrds() {
  const dir = process.env.CLUSTER_CRDS;
  const crds = fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().flatMap((f) => readDocs(path.join(dir, f)));
  return [...crds, VOLCANO_PODGROUP_CRD];
}

// Every serviceAccountName a document names, with the namespace its pods run in: the
// ServiceAccount admission plugin refuses a pod whose ServiceAccount does not exist, and
// creating it is the platform's part (02-runtime-patches names training-sa).
function serviceAccountsNamed(docs) {
  const found = new Set();
  const walk = (value, ns) => {
    if (Array.isArray(value)) value.forEach((v) => walk(v, ns));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === 'serviceAccountName' && typeof v === 'string') found.add(`${ns}/${v}`);
        else walk(v, ns);
      }
    }
  };
  for (const doc of docs) if (doc.kind === 'TrainJob') walk(doc.spec, doc.metadata.namespace);
  return [...found].map((s) => s.split('/'));
}

async function setup(docs, b64) {
  // The users of control-plane.sh's token file get what the charts' ClusterRoles grant and
  // more (cluster-admin).
  for (const user of ['jobset', 'trainer', 'kube-controller-manager']) {
    await createOrFail({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: user },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
    });
  }
  for (const [ns, name] of serviceAccountsNamed(docs)) {
    if (name !== 'default') await createOrFail({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } });
  }

  const hook = (port, name, p, group, version, resources, operations, extra = {}) => ({
    name, admissionReviewVersions: ['v1'], sideEffects: 'None', failurePolicy: 'Fail', timeoutSeconds: 10,
    clientConfig: { url: `https://127.0.0.1:${port}${p}`, caBundle: b64('ca.crt') },
    rules: [{ apiGroups: [group], apiVersions: [version], operations, resources }], ...extra,
  });
  // JobSet's webhooks (config/components/webhook of sigs.k8s.io/jobset v0.12.0, with its
  // patches: the pod webhooks only see pods that carry the jobset-name label).
  const js = process.env.CLUSTER_JOBSET_WEBHOOK_PORT;
  const jobSetPods = { objectSelector: { matchExpressions: [{ key: JOBSET_NAME_LABEL, operator: 'Exists' }] } };
  await createOrFail({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'jobset-mutating-webhook-configuration' },
    webhooks: [
      hook(js, 'mjobset.kb.io', '/mutate-jobset-x-k8s-io-v1alpha2-jobset', 'jobset.x-k8s.io', 'v1alpha2', ['jobsets'], ['CREATE']),
      hook(js, 'mpod.kb.io', '/mutate--v1-pod', '', 'v1', ['pods'], ['CREATE'], jobSetPods),
    ],
  });
  await createOrFail({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'jobset-validating-webhook-configuration' },
    webhooks: [
      hook(js, 'vjobset.kb.io', '/validate-jobset-x-k8s-io-v1alpha2-jobset', 'jobset.x-k8s.io', 'v1alpha2', ['jobsets'], ['CREATE', 'UPDATE']),
      hook(js, 'vpod.kb.io', '/validate--v1-pod', '', 'v1', ['pods'], ['CREATE'], jobSetPods),
    ],
  });
  // The Trainer's webhooks (its +kubebuilder:webhook markers in pkg/webhooks, v2.3.0), under the
  // names its cmd/trainer-controller-manager gives the configurations.
  const tr = process.env.CLUSTER_TRAINER_WEBHOOK_PORT;
  const cu = ['CREATE', 'UPDATE'];
  await createOrFail({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'defaulter.trainer.kubeflow.org' },
    webhooks: [hook(tr, 'defaulter.trainjob.trainer.kubeflow.org', '/mutate-trainer-kubeflow-org-v1alpha1-trainjob', 'trainer.kubeflow.org', 'v1alpha1', ['trainjobs'], cu)],
  });
  await createOrFail({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'validator.trainer.kubeflow.org' },
    webhooks: [
      hook(tr, 'validator.clustertrainingruntime.trainer.kubeflow.org', '/validate-trainer-kubeflow-org-v1alpha1-clustertrainingruntime', 'trainer.kubeflow.org', 'v1alpha1', ['clustertrainingruntimes'], cu),
      hook(tr, 'validator.trainingruntime.trainer.kubeflow.org', '/validate-trainer-kubeflow-org-v1alpha1-trainingruntime', 'trainer.kubeflow.org', 'v1alpha1', ['trainingruntimes'], cu),
      hook(tr, 'validator.trainjob.trainer.kubeflow.org', '/validate-trainer-kubeflow-org-v1alpha1-trainjob', 'trainer.kubeflow.org', 'v1alpha1', ['trainjobs'], cu),
    ],
  });
}

// ---------------------------------------------------------------- expectations

// Kubernetes quantities as resource.Quantity.Value() reads them: rounded up to a whole number.
function quantityValue(q) {
  if (q === undefined || q === null) return 0;
  const m = /^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(q));
  if (!m) return 0;
  const scale = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 }[m[2]] || 1;
  return Math.ceil(Number(m[1]) * scale - 1e-9);
}

// runtime.GetNumGPUPerNode: the first resource whose name contains "gpu", requests before limits.
function gpusOf(resources) {
  const count = (list) => {
    const k = Object.keys(list || {}).find((n) => n.toLowerCase().includes('gpu'));
    return k ? quantityValue(list[k]) : 0;
  };
  const r = resources || {};
  return count(r.requests) || count(r.limits);
}

// runtime.ExtractResourcePerNodeFromRuntime, overridden by the TrainJob's resourcesPerNode.
function resourcesPerNode(job, runtime) {
  if (job.spec.trainer && job.spec.trainer.resourcesPerNode) return job.spec.trainer.resourcesPerNode;
  for (const r of runtime.spec.template.spec.replicatedJobs) {
    const labels = (r.template.metadata || {}).labels || {};
    if (r.name === NODE || labels[ANCESTOR_LABEL] === 'trainer') {
      const c = (r.template.spec.template.spec.containers || []).find((x) => x.name === NODE && x.resources);
      if (c) return c.resources;
    }
  }
  return {};
}

const policyOf = (runtime) => ['torch', 'mpi', 'jax', 'xgboost', 'flux'].find((p) => (runtime.spec.mlPolicy || {})[p]) || 'plain';
const ancestorOf = (rJob) => ((rJob.template.metadata || {}).labels || {})[ANCESTOR_LABEL];

// Per replicated job of the runtime: the Jobs (replicas) and the pods per Job (parallelism)
// the Trainer writes into the JobSet. The trainer step runs numNodes pods (the TrainJob's, else
// the runtime's mlPolicy.numNodes) in one Job (jobset Builder.Trainer forces replicas 1); with
// MPI the node step runs numNodes, or numNodes - 1 when the launcher runs as a node
// (mpi.EnforceMLPolicy); the initializers run one Job (Builder.Initializer).
function expectedReplicatedJobs(job, runtime) {
  const numNodes = (job.spec.trainer && job.spec.trainer.numNodes) ?? (runtime.spec.mlPolicy || {}).numNodes ?? 1;
  const mpi = (runtime.spec.mlPolicy || {}).mpi;
  return runtime.spec.template.spec.replicatedJobs.map((r) => {
    const ancestor = ancestorOf(r);
    let replicas = r.replicas ?? 1;
    let parallelism = r.template.spec.parallelism ?? 1;
    if (ancestor === 'trainer' || ancestor === 'dataset-initializer' || ancestor === 'model-initializer') replicas = 1;
    if (mpi && r.name === NODE) parallelism = mpi.runLauncherAsNode ? Math.max(numNodes - 1, 1) : numNodes;
    else if (!mpi && ancestor === 'trainer') parallelism = numNodes;
    return { name: r.name, replicas, parallelism, dependsOn: r.dependsOn || [], ancestor };
  });
}

const fieldRefEnv = (fieldPath) => ({ valueFrom: { fieldRef: { fieldPath } } });

// The env each policy's EnforceMLPolicy (pkg/runtime/framework/plugins/<policy>) puts into the
// trainer container ("node") of the trainer step, plus the TrainJob's own env (Builder.Trainer).
function expectedTrainerEnv(job, runtime, rJobs) {
  const t = job.spec.trainer;
  if (!t) return {};
  const env = {};
  for (const e of t.env || []) env[e.name] = e.valueFrom ? { valueFrom: e.valueFrom } : e.value;
  const trainerStep = rJobs.find((r) => r.ancestor === 'trainer');
  const nodes = String(trainerStep ? trainerStep.parallelism : 1);
  const res = resourcesPerNode(job, runtime);
  const name = job.metadata.name;
  switch (policyOf(runtime)) {
    case 'torch': {
      // torch.EnforceMLPolicy: numProcPerNode from the TrainJob, else "auto", which becomes the
      // CPU count (at least 1) when the node has no GPU.
      let nproc = t.numProcPerNode !== undefined ? String(t.numProcPerNode) : 'auto';
      if (nproc === 'auto' && gpusOf(res) === 0) {
        const r = res || {};
        const cpu = quantityValue((r.requests || {}).cpu) || quantityValue((r.limits || {}).cpu);
        nproc = String(Math.max(1, cpu));
      }
      Object.assign(env, { PET_NNODES: nodes, PET_NPROC_PER_NODE: nproc, PET_NODE_RANK: fieldRefEnv(COMPLETION_INDEX_FIELD) });
      // torchtune's entrypoint gets a rendezvous argument instead of the master env.
      if (JSON.stringify(t.command) !== JSON.stringify(['tune', 'run'])) {
        Object.assign(env, { PET_MASTER_ADDR: `${name}-${NODE}-0-0.${name}`, PET_MASTER_PORT: TRAINER_PORT });
      }
      return env;
    }
    case 'jax':
      return Object.assign(env, {
        JAX_NUM_PROCESSES: nodes, JAX_PROCESS_ID: fieldRefEnv(COMPLETION_INDEX_FIELD),
        JAX_COORDINATOR_ADDRESS: `${name}-${NODE}-0-0.${name}:${TRAINER_PORT}`,
      });
    case 'xgboost':
      return Object.assign(env, {
        DMLC_TRACKER_URI: `${name}-${NODE}-0-0.${name}`, DMLC_TRACKER_PORT: TRAINER_PORT,
        DMLC_TASK_ID: fieldRefEnv(COMPLETION_INDEX_FIELD), DMLC_NUM_WORKER: String(Number(nodes) * Math.max(1, gpusOf(res))),
      });
    case 'mpi':
      return Object.assign(env, mpiEnv(job, runtime));
    default:
      return env;
  }
}

// mpi.EnforceMLPolicy: slots per node are the TrainJob's numProcPerNode, else the runtime's, which
// becomes the GPU count when it is 1 and the node has more than one GPU.
function mpiSlots(job, runtime) {
  const t = job.spec.trainer || {};
  if (t.numProcPerNode !== undefined) return t.numProcPerNode;
  const fromRuntime = runtime.spec.mlPolicy.mpi.numProcPerNode ?? 1;
  const gpus = gpusOf(resourcesPerNode(job, runtime));
  return fromRuntime === 1 && gpus > 1 ? gpus : fromRuntime;
}

// The OpenMPI env of the launcher's node container (mpi.EnforceMLPolicy, OpenMPI case).
function mpiEnv(job, runtime) {
  return {
    OMPI_MCA_orte_default_hostfile: '/etc/mpi/hostfile', OMPI_MCA_orte_keep_fqdn_hostnames: 'true',
    OMPI_MCA_orte_set_default_slots: String(mpiSlots(job, runtime)), OMPI_MCA_plm_rsh_args: '-o ConnectionAttempts=10',
  };
}

// mpi.buildHostFileConfigMap: one `<endpoint> slots=<n>` line per pod of the node step (and of
// the launcher when it runs as a node), endpoints as jobset.IdentifyPodNetwork names them.
function expectedHostfile(job, runtime, rJobs) {
  const mpi = runtime.spec.mlPolicy.mpi;
  const subdomain = (runtime.spec.template.spec.network || {}).subdomain || job.metadata.name;
  const slots = mpiSlots(job, runtime);
  let out = '';
  for (const r of rJobs) {
    if (!(r.name === NODE || (mpi.runLauncherAsNode && r.name === LAUNCHER))) continue;
    for (let i = 0; i < r.replicas; i++) {
      for (let p = 0; p < r.parallelism; p++) out += `${job.metadata.name}-${r.name}-${i}-${p}.${subdomain} slots=${slots}\n`;
    }
  }
  return out;
}

// ---------------------------------------------------------------- checks


const podsOf = (ns, name) => list(`/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(`${JOBSET_NAME_LABEL}=${name}`)}`);
const jobsOf = (ns, name) => list(`/apis/batch/v1/namespaces/${ns}/jobs?labelSelector=${encodeURIComponent(`${JOBSET_NAME_LABEL}=${name}`)}`);

// What a kubelet would report for the pods a dependsOn waits on (JobSet v0.12.0
// pkg/controllers/depends_on.go): Ready pods for status Ready, Succeeded pods for Complete.
// No kubelet runs here, so without this the Jobs that depend on others are never created.
async function actAsKubelet(ns, name, rJob, status, problems) {
  const want = rJob.replicas * rJob.parallelism;
  const pods = await waitUntil(async () => {
    const p = (await podsOf(ns, name)).filter((x) => x.metadata.labels[RJOB_NAME_LABEL] === rJob.name);
    return p.length >= want ? p : undefined;
  });
  if (!pods) { problems.push(`pods of ${rJob.name} did not appear, so its dependents cannot start`); return; }
  const now = new Date().toISOString();
  for (const pod of pods) {
    const status_ = status === 'Ready'
      ? { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] }
      : { phase: 'Succeeded', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: now, reason: 'PodCompleted' }] };
    await mergePatch(`/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, { status: status_ });
  }
}

function envValue(container, name) {
  const e = (container.env || []).find((x) => x.name === name);
  if (!e) return undefined;
  return e.valueFrom ? { valueFrom: e.valueFrom } : e.value;
}

// An env value as the API server stores it, keys sorted: it defaults a fieldRef's apiVersion to
// v1 (core/v1 SetDefaults_ObjectFieldSelector), so that default is left out on both sides.
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (!value || typeof value !== 'object') return value;
  const out = {};
  for (const k of Object.keys(value).sort()) {
    if (k === 'fieldRef' && value.fieldRef && value.fieldRef.apiVersion === 'v1') {
      out.fieldRef = canonical({ fieldPath: value.fieldRef.fieldPath });
    } else {
      out[k] = canonical(value[k]);
    }
  }
  return out;
}

function compareEnv(container, expected, where, problems) {
  for (const [k, v] of Object.entries(expected)) {
    const actual = JSON.stringify(canonical(envValue(container, k)));
    const want = JSON.stringify(canonical(v));
    if (actual !== want) problems.push(`${where} ${k} is ${actual}; expected ${want}`);
  }
}

async function checkTrainJob(job, runtimes) {
  const ns = job.metadata.namespace;
  const name = job.metadata.name;
  const problems = [];
  const notes = [];
  const runtime = runtimeOf(job, runtimes);
  if (!runtime) return { summary: 'runtime not among the applied documents', problems: [`runtime ${job.spec.runtimeRef.name} is not applied`] };

  // A TrainJob managed by another controller (MultiKueue) is skipped by the Trainer
  // (TrainJobReconciler.Reconcile: IsManagedByExternalController), so no JobSet may appear here.
  const managedBy = job.spec.managedBy;
  if (managedBy && managedBy !== 'trainer.kubeflow.org/trainjob-controller') {
    await sleep(3000);
    const js = await get(`${JOBSET_API}/namespaces/${ns}/jobsets/${name}`);
    if (js) problems.push(`JobSet ${name} exists; expected none, the TrainJob is managed by ${managedBy}`);
    return { summary: `managedBy ${managedBy}: no JobSet, as the Trainer leaves it to that controller`, problems };
  }

  const rJobs = expectedReplicatedJobs(job, runtime);
  let jobSet = await waitUntil(() => get(`${JOBSET_API}/namespaces/${ns}/jobsets/${name}`));
  if (!jobSet) {
    const events = (await list(`/api/v1/namespaces/${ns}/events`)).filter((e) => e.involvedObject.name === name && e.type === 'Warning');
    return { summary: 'no JobSet', problems: [`JobSet ${name} was not created`, ...events.slice(0, 2).map((e) => `event: ${e.message}`)] };
  }

  // A TrainJob with a queue-name label is Kueue's: its webhook suspended it, and it lifts the
  // suspension on admission (kueue.js checks the Workload); the Trainer must then resume the JobSet.
  if ((job.metadata.labels || {})[QUEUE_LABEL]) {
    jobSet = await waitUntil(async () => {
      const js = await get(`${JOBSET_API}/namespaces/${ns}/jobsets/${name}`);
      return js && !js.spec.suspend ? js : undefined;
    });
    if (!jobSet) {
      const events = (await list(`/api/v1/namespaces/${ns}/events`)).filter((e) => e.type === 'Warning' && e.involvedObject.name === name);
      return { summary: 'JobSet not resumed', problems: ['the JobSet stayed suspended: Kueue did not admit the TrainJob, or the Trainer did not resume its JobSet', ...[...new Set(events.map((e) => `event: ${e.message}`))].slice(0, 2)] };
    }
    notes.push('suspended by Kueue, admitted and resumed');
  } else if (job.spec.suspend) {
    // A suspended TrainJob that names no queue makes a suspended JobSet and no pods; resume it as
    // an admission controller would, by setting suspend to false.
    if (jobSet.spec.suspend !== true) problems.push(`JobSet suspend is ${jobSet.spec.suspend}; expected true while the TrainJob is suspended`);
    await sleep(2000);
    const early = await podsOf(ns, name);
    if (early.length) problems.push(`${early.length} pods exist while the TrainJob is suspended; expected none`);
    await mergePatch(`/apis/trainer.kubeflow.org/v1alpha1/namespaces/${ns}/trainjobs/${name}`, { spec: { suspend: false } });
    notes.push('suspended JobSet, no pods, then resumed as Kueue admits');
    jobSet = await waitUntil(async () => {
      const js = await get(`${JOBSET_API}/namespaces/${ns}/jobsets/${name}`);
      return js && !js.spec.suspend ? js : undefined;
    });
    if (!jobSet) return { summary: 'JobSet not resumed', problems: [...problems, 'the JobSet stayed suspended after the TrainJob was resumed'] };
  }

  // The replicated jobs the Trainer wrote: names in the runtime's order, Jobs and pods per Job.
  const got = jobSet.spec.replicatedJobs.map((r) => `${r.name}×${r.replicas ?? 1}/${r.template.spec.parallelism ?? 1}`);
  const want = rJobs.map((r) => `${r.name}×${r.replicas}/${r.parallelism}`);
  if (got.join(' ') !== want.join(' ')) problems.push(`JobSet replicated jobs (name×replicas/parallelism) are ${got.join(' ')}; expected ${want.join(' ')}`);

  // Dependencies: act as the kubelet for the steps others wait on, in the runtime's order.
  for (const r of rJobs) {
    for (const dep of r.dependsOn) {
      const target = rJobs.find((x) => x.name === dep.name);
      if (!target || target.acted) continue;
      await actAsKubelet(ns, name, target, dep.status, problems);
      target.acted = dep.status;
      notes.push(`${dep.name} marked ${dep.status} for ${r.name}`);
    }
  }

  const wantJobs = rJobs.flatMap((r) => [...Array(r.replicas).keys()].map((i) => `${name}-${r.name}-${i}`));
  const wantPods = rJobs.reduce((n, r) => n + r.replicas * r.parallelism, 0);
  let jobs = [];
  let pods = [];
  await waitUntil(async () => {
    jobs = await jobsOf(ns, name);
    pods = await podsOf(ns, name);
    return jobs.length >= wantJobs.length && pods.length >= wantPods;
  });
  const jobNames = new Set(jobs.map((j) => j.metadata.name));
  for (const j of wantJobs) if (!jobNames.has(j)) problems.push(`Job ${j} is missing`);
  const counts = rJobs.map((r) => {
    const n = pods.filter((p) => p.metadata.labels[RJOB_NAME_LABEL] === r.name).length;
    if (n !== r.replicas * r.parallelism) problems.push(`${r.name} has ${n} pods; expected ${r.replicas * r.parallelism}`);
    return `${r.name} ${n}/${r.replicas * r.parallelism}`;
  });
  if (pods.length < wantPods) {
    const events = (await list(`/api/v1/namespaces/${ns}/events`)).filter((e) => e.type === 'Warning' && e.involvedObject.name.startsWith(name));
    problems.push(...[...new Set(events.map((e) => `event: ${e.involvedObject.kind} ${e.involvedObject.name}: ${e.message}`))].slice(0, 3));
  }

  // The trainer container of the trainer step: the TrainJob's image and command, the policy's env.
  const policy = policyOf(runtime);
  const trainerStep = rJobs.find((r) => r.ancestor === 'trainer');
  const expected = expectedTrainerEnv(job, runtime, rJobs);
  const envKeys = Object.keys(expected);
  const trainerPods = trainerStep ? pods.filter((p) => p.metadata.labels[RJOB_NAME_LABEL] === trainerStep.name) : [];
  const indexes = new Set();
  for (const pod of trainerPods) {
    const c = pod.spec.containers.find((x) => x.name === NODE);
    const where = `pod ${pod.metadata.name}`;
    if (!c) { problems.push(`${where} has no container ${NODE}`); continue; }
    compareEnv(c, expected, where, problems);
    indexes.add((pod.metadata.annotations || {})[COMPLETION_INDEX]);
    const t = job.spec.trainer || {};
    if (t.image && c.image !== t.image) problems.push(`${where} image is ${c.image}; expected ${t.image}`);
    if (policy === 'flux') {
      // flux.EnforceMLPolicy wraps the command in its entrypoint and adds the installer.
      if (JSON.stringify(c.command.slice(0, 2)) !== JSON.stringify(['/bin/bash', '/etc/flux-config/entrypoint.sh'])) problems.push(`${where} command is ${JSON.stringify(c.command)}; expected the Flux entrypoint`);
      if (!(pod.spec.initContainers || []).some((i) => i.name === 'flux-installer')) problems.push(`${where} has no flux-installer init container`);
    } else if (t.command && JSON.stringify(t.command) !== JSON.stringify(['tune', 'run']) && JSON.stringify(c.command) !== JSON.stringify(t.command)) {
      problems.push(`${where} command is ${JSON.stringify(c.command)}; expected ${JSON.stringify(t.command)}`);
    }
  }
  // The node rank comes from the Job controller's completion index: one distinct index per pod.
  if (trainerPods.length && ('PET_NODE_RANK' in expected || 'JAX_PROCESS_ID' in expected || 'DMLC_TASK_ID' in expected)) {
    const wantIdx = [...Array(trainerPods.length).keys()].map(String).join(',');
    const gotIdx = [...indexes].sort((a, b) => Number(a) - Number(b)).join(',');
    if (gotIdx !== wantIdx) problems.push(`completion indexes of the trainer pods are ${gotIdx}; expected ${wantIdx}`);
  }

  // The initializers get the TrainJob's storage URIs (jobset Builder.Initializer).
  for (const [step, source] of [['dataset-initializer', 'dataset'], ['model-initializer', 'model']]) {
    const init = (job.spec.initializer || {})[source];
    if (!init) continue;
    for (const pod of pods.filter((p) => p.metadata.labels[RJOB_NAME_LABEL] === step)) {
      const c = pod.spec.containers.find((x) => x.name === step);
      if (!c) { problems.push(`pod ${pod.metadata.name} has no container ${step}`); continue; }
      if (init.storageUri) compareEnv(c, { STORAGE_URI: init.storageUri }, `pod ${pod.metadata.name}`, problems);
      if (init.secretRef && !(c.envFrom || []).some((e) => e.secretRef && e.secretRef.name === init.secretRef.name)) {
        problems.push(`pod ${pod.metadata.name} has no envFrom of Secret ${init.secretRef.name}`);
      }
    }
    envKeys.push(`${source} STORAGE_URI`);
  }

  if (policy === 'mpi') {
    // The launcher's node container has the OpenMPI env; the hostfile ConfigMap and the SSH
    // Secret exist (mpi.Build), and every node container mounts the SSH keys.
    for (const pod of pods.filter((p) => p.metadata.labels[RJOB_NAME_LABEL] === LAUNCHER)) {
      compareEnv(pod.spec.containers.find((x) => x.name === NODE) || {}, mpiEnv(job, runtime), `pod ${pod.metadata.name}`, problems);
    }
    const mountPath = runtime.spec.mlPolicy.mpi.sshAuthMountPath || '/root/.ssh';
    for (const pod of pods) {
      const c = pod.spec.containers.find((x) => x.name === NODE);
      if (c && !(c.volumeMounts || []).some((m) => m.name === 'mpi-ssh-auth' && m.mountPath === mountPath)) problems.push(`pod ${pod.metadata.name} does not mount mpi-ssh-auth at ${mountPath}`);
    }
    const cm = await get(`/api/v1/namespaces/${ns}/configmaps/${name}-mpi-hostfile`);
    const hostfile = cm && cm.data && cm.data.hostfile;
    const wantHostfile = expectedHostfile(job, runtime, rJobs);
    if (hostfile !== wantHostfile) problems.push(`ConfigMap ${name}-mpi-hostfile hostfile is ${JSON.stringify(hostfile)}; expected ${JSON.stringify(wantHostfile)}`);
    if (!(await get(`/api/v1/namespaces/${ns}/secrets/${name}-mpi-ssh-auth`))) problems.push(`Secret ${name}-mpi-ssh-auth is missing`);
    envKeys.push('hostfile', 'ssh Secret');
  }
  if (policy === 'flux') {
    if (!(await get(`/api/v1/namespaces/${ns}/configmaps/${name}-flux-entrypoint`))) problems.push(`ConfigMap ${name}-flux-entrypoint is missing`);
    envKeys.push('flux-installer', 'entrypoint ConfigMap');
  }

  const summary = `JobSet ${want.join(' ')}, jobs ${jobs.length}/${wantJobs.length}, pods ${counts.join(' ')}; env ${envKeys.join(' ') || '(none expected)'}`
    + (notes.length ? `; ${notes.join('; ')}` : '');
  return { summary, problems };
}

// The library's PodSecurity.RESTRICTED holds on Trainer v2 too: a TrainJob of dist/ on a
// ClusterTrainingRuntime of dist/ whose pod templates all meet the profile, copied into a namespace
// that enforces "restricted", gets all its pods (its namespace in the example also holds a job on
// an upstream runtime, so it enforces only "baseline" there).
async function probeRestrictedRuntime(distDocs, meetsRestricted, runtimes) {
  const line = 'probe: a TrainJob on a RESTRICTED runtime of the examples gets all its pods in a "restricted" namespace';
  const runtime = distDocs.find((d) => d.kind === 'ClusterTrainingRuntime'
    && d.spec.template.spec.replicatedJobs.every((r) => meetsRestricted(r.template.spec.template)));
  const job = runtime && distDocs.find((d) => d.kind === 'TrainJob'
    && (d.spec.runtimeRef.kind || 'ClusterTrainingRuntime') === 'ClusterTrainingRuntime' && d.spec.runtimeRef.name === runtime.metadata.name);
  if (!job) return { line, problems: ['no example has a TrainJob on a ClusterTrainingRuntime whose pod templates meet "restricted"'] };
  const ns = 'cluster-probe-trainer-restricted';
  await createOrFail({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
  await createOrFail({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } });
  const copy = { ...job, metadata: { name: job.metadata.name, namespace: ns } };
  await createOrFail(copy);
  const { summary, problems } = await checkTrainJob(copy, runtimes);
  return { line: `${line}: TrainJob ${job.metadata.name} on ${runtime.metadata.name}: ${summary}`, problems };
}

module.exports = {
  corpusRuntimeFiles, corpusJobFiles, corpusDocs, isCorpus, displayName, expectedRefusal, createRetryingRuntimeLookup,
  runtimeIndex, podTemplates, extraCrds, setup, checkTrainJob, probeRestrictedRuntime, expectedReplicatedJobs, expectedTrainerEnv, expectedHostfile,
};
