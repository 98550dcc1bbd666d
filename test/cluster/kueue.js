// Kueue on the control plane (the version test/cluster/bin/kueue pins, with kueue.x-k8s.io/v1beta1
// unserved as from v0.20): its CRDs and webhooks (registered by URL, with the tier's CA), the
// queues, flavors and priority classes the examples name (from dist/ when it defines them, else
// from kueue-fixtures.yaml), the Nodes a topology-aware flavor needs, and the checks:
// every queued job gets a Workload that Kueue admits, its suspension is lifted and its pods are
// created; a job above its queue's quota stays suspended with a Workload that is not admitted; a
// v1beta1 object is refused. The last line counts what was accepted, admitted and created.
//
// The job kinds Kueue integrates here (control-plane.sh's config): batch/job, the training
// operator's PyTorchJob, TFJob, XGBoostJob, PaddleJob and JAXJob (kubeflow.org/v1), JobSet and
// the Trainer's TrainJob. Not the training operator's v1 MPIJob: Kueue's kubeflow.org/mpijob
// integration is for the MPI operator's v2beta1 MPIJob, so a v1 MPIJob with a queue-name label
// is not queued at all (a probe shows it).
'use strict';

const fs = require('fs');
const https = require('https');
const path = require('path');
const { request, sleep, waitUntil, create, createOrFail, list, get, mergePatch, readDocs, resourceFor } = require('./api');

const root = process.env.CLUSTER_ROOT;
const KUEUE_GROUP = 'kueue.x-k8s.io';
// The version of Kueue's API the tier serves and stores, and the one it switches off (see crds).
const STORED = 'v1beta2';
const UNSERVED = 'v1beta1';
// The Kueue the tier runs, as its module pins it (for the lines that name it).
const KUEUE_VERSION = /^\s*sigs\.k8s\.io\/kueue (v\S+)/m.exec(fs.readFileSync(path.join(root, 'test', 'cluster', 'bin', 'kueue', 'go.mod'), 'utf8'))[1];
const QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';
const PRIORITY_LABEL = 'kueue.x-k8s.io/priority-class';
// The scheduling gate of topology-aware scheduling, lifted by Kueue's ungater once it has placed the pod.
const TOPOLOGY_GATE = 'kueue.x-k8s.io/topology';
// The namespace Kueue runs in (its Configuration's namespace; MultiKueue keeps its Secrets there).
const KUEUE_NAMESPACE = 'kueue-system';
// The namespaces of the tier's probes (kueue-fixtures.yaml names their LocalQueues).
const KINDS_NAMESPACE = 'kueue-kinds';
const OVER_QUOTA_NAMESPACE = 'kueue-over-quota';

// The resources of Kueue's webhook configurations that belong to an integration this tier does
// not enable: Kueue registers no handler for them, so an entry would refuse every such object.
const NOT_ENABLED = new Set(['pods', 'deployments', 'statefulsets', 'appwrappers', 'leaderworkersets', 'mpijobs', 'rayclusters', 'rayjobs', 'rayservices', 'sparkapplications']);

// The order a platform applies Kueue's objects in: what a ClusterQueue names before it, the
// LocalQueues (which name a ClusterQueue) last, and the jobs after all of them.
const KIND_ORDER = ['ResourceFlavor', 'Topology', 'Cohort', 'AdmissionCheck', 'ProvisioningRequestConfig', 'MultiKueueCluster',
  'MultiKueueConfig', 'ClusterQueue', 'WorkloadPriorityClass', 'LocalQueue'];

const isKueue = (doc) => doc && typeof doc.apiVersion === 'string' && doc.apiVersion.startsWith(`${KUEUE_GROUP}/`);
const keyOf = (doc) => `${doc.kind}/${doc.metadata.namespace || ''}/${doc.metadata.name}`;
const labelsOf = (doc) => (doc.metadata && doc.metadata.labels) || {};

// ---------------------------------------------------------------- setup

// Kueue's CRDs as build.sh copied them from the module, with kueue.x-k8s.io/v1beta1 switched off
// (served: false) and v1beta2 the storage version: Kueue v0.20 ships its CRDs that way (it stops
// serving v1beta1; v0.21 drops it), and v0.20 is not served by the Go module proxy, so the tier runs
// the newest served Kueue with v0.20's CRD versions. An object the library still writes as v1beta1
// is then refused here as a cluster on v0.20 refuses it. The module's files stay as they are; the
// change is made here, where the tier installs them. The CRDs that its patches give a conversion
// webhook keep it (v1beta1 stays in the CRD, unserved; the API server may still ask Kueue to convert
// between versions it knows), through Kueue's own webhook server at /convert, by URL here instead
// of through its Service.
function crds(b64) {
  const dir = process.env.CLUSTER_KUEUE;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
  const converted = new Set(files.filter((f) => f.startsWith('webhook_in_')).flatMap((f) => readDocs(path.join(dir, f))).map((d) => d.metadata.name));
  const port = process.env.CLUSTER_KUEUE_WEBHOOK_PORT;
  return files.filter((f) => f.startsWith(`${KUEUE_GROUP}_`)).flatMap((f) => readDocs(path.join(dir, f))).map((crd) => {
    const versions = crd.spec.versions.map((v) => ({ ...v, served: v.name !== UNSERVED, storage: v.name === STORED }));
    if (!versions.some((v) => v.name === STORED)) throw new Error(`CRD ${crd.metadata.name} has no version ${STORED}`);
    const spec = { ...crd.spec, versions };
    if (!converted.has(crd.metadata.name)) return { ...crd, spec };
    return {
      ...crd,
      spec: {
        ...spec,
        conversion: {
          strategy: 'Webhook',
          webhook: { clientConfig: { url: `https://127.0.0.1:${port}/convert`, caBundle: b64('ca.crt') }, conversionReviewVersions: ['v1'] },
        },
      },
    };
  });
}

// config/components/webhook/manifests.yaml of the module, each entry pointed at 127.0.0.1 with
// the tier's CA; the entries of integrations this tier does not enable are left out.
function webhookConfigurations(b64) {
  const port = process.env.CLUSTER_KUEUE_WEBHOOK_PORT;
  return readDocs(path.join(process.env.CLUSTER_KUEUE, 'webhooks.yaml')).map((doc) => ({
    ...doc,
    metadata: { name: `kueue-${doc.metadata.name}` },
    webhooks: doc.webhooks
      .filter((w) => !w.rules.some((r) => r.resources.some((res) => NOT_ENABLED.has(res))))
      .map((w) => ({ ...w, clientConfig: { url: `https://127.0.0.1:${port}${w.clientConfig.service.path}`, caBundle: b64('ca.crt') } })),
  }));
}

// Before Kueue starts: its CRDs (it watches them from the start), its namespace and user, the
// probes' namespaces, and its webhook registrations (the jobs are created once it serves them).
async function setup(b64, waitEstablished) {
  for (const crd of crds(b64)) {
    await createOrFail(crd);
    await waitEstablished(crd.metadata.name);
  }
  for (const [ns, level] of [[KUEUE_NAMESPACE, 'baseline'], [KINDS_NAMESPACE, 'privileged'], [OVER_QUOTA_NAMESPACE, 'baseline']]) {
    await createOrFail({
      apiVersion: 'v1', kind: 'Namespace',
      metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': level, 'pod-security.kubernetes.io/enforce-version': 'latest' } },
    });
    await createOrFail({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } });
  }
  await createOrFail({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'kueue' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'kueue' }],
  });
  for (const config of webhookConfigurations(b64)) await createOrFail(config);
}

// ---------------------------------------------------------------- the queues

// What dist/ defines and, for the rest, the fixtures: every fixture LocalQueue and
// WorkloadPriorityClass that dist/ does not define, then the ClusterQueues, ResourceFlavors and
// Topologies those refer to, again only where dist/ has none of that name.
function queueObjects(distDocs) {
  const fromDist = distDocs.filter(isKueue);
  const defined = new Set(fromDist.map(keyOf));
  const fixtures = readDocs(path.join(root, 'test', 'cluster', 'kueue-fixtures.yaml'));
  const byKey = new Map(fixtures.map((d) => [keyOf(d), d]));
  const chosen = new Map();
  const take = (doc) => { if (doc && !defined.has(keyOf(doc))) chosen.set(keyOf(doc), doc); };
  fixtures.filter((d) => d.kind === 'LocalQueue' || d.kind === 'WorkloadPriorityClass').forEach(take);
  for (const lq of [...chosen.values()].filter((d) => d.kind === 'LocalQueue')) take(byKey.get(`ClusterQueue//${lq.spec.clusterQueue}`));
  for (const cq of [...chosen.values()].filter((d) => d.kind === 'ClusterQueue')) {
    for (const g of cq.spec.resourceGroups || []) for (const f of g.flavors) take(byKey.get(`ResourceFlavor//${f.name}`));
  }
  for (const rf of [...chosen.values()].filter((d) => d.kind === 'ResourceFlavor')) {
    if (rf.spec && rf.spec.topologyName) take(byKey.get(`Topology//${rf.spec.topologyName}`));
  }
  const rank = (d) => { const i = KIND_ORDER.indexOf(d.kind); return i < 0 ? KIND_ORDER.length : i; };
  const all = [...fromDist.map((d) => ({ doc: d, from: 'dist' })), ...[...chosen.values()].map((d) => ({ doc: d, from: 'fixture' }))];
  return all.sort((a, b) => rank(a.doc) - rank(b.doc));
}

// Kubernetes quantities as numbers of the base unit (cores, bytes, devices).
function quantity(q) {
  const m = /^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(q));
  if (!m) return 0;
  return Number(m[1]) * ({ m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 }[m[2]] || 1);
}

// What one pod of a template requests: its containers' requests (limits where no request).
function podRequests(template) {
  const out = {};
  for (const c of ((template && template.spec) || {}).containers || []) {
    const r = c.resources || {};
    for (const [name, q] of Object.entries({ ...(r.limits || {}), ...(r.requests || {}) })) out[name] = (out[name] || 0) + quantity(q);
  }
  return out;
}

// The Nodes of a topology-aware flavor: Kueue's topology-aware scheduling places a workload on
// Nodes that carry the flavor's node labels and every level of its Topology, with their
// allocatable resources, so admission needs them. Each Node holds the largest pod of the
// queued jobs, and there is one per queued pod, all in one block and one rack, so both a
// required block and a preferred rack can be met. The flavor's taints are the Nodes' taints.
function topologyNodes(flavor, topology, queuedPods) {
  const capacity = { cpu: 1, memory: 1024 ** 3, pods: 110 };
  for (const pod of queuedPods) {
    for (const [name, v] of Object.entries(pod)) capacity[name] = Math.max(capacity[name] || 0, v);
  }
  const text = (name, v) => (name === 'memory' ? `${Math.ceil(v / 1024 ** 2)}Mi` : String(Math.ceil(v)));
  const resources = Object.fromEntries(Object.entries(capacity).map(([k, v]) => [k, text(k, v)]));
  const nodes = [];
  for (let i = 0; i < Math.max(queuedPods.length, 1); i++) {
    const name = `${flavor.metadata.name}-node-${i}`;
    const labels = { ...((flavor.spec || {}).nodeLabels || {}), 'kubernetes.io/hostname': name };
    for (const level of topology.spec.levels) {
      if (level.nodeLabel !== 'kubernetes.io/hostname') labels[level.nodeLabel] = `${flavor.metadata.name}-${level.nodeLabel.split('/').pop()}-0`;
    }
    nodes.push({
      apiVersion: 'v1', kind: 'Node', metadata: { name, labels },
      spec: { taints: (flavor.spec || {}).nodeTaints || [] },
      status: {
        capacity: resources, allocatable: resources,
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'created by the cluster tier; no kubelet runs' }],
      },
    });
  }
  return nodes;
}

// ---------------------------------------------------------------- the queued jobs

// Per kind: where its suspension is, the label its pods carry, and how many pods it makes.
const V1_SPECS = { PyTorchJob: 'pytorchReplicaSpecs', TFJob: 'tfReplicaSpecs', XGBoostJob: 'xgbReplicaSpecs', PaddleJob: 'paddleReplicaSpecs', JAXJob: 'jaxReplicaSpecs', MPIJob: 'mpiReplicaSpecs' };
const KINDS = {
  ...Object.fromEntries(Object.entries(V1_SPECS).map(([kind, specs]) => [kind, {
    api: (ns, name) => `/apis/kubeflow.org/v1/namespaces/${ns}/${kind.toLowerCase()}s/${name}`,
    suspended: (o) => ((o.spec.runPolicy || {}).suspend) === true,
    podLabel: 'training.kubeflow.org/job-name',
    templates: (doc) => Object.values(doc.spec[specs] || {}).flatMap((r) => Array(r.replicas ?? 1).fill(r.template)),
  }])),
  TrainJob: {
    api: (ns, name) => `/apis/trainer.kubeflow.org/v1alpha1/namespaces/${ns}/trainjobs/${name}`,
    suspended: (o) => o.spec.suspend === true,
    podLabel: 'jobset.sigs.k8s.io/jobset-name',
    templates: () => [],
  },
  JobSet: {
    api: (ns, name) => `/apis/jobset.x-k8s.io/v1alpha2/namespaces/${ns}/jobsets/${name}`,
    suspended: (o) => o.spec.suspend === true,
    podLabel: 'jobset.sigs.k8s.io/jobset-name',
    templates: (doc) => doc.spec.replicatedJobs.flatMap((r) => Array((r.replicas ?? 1) * (r.template.spec.parallelism ?? 1)).fill(r.template.spec.template)),
  },
  Job: {
    api: (ns, name) => `/apis/batch/v1/namespaces/${ns}/jobs/${name}`,
    suspended: (o) => o.spec.suspend === true,
    podLabel: 'batch.kubernetes.io/job-name',
    templates: (doc) => Array(doc.spec.parallelism ?? 1).fill(doc.spec.template),
  },
};

// The pods of a TrainJob: numNodes pods of its runtime's trainer step (the examples that queue
// a TrainJob have one step), sized by resourcesPerNode or the runtime's container.
function trainJobPods(doc, runtimes) {
  const ref = doc.spec.runtimeRef;
  const runtime = runtimes.get(ref.kind === 'TrainingRuntime' ? `TrainingRuntime/${doc.metadata.namespace}/${ref.name}` : `ClusterTrainingRuntime/${ref.name}`);
  if (!runtime) return [];
  const trainer = doc.spec.trainer || {};
  const numNodes = trainer.numNodes ?? (runtime.spec.mlPolicy || {}).numNodes ?? 1;
  const step = runtime.spec.template.spec.replicatedJobs.find((r) => r.name === 'node') || runtime.spec.template.spec.replicatedJobs[0];
  const template = step.template.spec.template;
  const pod = trainer.resourcesPerNode ? podRequests({ spec: { containers: [{ resources: trainer.resourcesPerNode }] } }) : podRequests(template);
  return Array(numNodes).fill(pod);
}

// The copies the tier queues for the integrated kinds no example queues: the first example of
// each of those kinds in the probe namespace with the probe LocalQueue; a batch Job and a JobSet
// of its own (no example writes them; the TrainJobs' JobSets belong to their TrainJob). And the
// job above quota: an example PyTorchJob of more than 4 GPUs on a ClusterQueue of 4.
function probeJobs(distDocs) {
  const queuedKinds = new Set(distDocs.filter((d) => KINDS[d.kind] && labelsOf(d)[QUEUE_LABEL]).map((d) => d.kind));
  const copy = (doc, ns, queue) => ({
    ...JSON.parse(JSON.stringify(doc)),
    metadata: { name: doc.metadata.name, namespace: ns, labels: { ...labelsOf(doc), [QUEUE_LABEL]: queue } },
  });
  const probes = [];
  for (const kind of ['TFJob', 'XGBoostJob', 'PaddleJob', 'JAXJob', 'MPIJob']) {
    const doc = distDocs.find((d) => d.kind === kind && !labelsOf(d)[QUEUE_LABEL]);
    if (doc && !queuedKinds.has(kind)) probes.push({ doc: copy(doc, KINDS_NAMESPACE, 'kinds'), role: kind === 'MPIJob' ? 'not-integrated' : 'admitted' });
  }
  const container = { name: 'main', image: 'busybox:1.36', command: ['sleep', '60'], resources: { requests: { 'cpu': '1', 'memory': '1Gi', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } } };
  const podSpec = { restartPolicy: 'Never', containers: [container] };
  probes.push({
    role: 'admitted',
    doc: {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'probe-batch', namespace: KINDS_NAMESPACE, labels: { [QUEUE_LABEL]: 'kinds' } },
      spec: { parallelism: 2, completions: 2, template: { spec: podSpec } },
    },
  });
  probes.push({
    role: 'admitted',
    doc: {
      apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', metadata: { name: 'probe-jobset', namespace: KINDS_NAMESPACE, labels: { [QUEUE_LABEL]: 'kinds' } },
      spec: { replicatedJobs: [{ name: 'workers', replicas: 1, template: { spec: { parallelism: 2, completions: 2, template: { spec: podSpec } } } }] },
    },
  });
  const gpus = (doc) => KINDS.PyTorchJob.templates(doc).reduce((n, t) => n + (podRequests(t)['nvidia.com/gpu'] || 0), 0);
  // Without a topology request: the probe's flavor has no topology, and Kueue would refuse the
  // flavor for that before it looked at quota.
  const placed = (doc) => KINDS.PyTorchJob.templates(doc).some((t) => Object.keys((t.metadata && t.metadata.annotations) || {}).some((k) => k.startsWith('kueue.x-k8s.io/podset-')));
  const big = distDocs.find((d) => d.kind === 'PyTorchJob' && labelsOf(d)[QUEUE_LABEL] && gpus(d) > 4 && gpus(d) <= 16 && !placed(d));
  if (big) probes.push({ doc: { ...copy(big, OVER_QUOTA_NAMESPACE, 'small'), metadata: { name: 'over-quota', namespace: OVER_QUOTA_NAMESPACE, labels: { [QUEUE_LABEL]: 'small' } } }, role: 'over-quota' });
  return probes;
}

// Applies the queue objects, the Nodes of their topology-aware flavors and the probes' jobs;
// returns a report line for the queue objects and the jobs to check.
async function apply(distDocs, runtimes) {
  const objects = queueObjects(distDocs);
  const problems = [];
  const accepted = new Set();
  // The refusals by object, for the lines of the files that hold them (check.js).
  const refused = new Map();
  for (const { doc, from } of objects) {
    const err = await createKueueObject(doc);
    if (err) {
      problems.push(`${doc.kind} ${doc.metadata.name} (${from}, ${doc.apiVersion}): ${err}`);
      refused.set(keyOf(doc), err);
    } else {
      accepted.add(keyOf(doc));
    }
  }
  const probes = probeJobs(distDocs);
  const docs = objects.map((o) => o.doc);
  // The flavors each queued job may get: those of the ClusterQueue its LocalQueue names.
  const clusterQueueOf = new Map(docs.filter((d) => d.kind === 'LocalQueue').map((d) => [`${d.metadata.namespace}/${d.metadata.name}`, d.spec.clusterQueue]));
  const flavorsOf = new Map(docs.filter((d) => d.kind === 'ClusterQueue')
    .map((d) => [d.metadata.name, (d.spec.resourceGroups || []).flatMap((g) => g.flavors.map((f) => f.name))]));
  const queued = [...distDocs.filter((d) => KINDS[d.kind] && labelsOf(d)[QUEUE_LABEL] && !d.spec.managedBy), ...probes.map((p) => p.doc)];
  let nodes = 0;
  for (const flavor of docs.filter((d) => d.kind === 'ResourceFlavor' && d.spec && d.spec.topologyName)) {
    const topology = docs.find((d) => d.kind === 'Topology' && d.metadata.name === flavor.spec.topologyName);
    if (!topology) { problems.push(`ResourceFlavor ${flavor.metadata.name} names Topology ${flavor.spec.topologyName}, which nothing defines`); continue; }
    // Every pod of the queued jobs that may land on this flavor, for the size and number of its Nodes.
    const pods = queued.filter((d) => (flavorsOf.get(clusterQueueOf.get(`${d.metadata.namespace}/${labelsOf(d)[QUEUE_LABEL]}`)) || []).includes(flavor.metadata.name))
      .flatMap((d) => (d.kind === 'TrainJob' ? trainJobPods(d, runtimes) : KINDS[d.kind].templates(d).map(podRequests)));
    for (const node of topologyNodes(flavor, topology, pods)) {
      const err = await create(node);
      if (err) { problems.push(`Node ${node.metadata.name}: ${err}`); continue; }
      // The API server's TaintNodesByCondition admission taints a new Node not-ready until its
      // kubelet reports; with no kubelet, the taints are set back to the flavor's.
      await mergePatch(`/api/v1/nodes/${node.metadata.name}`, { spec: { taints: node.spec.taints } });
      nodes++;
    }
  }
  // The ClusterQueues must be active (their flavors exist) before a job is queued to them; a queue
  // that names admission checks this tier does not run (MultiKueue's: no worker clusters here) stays
  // inactive, and holds its jobs, which checkNotRunLocally proves.
  // (A queue refused above is not waited for: its refusal is the problem already reported.)
  for (const cq of docs.filter((d) => d.kind === 'ClusterQueue' && accepted.has(keyOf(d)) && !admissionCheckNames(d).length)) {
    const active = await waitUntil(async () => {
      const o = await get(`/apis/${KUEUE_GROUP}/${STORED}/clusterqueues/${cq.metadata.name}`);
      return o && conditionOf(o, 'Active') && conditionOf(o, 'Active').status === 'True';
    }, 30);
    if (!active) problems.push(`ClusterQueue ${cq.metadata.name} is not active: ${JSON.stringify(conditionOf((await get(`/apis/${KUEUE_GROUP}/${STORED}/clusterqueues/${cq.metadata.name}`)) || {}, 'Active'))}`);
  }
  for (const p of probes) {
    const err = await create(p.doc);
    if (err) problems.push(`${p.doc.kind} ${p.doc.metadata.namespace}/${p.doc.metadata.name} (probe): ${err}`);
  }
  const counts = (from) => {
    const c = {};
    for (const o of objects.filter((x) => x.from === from)) c[o.doc.kind] = (c[o.doc.kind] || 0) + 1;
    return Object.entries(c).map(([k, n]) => `${n} ${k}`).join(', ') || 'none';
  };
  const line = `kueue: queue objects from dist/: ${counts('dist')}; from kueue-fixtures.yaml: ${counts('fixture')}; ${nodes} Nodes for the topology-aware flavors; ${probes.length} probe jobs`;
  const tally = (from) => ({ accepted: objects.filter((o) => o.from === from && accepted.has(keyOf(o.doc))).length, total: objects.filter((o) => o.from === from).length });
  return { line, problems, probes, refused, objects: { dist: tally('dist'), fixture: tally('fixture') } };
}

// The AdmissionChecks a ClusterQueue names: v1beta2 lists them under
// spec.admissionChecksStrategy.admissionChecks (objects with a name), v1beta1 under
// spec.admissionChecks (names); either form may reach the tier.
function admissionCheckNames(cq) {
  const spec = cq.spec || {};
  return [...(spec.admissionChecks || []), ...((spec.admissionChecksStrategy || {}).admissionChecks || []).map((r) => r.name)];
}

// The versions of kueue.x-k8s.io the API server serves, as discovery lists them.
async function servedVersions() {
  const group = await get(`/apis/${KUEUE_GROUP}`);
  return group ? group.versions.map((v) => v.version) : [];
}

// Creates one Kueue object with strict field validation. A version the API server does not serve
// (v1beta1 here) has no discovery entry, so the object goes to the path it would have in that
// version (the plural of its kind in the served version), as a client with an older discovery
// sends it: the answer is the API server's own refusal, followed by the versions it serves.
async function createKueueObject(doc) {
  const version = doc.apiVersion.slice(KUEUE_GROUP.length + 1);
  const served = await servedVersions();
  if (served.includes(version)) return create(doc);
  const { plural, namespaced } = await resourceFor(`${KUEUE_GROUP}/${STORED}`, doc.kind);
  const where = namespaced ? `namespaces/${doc.metadata.namespace || 'default'}/` : '';
  const res = await request('POST', `/apis/${doc.apiVersion}/${where}${plural}?fieldValidation=Strict`, doc);
  if (res.status === 201 || res.status === 200) return undefined;
  return `${res.status} ${(res.body && res.body.message) || res.text.trim()} (${KUEUE_GROUP} serves ${served.join(', ') || 'no version'})`;
}

// ---------------------------------------------------------------- checks


const conditionOf = (obj, type) => (((obj.status || {}).conditions) || []).find((c) => c.type === type);

// The Workload Kueue made for a job: the one its owner reference names.
async function workloadOf(ns, uid) {
  const items = await list(`/apis/${KUEUE_GROUP}/${STORED}/namespaces/${ns}/workloads`);
  return items.find((w) => (w.metadata.ownerReferences || []).some((o) => o.uid === uid));
}

const podsOf = (ns, label, name) => list(`/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(`${label}=${name}`)}`);

// A queued job: Kueue made its Workload, admitted it (QuotaReserved and Admitted true) to the
// ClusterQueue of its LocalQueue, lifted the job's suspension, and its controller created its pods.
async function checkAdmitted(doc, wantPods) {
  const ns = doc.metadata.namespace;
  const name = doc.metadata.name;
  const kind = KINDS[doc.kind];
  const problems = [];
  const job = await get(kind.api(ns, name));
  if (!job) return { summary: 'not created', problems: [`${doc.kind} ${name} does not exist`], admitted: false, pods: 0 };
  const workload = await waitUntil(async () => {
    const w = await workloadOf(ns, job.metadata.uid);
    return w && conditionOf(w, 'Admitted') && conditionOf(w, 'Admitted').status === 'True' ? w : undefined;
  });
  if (!workload) {
    const w = await workloadOf(ns, job.metadata.uid);
    const q = w && conditionOf(w, 'QuotaReserved');
    problems.push(w ? `Workload ${w.metadata.name} is not admitted: QuotaReserved ${q ? `${q.status} ${q.reason}: ${q.message}` : 'unset'}` : `no Workload owned by ${doc.kind} ${name}`);
    const events = (await list(`/api/v1/namespaces/${ns}/events`)).filter((e) => e.type === 'Warning' && e.involvedObject.name === name);
    problems.push(...[...new Set(events.map((e) => `event: ${e.reason}: ${e.message}`))].slice(0, 2));
    return { summary: 'not admitted', problems, admitted: false, pods: 0 };
  }
  // From the job's creation to the Admitted condition, both as the API server stores them (seconds).
  const admittedIn = (Date.parse(conditionOf(workload, 'Admitted').lastTransitionTime) - Date.parse(job.metadata.creationTimestamp)) / 1000;
  const admission = workload.status.admission;
  const flavors = [...new Set(admission.podSetAssignments.flatMap((a) => Object.values(a.flavors || {})))].join(',');
  const topology = admission.podSetAssignments.some((a) => a.topologyAssignment) ? ', topology assigned' : '';
  const resumed = await waitUntil(async () => { const o = await get(kind.api(ns, name)); return o && !kind.suspended(o) ? o : undefined; });
  if (!resumed) problems.push(`${doc.kind} ${name} is still suspended after its Workload was admitted`);
  let pods = [];
  await waitUntil(async () => { pods = await podsOf(ns, kind.podLabel, name); return pods.length >= wantPods; });
  if (pods.length < wantPods) {
    problems.push(`${pods.length} pods; expected ${wantPods}`);
    const events = (await list(`/api/v1/namespaces/${ns}/events`)).filter((e) => e.type === 'Warning' && e.involvedObject.name.startsWith(name));
    problems.push(...[...new Set(events.map((e) => `event: ${e.involvedObject.kind} ${e.involvedObject.name}: ${e.message}`))].slice(0, 3));
  }
  const placement = pods.length >= wantPods ? await checkPlacement(workload, ns, kind.podLabel, name) : [];
  // A TrainJob's pods are checked like any other's: Kueue v0.19.2 writes the flavor's node labels,
  // tolerations and the topology gate into a runtime patch of its own on the TrainJob (manager
  // kueue.x-k8s.io/manager), which Trainer v2.3.0 applies to the JobSet, so they are pinned to the
  // Nodes Kueue chose. (v0.15.2 wrote them into spec.podTemplateOverrides, which v2.3.0's CRD does
  // not have: its pods carried only what the library's own runtime patch gave them.)
  problems.push(...placement);
  const priority = workload.spec.priorityClassRef ? `, priority ${workload.spec.priorityClassRef.name} (${workload.spec.priority})` : '';
  return {
    summary: `Workload ${workload.metadata.name} admitted to ClusterQueue ${admission.clusterQueue} (flavor ${flavors}${topology}${priority}) in ${admittedIn} s, `
      + `${resumed ? 'resumed' : 'not resumed'}, pods ${pods.length}/${wantPods}`,
    problems,
    // Admitted as the summary line counts it: the Workload admitted and the job's suspension lifted.
    admitted: Boolean(resumed),
    pods: pods.length,
  };
}

// What Kueue's admission puts into the pods: the node labels of the flavors it assigned (as a
// nodeSelector), and for a topology-aware assignment, once its ungater has placed each pod, no
// topology scheduling gate and a nodeSelector on the assigned domain's lowest level (a Node).
async function checkPlacement(workload, ns, label, name) {
  const problems = [];
  const assignments = workload.status.admission.podSetAssignments;
  const want = {};
  for (const flavor of new Set(assignments.flatMap((a) => Object.values(a.flavors || {})))) {
    const rf = await get(`/apis/${KUEUE_GROUP}/${STORED}/resourceflavors/${flavor}`);
    Object.assign(want, (rf && rf.spec.nodeLabels) || {});
  }
  const tas = assignments.some((a) => a.topologyAssignment);
  let pods = [];
  await waitUntil(async () => {
    pods = await podsOf(ns, label, name);
    return pods.every((p) => !(p.spec.schedulingGates || []).some((g) => g.name === TOPOLOGY_GATE));
  }, tas ? 20 : 0);
  for (const pod of pods) {
    const selector = pod.spec.nodeSelector || {};
    const missing = Object.entries(want).filter(([k, v]) => selector[k] !== v).map(([k, v]) => `${k}=${v}`);
    if (missing.length) problems.push(`pod ${pod.metadata.name} has no nodeSelector ${missing.join(', ')} of its flavor`);
    if ((pod.spec.schedulingGates || []).some((g) => g.name === TOPOLOGY_GATE)) problems.push(`pod ${pod.metadata.name} keeps the scheduling gate ${TOPOLOGY_GATE}`);
    else if (tas && !selector['kubernetes.io/hostname']) problems.push(`pod ${pod.metadata.name} was not placed on a Node of its topology assignment (no kubernetes.io/hostname nodeSelector)`);
  }
  return problems;
}

// The job above quota: its Workload exists, has no quota reserved (reason Pending, a message
// that names the resource), the job stays suspended and has no pods.
async function checkOverQuota(doc) {
  const ns = doc.metadata.namespace;
  const name = doc.metadata.name;
  const kind = KINDS[doc.kind];
  const problems = [];
  const job = await get(kind.api(ns, name));
  if (!job) return { summary: 'not created', problems: [`${doc.kind} ${name} does not exist`] };
  const workload = await waitUntil(async () => {
    const w = await workloadOf(ns, job.metadata.uid);
    return w && conditionOf(w, 'QuotaReserved') ? w : undefined;
  });
  if (!workload) return { summary: 'no Workload', problems: [`no Workload with a QuotaReserved condition is owned by ${doc.kind} ${name}`] };
  const q = conditionOf(workload, 'QuotaReserved');
  const want = 'insufficient quota for nvidia.com/gpu in flavor probe-default';
  if (q.status !== 'False' || q.reason !== 'Pending' || !q.message.includes(want)) {
    problems.push(`QuotaReserved is ${q.status} ${q.reason}: ${q.message}; expected False Pending with a message containing "${want}"`);
  }
  const admitted = conditionOf(workload, 'Admitted');
  if (admitted && admitted.status === 'True') problems.push(`Workload ${workload.metadata.name} is admitted`);
  await sleep(2000);
  const now = await get(kind.api(ns, name));
  if (!kind.suspended(now)) problems.push(`${doc.kind} ${name} is not suspended`);
  const pods = await podsOf(ns, kind.podLabel, name);
  if (pods.length) problems.push(`${pods.length} pods exist; expected none`);
  return { summary: `Workload ${workload.metadata.name} not admitted: QuotaReserved ${q.status} ${q.reason}: ${q.message}; job suspended, no pods`, problems };
}

// A job managed by MultiKueue: the state of its Workload as Kueue leaves it, and no pods.
async function checkNotRunLocally(doc) {
  const ns = doc.metadata.namespace;
  const name = doc.metadata.name;
  const kind = KINDS[doc.kind];
  const job = await get(kind.api(ns, name));
  if (!job) return { summary: 'not created', problems: [`${doc.kind} ${name} does not exist`] };
  await sleep(3000);
  const w = await workloadOf(ns, job.metadata.uid);
  const state = !w ? 'no Workload' : ['QuotaReserved', 'Admitted'].map((t) => {
    const c = conditionOf(w, t);
    return `${t} ${c ? `${c.status}${c.reason ? ` ${c.reason}` : ''}` : 'unset'}`;
  }).join(', ');
  const now = await get(kind.api(ns, name));
  const pods = await podsOf(ns, kind.podLabel, name);
  const problems = pods.length ? [`${pods.length} pods exist; expected none, the job is MultiKueue's`] : [];
  // Its ClusterQueue names MultiKueue's AdmissionCheck, which this tier does not run: Kueue must
  // hold the Workload there rather than admit it and lift the suspension (what it does on a
  // ClusterQueue without the check, which the library refuses as kueue/multikueue-queue).
  if (!kind.suspended(now)) problems.push(`${doc.kind} ${name} is not suspended; expected Kueue to hold it for the MultiKueue admission check`);
  const admitted = w && conditionOf(w, 'Admitted');
  if (admitted && admitted.status === 'True') problems.push(`Workload ${w.metadata.name} is admitted in this cluster`);
  return {
    summary: `${w ? `Workload ${w.metadata.name}: ` : ''}${state}; job ${kind.suspended(now) ? 'suspended' : 'not suspended'}; no pods run here`,
    problems,
  };
}

// A v1 MPIJob with a queue-name label: Kueue does not integrate it, so no Workload is made, the
// operator runs it at once, and the label has no effect.
async function checkNotIntegrated(doc, wantPods) {
  const ns = doc.metadata.namespace;
  const name = doc.metadata.name;
  const kind = KINDS[doc.kind];
  const problems = [];
  const job = await get(kind.api(ns, name));
  if (!job) return { summary: 'not created', problems: [`${doc.kind} ${name} does not exist`] };
  let pods = [];
  await waitUntil(async () => { pods = await podsOf(ns, kind.podLabel, name); return pods.length >= wantPods; });
  const workload = await workloadOf(ns, job.metadata.uid);
  if (workload) problems.push(`Workload ${workload.metadata.name} exists; expected none (Kueue ${KUEUE_VERSION} does not integrate kubeflow.org/v1 MPIJob)`);
  if (pods.length < wantPods) problems.push(`${pods.length} pods; expected ${wantPods}`);
  return { summary: `no Workload, pods ${pods.length}/${wantPods} created without admission: the queue-name label has no effect`, problems };
}

// A Kueue object written as v1beta1 is refused: the tier's own proof that v1beta1 is off, which
// holds whatever dist/ writes (once the library writes v1beta2 no object of dist/ shows it). The
// probe is the fixtures' flavor without topology, under a name of its own, as v1beta1.
async function checkUnservedRefused() {
  const doc = { apiVersion: `${KUEUE_GROUP}/${UNSERVED}`, kind: 'ResourceFlavor', metadata: { name: `${UNSERVED}-probe` } };
  const err = await createKueueObject(doc);
  const served = await servedVersions();
  const problems = [];
  if (!err) problems.push(`${doc.kind} ${doc.metadata.name} was accepted as ${doc.apiVersion}; expected a refusal (404)`);
  else if (!err.startsWith('404 ')) problems.push(`refusal is ${err}; expected 404`);
  if (served.includes(UNSERVED) || !served.includes(STORED)) problems.push(`${KUEUE_GROUP} serves ${served.join(', ')}; expected ${STORED} only`);
  return { summary: `${doc.kind} ${doc.metadata.name} as ${doc.apiVersion}: ${err ? `refused: ${err}` : 'accepted'}`, problems };
}

// Kueue's conversion webhook still answers for the CRDs that keep it (crds): a ConversionReview,
// as the API server would send it, of an accepted ClusterQueue from v1beta2 to v1beta1 and back,
// straight to Kueue's /convert with the tier's CA. The API server asks for it only for objects
// stored in another version (a cluster upgraded from a Kueue that stored v1beta1), which a fresh
// etcd has none of; this shows the path a migrated cluster needs still works with v1beta1 unserved.
// JSON with the keys of every object sorted: Kueue's converter writes fields in its struct order.
const canonical = (v) => JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));

async function checkConversion() {
  const problems = [];
  const cqs = await list(`/apis/${KUEUE_GROUP}/${STORED}/clusterqueues`);
  const cq = cqs.find((o) => o.spec.cohortName) || cqs[0];
  if (!cq) return { summary: 'no ClusterQueue to convert', problems: ['no ClusterQueue was accepted'] };
  const convert = (object, desiredAPIVersion) => new Promise((resolve, reject) => {
    const body = JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
      request: { uid: `cluster-tier-${desiredAPIVersion.split('/')[1]}`, desiredAPIVersion, objects: [object] },
    });
    const req = https.request({
      host: '127.0.0.1', port: process.env.CLUSTER_KUEUE_WEBHOOK_PORT, path: '/convert', method: 'POST',
      ca: fs.readFileSync(path.join(process.env.CLUSTER_PKI, 'ca.crt')),
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }, timeout: 10000,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        try { resolve(JSON.parse(text).response); } catch { reject(new Error(`/convert answered ${res.statusCode}: ${text.slice(0, 200)}`)); }
      });
    });
    req.on('timeout', () => req.destroy(new Error('/convert timed out')));
    req.on('error', reject);
    req.end(body);
  });
  const down = await convert(cq, `${KUEUE_GROUP}/${UNSERVED}`);
  const old = down && down.convertedObjects && down.convertedObjects[0];
  if (!old || down.result.status !== 'Success') return { summary: 'conversion failed', problems: [`to ${UNSERVED}: ${JSON.stringify(down && down.result)}`] };
  if (old.apiVersion !== `${KUEUE_GROUP}/${UNSERVED}`) problems.push(`converted apiVersion is ${old.apiVersion}; expected ${KUEUE_GROUP}/${UNSERVED}`);
  if ((old.spec.cohort || undefined) !== (cq.spec.cohortName || undefined)) problems.push(`${UNSERVED} spec.cohort is ${old.spec.cohort}; expected ${cq.spec.cohortName}`);
  const up = await convert(old, `${KUEUE_GROUP}/${STORED}`);
  const back = up && up.convertedObjects && up.convertedObjects[0];
  if (!back || up.result.status !== 'Success') problems.push(`back to ${STORED}: ${JSON.stringify(up && up.result)}`);
  else if (canonical(back.spec) !== canonical(cq.spec)) problems.push(`the round trip changed spec: ${canonical(back.spec)}; expected ${canonical(cq.spec)}`);
  const cohort = cq.spec.cohortName ? ` (spec.cohortName ${cq.spec.cohortName} <-> spec.cohort ${old.spec.cohort})` : '';
  return { summary: `ClusterQueue ${cq.metadata.name} ${STORED} -> ${UNSERVED} -> ${STORED} through Kueue's /convert${cohort}, spec unchanged`, problems };
}

// The checks of every queued job of dist/ and of the probes, each one line; then one line that
// counts them: every Kueue object applied accepted, every queued job admitted (its Workload
// admitted and the job resumed) and its pods created (no kubelet runs: created is what counts).
async function check(distDocs, queues, runtimes, report) {
  const tally = { jobs: 0, admitted: 0, wantPods: 0, pods: 0 };
  const count = (result, wantPods) => {
    tally.jobs++;
    tally.wantPods += wantPods;
    if (result.admitted) tally.admitted++;
    tally.pods += result.pods;
    return result;
  };
  const queued = distDocs.filter((d) => KINDS[d.kind] && labelsOf(d)[QUEUE_LABEL] && !(d.kind === 'TrainJob' && d.spec.managedBy));
  for (const doc of queued) {
    const wantPods = doc.kind === 'TrainJob' ? trainJobPods(doc, runtimes).length : KINDS[doc.kind].templates(doc).length;
    const { summary, problems } = count(await checkAdmitted(doc, wantPods), wantPods);
    const priority = labelsOf(doc)[PRIORITY_LABEL] ? `, priority class ${labelsOf(doc)[PRIORITY_LABEL]}` : '';
    report(!problems.length, `kueue: ${doc.kind} ${doc.metadata.namespace}/${doc.metadata.name} (queue ${labelsOf(doc)[QUEUE_LABEL]}${priority}): ${summary}`, problems);
  }
  // A job handed to MultiKueue: this tier runs no MultiKueue admission check or worker cluster,
  // so Kueue holds its Workload at the check of its ClusterQueue and nothing runs here.
  for (const doc of distDocs.filter((d) => KINDS[d.kind] && labelsOf(d)[QUEUE_LABEL] && d.kind === 'TrainJob' && d.spec.managedBy)) {
    const { summary, problems } = await checkNotRunLocally(doc);
    report(!problems.length, `kueue: ${doc.kind} ${doc.metadata.namespace}/${doc.metadata.name} (queue ${labelsOf(doc)[QUEUE_LABEL]}, managedBy ${doc.spec.managedBy}): ${summary}`, problems);
  }
  for (const { doc, role } of queues.probes) {
    const wantPods = KINDS[doc.kind].templates(doc).length;
    const { summary, problems } = role === 'over-quota' ? await checkOverQuota(doc)
      : role === 'not-integrated' ? await checkNotIntegrated(doc, wantPods) : count(await checkAdmitted(doc, wantPods), wantPods);
    const what = role === 'over-quota' ? 'above quota' : role === 'not-integrated' ? 'not integrated' : 'copy';
    report(!problems.length, `kueue probe (${what}): ${doc.kind} ${doc.metadata.namespace}/${doc.metadata.name}: ${summary}`, problems);
  }
  const unserved = await checkUnservedRefused();
  report(!unserved.problems.length, `kueue probe (${UNSERVED} unserved): ${unserved.summary}`, unserved.problems);
  const conversion = await checkConversion().catch((e) => ({ summary: 'conversion failed', problems: [e.message] }));
  report(!conversion.problems.length, `kueue probe (conversion): ${conversion.summary}`, conversion.problems);

  const { dist, fixture } = queues.objects;
  const served = await servedVersions();
  const problems = [];
  if (dist.accepted < dist.total) problems.push(`${dist.total - dist.accepted} of the ${dist.total} Kueue objects of dist/ refused (see the queue objects' line)`);
  if (fixture.accepted < fixture.total) problems.push(`${fixture.total - fixture.accepted} of the ${fixture.total} fixture objects refused`);
  if (tally.admitted < tally.jobs) problems.push(`${tally.jobs - tally.admitted} of the ${tally.jobs} queued jobs not admitted`);
  if (tally.pods < tally.wantPods) problems.push(`${tally.pods} of the ${tally.wantPods} pods of the queued jobs created`);
  if (!tally.jobs) problems.push('no queued job was checked');
  report(!problems.length, `kueue ${KUEUE_VERSION} (${UNSERVED} ${served.includes(UNSERVED) ? 'served' : 'unserved'}): `
    + `${dist.accepted + fixture.accepted} objects accepted (${dist.accepted}/${dist.total} of dist/, ${fixture.accepted}/${fixture.total} fixtures), `
    + `${tally.admitted} queued jobs admitted (of ${tally.jobs}: dist/ and the probe copies), ${tally.pods} pods created (of ${tally.wantPods})`, problems);
}

module.exports = { setup, apply, check, isKueue, keyOf };
