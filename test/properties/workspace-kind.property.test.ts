import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { expectConstructError, Ids } from './job-arbitraries';
import { buildKind, kindData, kindProblems, kindSecurity } from './notebook-arbitraries';
import { Accelerator, ActivityProbe, FilterScope, ImagePort, PodSecurity, SpawnerImage, WorkspaceKind, WorkspaceKindProps } from '../../src';
import { RUNS, renderTwice, schemaErrors } from '../harness/properties';

test(`${RUNS} random valid WorkspaceKinds are schema-valid, deterministic and keep the kind's invariants`, () => {
  fc.assert(fc.property(kindData, d => {
    const docs = renderTwice(chart => { buildKind(chart, d, new Ids()); });
    const kind = docs.find(x => x.kind === 'WorkspaceKind');
    const problems = [...schemaErrors(docs), ...kindProblems(kind)];
    // The restricted preset, or explicit contexts under it, meet the standard.
    if (kindSecurity(d).restricted) {
      const c = kind.spec.podTemplate.containerSecurityContext;
      const pod = kind.spec.podTemplate.securityContext;
      if (c.allowPrivilegeEscalation !== false || !(c.capabilities?.drop ?? []).includes('ALL') || (c.runAsNonRoot ?? pod.runAsNonRoot) !== true) {
        problems.push(`restricted kind with container security context ${JSON.stringify(c)}`);
      }
    }
    expect(problems).toEqual([]);
  }), { numRuns: RUNS });
});

type Change = { props?: (p: WorkspaceKindProps) => WorkspaceKindProps; after?: (kind: WorkspaceKind) => void };
const image = (ports = [{ id: 'p0', port: 8888 }]) => ({ image: 'quay.io/jupyter/base-notebook:latest', ports });
const p = (f: (p: WorkspaceKindProps) => Partial<WorkspaceKindProps>): Change => ({ props: x => ({ ...x, ...f(x) }) });
const after = (f: (kind: WorkspaceKind) => void): Change => ({ after: f });

/**
 * Faults a WorkspaceKind must reject, each with the change it makes to a random valid kind. The
 * ports and options faults add their own, so they do not depend on the ids the kind has.
 */
const faults: Array<[string, fc.Arbitrary<Change>]> = [
  ['namespace', fc.constant(p(() => ({ metadata: { name: 'kind', namespace: 'kubeflow' } })))],
  ['bad name', fc.constantFrom('Jupyter', 'jupyter_lab', '-x', 'x-', 'a'.repeat(254), 'a..b').map(name => p(() => ({ metadata: { name } })))],
  ['displayName', fc.oneof(fc.string({ maxLength: 1 }), fc.string({ minLength: 129, maxLength: 140 })).map(displayName => p(() => ({ displayName })))],
  ['description', fc.oneof(fc.string({ maxLength: 1 }), fc.constant('d'.repeat(4097))).map(description => p(() => ({ description })))],
  ['deprecated false with a message', fc.constant(p(() => ({ deprecated: false, deprecationMessage: 'Use v2 instead.' })))],
  ['deprecationMessage', fc.constantFrom('', 'x', 'y'.repeat(257)).map(deprecationMessage => p(() => ({ deprecationMessage, deprecated: undefined })))],
  ['icon', fc.constantFrom(
    SpawnerImage.fromUrl(''), SpawnerImage.fromConfigMap('My_Logos', 'logo.svg', 'kubeflow'), SpawnerImage.fromConfigMap('logos', 'a/b.svg', 'kubeflow'),
    SpawnerImage.fromConfigMap('logos', 'logo.svg', 'Kube.Flow'),
  ).chain(icon => fc.constantFrom(p(() => ({ icon })), p(() => ({ logo: icon }))))],
  ['homeMountPath', fc.constantFrom('home/jovyan', '/', '/home:jovyan', '//x', '').map(homeMountPath => p(() => ({ homeMountPath })))],
  ['probe port id', fc.constantFrom('Jupyter', 'a'.repeat(33), '-x').map(id => p(() => ({ activityProbe: ActivityProbe.jupyter(id) })))],
  ['probe port undeclared', fc.constant(p(() => ({ activityProbe: ActivityProbe.jupyter('undeclared-port') })))],
  ['probe script', fc.constantFrom('', 'echo hi', `#!/bin/sh\n${'x'.repeat(2100)}`).map(script => p(() => ({ activityProbe: ActivityProbe.script(script) })))],
  ['probe intervals', fc.constantFrom(
    { interval: Duration.seconds(0) }, { interval: Duration.days(366) }, { interval: Duration.minutes(1), minInterval: Duration.minutes(2) },
    { minInterval: Duration.seconds(0) },
  ).map(o => p(() => ({ activityProbe: ActivityProbe.jupyter('p0', o), ports: [{ id: 'p0', displayName: 'Port' }] })))],
  ['probe timeout', fc.constant(p(() => ({ activityProbe: ActivityProbe.script('#!/bin/sh\ntrue', { timeout: Duration.seconds(0) }) })))],
  ['fractional seconds', fc.tuple(fc.constantFrom('interval', 'minInterval', 'timeout', 'inactiveFor', 'minRunning'), fc.integer({ min: 16_001, max: 999_999 }).filter(x => x % 1000 !== 0))
    .map(([field, ms]) => {
      const d = Duration.millis(ms);
      if (field === 'inactiveFor' || field === 'minRunning') {
        return p(() => ({ activityRules: [{ inactiveFor: field === 'inactiveFor' ? d : Duration.hours(1), minRunning: field === 'minRunning' ? d : undefined, pauseWorkspace: false }] }));
      }
      // The probe's own factory reads the durations, so it is made inside the fault.
      return p(() => ({ activityProbe: field === 'timeout' ? ActivityProbe.script('#!/bin/sh\ntrue', { timeout: d }) : ActivityProbe.script('#!/bin/sh\ntrue', { interval: Duration.hours(1), [field]: d }) }));
    })],
  ['port id', fc.constantFrom('Jupyter', 'a'.repeat(33), '-x', 'x-', '').map(id => after(k => k.addPort({ id, displayName: 'Port' })))],
  ['port twice', fc.constant(after(k => { k.addPort({ id: 'twice', displayName: 'Port' }); k.addPort({ id: 'twice', displayName: 'Again' }); }))],
  ['port displayName', fc.constantFrom('', 'x', 'y'.repeat(65)).map(displayName => after(k => k.addPort({ id: 'extra', displayName })))],
  ['no ports', fc.constant(p(() => ({ ports: [] })))],
  ['option id', fc.constantFrom('', 'i'.repeat(257)).chain(id => fc.constantFrom(after(k => k.addImageConfig(id, image())), after(k => k.addPodConfig(id))))],
  ['option id twice', fc.constant(after(k => { k.addPodConfig('twice'); k.addPodConfig('twice'); }))],
  ['option displayName', fc.constantFrom('x', 'y'.repeat(129)).map(displayName => after(k => k.addPodConfig('extra-pod', { displayName })))],
  ['option labels', fc.constantFrom({ key: '' }, { key: 'v'.repeat(65) }, { k: 'v' }, Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`key${i}`, 'v'])))
    .map(labels => after(k => k.addPodConfig('labelled', { labels })))],
  ['image', fc.constantFrom('', 'x').map(img => after(k => k.addImageConfig('extra-image', { ...image(), image: img })))],
  ['image ports', fc.constantFrom<ImagePort[]>(
    [], [{ id: 'Bad', port: 80 }], [{ id: 'a', port: 80 }, { id: 'a', port: 81 }], [{ id: 'a', port: 80 }, { id: 'b', port: 80 }],
    [{ id: 'a', port: 0 }], [{ id: 'a', port: 65536 }], [{ id: 'a', port: 80.5 }], [{ id: 'a', port: 80, displayName: 'x' }],
  ).map(ports => after(k => k.addImageConfig('extra-image', image(ports))))],
  ['image port undeclared', fc.constant(after(k => k.addImageConfig('extra-image', image([{ id: 'undeclared-port', port: 8080 }]))))],
  ['redirect to a missing option', fc.constant(after(k => k.addPodConfig('old', { redirect: { to: 'missing-option' } })))],
  ['redirect cycle', fc.constant(after(k => { k.addPodConfig('cycle-a', { redirect: { to: 'cycle-b' } }); k.addPodConfig('cycle-b', { redirect: { to: 'cycle-a' } }); }))],
  ['redirect.to', fc.constantFrom('', 'r'.repeat(257)).map(to => after(k => k.addPodConfig('old', { redirect: { to } })))],
  ['default not an option', fc.constantFrom('defaultImageConfig', 'defaultPodConfig').map(field => p(() => ({ [field]: 'no-such-option' })))],
  ['default redirected', fc.constant({
    props: (x: WorkspaceKindProps) => ({ ...x, defaultPodConfig: 'moved' }),
    after: (k: WorkspaceKind) => { k.addPodConfig('moved', { redirect: { to: 'target' } }); k.addPodConfig('target'); },
  })],
  ['accelerator', fc.constantFrom(Accelerator.nvidia(0), Accelerator.nvidia(1.5), Accelerator.custom('gpu', 1))
    .chain(a => fc.constantFrom(after(k => k.addPodConfig('gpu-x', { requests: { accelerator: a } })), after(k => k.addPodConfig('gpu-x', { limits: { accelerator: a } }))))],
  ['accelerator mismatch', fc.constant(after(k => k.addPodConfig('gpu-x', { requests: { accelerator: Accelerator.nvidia(1) }, limits: { accelerator: Accelerator.nvidia(2) } })))],
  ['limits below requests', fc.constantFrom(
    { requests: { cpu: kplus.Cpu.units(2) }, limits: { cpu: kplus.Cpu.millis(1500) } },
    { requests: { memory: Size.gibibytes(4) }, limits: { memory: Size.gibibytes(2) } },
    { requests: { ephemeralStorage: Size.gibibytes(10) }, limits: { ephemeralStorage: Size.mebibytes(100) } },
  ).map(o => after(k => k.addPodConfig('small-x', o)))],
  ['pod config amounts', fc.constantFrom<any>(
    { requests: { cpu: kplus.Cpu.units(-1) } }, { limits: { cpu: kplus.Cpu.units(Number.NaN) } }, { requests: { memory: Size.kibibytes(1500) } },
    { limits: { ephemeralStorage: Size.kibibytes(100) } }, { requests: { memory: Size.kibibytes(3000) }, limits: { memory: Size.kibibytes(5000) } },
  ).map(o => after(k => k.addPodConfig('odd', o)))],
  ['sharedMemory', fc.integer({ min: 1, max: 4095 }).filter(x => x % 1024 !== 0).map(kib => p(() => ({ sharedMemory: Size.kibibytes(kib) })))],
  ['no options', fc.constant({ empty: true } as Change)],
  ['activity rule inactiveFor', fc.integer({ min: 0, max: 15 }).map(s => p(() => ({ activityRules: [{ inactiveFor: Duration.seconds(s), pauseWorkspace: false }] })))],
  ['pausing rule without a probe', fc.constant(p(() => ({ activityProbe: undefined, activityRules: [{ inactiveFor: Duration.hours(1) }] })))],
  ['catch-all rule not last', fc.constant(p(() => ({
    activityRules: [{ inactiveFor: Duration.hours(1), pauseWorkspace: false }, { inactiveFor: Duration.hours(2), pauseWorkspace: false, namespaceSelector: { matchLabels: { a: 'b' } } }],
  })))],
  ['filter rule', fc.constantFrom<any>(
    { scope: FilterScope.WORKSPACE_KIND, hideInUi: true },
    { scope: FilterScope.POD_CONFIG, podConfigSelector: { matchLabels: { gpu: '1' } } },
    { scope: FilterScope.POD_CONFIG, podConfigSelector: { matchLabels: { gpu: '1' } }, hideInApi: true, denyMessage: 'No GPUs here.' },
    { scope: FilterScope.POD_CONFIG, podConfigSelector: { matchLabels: { gpu: '1' } }, deny: true, denyMessage: 'x' },
  ).map(rule => after(k => k.addFilterRule(rule)))],
  ['env twice', fc.constant(after(k => { k.addEnv('TWICE', kplus.EnvValue.fromValue('a')); k.addEnv('TWICE', kplus.EnvValue.fromValue('b')); }))],
  ['env prefix of an undeclared port', fc.constant(after(k => k.addEnv('NB_PREFIX_X', kplus.EnvValue.fromValue(WorkspaceKind.httpPathPrefix('undeclared-port')))))],
  // A relative path is no fault: the kubelet mounts "data" at "/data". One that lands on "/" is.
  ['mount path', fc.constantFrom('./', '/', '.', '').map(path => after(k => k.mount(path, kplus.Volume.fromEmptyDir(k, 'fault-vol', 'fault-vol'))))],
  ['mount path taken', fc.constantFrom('home', '/opt/taken', '/opt/taken/').map(which => after(k => {
    k.mount(which === 'home' ? k.homeMountPath : '/opt/taken', kplus.Volume.fromEmptyDir(k, 'fault-a', 'fault-a'));
    if (which !== 'home') k.mount(which, kplus.Volume.fromEmptyDir(k, 'fault-b', 'fault-b'));
  }))],
  ['volume name twice', fc.constant(after(k => {
    k.mount('/fault/a', kplus.Volume.fromEmptyDir(k, 'fault-a', 'same'));
    k.mount('/fault/b', kplus.Volume.fromConfigMap(k, 'fault-b', kplus.ConfigMap.fromConfigMapName(k, 'fault-cm', 'settings'), { name: 'same' }));
  }))],
  ['cluster role', fc.constantFrom('', 'a/b', 'x%y', 'r'.repeat(254)).map(role => after(k => k.addClusterRole(role)))],
  ['restricted with loose contexts', fc.constantFrom<any>(
    { containerSecurityContext: { allowPrivilegeEscalation: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } } },
    { containerSecurityContext: { allowPrivilegeEscalation: false, privileged: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } } },
    { containerSecurityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } } },
    { containerSecurityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } },
    { containerSecurityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] }, seccompProfile: { type: 'RuntimeDefault' } } },
    { podSecurityContext: { runAsUser: 0 } },
    { podSecurityContext: { runAsNonRoot: true }, containerSecurityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'Unconfined' } } },
  ).map(contexts => p(() => ({ security: PodSecurity.RESTRICTED, podSecurityContext: {}, containerSecurityContext: undefined, ...contexts })))],
];

const invalidConfig = fc.tuple(kindData, fc.oneof(...faults.map(([label, change]) => change.map(c => ({ label, change: c })))));

test(`${RUNS} random invalid WorkspaceKinds end in the construct's own error, never a manifest`, () => {
  fc.assert(fc.property(invalidConfig, ([d, { label, change }]) => {
    // A kind without options: the data's options are dropped.
    const data = (change as any).empty ? { ...d, images: [], pods: [] } : d;
    // Faults that add a port id "p0" or refer to option ids bring their own.
    expectConstructError(label, chart => { buildKind(chart, data, new Ids(), change); });
  }), { numRuns: RUNS });
});
