/**
 * Which prop set a field of a rendered document, for the rules' messages: a finding on
 * `spec.runPolicy.ttlSecondsAfterFinished` reads `spec.runPolicy.ttlSecondsAfterFinished
 * (runPolicy.ttlAfterFinished) is ...`, so the one message serves the construct's user (who wrote
 * the prop) and matches what `lint` says of the same YAML (the field).
 *
 * One table for every family: a field names a prop only when the construct's props set it (a value
 * from the platform defaults or the library's own defaults names none), and a role's own option
 * (`worker.restartPolicy`) before the job-wide one (`restartPolicy`). Constructs that know better
 * for a field (MPI's launcher command) answer first; see `KubeflowResource`.
 */

import { v1JobNamed } from '../../kinds/kind-table';
import { V1_JOBS } from '../../kinds/training-operator';

/**
 * v1 replica types and the role option that sets each, for a replica type its kind's row does not
 * list (a misspelt type of a known kind is named by the option it would be).
 */
const ROLE_OF_REPLICA: { [type: string]: string } = {
  Master: 'master', Worker: 'worker', PS: 'parameterServer', Chief: 'chief', Evaluator: 'evaluator', Launcher: 'launcher',
};

/** v1 replica types whose count a prop sets, likewise. */
const COUNT_OF_REPLICA: { [type: string]: string } = { Worker: 'workers', PS: 'parameterServers' };

/** The role of a replica type in its kind's row of the kind table (a PaddleJob's parameter servers are its `Master` replicas). */
const roleInRow = (kind: string | undefined, replicaType: string) => v1JobNamed(kind)?.roles.find(r => r.type === replicaType);

/** The role option of a replica type of a kind. */
export function roleOfReplica(kind: string | undefined, replicaType: string): string | undefined {
  const role = roleInRow(kind, replicaType);
  return role !== undefined ? role.options : ROLE_OF_REPLICA[replicaType];
}

/** The prop that counts a replica type's pods, if one does. */
function countOfReplica(kind: string | undefined, replicaType: string): string | undefined {
  const role = roleInRow(kind, replicaType);
  return role !== undefined ? role.count?.prop : COUNT_OF_REPLICA[replicaType];
}

/**
 * The role option that set a field a replica group reports (`image`, `resources.memory`), as
 * `worker.image`, when the role's own options set it; undefined when the job-wide prop of the same
 * name did (the message then names it already) or nothing did.
 */
export function roleProp(field: string, props: object | undefined, kind: string | undefined, replicaType: string): string | undefined {
  const role = roleOfReplica(kind, replicaType);
  if (props === undefined || role === undefined) return undefined;
  if (field === 'replicas') {
    const count = countOfReplica(kind, replicaType);
    return count !== undefined && valueAt(props, count) !== undefined ? count : undefined;
  }
  const head = /^[A-Za-z]+/.exec(field)?.[0];
  return head !== undefined && valueAt(props, `${role}.${head}`) !== undefined ? `${role}.${field}` : undefined;
}

/** The props that name a Kueue object by construct, for the label a name prop sets otherwise. */
const KUEUE_OBJECT_PROPS: { readonly [nameProp: string]: readonly string[] } = {
  queue: ['localQueue'],
  workloadPriorityClass: ['workloadPriority'],
};

/** Fields of the document outside any pod, and the prop that sets each. */
const DOCUMENT_FIELDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^metadata\.labels\["kueue\.x-k8s\.io\/queue-name"\]$/, 'queue'],
  [/^metadata\.labels\["kueue\.x-k8s\.io\/priority-class"\]$/, 'workloadPriorityClass'],
  [/^metadata\.labels\["trainer\.kubeflow\.org\/framework"\]$/, 'frameworkLabel'],
  [/^metadata\.name$/, 'metadata.name'],
  [/^metadata\.namespace$/, 'metadata.namespace'],
  [/^metadata\.labels(\.|\[|$)/, 'metadata.labels'],
  [/^metadata\.annotations(\.|\[|$)/, 'metadata.annotations'],
  // Kueue's objects (their spec fields are named like no job's)
  [/^spec\.resourceGroups(\.|\[|$)/, 'resourceGroups'],
  [/^spec\.namespaceSelector(\.|\[|$)/, 'namespaceSelector'],
  [/^spec\.fairSharing\.weight$/, 'fairSharingWeight'],
  [/^spec\.queueingStrategy$/, 'queueingStrategy'],
  [/^spec\.preemption(\.|$)/, 'preemption'],
  [/^spec\.nodeLabels(\.|\[|$)/, 'nodeLabels'],
  [/^spec\.nodeTaints(\.|\[|$)/, 'nodeTaints'],
  [/^spec\.tolerations(\.|\[|$)/, 'tolerations'],
  [/^spec\.levels(\.|\[|$)/, 'levels'],
  [/^value$/, 'value'],
  [/^description$/, 'description'],
  // v1 jobs
  [/^spec\.runPolicy\.ttlSecondsAfterFinished$/, 'runPolicy.ttlAfterFinished'],
  [/^spec\.runPolicy\.activeDeadlineSeconds$/, 'runPolicy.activeDeadline'],
  [/^spec\.runPolicy\.backoffLimit$/, 'runPolicy.backoffLimit'],
  [/^spec\.runPolicy\.cleanPodPolicy$/, 'runPolicy.cleanPodPolicy'],
  [/^spec\.runPolicy\.managedBy$/, 'runPolicy.managedBy'],
  [/^spec\.runPolicy\.suspend$/, 'runPolicy.suspend'],
  [/^spec\.runPolicy\.schedulingPolicy\.minAvailable$/, 'gangScheduling.minAvailable'],
  [/^spec\.runPolicy\.schedulingPolicy\.queue$/, 'gangScheduling.queue'],
  [/^spec\.runPolicy\.schedulingPolicy\.priorityClass$/, 'gangScheduling.priorityClass'],
  [/^spec\.runPolicy\.schedulingPolicy\.scheduleTimeoutSeconds$/, 'gangScheduling.scheduleTimeout'],
  [/^spec\.runPolicy\.schedulingPolicy\.minResources(\.|\[|$)/, 'gangScheduling.minResources'],
  [/^spec\.elasticPolicy\.minReplicas$/, 'elastic.minWorkers'],
  [/^spec\.elasticPolicy\.maxReplicas$/, 'elastic.maxWorkers'],
  [/^spec\.elasticPolicy\.maxRestarts$/, 'elastic.maxRestarts'],
  [/^spec\.elasticPolicy\.rdzvBackend$/, 'elastic.rendezvousBackend'],
  [/^spec\.elasticPolicy\.rdzvPort$/, 'elastic.rendezvousPort'],
  [/^spec\.elasticPolicy\.rdzvHost$/, 'elastic.rendezvousHost'],
  [/^spec\.elasticPolicy\.rdzvId$/, 'elastic.rendezvousId'],
  [/^spec\.elasticPolicy\.rdzvConf(\.|\[|$)/, 'elastic.rendezvousConf'],
  [/^spec\.elasticPolicy\.metrics(\.|\[|$)/, 'elastic.metrics'],
  [/^spec\.nprocPerNode$/, 'nprocPerNode'],
  [/^spec\.successPolicy$/, 'successPolicy'],
  [/^spec\.slotsPerWorker$/, 'slotsPerWorker'],
  [/^spec\.mainContainer$/, 'mainContainer'],
  [/^spec\.enableDynamicWorker$/, 'enableDynamicWorker'],
  // TrainJob
  [/^spec\.trainer\.numNodes$/, 'numNodes'],
  [/^spec\.mlPolicy\.numNodes$/, 'numNodes'],
  [/^spec\.trainer\.numProcPerNode$/, 'numProcPerNode'],
  [/^spec\.trainer\.image$/, 'image'],
  [/^spec\.trainer\.command(\[|$)/, 'command'],
  [/^spec\.trainer\.args(\[|$)/, 'args'],
  [/^spec\.trainer\.env(\[|$)/, 'env'],
  [/^spec\.trainer\.resourcesPerNode(\.|\[|$)/, 'resourcesPerNode'],
  [/^spec\.initializer\.model\.storageUri$/, 'modelInitializer.storageUri'],
  [/^spec\.initializer\.dataset\.storageUri$/, 'datasetInitializer.storageUri'],
  [/^spec\.initializer\.model\.env(\.|\[|$)/, 'modelInitializer.env'],
  [/^spec\.initializer\.dataset\.env(\.|\[|$)/, 'datasetInitializer.env'],
  [/^spec\.initializer\.model(\.|$)/, 'modelInitializer'],
  [/^spec\.initializer\.dataset(\.|$)/, 'datasetInitializer'],
  [/^spec\.runtimePatches\[\d+\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\[\d+\]\.name$/, 'patchedJobs'],
  [/^spec\.runtimePatches\[\d+\]\.trainingRuntimeSpec\.template\.spec\.replicatedJobs\[\d+\]\.template\.spec\.template\.spec\.serviceAccountName$/, 'serviceAccountName'],
  [/^spec\.suspend$/, 'suspend'],
  [/^spec\.runtimePatches\[\d+\]\.trainingRuntimeSpec\.template\.metadata\.labels(\.|\[|$)/, 'jobSetLabels'],
  [/^spec\.runtimePatches\[\d+\]\.trainingRuntimeSpec\.template\.metadata\.annotations(\.|\[|$)/, 'jobSetAnnotations'],
  [/^spec\.labels(\.|\[|$)/, 'jobSetLabels'],
  [/^spec\.annotations(\.|\[|$)/, 'jobSetAnnotations'],
  // Workspace and WorkspaceKind
  [/^spec\.paused$/, 'paused'],
  [/^spec\.podTemplate\.options\.imageConfig$/, 'imageConfig'],
  [/^spec\.podTemplate\.options\.podConfig$/, 'podConfig'],
  [/^spec\.podTemplate\.volumes\.home$/, 'home'],
  [/^spec\.podTemplate\.volumes\.data(\[|$)/, 'data'],
  [/^spec\.podTemplate\.volumes\.secrets(\[|$)/, 'secrets'],
  [/^spec\.podTemplate\.podMetadata\.labels(\.|\[|$)/, 'podLabels'],
  [/^spec\.podTemplate\.podMetadata\.annotations(\.|\[|$)/, 'podAnnotations'],
  [/^spec\.podTemplate\.extraEnv(\[|$)/, 'env'],
  [/^spec\.podTemplate\.volumeMounts\.home$/, 'homeMountPath'],
  [/^spec\.podTemplate\.activityProbe(\.|$)/, 'activityProbe'],
  [/^spec\.activityRules(\[|$)/, 'activityRules'],
  [/^spec\.filterRules(\[|$)/, 'filterRules'],
  [/^spec\.podTemplate\.ports(\[|$)/, 'ports'],
  [/^spec\.spawner\.displayName$/, 'displayName'],
  [/^spec\.spawner\.description$/, 'description'],
];

/** Fields of a pod template (after its last `template.`), and the prop that sets each. */
const POD_FIELDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^spec\.restartPolicy$/, 'podRestartPolicy'],
  [/^spec\.priorityClassName$/, 'priorityClassName'],
  [/^spec\.schedulerName$/, 'gangScheduling.scheduler'],
  [/^spec\.nodeSelector(\.|\[|$)/, 'nodeSelector'],
  [/^spec\.tolerations(\.|\[|$)/, 'tolerations'],
  [/^spec\.serviceAccountName$/, 'serviceAccount'],
  [/^spec\.hostNetwork$/, 'hostNetwork'],
  [/^spec\.hostIPC$/, 'hostIpc'],
  [/^spec\.affinity(\.|\[|$)/, 'affinity'],
  [/^metadata\.labels(\.|\[|$)/, 'podLabels'],
  [/^metadata\.annotations(\.|\[|$)/, 'podAnnotations'],
];

/** Fields of the main container, and the prop that sets each. */
const CONTAINER_FIELDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^image$/, 'image'],
  [/^command(\[|$)/, 'command'],
  [/^args(\[|$)/, 'args'],
  [/^workingDir$/, 'workingDir'],
  [/^imagePullPolicy$/, 'imagePullPolicy'],
  [/^env(\[|$)/, 'env'],
  [/^resources(\.|\[|$)/, 'resources'],
  [/^securityContext(\.|\[|$)/, 'securityContext'],
];

/**
 * The main containers' names: the v1 jobs' frameworks (the kind table's, for the kinds with a
 * construct) and the Trainer runtimes' (`node`, and `trainer` as props name it).
 */
const MAIN_CONTAINERS = [...V1_JOBS.filter(k => k.l2 !== undefined).map(k => k.container), 'node', 'trainer'];

/**
 * The prop of `props` that set `field` of the rendered document, as a prop path (`worker.image`,
 * `runPolicy.ttlAfterFinished`), or undefined when no prop set it.
 */
export function propForField(field: string, props: object | undefined, kind?: string): string | undefined {
  if (props === undefined) return undefined;
  // A map's entry names the prop only when the prop holds that key: a variable added later with
  // `addEnv` is not the `env` prop's, even when the prop sets others.
  const setAt = (path: string, rest: string) => {
    const key = MAP_PROPS.has(path.replace(/^[a-zA-Z]+\./, '')) || MAP_PROPS.has(path) ? mapKey(rest) : undefined;
    if (valueAt(props, path) === undefined) return undefined;
    // A list rendered from a map (a TrainJob's env) shows an index, which says nothing of the key.
    if (key !== undefined && !/^\d+$/.test(key) && (valueAt(props, path) as any)[key] === undefined) return undefined;
    return path;
  };
  for (const [pattern, prop] of DOCUMENT_FIELDS) {
    const match = pattern.exec(field);
    if (match) return setAt(prop, field.slice(match[0].replace(/[.[]$/, '').length)) ?? KUEUE_OBJECT_PROPS[prop]?.find(p => valueAt(props, p) !== undefined);
  }

  // A v1 replica: its own fields, then its pod's.
  const replica = /^spec\.[a-zA-Z]+ReplicaSpecs\.([A-Za-z]+)\.(.*)$/.exec(field);
  const role = replica ? roleOfReplica(kind, replica[1]) : undefined;
  const set = (path: string) => valueAt(props, path) !== undefined ? path : undefined;
  const inRole = (prop: string, rest = '') => (role ? setAt(`${role}.${prop}`, rest) : undefined) ?? setAt(prop, rest);
  if (replica) {
    if (replica[2] === 'replicas') {
      const count = countOfReplica(kind, replica[1]);
      return count ? set(count) : undefined;
    }
    if (replica[2] === 'restartPolicy') return inRole('restartPolicy');
  }
  const at = field.lastIndexOf('template.');
  if (at < 0) return undefined;
  const inPod = field.slice(at + 'template.'.length);
  for (const [pattern, prop] of POD_FIELDS) {
    const match = pattern.exec(inPod);
    if (match) return inRole(prop, inPod.slice(match[0].replace(/[.[]$/, '').length));
  }
  const container = /^spec\.containers\[([^\]]+)\]\.(.*)$/.exec(inPod);
  const main = [...MAIN_CONTAINERS, (props as any).mainContainer];
  if (container && main.includes(container[1])) {
    for (const [pattern, prop] of CONTAINER_FIELDS) {
      const match = pattern.exec(container[2]);
      if (match) return inRole(prop, container[2].slice(match[0].replace(/[.[]$/, '').length));
    }
  }
  return undefined;
}

/** Props that are maps: a finding on one of their entries names the prop only if it holds the key. */
const MAP_PROPS = new Set(['env', 'nodeSelector', 'podLabels', 'podAnnotations', 'metadata.labels', 'metadata.annotations',
  'jobSetLabels', 'jobSetAnnotations', 'minResources', 'rendezvousConf']);

/** The map key at the start of the rest of a field path: `["a/b"]`, `[NAME]` or `.name`. */
function mapKey(rest: string): string | undefined {
  const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
  if (quoted) return JSON.parse(quoted[1]);
  const bare = /^\[([^\]]+)\]|^\.([^.[]+)/.exec(rest);
  return bare ? bare[1] ?? bare[2] : undefined;
}

/** The value at a dotted path of plain objects. */
function valueAt(value: any, path: string): unknown {
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = value[part];
  }
  return value;
}
