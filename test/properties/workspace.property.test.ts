import { App, Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import { expectConstructError, Ids } from './job-arbitraries';
import { buildKind, kindData, KindData, optionId } from './notebook-arbitraries';
import { IWorkspaceKind, PlatformDefaults, Workspace, WorkspaceClaim, WorkspaceKind, WorkspaceProps } from '../../src';
import { REPORT } from '../harness/messages';
import { dnsLabel, RUNS, schemaErrors } from '../harness/properties';

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const labels = fc.dictionary(dnsLabel, dnsLabel, { maxKeys: 2, noNullPrototype: true });
const NAMESPACE = 'team-a';

/** A claim as data: by name, a kplus claim of the team's chart, or a new claim. */
const claimData = fc.oneof(
  fc.record({ type: fc.constant('name' as const), name: dnsLabel }),
  fc.record({ type: fc.constant('construct' as const), name: dnsLabel, readOnlyMany: fc.boolean() }),
  fc.record({
    type: fc.constant('new' as const),
    gib: fc.integer({ min: 1, max: 2048 }),
    storageClassName: opt(dnsLabel),
    accessMode: opt(fc.constantFrom(
      kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE,
      kplus.PersistentVolumeAccessMode.READ_WRITE_MANY,
      kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE_POD,
    )),
    claimName: opt(dnsLabel),
  }, { requiredKeys: ['type', 'gib'] }),
);
type ClaimData = typeof claimData extends fc.Arbitrary<infer T> ? T : never;

const workspaceData = fc.record({
  name: dnsLabel,
  /** Indexes into the kind's options, or option ids for a kind known by name. */
  image: opt(fc.nat()),
  pod: opt(fc.nat()),
  imageId: optionId,
  podId: optionId,
  home: opt(claimData),
  data: fc.array(fc.record({ claim: claimData, readOnly: opt(fc.boolean()) }), { maxLength: 3 }),
  /** A data volume on the kind's home path, which is free when the workspace has no home volume. */
  dataAtHome: fc.boolean(),
  secrets: fc.array(fc.record({ name: dnsLabel, defaultMode: opt(fc.integer({ min: 0, max: 0o777 })) }), { maxLength: 3 }),
  paused: opt(fc.boolean()),
  displayName: opt(fc.string({ minLength: 1, maxLength: 40 })),
  podLabels: opt(labels),
  podAnnotations: opt(labels),
  /** Added after construction. */
  lateData: opt(claimData),
  lateSecret: opt(dnsLabel),
  lateLabel: opt(dnsLabel),
}, { requiredKeys: ['name', 'imageId', 'podId', 'data', 'dataAtHome', 'secrets'], noNullPrototype: true });
type WorkspaceData = typeof workspaceData extends fc.Arbitrary<infer T> ? T : never;

/** Random valid Workspaces: one or two, of a kind of this app or one known by name, in one namespace. */
const validConfig = fc.record({
  kind: kindData,
  byName: fc.boolean(),
  /** A new claim the two workspaces share (created beside the first). */
  shared: fc.boolean(),
  workspaces: fc.uniqueArray(workspaceData, { minLength: 1, maxLength: 2, selector: w => w.name }),
  namespaceFrom: fc.constantFrom('chart', 'metadata'),
  platform: opt(fc.record({ labels: opt(labels), podAnnotations: opt(labels) }, { requiredKeys: [], noNullPrototype: true })),
});
type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

interface Built {
  readonly kind: IWorkspaceKind;
  readonly built?: WorkspaceKind;
  readonly team: Construct;
  readonly workspaces: Workspace[];
}

/**
 * The harness's renderTwice with a chart namespace: builds in two fresh apps (chart "test"), runs
 * every construct's validations, and returns the first rendering when both are identical.
 */
function renderTwice(namespace: string | undefined, builder: (chart: Chart) => void): any[] {
  const render = () => {
    const chart = new Chart(new App({ outdir: Testing.app().outdir }), 'test', { namespace });
    builder(chart);
    for (const c of chart.node.findAll()) {
      const errors = c.node.validate();
      if (errors.length) throw new Error(`${REPORT}  ${errors.map(e => `[${c.node.path}] ${e}`).join('\n  ')}`);
    }
    return Testing.synth(chart);
  };
  const first = render();
  if (JSON.stringify(first) !== JSON.stringify(render())) throw new Error('synthesis is not deterministic');
  return first;
}

/** What a fault changes: the props of the first workspace, or anything after construction. */
interface Change {
  readonly props?: (p: WorkspaceProps, b: { team: Construct; kind: IWorkspaceKind }) => WorkspaceProps;
  readonly after?: (b: Built) => void;
  /** Build the kind without options. */
  readonly emptyKind?: boolean;
  /** Use a kind known by name. */
  readonly byName?: boolean;
}

function claimOf(team: Construct, ids: Ids, c: ClaimData): WorkspaceClaim {
  switch (c.type) {
    case 'name': return WorkspaceClaim.fromClaimName(c.name);
    case 'construct': return WorkspaceClaim.fromClaim(new kplus.PersistentVolumeClaim(team, ids.next('pvc'), {
      metadata: { name: `${c.name}-${ids.next('c')}` },
      storage: Size.gibibytes(10),
      accessModes: [c.readOnlyMany ? kplus.PersistentVolumeAccessMode.READ_ONLY_MANY : kplus.PersistentVolumeAccessMode.READ_WRITE_MANY],
    }));
    default: return WorkspaceClaim.newClaim({ storage: Size.gibibytes(c.gib), storageClassName: c.storageClassName, accessMode: c.accessMode, claimName: c.claimName && `${c.claimName}-${ids.next('c')}` });
  }
}

/** A read-only-many claim must be mounted read-only. */
function readOnlyFor(c: ClaimData, readOnly: boolean | undefined): boolean | undefined {
  return c.type === 'construct' && c.readOnlyMany ? true : readOnly;
}

/** The kind in the chart itself (cluster-scoped), the workspaces in a scope "team" below it. */
function build(chart: Chart, c: Config, change: Change = {}): Built {
  const ids = new Ids();
  const kindData_: KindData = change.emptyKind ? { ...c.kind, images: [], pods: [] } : c.kind;
  const byName = change.byName ?? c.byName;
  const built = byName ? undefined : buildKind(chart, kindData_, ids);
  const kind: IWorkspaceKind = built ?? WorkspaceKind.fromName(c.kind.name);
  const team = new Construct(chart, 'team');
  if (c.platform) PlatformDefaults.set(team, c.platform);
  const namespace = c.namespaceFrom === 'metadata' ? NAMESPACE : undefined;
  const shared = c.shared ? WorkspaceClaim.newClaim({ storage: Size.gibibytes(100), claimName: 'shared-data' }) : undefined;
  // A claim construct of the team chart must be in the workspaces' namespace too.
  const claim = (d: ClaimData) => (d.type === 'construct' && namespace
    ? WorkspaceClaim.fromClaim(new kplus.PersistentVolumeClaim(team, ids.next('pvc'), {
      metadata: { name: `${d.name}-${ids.next('c')}`, namespace },
      storage: Size.gibibytes(10),
      accessModes: [d.readOnlyMany ? kplus.PersistentVolumeAccessMode.READ_ONLY_MANY : kplus.PersistentVolumeAccessMode.READ_WRITE_MANY],
    }))
    : claimOf(team, ids, d));
  const homeClaim = (d: ClaimData | undefined) => (d && !(d.type === 'construct' && d.readOnlyMany) ? claim(d) : undefined);
  const homePath = built?.homeMountPath ?? '/home/jovyan';
  const workspaces = c.workspaces.map((w: WorkspaceData, n) => {
    const home = homeClaim(w.home);
    const pickOption = (ids_: string[], k: number | undefined, id: string) => (byName ? id : k === undefined ? undefined : ids_[k % ids_.length]);
    let props: WorkspaceProps = {
      metadata: { name: w.name, namespace },
      kind,
      imageConfig: pickOption(built?.imageConfigIds ?? [], w.image, w.imageId),
      podConfig: pickOption(built?.podConfigIds ?? [], w.pod, w.podId),
      home,
      data: [
        ...w.data.map((d, i) => ({ mountPath: `/data/${i}`, claim: claim(d.claim), readOnly: readOnlyFor(d.claim, d.readOnly) })),
        ...(w.dataAtHome && !home ? [{ mountPath: homePath, claim: WorkspaceClaim.fromClaimName('scratch') }] : []),
        ...(shared ? [{ mountPath: '/data/shared', claim: shared }] : []),
      ],
      secrets: w.secrets.map((s, i) => ({ mountPath: `/secrets/${i}`, secret: kplus.Secret.fromSecretName(team, ids.next('secret'), s.name), defaultMode: s.defaultMode })),
      paused: w.paused,
      displayName: w.displayName,
      podLabels: w.podLabels,
      podAnnotations: w.podAnnotations,
    };
    if (n === 0 && change.props) props = change.props(props, { team, kind });
    const ws = new Workspace(team, `ws${n}`, props);
    if (w.lateData) ws.addDataVolume('/data/late', claim(w.lateData), { readOnly: readOnlyFor(w.lateData, undefined) });
    if (w.lateSecret) ws.addSecret('/secrets/late', kplus.Secret.fromSecretName(team, ids.next('secret'), w.lateSecret));
    if (w.lateLabel) ws.addPodLabel('late', w.lateLabel);
    return ws;
  });
  const b = { kind, built, team, workspaces };
  change.after?.(b);
  return b;
}

const chartNamespace = (c: Config) => (c.namespaceFrom === 'chart' ? NAMESPACE : undefined);
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

test(`${RUNS} random valid Workspaces are schema-valid, deterministic and keep the kind's invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    const docs = renderTwice(chartNamespace(c), chart => { build(chart, c); });
    const problems = schemaErrors(docs);
    const check = (ok: unknown, what: string) => { if (!ok) problems.push(what); };
    const kind = docs.find(d => d.kind === 'WorkspaceKind');
    const claims = docs.filter(d => d.kind === 'PersistentVolumeClaim');
    for (const ws of docs.filter(d => d.kind === 'Workspace')) {
      const spec = ws.spec;
      const volumes = spec.podTemplate.volumes;
      check(spec.kind === c.kind.name, `spec.kind ${spec.kind}`);
      check(ws.metadata.name.length <= 63 && SUBDOMAIN.test(ws.metadata.name), `name ${ws.metadata.name}`);
      // The options named exist in the kind.
      if (kind) {
        const t = kind.spec.podTemplate.options;
        check(t.imageConfig.values.some((v: any) => v.id === spec.podTemplate.options.imageConfig), `imageConfig ${spec.podTemplate.options.imageConfig}`);
        check(t.podConfig.values.some((v: any) => v.id === spec.podTemplate.options.podConfig), `podConfig ${spec.podTemplate.options.podConfig}`);
      }
      // Mount paths are unique: the kind's home (when used) and extra mounts, data and secrets.
      const paths = [
        ...(kind && volumes.home ? [kind.spec.podTemplate.volumeMounts.home] : []),
        ...(kind?.spec.podTemplate.extraVolumeMounts ?? []).map((m: any) => m.mountPath),
        ...(volumes.data ?? []).map((d: any) => d.mountPath),
        ...(volumes.secrets ?? []).map((s: any) => s.mountPath),
      ].map(norm);
      check(new Set(paths).size === paths.length, `mount paths repeat: ${paths}`);
      for (const name of [volumes.home, ...(volumes.data ?? []).map((d: any) => d.pvcName)].filter(x => x !== undefined)) {
        check(SUBDOMAIN.test(name), `claim name ${name}`);
        const created = claims.find(p => p.metadata.name === name);
        check(!created || created.metadata.namespace === ws.metadata.namespace, `claim ${name} in namespace ${created?.metadata.namespace}, workspace in ${ws.metadata.namespace}`);
      }
      for (const s of volumes.secrets ?? []) check(SUBDOMAIN.test(s.secretName) && s.defaultMode >= 0 && s.defaultMode <= 0o777, `secret ${JSON.stringify(s)}`);
    }
    // A shared new claim is created once.
    const names = claims.map(p => p.metadata.name);
    check(new Set(names).size === names.length, `claims created twice: ${names}`);
    expect(problems).toEqual([]);
  }), { numRuns: RUNS });
});

type Scope = { team: Construct; kind: IWorkspaceKind };
const p = (f: (p: WorkspaceProps, b: Scope) => Partial<WorkspaceProps>): Change => ({ props: (x, b) => ({ ...x, ...f(x, b) }) });
const rox = (team: Construct, name = 'dataset') => new kplus.PersistentVolumeClaim(team, 'fault-rox', {
  metadata: { name }, storage: Size.gibibytes(10), accessModes: [kplus.PersistentVolumeAccessMode.READ_ONLY_MANY],
});

/** Faults a Workspace must reject, each the change it makes to random valid workspaces. */
const faults: Array<[string, fc.Arbitrary<Change>]> = [
  ['kind by name without options', fc.constantFrom('imageConfig', 'podConfig').map(field => ({ byName: true, props: (x: WorkspaceProps) => ({ ...x, [field]: undefined }) }))],
  ['option id length', fc.tuple(fc.constantFrom('imageConfig', 'podConfig'), fc.constantFrom('', 'o'.repeat(257))).map(([field, id]) => p(() => ({ [field]: id })))],
  ['option not in the kind', fc.constantFrom('imageConfig', 'podConfig').map(field => ({ byName: false, props: (x: WorkspaceProps) => ({ ...x, [field]: 'no-such-option' }) }))],
  ['kind without options', fc.constant({ byName: false, emptyKind: true })],
  ['displayName', fc.constantFrom('', 'd'.repeat(129)).map(displayName => p(() => ({ displayName })))],
  ['mount path', fc.tuple(fc.constantFrom('data', 'secrets'), fc.constantFrom('data', '/', '/a:b', '', 'relative/path')).map(([field, mountPath]) => p((x, b) => (field === 'data'
    ? { data: [...x.data ?? [], { mountPath, claim: WorkspaceClaim.fromClaimName('extra') }] }
    : { secrets: [...x.secrets ?? [], { mountPath, secret: kplus.Secret.fromSecretName(b.team, 'fault-secret', 'extra') }] })))],
  ['data on the home volume', fc.constant({
    byName: false,
    props: (x: WorkspaceProps, b: Scope) => ({
      ...x, home: WorkspaceClaim.fromClaimName('home-claim'), data: [{ mountPath: (b.kind as WorkspaceKind).homeMountPath, claim: WorkspaceClaim.fromClaimName('other') }],
    }),
  })],
  ['data on a mount of the kind', fc.constant({
    byName: false,
    props: (x: WorkspaceProps, b: Scope) => {
      (b.kind as WorkspaceKind).mount('/opt/kind-mount', kplus.Volume.fromEmptyDir(b.kind as WorkspaceKind, 'fault-mount', 'fault-mount'));
      return { ...x, data: [{ mountPath: '/opt/kind-mount/', claim: WorkspaceClaim.fromClaimName('other') }] };
    },
  })],
  ['data and a secret on one path', fc.constant(p((_x, b) => ({
    data: [{ mountPath: '/shared/path', claim: WorkspaceClaim.fromClaimName('other') }],
    secrets: [{ mountPath: '/shared/path', secret: kplus.Secret.fromSecretName(b.team, 'fault-secret', 'creds') }],
  })))],
  ['defaultMode', fc.constantFrom(-1, 0o1000, 1.5, Number.NaN).map(defaultMode => p((_x, b) => ({ secrets: [{ mountPath: '/secrets/x', secret: kplus.Secret.fromSecretName(b.team, 'fault-secret', 'creds'), defaultMode }] })))],
  ['read-only home', fc.constantFrom('construct', 'new').map(how => p((_x, b) => ({
    home: how === 'construct' ? WorkspaceClaim.fromClaim(rox(b.team)) : WorkspaceClaim.newClaim({ storage: Size.gibibytes(1), accessMode: kplus.PersistentVolumeAccessMode.READ_ONLY_MANY }),
  })))],
  ['writable mount of a read-only claim', fc.constantFrom(false, undefined).map(readOnly => p((_x, b) => ({ data: [{ mountPath: '/data/rox', claim: WorkspaceClaim.fromClaim(rox(b.team)), readOnly }] })))],
  ['claim name', fc.constantFrom('Bad_Name', '-x', 'a'.repeat(254)).chain(name => fc.constantFrom(
    p(() => ({ home: WorkspaceClaim.fromClaimName(name) })), p(() => ({ data: [{ mountPath: '/data/x', claim: WorkspaceClaim.fromClaimName(name) }] })),
    p(() => ({ home: WorkspaceClaim.newClaim({ storage: Size.gibibytes(1), claimName: name }) })),
  ))],
  ['claim in another namespace', fc.constant(p((_x, b) => ({
    home: WorkspaceClaim.fromClaim(new kplus.PersistentVolumeClaim(b.team, 'fault-pvc', { metadata: { name: 'elsewhere', namespace: 'other-team' }, storage: Size.gibibytes(1) })),
  })))],
  ['secret name', fc.constantFrom('Bad_Secret', '-x').map(name => p((_x, b) => ({ secrets: [{ mountPath: '/secrets/x', secret: kplus.Secret.fromSecretName(b.team, 'fault-secret', name) }] })))],
  ['workspace name', fc.constantFrom('Alice', 'a.b', 'a'.repeat(64), '-a', 'a_b').map(name => p(x => ({ metadata: { ...x.metadata, name } })))],
  ['kind name', fc.constantFrom('Jupyter Lab', 'a_b', '-x').map(name => ({ byName: true, props: (x: WorkspaceProps) => ({ ...x, kind: WorkspaceKind.fromName(name), imageConfig: 'a', podConfig: 'b' }) }))],
  ['new claim storage', fc.oneof(fc.constant(Size.gibibytes(0)), fc.integer({ min: 1, max: 1023 }).map(m => Size.mebibytes(m)), fc.integer({ min: 1, max: 99 }).map(k => Size.kibibytes(k)))
    .chain(storage => fc.constantFrom(p(() => ({ home: WorkspaceClaim.newClaim({ storage }) })), p(() => ({ data: [{ mountPath: '/data/x', claim: WorkspaceClaim.newClaim({ storage }) }] }))))],
];

const invalidConfig = fc.tuple(validConfig, fc.oneof(...faults.map(([label, change]) => change.map(c => ({ label, change: c })))));

test(`${RUNS} random invalid Workspaces end in the construct's own error, never a manifest`, () => {
  fc.assert(fc.property(invalidConfig, ([c, { label, change }]) => {
    expectConstructError(label, chart => { build(chart, c, change); }, b => renderTwice(chartNamespace(c), b));
  }), { numRuns: RUNS });
});
