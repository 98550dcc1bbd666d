/**
 * Random WorkspaceKinds as plain data for the notebook property tests, their construction, and
 * the invariants of a rendered WorkspaceKind.
 */
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { Ids } from './job-arbitraries';
import {
  ActivityProbe, FilterScope, PlatformDefaults, PodSecurity, RedirectLevel, Resources, SpawnerImage, WorkspaceKind, WorkspaceKindProps,
} from '../../src';
import { accelerator, dnsLabel, envName, security } from '../harness/properties';

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const text = (min: number, max: number) => fc.string({ minLength: min, maxLength: max });
const labels = fc.dictionary(dnsLabel, dnsLabel, { maxKeys: 2, noNullPrototype: true });

/** Port ids: lower-case letters, digits, "-" and "_", at most 32 characters. */
export const portId = fc.stringMatching(/^[a-z0-9]([a-z0-9_-]{0,10}[a-z0-9])?$/);
/**
 * Option ids: 1 to 256 characters; the ones generated look like image tags. An option without a
 * displayName shows its id, which must then be 2 to 128 characters, so one-character ids come with
 * a displayName (see `withName`).
 */
export const optionId = fc.stringMatching(/^[a-z][-a-z0-9._:]{0,24}$/);

/** An option whose id cannot stand for its displayName gets one. */
function withName<T extends { id: string; displayName?: string }>(o: T): T {
  return o.displayName === undefined && o.id.length < 2 ? { ...o, displayName: `Option ${o.id}` } : o;
}
/** A DNS-1123 subdomain (the kind's name). */
export const subdomain = fc.oneof(dnsLabel, fc.tuple(dnsLabel, dnsLabel).map(([a, b]) => `${a}.${b}`));

const selector = fc.record(
  { matchLabels: fc.dictionary(dnsLabel, dnsLabel, { minKeys: 1, maxKeys: 2, noNullPrototype: true }) },
  { noNullPrototype: true },
);

const optionSpawner = {
  displayName: opt(text(2, 40)),
  description: opt(text(2, 80)),
  hidden: opt(fc.boolean()),
  labels: opt(fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{1,20}$/), fc.stringMatching(/^[a-z0-9.]{1,10}$/), { maxKeys: 3, noNullPrototype: true })),
  /** Redirect to a later option (so chains always end), as an index offset. */
  redirect: opt(fc.record({
    offset: fc.nat(),
    message: opt(text(2, 60)),
    level: opt(fc.constantFrom(RedirectLevel.INFO, RedirectLevel.WARNING, RedirectLevel.DANGER)),
  }).map(r => r.message === undefined ? { ...r, level: undefined } : r)), // a level is the message's: refused alone
};

const imageData = fc.record({
  id: optionId,
  ...optionSpawner,
  image: fc.constantFrom('quay.io/jupyter/scipy-notebook:2025-01-06', 'ghcr.io/kubeflow/kubeflow/notebook-servers/codeserver:v1.10.0', 'rocker/rstudio:4.4'),
  imagePullPolicy: opt(fc.constantFrom(kplus.ImagePullPolicy.ALWAYS, kplus.ImagePullPolicy.IF_NOT_PRESENT, kplus.ImagePullPolicy.NEVER)),
  /** Which declared ports the image serves, as indexes, and its first port number. */
  portPicks: fc.uniqueArray(fc.nat(7), { minLength: 1, maxLength: 3 }),
  firstPort: fc.integer({ min: 1, max: 65000 }),
  portDisplayName: opt(text(2, 30)),
}, { requiredKeys: ['id', 'image', 'portPicks', 'firstPort'] }).map(withName);

const podData = fc.record({
  id: optionId,
  ...optionSpawner,
  cpuMillis: opt(fc.integer({ min: 1, max: 16000 })),
  memoryMiB: opt(fc.integer({ min: 1, max: 262144 })),
  ephemeralMiB: opt(fc.integer({ min: 1, max: 100000 })),
  /** Limits as multiples of the requests (at least 1), or limits without a request. */
  cpuLimit: opt(fc.double({ min: 1, max: 4, noNaN: true })),
  memoryLimit: opt(fc.double({ min: 1, max: 4, noNaN: true })),
  ephemeralLimit: opt(fc.double({ min: 1, max: 4, noNaN: true })),
  accelerator: opt(accelerator),
  acceleratorAt: fc.constantFrom('requests', 'limits', 'both'),
  nodeSelector: opt(labels),
  tolerations: opt(fc.array(fc.record({ key: dnsLabel, operator: fc.constant('Exists'), effect: fc.constantFrom('NoSchedule', 'NoExecute') }, { noNullPrototype: true }), { maxLength: 2 })),
  zone: opt(dnsLabel),
}, { requiredKeys: ['id', 'acceleratorAt'] }).map(withName);

const portData = fc.record({
  id: portId,
  displayName: text(2, 30),
  removePathPrefix: opt(fc.boolean()),
  setRequestHeaders: opt(fc.dictionary(fc.constantFrom('X-RStudio-Root-Path', 'X-Forwarded-Prefix'), fc.constant('{{ .PathPrefix }}'), { noNullPrototype: true })),
  addRequestHeaders: opt(fc.dictionary(fc.constantFrom('X-Team', 'X-Env'), dnsLabel, { noNullPrototype: true })),
  removeRequestHeaders: opt(fc.uniqueArray(fc.constantFrom('Authorization', 'Cookie'), { maxLength: 2 })),
}, { requiredKeys: ['id', 'displayName'] });

const probeData = fc.oneof(
  fc.record({ type: fc.constant('jupyter' as const), port: fc.nat(), interval: opt(fc.integer({ min: 1, max: 86400 })), minShare: opt(fc.double({ min: 0, max: 1, noNaN: true })) }),
  fc.record({
    type: fc.constant('script' as const),
    body: fc.stringMatching(/^[a-z ]{1,40}$/),
    timeout: opt(fc.integer({ min: 1, max: 600 })),
    interval: opt(fc.integer({ min: 300, max: 31536000 })),
    minShare: opt(fc.double({ min: 0, max: 1, noNaN: true })),
  }),
);

const ruleData = fc.record({
  inactiveFor: fc.integer({ min: 16, max: 7 * 86400 }),
  minRunning: opt(fc.integer({ min: 0, max: 86400 })),
  pauseWorkspace: opt(fc.boolean()),
  namespaceSelector: opt(selector),
  podConfigSelector: opt(selector),
}, { requiredKeys: ['inactiveFor'] });

const filterData = fc.record({
  scope: fc.constantFrom(FilterScope.WORKSPACE_KIND, FilterScope.IMAGE_CONFIG, FilterScope.POD_CONFIG),
  namespaceSelector: opt(selector),
  imageConfigSelector: opt(selector),
  podConfigSelector: opt(selector),
  hideInUi: opt(fc.boolean()),
  hideInApi: opt(fc.boolean()),
  deny: opt(fc.boolean()),
  denyMessage: opt(text(2, 60)),
}, { requiredKeys: ['scope'] });

const envValueData = fc.oneof(
  // Literal text: no "{{", which the controller would read as a Go template action.
  fc.record({ from: fc.constant('value' as const), value: fc.string({ maxLength: 20 }).map(s => s.replace(/\{/g, '(')) }),
  fc.record({ from: fc.constant('prefix' as const), port: fc.nat() }),
  fc.record({ from: fc.constant('secret' as const), name: dnsLabel, key: dnsLabel }),
  fc.record({ from: fc.constant('field' as const), path: fc.constantFrom(kplus.EnvFieldPaths.POD_NAME, kplus.EnvFieldPaths.POD_NAMESPACE) }),
);

const mountData = fc.record({ type: fc.constantFrom('configMap', 'secret', 'emptyDir'), name: dnsLabel, readOnly: opt(fc.boolean()), subPath: opt(dnsLabel) });

/** A random valid WorkspaceKind, as data. */
export const kindData = fc.record({
  name: subdomain,
  displayName: text(2, 40),
  description: text(2, 120),
  icon: fc.oneof(fc.webUrl().map(url => ({ url })), fc.record({ cm: dnsLabel, key: fc.stringMatching(/^[-._a-zA-Z0-9]{1,20}$/), ns: dnsLabel })),
  logo: opt(fc.webUrl()),
  hidden: opt(fc.boolean()),
  deprecated: opt(fc.boolean()),
  deprecationMessage: opt(text(2, 80)),
  homeMountPath: opt(fc.constantFrom('/home/jovyan', '/home/rstudio', '/home/coder', '/home/jovyan/')),
  ports: fc.uniqueArray(portData, { minLength: 1, maxLength: 3, selector: p => p.id }),
  images: fc.uniqueArray(imageData, { minLength: 1, maxLength: 4, selector: o => o.id }),
  pods: fc.uniqueArray(podData, { minLength: 1, maxLength: 4, selector: o => o.id }),
  /** An explicit default, as an index into the options that are not redirected. */
  defaultImage: opt(fc.nat()),
  defaultPod: opt(fc.nat()),
  probe: opt(probeData),
  rules: fc.array(ruleData, { maxLength: 3 }),
  filters: fc.array(filterData, { maxLength: 2 }),
  env: fc.dictionary(envName, envValueData, { maxKeys: 3, noNullPrototype: true }),
  sharedMemoryMiB: opt(fc.integer({ min: 64, max: 16384 })),
  clusterRoles: fc.uniqueArray(dnsLabel, { maxLength: 2 }),
  podLabels: opt(labels),
  podAnnotations: opt(labels),
  probes: opt(fc.record({ startup: fc.boolean(), liveness: fc.boolean(), readiness: fc.boolean() })),
  security,
  /** Explicit security contexts that meet the restricted standard; `loose` ones only under DEFAULT. */
  contexts: fc.constantFrom('none', 'restricted', 'loose'),
  mounts: fc.array(mountData, { maxLength: 3 }),
  platform: opt(fc.record(
    { security, labels: opt(labels), podAnnotations: opt(labels), nodeSelector: opt(labels) },
    { requiredKeys: [], noNullPrototype: true },
  )),
}, { noNullPrototype: true });
export type KindData = typeof kindData extends fc.Arbitrary<infer T> ? T : never;

/** Redirect targets: option i may only redirect to a later option, so every chain ends. */
function redirectTarget(i: number, n: number, offset: number | undefined): number | undefined {
  if (offset === undefined || i >= n - 1) return undefined;
  return i + 1 + (offset % (n - i - 1));
}

function resourcesOf(p: typeof podData extends fc.Arbitrary<infer T> ? T : never): { requests?: Resources; limits?: Resources } {
  const requests: { -readonly [K in keyof Resources]: Resources[K] } = {};
  const limits: { -readonly [K in keyof Resources]: Resources[K] } = {};
  if (p.cpuMillis !== undefined) {
    requests.cpu = kplus.Cpu.millis(p.cpuMillis);
    if (p.cpuLimit !== undefined) limits.cpu = kplus.Cpu.millis(Math.ceil(p.cpuMillis * p.cpuLimit));
  } else if (p.cpuLimit !== undefined) {
    limits.cpu = kplus.Cpu.units(Math.ceil(p.cpuLimit));
  }
  if (p.memoryMiB !== undefined) {
    requests.memory = Size.mebibytes(p.memoryMiB);
    if (p.memoryLimit !== undefined) limits.memory = Size.mebibytes(Math.ceil(p.memoryMiB * p.memoryLimit));
  }
  if (p.ephemeralMiB !== undefined) {
    requests.ephemeralStorage = Size.mebibytes(p.ephemeralMiB);
    if (p.ephemeralLimit !== undefined) limits.ephemeralStorage = Size.mebibytes(Math.ceil(p.ephemeralMiB * p.ephemeralLimit));
  }
  if (p.accelerator) {
    if (p.acceleratorAt !== 'limits') requests.accelerator = p.accelerator;
    if (p.acceleratorAt !== 'requests') limits.accelerator = p.accelerator;
  }
  return { requests: Object.keys(requests).length ? requests : undefined, limits: Object.keys(limits).length ? limits : undefined };
}

/** The effective security preset of a kind. */
export function kindSecurity(d: KindData): PodSecurity {
  return d.security ?? d.platform?.security ?? PodSecurity.DEFAULT;
}

/** The WorkspaceKind's props from data (options, rules and mounts are added by `buildKind`). */
export function kindProps(chart: Chart, ids: Ids, d: KindData): WorkspaceKindProps {
  const portIds = d.ports.map(p => p.id);
  const probe = d.probe && (() => {
    const interval = d.probe.interval ?? 3600;
    const options = {
      interval: d.probe.interval !== undefined ? Duration.seconds(d.probe.interval) : undefined,
      // The default minimum interval (five minutes) must not exceed a shorter interval.
      minInterval: d.probe.minShare !== undefined ? Duration.seconds(Math.max(1, Math.floor(interval * d.probe.minShare)))
        : interval < 300 ? Duration.seconds(interval) : undefined,
    };
    return d.probe.type === 'jupyter'
      ? ActivityProbe.jupyter(portIds[d.probe.port % portIds.length], options)
      : ActivityProbe.script(`#!/bin/sh\n# ${d.probe.body}\necho '{"has_activity": true}' > "$OUTPUT_JSON_PATH"`, {
        ...options, timeout: d.probe.timeout !== undefined ? Duration.seconds(d.probe.timeout) : undefined,
      });
  })();
  const lastRule = d.rules.length - 1;
  const restricted = kindSecurity(d).restricted;
  const contexts = d.contexts === 'loose' && restricted ? 'restricted' : d.contexts;
  const probeSpec = { exec: { command: ['true'] }, periodSeconds: 10 };
  return {
    metadata: { name: d.name },
    displayName: d.displayName,
    description: d.description,
    icon: 'url' in d.icon ? SpawnerImage.fromUrl(d.icon.url) : SpawnerImage.fromConfigMap(d.icon.cm, d.icon.key, d.icon.ns),
    logo: d.logo ? SpawnerImage.fromUrl(d.logo) : undefined,
    hidden: d.hidden,
    // A deprecation message needs deprecated true or unset.
    deprecated: d.deprecationMessage !== undefined && d.deprecated === false ? undefined : d.deprecated,
    deprecationMessage: d.deprecationMessage,
    homeMountPath: d.homeMountPath,
    ports: d.ports.map(p => ({ ...p })),
    activityProbe: probe,
    activityRules: d.rules.map((r, i) => ({
      inactiveFor: Duration.seconds(r.inactiveFor),
      minRunning: r.minRunning !== undefined ? Duration.seconds(r.minRunning) : undefined,
      // Pausing needs a probe; a catch-all rule must come last.
      pauseWorkspace: probe ? r.pauseWorkspace : false,
      namespaceSelector: i < lastRule && !r.namespaceSelector && !r.podConfigSelector ? { matchLabels: { team: 'a' } } : r.namespaceSelector,
      podConfigSelector: r.podConfigSelector,
    })),
    filterRules: d.filters.map(f => {
      // The webhook takes option selectors only on option scopes, and a rule with at least one effect set to true.
      const options = f.scope !== FilterScope.WORKSPACE_KIND;
      const imageConfigSelector = options ? f.imageConfigSelector : undefined;
      const podConfigSelector = options ? f.podConfigSelector : undefined;
      const deny = f.denyMessage !== undefined ? true : f.deny;
      return {
        ...f,
        imageConfigSelector,
        podConfigSelector,
        namespaceSelector: f.namespaceSelector ?? (!imageConfigSelector && !podConfigSelector ? { matchLabels: { team: 'a' } } : undefined),
        hideInUi: f.hideInUi === true || f.hideInApi === true || deny === true ? f.hideInUi : true,
        deny,
      };
    }),
    env: Object.fromEntries(Object.entries(d.env).map(([name, v]) => [name,
      v.from === 'value' ? kplus.EnvValue.fromValue(v.value)
        : v.from === 'prefix' ? kplus.EnvValue.fromValue(WorkspaceKind.httpPathPrefix(portIds[v.port % portIds.length]))
          : v.from === 'secret' ? kplus.EnvValue.fromSecretValue({ secret: kplus.Secret.fromSecretName(chart, ids.next('secret'), v.name), key: v.key })
            : kplus.EnvValue.fromFieldRef(v.path)])),
    sharedMemory: d.sharedMemoryMiB !== undefined ? Size.mebibytes(d.sharedMemoryMiB) : undefined,
    clusterRoles: d.clusterRoles,
    podLabels: d.podLabels,
    podAnnotations: d.podAnnotations,
    startupProbe: d.probes?.startup ? probeSpec : undefined,
    livenessProbe: d.probes?.liveness ? probeSpec : undefined,
    readinessProbe: d.probes?.readiness ? probeSpec : undefined,
    security: d.security,
    podSecurityContext: contexts === 'restricted' ? { fsGroup: 100, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }
      : contexts === 'loose' ? { fsGroup: 100, runAsUser: 0 } : undefined,
    containerSecurityContext: contexts === 'restricted'
      ? { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } }
      : contexts === 'loose' ? { allowPrivilegeEscalation: true, runAsUser: 0 } : undefined,
  };
}

/** Builds a WorkspaceKind from data; `props` and `after` let a fault change it. */
export function buildKind(chart: Chart, d: KindData, ids: Ids, change: {
  props?: (p: WorkspaceKindProps) => WorkspaceKindProps;
  after?: (kind: WorkspaceKind, chart: Chart) => void;
} = {}): WorkspaceKind {
  if (d.platform) PlatformDefaults.set(chart, d.platform);
  let props = kindProps(chart, ids, d);
  // Options are added below; the defaults are resolved from them.
  const imageTargets = d.images.map((o, i) => redirectTarget(i, d.images.length, o.redirect?.offset));
  const podTargets = d.pods.map((o, i) => redirectTarget(i, d.pods.length, o.redirect?.offset));
  const pick = (ids_: string[], targets: Array<number | undefined>, k: number | undefined) => {
    const shown = ids_.filter((_, i) => targets[i] === undefined);
    return k === undefined ? undefined : shown[k % shown.length];
  };
  props = {
    ...props,
    defaultImageConfig: pick(d.images.map(o => o.id), imageTargets, d.defaultImage),
    defaultPodConfig: pick(d.pods.map(o => o.id), podTargets, d.defaultPod),
  };
  if (change.props) props = change.props(props);
  const kind = new WorkspaceKind(chart, 'kind', props);
  const portIds = d.ports.map(p => p.id);
  d.images.forEach((o, i) => {
    const target = imageTargets[i];
    const picks = [...new Set(o.portPicks.map(k => portIds[k % portIds.length]))];
    kind.addImageConfig(o.id, {
      displayName: o.displayName,
      description: o.description,
      // Without an explicit default, the last option (never redirected) stays shown.
      hidden: props.defaultImageConfig === undefined && i === d.images.length - 1 ? false : o.hidden,
      labels: o.labels,
      redirect: target === undefined ? undefined : { to: d.images[target].id, message: o.redirect?.message, level: o.redirect?.level },
      image: o.image,
      imagePullPolicy: o.imagePullPolicy,
      ports: picks.map((id, k) => ({ id, port: o.firstPort + k, displayName: k === 0 ? o.portDisplayName : undefined })),
    });
  });
  d.pods.forEach((o, i) => {
    const target = podTargets[i];
    kind.addPodConfig(o.id, {
      displayName: o.displayName,
      description: o.description,
      hidden: props.defaultPodConfig === undefined && i === d.pods.length - 1 ? false : o.hidden,
      labels: o.labels,
      redirect: target === undefined ? undefined : { to: d.pods[target].id, message: o.redirect?.message, level: o.redirect?.level },
      ...resourcesOf(o),
      nodeSelector: o.nodeSelector,
      tolerations: o.tolerations,
      affinity: o.zone ? {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [o.zone] }] }],
          },
        },
      } : undefined,
    });
  });
  d.mounts.forEach((m, i) => {
    const path = `/opt/extra-${i}`;
    const options = { readOnly: m.readOnly, subPath: m.subPath };
    if (m.type === 'configMap') kind.mount(path, kplus.Volume.fromConfigMap(chart, ids.next('vol'), kplus.ConfigMap.fromConfigMapName(chart, ids.next('cm'), m.name)), options);
    else if (m.type === 'secret') kind.mount(path, kplus.Volume.fromSecret(chart, ids.next('vol'), kplus.Secret.fromSecretName(chart, ids.next('secret'), m.name)), options);
    else kind.mount(path, kplus.Volume.fromEmptyDir(chart, ids.next('vol'), `scratch-${i}`), options);
  });
  change.after?.(kind, chart);
  return kind;
}

/** The invariants of a rendered WorkspaceKind, as a list of broken ones. */
export function kindProblems(doc: any): string[] {
  const problems: string[] = [];
  const check = (ok: unknown, what: string) => { if (!ok) problems.push(what); };
  const t = doc.spec.podTemplate;
  check(doc.metadata.namespace === undefined, 'a cluster-scoped kind with a namespace');
  const portIds: string[] = t.ports.map((p: any) => p.id);
  check(new Set(portIds).size === portIds.length, `port ids repeat: ${portIds}`);
  for (const field of ['imageConfig', 'podConfig']) {
    const options = t.options[field];
    const ids: string[] = options.values.map((v: any) => v.id);
    const byId = new Map<string, string | undefined>(options.values.map((v: any) => [v.id, v.redirect?.to]));
    check(new Set(ids).size === ids.length, `${field} ids repeat`);
    check(ids.includes(options.spawner.default), `${field} default ${options.spawner.default} is not an option`);
    check(byId.get(options.spawner.default) === undefined, `${field} default ${options.spawner.default} is redirected`);
    for (const v of options.values) {
      if (!v.redirect) continue;
      check(byId.has(v.redirect.to), `${field} ${v.id} redirects to a missing ${v.redirect.to}`);
      const seen = new Set<string>([v.id]);
      let next: string | undefined = v.redirect.to;
      while (next !== undefined && !seen.has(next)) {
        seen.add(next);
        next = byId.get(next);
      }
      check(next === undefined, `${field} redirects from ${v.id} form a cycle`);
    }
  }
  for (const v of t.options.imageConfig.values) {
    const ids = v.spec.ports.map((p: any) => p.id);
    const numbers = v.spec.ports.map((p: any) => p.port);
    check(ids.length > 0, `image ${v.id} serves no port`);
    check(ids.every((id: string) => portIds.includes(id)), `image ${v.id} serves undeclared ports ${ids}`);
    check(new Set(ids).size === ids.length && new Set(numbers).size === numbers.length, `image ${v.id} repeats a port`);
  }
  for (const v of t.options.podConfig.values) {
    const { requests = {}, limits = {} } = v.spec.resources ?? {};
    for (const [name, value] of Object.entries(limits)) if (name.includes('/')) check(String(requests[name]) === String(value), `${v.id}: ${name} request differs from the limit`);
    for (const [name, value] of Object.entries(requests)) if (name.includes('/')) check(String(limits[name]) === String(value), `${v.id}: ${name} has no equal limit`);
  }
  const probePort = t.activityProbe?.jupyter?.portId;
  check(probePort === undefined || portIds.includes(probePort), `activity probe on undeclared port ${probePort}`);
  for (const e of t.extraEnv ?? []) {
    for (const m of String(e.value ?? '').matchAll(/httpPathPrefix "([^"]*)"/g)) check(portIds.includes(m[1]), `env ${e.name} names undeclared port ${m[1]}`);
  }
  const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  const paths = [t.volumeMounts.home, ...(t.extraVolumeMounts ?? []).map((m: any) => m.mountPath)].map(norm);
  check(new Set(paths).size === paths.length, `mount paths repeat: ${paths}`);
  const volumes: string[] = (t.extraVolumes ?? []).map((v: any) => v.name);
  check(new Set(volumes).size === volumes.length, `volume names repeat: ${volumes}`);
  for (const m of t.extraVolumeMounts ?? []) check(volumes.includes(m.name), `mount of a missing volume ${m.name}`);
  return problems;
}
