/**
 * Shared pieces of the training-job property tests (TF, MPI, XGBoost, Paddle, JAX): random job and
 * role options as plain data (so fast-check can print and shrink them), their conversion into the
 * constructs' props inside a chart, the invariants every job kind keeps, and random faults that
 * must each end in the construct's own error.
 */
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import {
  Accelerator, GangScheduler, ManagedBy, PlatformDefaults, ReplicaGroup, Resources, RestartPolicy, RoleOptions, TrainingJob, TrainingJobProps,
} from '../../src';
import {
  acceleratorMismatches, allContainers, claimMounts, dnsLabel, envName, gangScheduling, isConstructError, renderTwice, resources,
  restartPolicy, runPolicy, security,
} from '../harness/properties';

export const IMAGE = 'registry.example.com/train:1.0';
const OTHER_IMAGE = 'registry.example.com/train:2.0';
const SIDECAR_IMAGE = 'busybox:1.36';

/** A DNS-1035 label of up to 63 characters, cut by `fitName` so that every pod name fits. */
export const rawName = fc.stringMatching(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/);

/**
 * The longest prefix of `raw` that keeps `<name>-<type>-<maxIndex>` within 63 characters for every
 * replica type, without a trailing "-". Generated names therefore often sit exactly at the limit.
 */
export function fitName(raw: string, replicas: { [type: string]: number }): string {
  const longest = Math.max(0, ...Object.entries(replicas).filter(([, n]) => n >= 1).map(([t, n]) => `-${t.toLowerCase()}-${n - 1}`.length));
  return raw.slice(0, Math.max(1, 63 - longest)).replace(/-+$/, '');
}

/** An environment value as data: a literal, a Secret or ConfigMap key, or a field of the pod. */
export type EnvData =
  | { from: 'value'; value: string }
  | { from: 'secret' | 'configMap'; name: string; key: string }
  | { from: 'field'; path: kplus.EnvFieldPaths };

const envKey = fc.stringMatching(/^[a-zA-Z][-._a-zA-Z0-9]{0,10}$/);
const envValue: fc.Arbitrary<EnvData> = fc.oneof(
  fc.record({ from: fc.constant('value' as const), value: fc.string({ maxLength: 20 }) }),
  fc.record({ from: fc.constantFrom('secret' as const, 'configMap' as const), name: dnsLabel, key: envKey }),
  fc.record({ from: fc.constant('field' as const), path: fc.constantFrom(kplus.EnvFieldPaths.POD_NAME, kplus.EnvFieldPaths.POD_NAMESPACE, kplus.EnvFieldPaths.POD_IP, kplus.EnvFieldPaths.NODE_NAME) }),
);

/** Environment variables whose names match neither the harness's list nor the kind's `injected`. */
export function envData(injected: RegExp): fc.Arbitrary<{ [name: string]: EnvData }> {
  return fc.dictionary(envName.filter(n => !injected.test(n)), envValue, { maxKeys: 3, noNullPrototype: true });
}

const toleration: fc.Arbitrary<k8s.Toleration> = fc.oneof(
  fc.record({ key: dnsLabel, operator: fc.constant('Exists'), effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule') }, { noNullPrototype: true }),
  fc.record({ key: dnsLabel, operator: fc.constant('Equal'), value: dnsLabel, effect: fc.constantFrom('NoSchedule', 'NoExecute') }, { noNullPrototype: true }),
);
const labels = fc.dictionary(dnsLabel, dnsLabel, { maxKeys: 2, noNullPrototype: true });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

/** Options of one role (or of the whole job), as data. */
export const roleData = fc.record({
  image: opt(fc.constant(OTHER_IMAGE)),
  command: opt(fc.constant(['python', '/workspace/train.py'] as string[])),
  args: opt(fc.array(fc.stringMatching(/^--[a-z]{1,8}=[0-9]{1,3}$/), { maxLength: 2 })),
  workingDir: opt(fc.constant('/workspace')),
  imagePullPolicy: opt(fc.constantFrom(kplus.ImagePullPolicy.ALWAYS, kplus.ImagePullPolicy.IF_NOT_PRESENT, kplus.ImagePullPolicy.NEVER)),
  resources: opt(resources),
  sharedMemory: opt(fc.integer({ min: 64, max: 65536 })),
  nodeSelector: opt(labels),
  tolerations: opt(fc.array(toleration, { maxLength: 2 })),
  priorityClassName: opt(dnsLabel),
  podLabels: opt(labels),
  podAnnotations: opt(labels),
  hostIpc: opt(fc.boolean()),
  hostNetwork: opt(fc.boolean()),
  securityContext: opt(fc.record(
    { user: fc.integer({ min: 1000, max: 65535 }), group: fc.integer({ min: 1000, max: 65535 }), readOnlyRootFilesystem: fc.boolean() },
    { requiredKeys: [], noNullPrototype: true },
  )),
  restartPolicy,
  /** Write the role's own restartPolicy on the pod too (only when it has one other than ExitCode). */
  mirrorPodRestartPolicy: fc.boolean(),
  env: envData(/^$/),
  /** Added after construction. */
  sidecar: fc.boolean(),
  initContainer: fc.boolean(),
  pullSecret: opt(dnsLabel),
  extraToleration: opt(toleration),
}, { requiredKeys: ['env', 'mirrorPodRestartPolicy', 'sidecar', 'initContainer'], noNullPrototype: true });
export type RoleData = typeof roleData extends fc.Arbitrary<infer T> ? T : never;

const platformData = fc.record({
  nodeSelector: opt(labels),
  tolerations: opt(fc.array(toleration, { maxLength: 2 })),
  priorityClassName: opt(dnsLabel),
  queue: opt(dnsLabel),
  imagePullSecrets: opt(fc.uniqueArray(dnsLabel, { maxLength: 2 })),
  labels: opt(labels),
  podAnnotations: opt(labels),
  security,
}, { requiredKeys: [], noNullPrototype: true });

/** Options of the whole job, as data. */
export const jobData = fc.record({
  rawName,
  namespace: opt(dnsLabel),
  role: roleData,
  runPolicy: opt(runPolicy),
  gang: opt(gangScheduling),
  /** minAvailable as a share of the job's pods; none means the construct derives it. */
  gangShare: opt(fc.double({ min: 0, max: 1, noNaN: true })),
  queue: opt(dnsLabel),
  workloadPriorityClass: opt(dnsLabel),
  security,
  istioSidecar: opt(fc.boolean()),
  serviceAccount: opt(dnsLabel),
  mounts: claimMounts,
  configMaps: fc.uniqueArray(dnsLabel, { maxLength: 2 }),
  secrets: fc.uniqueArray(dnsLabel, { maxLength: 2 }),
  platform: opt(platformData),
  /** Added with `job.addEnv` after construction. */
  lateEnv: envData(/^$/),
}, { requiredKeys: ['rawName', 'role', 'mounts', 'configMaps', 'secrets', 'lateEnv'], noNullPrototype: true });
export type JobData = typeof jobData extends fc.Arbitrary<infer T> ? T : never;

/** Job data whose environment avoids the kind's injected variables. */
export function jobDataFor(injected: RegExp): fc.Arbitrary<JobData> {
  const env = envData(injected);
  return fc.tuple(jobData, env, env).map(([d, e1, e2]) => ({ ...d, role: { ...d.role, env: e1 }, lateEnv: e2 }));
}
/** Role data whose environment avoids the kind's injected variables. */
export function roleDataFor(injected: RegExp): fc.Arbitrary<RoleData> {
  return fc.tuple(roleData, envData(injected)).map(([d, env]) => ({ ...d, env }));
}

/** Fresh construct ids inside one build. */
export class Ids {
  private n = 0;
  public next(prefix: string): string {
    return `${prefix}${this.n++}`;
  }
}

export function envValueOf(chart: Chart, ids: Ids, e: EnvData): kplus.EnvValue {
  switch (e.from) {
    case 'value': return kplus.EnvValue.fromValue(e.value);
    case 'secret': return kplus.EnvValue.fromSecretValue({ secret: kplus.Secret.fromSecretName(chart, ids.next('secret'), e.name), key: e.key });
    case 'configMap': return kplus.EnvValue.fromConfigMap(kplus.ConfigMap.fromConfigMapName(chart, ids.next('cm'), e.name), e.key);
    default: return kplus.EnvValue.fromFieldRef(e.path);
  }
}

function envOf(chart: Chart, ids: Ids, env: { [name: string]: EnvData }): { [name: string]: kplus.EnvValue } {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, envValueOf(chart, ids, v)]));
}

/** Role options from data (the parts that exist before construction). */
export function roleOptions(chart: Chart, ids: Ids, d: RoleData | undefined): RoleOptions | undefined {
  if (!d) return undefined;
  const mirror = d.mirrorPodRestartPolicy && d.restartPolicy && d.restartPolicy !== RestartPolicy.EXIT_CODE;
  return {
    image: d.image,
    command: d.command,
    args: d.args,
    workingDir: d.workingDir,
    imagePullPolicy: d.imagePullPolicy,
    resources: d.resources,
    sharedMemory: d.sharedMemory ? Size.mebibytes(d.sharedMemory) : undefined,
    nodeSelector: d.nodeSelector,
    tolerations: d.tolerations,
    priorityClassName: d.priorityClassName,
    podLabels: d.podLabels,
    podAnnotations: d.podAnnotations,
    hostIpc: d.hostIpc,
    hostNetwork: d.hostNetwork,
    securityContext: d.securityContext,
    restartPolicy: d.restartPolicy,
    podRestartPolicy: mirror ? d.restartPolicy : undefined,
    env: envOf(chart, ids, d.env),
  };
}

/**
 * Job props from data; `replicas` is every replica type's largest count, for the name, and `total`
 * the pods the job finally has (for a derived gang minAvailable).
 */
export function jobProps(chart: Chart, ids: Ids, d: JobData, replicas: { [type: string]: number }, total?: number): TrainingJobProps {
  if (d.platform) PlatformDefaults.set(chart, d.platform);
  const role = roleOptions(chart, ids, { ...d.role, mirrorPodRestartPolicy: false })!;
  const pods = total ?? Object.values(replicas).reduce((a, b) => a + b, 0);
  return {
    ...role,
    metadata: { name: fitName(d.rawName, replicas), namespace: d.namespace },
    image: d.role.image ?? IMAGE,
    serviceAccount: d.serviceAccount ? kplus.ServiceAccount.fromServiceAccountName(chart, ids.next('sa'), d.serviceAccount) : undefined,
    runPolicy: d.runPolicy,
    gangScheduling: d.gang && {
      ...d.gang,
      minAvailable: d.gangShare === undefined || pods === 0 ? undefined : Math.max(1, Math.ceil(d.gangShare * pods)),
    },
    queue: d.queue,
    workloadPriorityClass: d.workloadPriorityClass,
    security: d.security,
    istioSidecar: d.istioSidecar,
  };
}

/** What is added to a role after construction: a sidecar, an init container, a pull secret, a toleration. */
export function decorateRole(group: ReplicaGroup | undefined, d: RoleData | undefined, chart: Chart, ids: Ids): void {
  if (!group || !d) return;
  if (d.sidecar) {
    group.addContainer({
      name: 'sidecar',
      image: SIDECAR_IMAGE,
      command: ['sh', '-c', 'sleep infinity'],
      envVariables: envOf(chart, ids, d.env),
    });
  }
  if (d.initContainer) group.addInitContainer({ name: 'prepare', image: SIDECAR_IMAGE, command: ['true'] });
  if (d.pullSecret) group.addImagePullSecret(d.pullSecret);
  if (d.extraToleration) group.addToleration(d.extraToleration);
}

/** Volumes and environment added to the whole job after construction. */
export function decorateJob(job: TrainingJob, d: JobData, chart: Chart, ids: Ids): void {
  for (const m of d.mounts) {
    const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, ids.next('claim'), m.claim);
    job.mount(m.path, kplus.Volume.fromPersistentVolumeClaim(chart, ids.next('vol'), claim, { readOnly: m.readOnly }), { readOnly: m.readOnly });
  }
  for (const name of d.configMaps) {
    const cm = kplus.ConfigMap.fromConfigMapName(chart, ids.next('cm'), name);
    job.mount(`/etc/config/${name}`, kplus.Volume.fromConfigMap(chart, ids.next('vol'), cm));
  }
  for (const name of d.secrets) {
    const secret = kplus.Secret.fromSecretName(chart, ids.next('secret'), name);
    job.mount(`/etc/secret/${name}`, kplus.Volume.fromSecret(chart, ids.next('vol'), secret), { readOnly: true });
  }
  // A valid configuration sets a variable once: names a role already has are left to that role.
  const taken = new Set(job.replicaGroups.flatMap(g => g._envNames()));
  for (const [name, value] of Object.entries(d.lateEnv)) if (!taken.has(name)) job.addEnv(name, envValueOf(chart, ids, value));
  decorateRole(job.replicaGroups[0], { ...d.role, sidecar: false, initContainer: false }, chart, ids);
}

/**
 * Broken invariants, collected as text and asserted once per generated case (a jest `expect` per
 * check costs more than the rendering itself).
 */
export class Problems {
  public readonly list: string[] = [];
  /** Records `what` unless `ok`. */
  public check(ok: boolean, what: string): void {
    if (!ok) this.list.push(what);
  }
  public add(problems: string[]): void {
    this.list.push(...problems);
  }
}

/**
 * The invariants of every training job: GPU limits equal requests, no operator-injected variable set
 * by the user, `<name>-<replicatype>-<maxIndex>` within 63 characters, a replica restartPolicy and
 * no pod-level restartPolicy that contradicts it, the framework's container in every pod.
 */
export function jobInvariants(job: any, p: Problems, opts: {
  specsField: string;
  injected: RegExp;
  container?: string;
  maxReplicas?: (type: string, replicas: number) => number;
}): void {
  p.add(acceleratorMismatches(job).map(m => `requests differ from limits: ${m}`));
  for (const container of allContainers(job)) {
    for (const e of container.env ?? []) p.check(!opts.injected.test(e.name), `${container.name} sets the operator's ${e.name}`);
  }
  for (const [type, spec] of Object.entries<any>(job.spec[opts.specsField])) {
    const max = opts.maxReplicas ? opts.maxReplicas(type, spec.replicas) : spec.replicas;
    const podName = `${job.metadata.name}-${type.toLowerCase()}-${max - 1}`;
    p.check(max < 1 || podName.length <= 63, `${podName} is longer than 63 characters`);
    p.check(['Always', 'OnFailure', 'Never', 'ExitCode'].includes(spec.restartPolicy), `${type} restartPolicy ${spec.restartPolicy}`);
    const pod = spec.template.spec;
    p.check(pod.restartPolicy === undefined || pod.restartPolicy === spec.restartPolicy, `${type} pod restartPolicy ${pod.restartPolicy} under ${spec.restartPolicy}`);
    if (opts.container) p.check(pod.containers.some((c: any) => c.name === opts.container), `${type} has no ${opts.container} container`);
  }
}

/**
 * Builds `build` twice and expects it to fail with the construct's own error, never a manifest.
 * `render` is the harness's renderTwice unless a test renders its chart differently.
 */
export function expectConstructError(label: string, build: (chart: Chart) => void, render: (b: (chart: Chart) => void) => any[] = renderTwice): void {
  let error: unknown;
  let docs: any[] | undefined;
  try {
    docs = render(build);
  } catch (e) {
    error = e;
  }
  if (docs) throw new Error(`${label}: rendered a manifest instead of failing`);
  if (!isConstructError(error)) {
    throw new Error(`${label}: expected the construct's own error, got ${error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error)}`);
  }
}

/**
 * Faults that any training job must reject, as data. `target` says where the fault goes: the job's
 * own options or a role's.
 */
export function commonFaults(injectedNames: readonly string[]) {
  return fc.oneof(
    fc.record({ fault: fc.constant('accelerator count' as const), n: fc.oneof(fc.integer({ min: -8, max: 0 }), fc.double({ min: 0.1, max: 7.9, noNaN: true }).filter(x => !Number.isInteger(x))), onRole: fc.boolean() }),
    fc.record({ fault: fc.constant('accelerator name' as const), name: fc.constantFrom('gpu', '', 'nvidia.com/', '/gpu', 'Vendor_Com/gpu', 'a/b/c', 'nvidia.com/gpu ', '-x.com/gpu'), onRole: fc.boolean() }),
    fc.record({ fault: fc.constant('injected env' as const), name: fc.constantFrom(...injectedNames), how: fc.constantFrom('job', 'role', 'addEnv', 'sidecar') }),
    fc.record({ fault: fc.constant('long name' as const), n: fc.integer({ min: 56, max: 90 }) }),
    fc.record({ fault: fc.constant('bad name' as const), name: fc.oneof(fc.stringMatching(/^[A-Z_0-9][A-Za-z0-9_.]{0,10}$/), fc.constantFrom('a-', 'a.b', 'a_b', '-a', '9a', 'a'.repeat(64))) }),
    fc.record({ fault: fc.constant('backoffLimit' as const), n: fc.oneof(fc.integer({ min: -10, max: -1 }), fc.double({ min: 0.1, max: 9.9, noNaN: true }).filter(x => !Number.isInteger(x))) }),
    fc.record({ fault: fc.constant('activeDeadline' as const), ms: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 999_999 }).filter(x => x % 1000 !== 0)) }),
    fc.record({ fault: fc.constant('ttlAfterFinished' as const), ms: fc.integer({ min: 1, max: 999_999 }).filter(x => x % 1000 !== 0) }),
    fc.record({ fault: fc.constant('scheduleTimeout' as const), ms: fc.integer({ min: 1, max: 999_999 }).filter(x => x % 1000 !== 0) }),
    fc.record({ fault: fc.constant('minAvailable' as const), n: fc.oneof(fc.integer({ min: -5, max: 0 }), fc.double({ min: 0.1, max: 9.9, noNaN: true }).filter(x => !Number.isInteger(x)), fc.integer({ min: 1000, max: 5000 })) }),
    fc.record({ fault: fc.constant('pod restartPolicy' as const), exitCode: fc.boolean() }),
    fc.record({ fault: fc.constant('mount path twice' as const), path: fc.constantFrom('/data', '/dev/shm', '/workspace') }),
    fc.record({ fault: fc.constant('volume name twice' as const), name: fc.constantFrom('data', 'dshm', 'cache') }),
    fc.record({ fault: fc.constant('no image' as const), image: fc.constantFrom(undefined, '') }),
    fc.record({ fault: fc.constant('cpu' as const), cpu: fc.constantFrom(-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY), onRole: fc.boolean() }),
    fc.record({ fault: fc.constant('container name twice' as const), init: fc.boolean(), main: fc.boolean() }),
    fc.record({ fault: fc.constant('size' as const), field: fc.constantFrom('memory', 'ephemeralStorage', 'sharedMemory'), kib: fc.integer({ min: 1, max: 4095 }).filter(x => x % 1024 !== 0), onRole: fc.boolean() }),
  );
}
export type CommonFault = typeof commonFaults extends (...a: any[]) => fc.Arbitrary<infer T> ? T : never;

/** A fault split into what it changes in the props and what it does after construction. */
export interface FaultEffect {
  /** Changes to the job's props (a role's options go through `role`). */
  readonly job?: (props: any) => any;
  /** Changes to the options of the role the fault targets. */
  readonly role?: (options: RoleOptions) => RoleOptions;
  /** Changes to the options of every role. */
  readonly everyRole?: (options: RoleOptions) => RoleOptions;
  /** Calls made after construction. */
  readonly after?: (job: TrainingJob, chart: Chart) => void;
}

function withResources(target: Resources | undefined, patch: Partial<Resources>): Resources {
  return { ...target, ...patch };
}

/** What a common fault does to a job. */
export function commonEffect(f: CommonFault): FaultEffect {
  switch (f.fault) {
    case 'accelerator count':
    case 'accelerator name': {
      const accelerator = f.fault === 'accelerator count' ? Accelerator.nvidia(f.n) : Accelerator.custom(f.name, 1);
      return f.onRole
        ? { role: o => ({ ...o, resources: withResources(o.resources, { accelerator }) }) }
        : { job: p => ({ ...p, resources: withResources(p.resources, { accelerator }) }) };
    }
    case 'injected env': {
      const value = kplus.EnvValue.fromValue('user');
      switch (f.how) {
        case 'job': return { job: p => ({ ...p, env: { ...p.env, [f.name]: value } }) };
        case 'role': return { role: o => ({ ...o, env: { ...o.env, [f.name]: value } }) };
        case 'addEnv': return { after: job => job.addEnv(f.name, value) };
        default: return { after: job => { job.replicaGroups[job.replicaGroups.length - 1].addContainer({ name: 'helper', image: SIDECAR_IMAGE, envVariables: { [f.name]: value } }); } };
      }
    }
    case 'long name': return { job: p => ({ ...p, metadata: { ...p.metadata, name: 'a'.repeat(f.n) } }) };
    case 'bad name': return { job: p => ({ ...p, metadata: { ...p.metadata, name: f.name } }) };
    case 'backoffLimit': return { job: p => ({ ...p, runPolicy: { ...p.runPolicy, backoffLimit: f.n } }) };
    case 'activeDeadline': return { job: p => ({ ...p, runPolicy: { ...p.runPolicy, activeDeadline: Duration.millis(f.ms) } }) };
    case 'ttlAfterFinished': return { job: p => ({ ...p, runPolicy: { ...p.runPolicy, ttlAfterFinished: Duration.millis(f.ms) } }) };
    case 'scheduleTimeout': return { job: p => ({ ...p, gangScheduling: { scheduler: GangScheduler.VOLCANO, ...p.gangScheduling, scheduleTimeout: Duration.millis(f.ms) } }) };
    case 'minAvailable': return { job: p => ({ ...p, gangScheduling: { scheduler: GangScheduler.VOLCANO, ...p.gangScheduling, minAvailable: f.n } }) };
    case 'pod restartPolicy': return f.exitCode
      // Never is what the operator writes for ExitCode (training-operator/pod-restart-policy accepts it); Always is overwritten.
      ? { role: o => ({ ...o, restartPolicy: RestartPolicy.EXIT_CODE, podRestartPolicy: RestartPolicy.ALWAYS }) }
      : { role: o => ({ ...o, restartPolicy: RestartPolicy.ON_FAILURE, podRestartPolicy: RestartPolicy.NEVER }) };
    case 'mount path twice': return {
      job: f.path === '/dev/shm' ? p => ({ ...p, sharedMemory: Size.gibibytes(1) }) : undefined,
      after: (job, chart) => {
        const a = kplus.PersistentVolumeClaim.fromClaimName(chart, 'fault-a', 'fault-a');
        job.mount(f.path, kplus.Volume.fromPersistentVolumeClaim(chart, 'fault-va', a));
        // Also where the job-wide shared memory does not reach (the MPI launcher has its own).
        const b = kplus.PersistentVolumeClaim.fromClaimName(chart, 'fault-b', 'fault-b');
        job.mount(f.path, kplus.Volume.fromPersistentVolumeClaim(chart, 'fault-vb', b));
      },
    };
    case 'volume name twice': return {
      job: f.name === 'dshm' ? p => ({ ...p, sharedMemory: Size.gibibytes(1) }) : undefined,
      after: (job, chart) => {
        const a = kplus.PersistentVolumeClaim.fromClaimName(chart, 'fault-a', 'fault-a');
        job.mount('/fault/a', kplus.Volume.fromPersistentVolumeClaim(chart, 'fault-va', a, { name: f.name }));
        // Also where the job-wide shared memory does not reach (the MPI launcher has its own).
        job.mount('/fault/b', kplus.Volume.fromEmptyDir(chart, 'fault-vb', f.name));
      },
    };
    case 'container name twice': return {
      after: job => {
        const group = job.replicaGroups[job.replicaGroups.length - 1];
        const name = f.main ? group.mainContainer.name : 'helper';
        const add = (c: kplus.ContainerProps) => (f.init ? group.addInitContainer(c) : group.addContainer(c));
        if (!f.main) add({ name, image: SIDECAR_IMAGE });
        add({ name, image: SIDECAR_IMAGE });
      },
    };
    case 'no image': return { job: p => ({ ...p, image: f.image }), everyRole: o => ({ ...o, image: undefined }) };
    case 'cpu': {
      const cpu = kplus.Cpu.units(f.cpu);
      return f.onRole
        ? { role: o => ({ ...o, resources: withResources(o.resources, { cpu }) }) }
        : { job: p => ({ ...p, resources: withResources(p.resources, { cpu }) }) };
    }
    default: {
      const size = Size.kibibytes(f.kib);
      const patch = (o: any) => (f.field === 'sharedMemory' ? { ...o, sharedMemory: size } : { ...o, resources: withResources(o.resources, { [f.field]: size }) });
      return f.onRole ? { role: patch } : { job: patch };
    }
  }
}

/**
 * A role's options after a fault: `everyRole` applies to each role that exists, `role` to the
 * targeted one (created when it had no options of its own).
 */
export function applyRole(effect: FaultEffect | undefined, options: RoleOptions | undefined, targeted: boolean): RoleOptions | undefined {
  if (!effect) return options;
  let o = options;
  if (effect.everyRole && o) o = effect.everyRole(o);
  if (targeted && effect.role) o = effect.role(o ?? {});
  return o;
}

/**
 * A configuration made consistent with its security preset: under RESTRICTED (the job's or the
 * platform's) no role asks for host namespaces, which the construct rightly refuses; and an MPI job
 * (`mpi`) has no Kueue queue, which Kueue does not serve for the v1 MPIJob.
 */
export function consistent<T extends { job: JobData }>(config: T, options: { mpi?: boolean } = {}): T {
  const out: any = { ...config };
  // The v1 MPIJob refuses RESTRICTED (its launcher cannot meet it on a cluster).
  const job = options.mpi && (config.job.security ?? config.job.platform?.security)?.restricted
    ? { ...config.job, security: undefined, platform: config.job.platform && { ...config.job.platform, security: undefined } }
    : config.job;
  const restricted = (job.security ?? job.platform?.security)?.restricted === true;
  if (restricted) {
    for (const key of Object.keys(out)) {
      if (/Role$/.test(key) && out[key]) out[key] = { ...out[key], hostIpc: undefined, hostNetwork: undefined };
    }
  }
  out.job = {
    ...job,
    role: restricted ? { ...job.role, hostIpc: undefined, hostNetwork: undefined } : job.role,
    ...(options.mpi ? { queue: undefined, workloadPriorityClass: undefined, platform: job.platform && { ...job.platform, queue: undefined } } : {}),
  };
  // MultiKueue dispatches queued jobs only.
  const queued = !options.mpi && (job.queue ?? job.platform?.queue) !== undefined;
  if (job.runPolicy?.managedBy === ManagedBy.MULTI_KUEUE && !queued) out.job.runPolicy = { ...job.runPolicy, managedBy: undefined };
  return out;
}
