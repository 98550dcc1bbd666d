import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, ActivityProbe, FilterScope, ImageConfigOptions, PlatformDefaults, PodSecurity, RedirectLevel, SpawnerImage,
  WorkspaceKind, WorkspaceKindProps,
} from '../../src';
import { expectDeterministic, expectValidManifests, synthErrors } from '../harness';
import { DNS_1123_LABEL, HOME_MOUNT_TAKEN, PORT_NUMBER } from '../harness/messages';
import { podSecurityViolations } from '../harness/pod-security';

const ICON = SpawnerImage.fromUrl('https://jupyter.org/favicon.png');
const SCIPY: ImageConfigOptions = { image: 'quay.io/jupyter/scipy-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] };
const BASE: WorkspaceKindProps = {
  metadata: { name: 'jupyterlab' },
  displayName: 'JupyterLab',
  description: 'JupyterLab in a pod',
  icon: ICON,
  ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }],
};

/** A minimal valid kind: one port, one image, one pod config; `after` changes it. */
function minimalKind(chart: Chart, props: Partial<WorkspaceKindProps> = {}, after?: (kind: WorkspaceKind) => void): WorkspaceKind {
  const kind = new WorkspaceKind(chart, 'kind', { ...BASE, ...props });
  kind.addImageConfig('scipy', SCIPY);
  kind.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  after?.(kind);
  return kind;
}

/** Synthesizes twice (asserting identical bytes), validates strictly, returns the WorkspaceKind. */
function synthKind(build: (chart: Chart) => void, chartProps: { namespace?: string } = {}): any {
  const docs = expectDeterministic(app => build(new Chart(app, 'test', chartProps)));
  expectValidManifests(docs);
  return docs.find(d => d.kind === 'WorkspaceKind');
}


function report(...lines: string[]): string {
  return ['Validation failed with the following errors:', ...lines.map(l => `  [test/kind] ${l}`)].join('\n');
}

/** The pod the controller would build from the kind, enough for the Pod Security Standard checks. */
function podOf(kind: any): any {
  const t = kind.spec.podTemplate;
  return {
    securityContext: t.securityContext,
    volumes: t.extraVolumes,
    containers: [{ name: 'main', image: 'x', securityContext: t.containerSecurityContext }],
  };
}

describe('a JupyterLab kind with two images and a CPU and a GPU size', () => {
  const build = (chart: Chart) => {
    const kind = new WorkspaceKind(chart, 'kind', {
      ...BASE,
      logo: SpawnerImage.fromConfigMap('notebook-logos', 'jupyter.svg', 'kubeflow'),
      env: { NB_PREFIX: kplus.EnvValue.fromValue(WorkspaceKind.httpPathPrefix('jupyterlab')) },
      sharedMemory: Size.gibibytes(2),
      activityProbe: ActivityProbe.jupyter('jupyterlab'),
      activityRules: [
        { inactiveFor: Duration.hours(1), podConfigSelector: { matchLabels: { gpu: '1' } } },
        { inactiveFor: Duration.days(1) },
      ],
      clusterRoles: ['kubeflow-view'],
    });
    kind.addImageConfig('scipy-2024', { ...SCIPY, image: 'quay.io/jupyter/scipy-notebook:2024-07-01', hidden: true, redirect: { to: 'scipy' } });
    kind.addImageConfig('scipy', { ...SCIPY, displayName: 'SciPy', labels: { python: '3.12' } });
    kind.addPodConfig('cpu', {
      displayName: 'CPU',
      labels: { cpu: '1' },
      requests: { cpu: kplus.Cpu.units(1), memory: Size.gibibytes(4) },
      limits: { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(4) },
    });
    kind.addPodConfig('gpu', {
      displayName: 'GPU',
      labels: { gpu: '1' },
      requests: { cpu: kplus.Cpu.units(4), memory: Size.gibibytes(32), accelerator: Accelerator.nvidia(1) },
      nodeSelector: { 'nvidia.com/gpu.present': 'true' },
    });
  };

  test('snapshot', () => {
    expect(synthKind(build)).toMatchSnapshot();
  });

  test('quantities survive the typed L1 (nothing is dropped to `{}`)', () => {
    const values = synthKind(build).spec.podTemplate.options.podConfig.values;
    expect(values[0].spec.resources).toEqual({ requests: { cpu: '1', memory: '4Gi' }, limits: { cpu: '2', memory: '4Gi' } });
    expect(values[1].spec.resources).toEqual({
      requests: { 'cpu': '4', 'memory': '32Gi', 'nvidia.com/gpu': 1 },
      limits: { 'nvidia.com/gpu': 1 },
    });
    expect(values[1].spec.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  });
});

describe('rendering', () => {
  test('spawner: hidden and deprecated are written; the logo defaults to the icon; a deprecation message implies deprecated', () => {
    expect(synthKind(c => minimalKind(c)).spec.spawner).toEqual({
      displayName: 'JupyterLab',
      description: 'JupyterLab in a pod',
      hidden: false,
      deprecated: false,
      icon: { url: 'https://jupyter.org/favicon.png' },
      logo: { url: 'https://jupyter.org/favicon.png' },
    });
    const deprecated = synthKind(c => minimalKind(c, { deprecationMessage: 'Use jupyterlab-v2 instead.', hidden: true })).spec.spawner;
    expect([deprecated.deprecated, deprecated.deprecationMessage, deprecated.hidden]).toEqual([true, 'Use jupyterlab-v2 instead.', true]);
  });

  test('an icon from a ConfigMap is an SVG', () => {
    const icon = synthKind(c => minimalKind(c, { icon: SpawnerImage.fromConfigMap('logos', 'icon.svg', 'kubeflow') })).spec.spawner.icon;
    expect(icon).toEqual({ configMap: { name: 'logos', key: 'icon.svg', namespace: 'kubeflow', mediaType: 'image/svg+xml' } });
  });

  test('the kind is cluster-scoped: the chart namespace is not written', () => {
    const kind = synthKind(c => minimalKind(c), { namespace: 'kubeflow' });
    expect(kind.metadata).toEqual({ name: 'jupyterlab' });
  });

  test('options: display name defaults to the id, pull policy to IfNotPresent, the default to the first option shown', () => {
    const options = synthKind(c => minimalKind(c, {}, k => k.addImageConfig('other', SCIPY))).spec.podTemplate.options;
    expect(options.imageConfig.spawner).toEqual({ default: 'scipy' });
    expect(options.imageConfig.values[0]).toEqual({
      id: 'scipy',
      spawner: { displayName: 'scipy' },
      spec: { image: SCIPY.image, imagePullPolicy: 'IfNotPresent', ports: [{ id: 'jupyterlab', port: 8888 }] },
    });
    expect(options.podConfig).toEqual({
      spawner: { default: 'small' },
      values: [{ id: 'small', spawner: { displayName: 'small' }, spec: { resources: { requests: { cpu: '500m', memory: '1Gi' } } } }],
    });
  });

  test('the default option is the first one the spawner shows (neither hidden nor redirected)', () => {
    const options = synthKind(c => {
      const kind = new WorkspaceKind(c, 'kind', BASE);
      kind.addImageConfig('old', { ...SCIPY, redirect: { to: 'new' } });
      kind.addImageConfig('beta', { ...SCIPY, hidden: true });
      kind.addImageConfig('new', SCIPY);
      kind.addPodConfig('only', { hidden: true });
    }).spec.podTemplate.options;
    expect([options.imageConfig.spawner.default, options.podConfig.spawner.default]).toEqual(['new', 'only']);
  });

  test('redirects carry their message and level; spawner labels keep their order', () => {
    const values = synthKind(c => minimalKind(c, {}, k => k.addImageConfig('old', {
      ...SCIPY, labels: { zz: '1', aa: '2' }, redirect: { to: 'scipy', message: 'JupyterLab 4 is here.', level: RedirectLevel.WARNING },
    }))).spec.podTemplate.options.imageConfig.values;
    expect(values[1].redirect).toEqual({ to: 'scipy', message: { level: 'Warning', text: 'JupyterLab 4 is here.' } });
    expect(values[1].spawner.labels).toEqual([{ key: 'zz', value: '1' }, { key: 'aa', value: '2' }]);
  });

  test('an accelerator in limits alone is also requested; an explicit toleration of its taint is not repeated', () => {
    const spec = synthKind(c => minimalKind(c, {}, k => k.addPodConfig('gpu', {
      limits: { accelerator: Accelerator.amd(2) },
      tolerations: [{ operator: 'Exists', effect: 'NoSchedule', key: 'amd.com/gpu' }, { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' }],
    }))).spec.podTemplate.options.podConfig.values[1].spec;
    expect(spec.resources).toEqual({ requests: { 'amd.com/gpu': 2 }, limits: { 'amd.com/gpu': 2 } });
    expect(spec.tolerations).toEqual([
      { key: 'amd.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' },
    ]);
  });

  test('ports: proxy settings and request headers', () => {
    const ports = synthKind(c => minimalKind(c, {
      ports: [{
        id: 'jupyterlab',
        displayName: 'JupyterLab',
        removePathPrefix: true,
        setRequestHeaders: { 'X-RStudio-Root-Path': '{{ .PathPrefix }}' },
        addRequestHeaders: { 'X-Extra': 'a' },
        removeRequestHeaders: ['X-Drop'],
      }],
    })).spec.podTemplate.ports;
    expect(ports).toEqual([{
      id: 'jupyterlab',
      defaultDisplayName: 'JupyterLab',
      protocol: 'HTTP',
      httpProxy: { removePathPrefix: true, requestHeaders: { set: { 'X-RStudio-Root-Path': '{{ .PathPrefix }}' }, add: { 'X-Extra': 'a' }, remove: ['X-Drop'] } },
    }]);
  });

  test('activity: a script probe, rules with selectors and an exemption, and filter rules', () => {
    const spec = synthKind(c => minimalKind(c, {
      activityProbe: ActivityProbe.script('#!/usr/bin/env bash\necho \'{"has_activity": true}\' > "$OUTPUT_JSON_PATH"\n', {
        timeout: Duration.seconds(30), interval: Duration.minutes(30), minInterval: Duration.minutes(1),
      }),
      activityRules: [
        { inactiveFor: Duration.minutes(1), pauseWorkspace: false, namespaceSelector: { matchLabels: { tier: 'production' } } },
        { inactiveFor: Duration.hours(4), minRunning: Duration.minutes(10) },
      ],
      filterRules: [{
        scope: FilterScope.POD_CONFIG,
        podConfigSelector: { matchLabels: { gpu: '1' } },
        namespaceSelector: { matchLabels: { gpu: 'denied' } },
        deny: true,
        denyMessage: 'GPUs are not available to this team.',
      }],
    })).spec;
    expect(spec.podTemplate.activityProbe).toEqual({
      podExec: { script: '#!/usr/bin/env bash\necho \'{"has_activity": true}\' > "$OUTPUT_JSON_PATH"\n', timeoutSeconds: 30 },
      minProbeIntervalSeconds: 60,
      probeIntervalSeconds: 1800,
    });
    expect(spec.activityRules).toEqual([
      { config: { secondsSinceActive: 60 }, match: { matchNamespace: { selector: { matchLabels: { tier: 'production' } } } }, effect: { pauseWorkspace: false } },
      { config: { secondsSinceActive: 14400, minRunningSeconds: 600 }, effect: { pauseWorkspace: true } },
    ]);
    expect(spec.filterRules).toEqual([{
      scope: 'POD_CONFIG',
      match: [{ matchNamespace: { selector: { matchLabels: { gpu: 'denied' } } } }, { matchPodConfig: { selector: { matchLabels: { gpu: '1' } } } }],
      effect: { api: { deny: true, denyMessage: { text: 'GPUs are not available to this team.' } } },
    }]);
  });

  test('add* calls after construction land: ports, options, env, mounts, roles, pod metadata, probes', () => {
    const template = synthKind(c => {
      const kind = new WorkspaceKind(c, 'kind', { ...BASE, ports: undefined, readinessProbe: { tcpSocket: { port: { value: 8888 } as any } } });
      kind.addPort({ id: 'jupyterlab', displayName: 'JupyterLab' });
      kind.addImageConfig('scipy', SCIPY);
      kind.addPodConfig('small');
      kind.addEnv('TZ', kplus.EnvValue.fromValue('UTC'));
      kind.addEnv('USER_CPU', kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.CPU_LIMIT));
      kind.mount('/etc/pip', kplus.Volume.fromConfigMap(c, 'pip', kplus.ConfigMap.fromConfigMapName(c, 'pip-conf', 'pip-conf')), { readOnly: true });
      kind.addClusterRole('kubeflow-edit');
      kind.addClusterRole('kubeflow-edit');
      kind.addPodLabel('team', 'vision');
      kind.addPodAnnotation('example.com/owner', 'platform');
    }).spec.podTemplate;
    expect(template.ports.map((p: any) => p.id)).toEqual(['jupyterlab']);
    expect(template.options.podConfig.values).toEqual([{ id: 'small', spawner: { displayName: 'small' }, spec: {} }]);
    expect(template.extraEnv).toEqual([
      { name: 'TZ', value: 'UTC' },
      { name: 'USER_CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
    ]);
    expect(template.extraVolumeMounts).toEqual([{ name: 'configmap-pip-conf', mountPath: '/etc/pip', readOnly: true }]);
    expect(template.extraVolumes).toEqual([{ name: 'configmap-pip-conf', configMap: { name: 'pip-conf' } }]);
    expect(template.serviceAccount).toEqual({ clusterRoles: [{ name: 'kubeflow-edit' }] });
    expect(template.podMetadata).toEqual({ labels: { team: 'vision' }, annotations: { 'example.com/owner': 'platform' } });
    expect(template.probes).toEqual({ readinessProbe: { tcpSocket: { port: 8888 } } });
  });

  test('shared memory is a one-liner: a Memory emptyDir at /dev/shm', () => {
    const template = synthKind(c => minimalKind(c, { sharedMemory: Size.gibibytes(1) })).spec.podTemplate;
    expect(template.extraVolumes).toEqual([{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '1024Mi' } }]);
    expect(template.extraVolumeMounts).toEqual([{ name: 'dshm', mountPath: '/dev/shm' }]);
  });
});

describe('security contexts', () => {
  test('DEFAULT: fsGroup 100 and RuntimeDefault seccomp on the pod; no escalation, not privileged in the container', () => {
    const kind = synthKind(c => minimalKind(c));
    expect(kind.spec.podTemplate.securityContext).toEqual({ fsGroup: 100, seccompProfile: { type: 'RuntimeDefault' } });
    expect(kind.spec.podTemplate.containerSecurityContext).toEqual({ allowPrivilegeEscalation: false, privileged: false });
    expect(podSecurityViolations(podOf(kind), 'baseline')).toEqual([]);
  });

  test('RESTRICTED meets the "restricted" Pod Security Standard', () => {
    const kind = synthKind(c => minimalKind(c, { security: PodSecurity.RESTRICTED, sharedMemory: Size.gibibytes(1) }));
    expect(kind.spec.podTemplate.securityContext).toEqual({ fsGroup: 100, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(kind.spec.podTemplate.containerSecurityContext).toEqual({
      allowPrivilegeEscalation: false, privileged: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(podSecurityViolations(podOf(kind), 'restricted')).toEqual([]);
  });

  test('explicit contexts replace the preset', () => {
    const kind = synthKind(c => minimalKind(c, {
      podSecurityContext: { runAsUser: 1000, fsGroup: 1000 },
      containerSecurityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
    }));
    expect(kind.spec.podTemplate.securityContext).toEqual({ runAsUser: 1000, fsGroup: 1000 });
    expect(kind.spec.podTemplate.containerSecurityContext).toEqual({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
  });

  test('under RESTRICTED, explicit contexts that break the standard fail at synth time', () => {
    expect(synthErrors(c => minimalKind(c, {
      security: PodSecurity.RESTRICTED,
      podSecurityContext: { runAsUser: 0 },
      containerSecurityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } },
    }))).toBe(report(
      'podSecurityContext.runAsUser is 0; expected a non-zero uid under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)',
      'containerSecurityContext.privileged is true; expected false or not set under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)',
      'containerSecurityContext.allowPrivilegeEscalation is not set; expected false under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)',
      'containerSecurityContext.runAsNonRoot is not set; expected true on the container or the pod under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)',
      'containerSecurityContext.seccompProfile.type is not set; expected "RuntimeDefault" or "Localhost" on the container or the pod under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)',
      'containerSecurityContext.capabilities.drop is not set; expected a list with "ALL" under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)',
      'containerSecurityContext.capabilities.add[0] is "SYS_ADMIN"; expected only NET_BIND_SERVICE to be added under PodSecurity.RESTRICTED (the "restricted" Pod Security Standard)',
    ));
  });
});

describe('platform defaults', () => {
  test('labels, pod annotations, node selector, tolerations and security apply; explicit props win', () => {
    const kind = synthKind(c => {
      PlatformDefaults.set(c, {
        labels: { 'team': 'platform', 'app.kubernetes.io/part-of': 'notebooks' },
        podAnnotations: { 'sidecar.istio.io/inject': 'true' },
        nodeSelector: { pool: 'notebooks', zone: 'a' },
        tolerations: [{ key: 'notebooks', operator: 'Exists', effect: 'NoSchedule' }],
        security: PodSecurity.RESTRICTED,
        // No WorkspaceKind field takes these: they do not apply.
        priorityClassName: 'high',
        imagePullSecrets: ['registry'],
        queue: 'q',
      });
      minimalKind(c, { metadata: { name: 'jupyterlab', labels: { team: 'ml' } }, podLabels: { team: 'ml' } }, k => k.addPodConfig('gpu', {
        requests: { accelerator: Accelerator.nvidia(1) }, nodeSelector: { pool: 'gpu' },
      }));
    });
    expect(kind.metadata.labels).toEqual({ 'app.kubernetes.io/part-of': 'notebooks', 'team': 'ml' });
    expect(kind.spec.podTemplate.podMetadata).toEqual({
      labels: { 'app.kubernetes.io/part-of': 'notebooks', 'team': 'ml' },
      annotations: { 'sidecar.istio.io/inject': 'true' },
    });
    const [small, gpu] = kind.spec.podTemplate.options.podConfig.values.map((v: any) => v.spec);
    expect(small.nodeSelector).toEqual({ pool: 'notebooks', zone: 'a' });
    expect(gpu.nodeSelector).toEqual({ pool: 'gpu', zone: 'a' });
    expect(gpu.tolerations).toEqual([
      { key: 'notebooks', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(kind.spec.podTemplate.containerSecurityContext.runAsNonRoot).toBe(true);
    expect(JSON.stringify(kind)).not.toMatch(/priorityClass|imagePullSecrets|registry/);
  });

  test('the kind\'s own security prop beats the platform preset', () => {
    const kind = synthKind(c => {
      PlatformDefaults.set(c, { security: PodSecurity.RESTRICTED });
      minimalKind(c, { security: PodSecurity.DEFAULT });
    });
    expect(kind.spec.podTemplate.containerSecurityContext).toEqual({ allowPrivilegeEscalation: false, privileged: false });
  });
});

describe('impossible values fail at once', () => {
  const make = (props: Partial<WorkspaceKindProps>) => () => new WorkspaceKind(new Chart(Testing.app(), 'test'), 'kind', { ...BASE, ...props });
  const withKind = (change: (kind: WorkspaceKind, chart: Chart) => void) => () => {
    const chart = new Chart(Testing.app(), 'test');
    change(new WorkspaceKind(chart, 'kind', BASE), chart);
  };

  test('spawner and metadata', () => {
    expect(make({ metadata: { name: 'x', namespace: 'kubeflow' } })).toThrow('test/kind: metadata.namespace is "kubeflow"; expected none: a WorkspaceKind is cluster-scoped');
    expect(make({ displayName: 'J' })).toThrow('test/kind: displayName is "J"; expected 2 to 128 characters');
    expect(make({ description: '' })).toThrow('test/kind: description is ""; expected 2 to 4096 characters');
    expect(make({ deprecated: false, deprecationMessage: 'Use v2.' })).toThrow('test/kind: deprecated is false; expected true (or not set) with a deprecationMessage');
    expect(make({ icon: SpawnerImage.fromUrl('') })).toThrow('test/kind: icon.url is ""; expected the URL of an image');
    expect(make({ logo: SpawnerImage.fromConfigMap('My_Logos', 'logo.svg', 'kubeflow') })).toThrow(
      'test/kind: logo.configMap.name is "My_Logos"; expected a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit');
    expect(make({ logo: SpawnerImage.fromConfigMap('logos', 'logo.svg', 'kube.flow') })).toThrow(
      `test/kind: logo.configMap.namespace is "kube.flow"; ${DNS_1123_LABEL}`);
    expect(make({ icon: SpawnerImage.fromConfigMap('logos', 'logos/icon.svg', 'kubeflow') })).toThrow(
      'test/kind: icon.configMap.key is "logos/icon.svg"; expected a ConfigMap key: letters, digits, "-", "_" and ".", at most 253 characters');
    expect(make({ homeMountPath: 'home/jovyan' })).toThrow('test/kind: homeMountPath is "home/jovyan"; expected an absolute path such as "/data" (2 to 4096 characters, without ":"), as the Notebooks CRD requires');
  });

  test('ports', () => {
    expect(make({ ports: [{ id: 'Jupyter Lab', displayName: 'JupyterLab' }] })).toThrow(
      'test/kind: ports.id is "Jupyter Lab"; expected a port id: at most 32 lower-case letters, digits, "-" and "_", starting and ending with a letter or digit');
    expect(synthErrors(c => minimalKind(c).addPort({ id: 'jupyterlab', displayName: 'Again' }))).toBe(report('ports.id is "jupyterlab"; expected every port id once'));
    expect(withKind(k => k.addPort({ id: 'vscode', displayName: 'V' }))).toThrow('test/kind: ports[vscode].displayName is "V"; expected 2 to 64 characters');
  });

  test('image options', () => {
    expect(synthErrors(c => { const k = minimalKind(c); k.addImageConfig('scipy', SCIPY); k.addPodConfig('small'); })).toBe(report(
      'imageConfig[scipy].id is "scipy"; expected every option id once', 'podConfig[small].id is "small"; expected every option id once'));
    expect(withKind(k => k.addImageConfig('', SCIPY))).toThrow('test/kind: imageConfig[].id is ""; expected an option id of 1 to 256 characters');
    expect(withKind(k => k.addImageConfig('x', SCIPY))).toThrow('test/kind: imageConfig[x].displayName is "x"; expected 2 to 128 characters');
    expect(withKind(k => k.addImageConfig('scipy', { ...SCIPY, image: '' }))).toThrow('test/kind: imageConfig[scipy].image is ""; expected a container image');
    expect(withKind(k => k.addImageConfig('scipy', { ...SCIPY, ports: [] }))).toThrow('test/kind: imageConfig[scipy].ports is []; expected at least one port the image listens on');
    expect(withKind(k => k.addImageConfig('scipy', { ...SCIPY, ports: [{ id: 'jupyterlab', port: 8888 }, { id: 'jupyterlab', port: 8889 }] }))).toThrow(
      'test/kind: imageConfig[scipy].ports.id is "jupyterlab"; expected every port id of an image once');
    expect(withKind(k => k.addImageConfig('scipy', { ...SCIPY, ports: [{ id: 'jupyterlab', port: 8888 }, { id: 'other', port: 8888 }] }))).toThrow(
      'test/kind: imageConfig[scipy].ports[other].port is 8888; expected every port number of an image once');
    expect(withKind(k => k.addImageConfig('scipy', { ...SCIPY, ports: [{ id: 'jupyterlab', port: 70000 }] }))).toThrow(
      `test/kind: imageConfig[scipy].ports[jupyterlab].port is 70000; ${PORT_NUMBER}`);
    expect(withKind(k => k.addImageConfig('scipy', { ...SCIPY, labels: { k: 'v' } }))).toThrow('test/kind: imageConfig[scipy].labels is "k"; expected label keys of 2 to 64 characters');
    expect(withKind(k => k.addImageConfig('scipy', { ...SCIPY, redirect: { to: 'new', message: '!' } }))).toThrow(
      'test/kind: imageConfig[scipy].redirect.message is "!"; expected 2 to 1024 characters');
  });

  test('pod-config options', () => {
    expect(withKind(k => k.addPodConfig('gpu', { requests: { accelerator: Accelerator.nvidia(0) } }))).toThrow(
      'test/kind: podConfig[gpu].requests.accelerator is "nvidia.com/gpu x 0"; expected a whole number of devices greater than 0 (got 0)');
    expect(withKind(k => k.addPodConfig('gpu', { requests: { accelerator: Accelerator.nvidia(1) }, limits: { accelerator: Accelerator.nvidia(2) } }))).toThrow(
      'test/kind: podConfig[gpu].limits.accelerator is "nvidia.com/gpu x 2"; expected the accelerator of requests (nvidia.com/gpu x 1) or none; extended resources are limited at their request');
    expect(withKind(k => k.addPodConfig('cpu', { requests: { cpu: kplus.Cpu.units(2) }, limits: { cpu: kplus.Cpu.millis(1500) } }))).toThrow(
      'test/kind: podConfig[cpu].limits.cpu is "1500m"; expected at least the request (2)');
    expect(withKind(k => k.addPodConfig('cpu', { requests: { memory: Size.gibibytes(4) }, limits: { memory: Size.mebibytes(3000) } }))).toThrow(
      'test/kind: podConfig[cpu].limits.memory is "3000Mi"; expected at least the request (4Gi)');
  });

  test('activity probe and rules, filter rules', () => {
    expect(make({ activityProbe: ActivityProbe.jupyter('jupyterlab', { interval: Duration.minutes(1), minInterval: Duration.minutes(5) }) })).toThrow(
      'test/kind: activityProbe.minInterval is "300s"; expected at most activityProbe.interval (60s)');
    expect(make({ activityProbe: ActivityProbe.script('echo hi') })).toThrow(
      'test/kind: activityProbe.script is "echo hi"; expected a script that starts with a shebang such as "#!/usr/bin/env bash"');
    expect(make({ activityRules: [{ inactiveFor: Duration.seconds(15) }] })).toThrow(
      'test/kind: activityRules[0].inactiveFor is "15s"; expected at least 16 seconds, so workspaces are not paused while they start');
    expect(make({ filterRules: [{ scope: FilterScope.WORKSPACE_KIND, hideInUi: true }] })).toThrow(
      'test/kind: filterRules[0].namespaceSelector is not set; expected at least one of namespaceSelector, imageConfigSelector and podConfigSelector');
    expect(make({ filterRules: [{ scope: FilterScope.IMAGE_CONFIG, imageConfigSelector: { matchLabels: { a: 'b' } } }] })).toThrow(
      'test/kind: filterRules[0].hideInUi is not set; expected at least one effect: hideInUi, hideInApi or deny');
    expect(make({ filterRules: [{ scope: FilterScope.IMAGE_CONFIG, imageConfigSelector: {}, hideInApi: true, denyMessage: 'No.' }] })).toThrow(
      'test/kind: filterRules[0].deny is not set; expected true with a denyMessage');
  });

  test('env, mounts, cluster roles', () => {
    expect(synthErrors(c => { const k = minimalKind(c); k.addEnv('A', kplus.EnvValue.fromValue('1')); k.addEnv('A', kplus.EnvValue.fromValue('2')); }))
      .toBe(report('env[A] is "2"; expected one value per variable; it is already "1"'));
    expect(withKind(k => { k.addEnv('A', kplus.EnvValue.fromValue('1')); k.addEnv('A', kplus.EnvValue.fromValue('1')); })).not.toThrow();
    // An extra mount is a plain container mount: the kubelet mounts "data" at "/data", so it is kept as given.
    expect(withKind((k, c) => k.mount('data', kplus.Volume.fromEmptyDir(c, 'v', 'v')))).not.toThrow();
    expect(withKind((k, c) => k.mount('', kplus.Volume.fromEmptyDir(c, 'v', 'v')))).toThrow(
      'test/kind: volumeMounts.mountPath is ""; expected a mount path such as "/data" (Kubernetes requires one)');
    expect(withKind((k, c) => k.mount('./', kplus.Volume.fromEmptyDir(c, 'v', 'v')))).toThrow(
      'test/kind: volumeMounts.mountPath is "./"; expected a path below "/": a volume mounted at the root would hide the container\'s own files');
    expect(withKind(k => k.addClusterRole('roles/view'))).toThrow('test/kind: clusterRoles is "roles/view"; expected a ClusterRole name: 1 to 253 characters without "/" or "%"');
  });
});

describe('cross-field checks at synth time, as the notebooks webhook does them', () => {
  test('a kind needs a port, an image option and a pod-config option', () => {
    expect(synthErrors(c => new WorkspaceKind(c, 'kind', { ...BASE, ports: [] }))).toBe(report(
      'ports is []; expected at least one port definition (addPort); image options refer to them',
      'imageConfig is []; expected at least one image option (addImageConfig)',
      'podConfig is []; expected at least one pod-config option (addPodConfig)',
    ));
  });

  test('image ports must be declared by the kind', () => {
    expect(synthErrors(c => minimalKind(c, {}, k => k.addImageConfig('code', { image: 'codercom/code-server', ports: [{ id: 'vscode', port: 8080 }] }))))
      .toBe(report('spec.podTemplate.options.imageConfig.values[code].spec.ports[0].id is "vscode"; expected the id of a port in spec.podTemplate.ports: "jupyterlab"'));
  });

  test('default ids must exist and must not be redirected', () => {
    expect(synthErrors(c => minimalKind(c, { defaultImageConfig: 'scipy-2025', defaultPodConfig: 'large' }))).toBe(report(
      'spec.podTemplate.options.imageConfig.spawner.default (defaultImageConfig) is "scipy-2025"; expected the id of an option: "scipy"',
      'spec.podTemplate.options.podConfig.spawner.default (defaultPodConfig) is "large"; expected the id of an option: "small"',
    ));
    expect(synthErrors(c => minimalKind(c, { defaultPodConfig: 'old' }, k => k.addPodConfig('old', { redirect: { to: 'small' } }))))
      .toBe(report('spec.podTemplate.options.podConfig.spawner.default (defaultPodConfig) is "old"; expected an option that is not redirected (it redirects to "small"); the spawner does not show redirected options'));
  });

  test('redirect targets must exist and redirects must not loop', () => {
    expect(synthErrors(c => minimalKind(c, {}, k => k.addImageConfig('old', { ...SCIPY, redirect: { to: 'scipy-2025' } }))))
      .toBe(report('spec.podTemplate.options.imageConfig.values[old].redirect.to is "scipy-2025"; expected the id of another option: "scipy"'));
    expect(synthErrors(c => minimalKind(c, {}, k => {
      k.addImageConfig('a', { ...SCIPY, displayName: 'Aa', redirect: { to: 'b' } });
      k.addImageConfig('b', { ...SCIPY, displayName: 'Bb', redirect: { to: 'c' } });
      k.addImageConfig('c', { ...SCIPY, displayName: 'Cc', redirect: { to: 'a' } });
      k.addImageConfig('d', { ...SCIPY, displayName: 'Dd', redirect: { to: 'b' } });
      k.addPodConfig('self', { redirect: { to: 'self' } });
    }))).toBe(report(
      'spec.podTemplate.options.imageConfig.values[a].redirect.to is "b"; expected redirects that end at an option without one, but a -> b -> c -> a is a cycle',
      'spec.podTemplate.options.podConfig.values[self].redirect.to is "self"; expected the id of another option: "small"',
    ));
  });

  test('activity: the probe\'s port is declared; pausing needs a probe; the catch-all rule comes last', () => {
    expect(synthErrors(c => minimalKind(c, {
      activityRules: [{ inactiveFor: Duration.hours(1) }, { inactiveFor: Duration.hours(2), namespaceSelector: { matchLabels: { a: 'b' } } }],
    }))).toBe(report(
      'spec.activityRules[0].effect.pauseWorkspace (activityRules) is true; expected an activityProbe on the kind; without one the controller cannot tell inactivity and rejects pausing rules',
      'spec.activityRules[0].match (activityRules) is "a catch-all rule (no selector)"; expected it to be the last rule; rules are matched in order and the 1 after it could never apply',
      'spec.activityRules[1].effect.pauseWorkspace (activityRules) is true; expected an activityProbe on the kind; without one the controller cannot tell inactivity and rejects pausing rules',
    ));
    expect(synthErrors(c => minimalKind(c, { activityProbe: ActivityProbe.jupyter('lab') })))
      .toBe(report('spec.podTemplate.activityProbe.jupyter.portId (activityProbe) is "lab"; expected a port the kind declares: "jupyterlab"'));
  });

  test('env templates name declared ports', () => {
    expect(synthErrors(c => minimalKind(c, { env: { NB_PREFIX: kplus.EnvValue.fromValue(WorkspaceKind.httpPathPrefix('lab')) } })))
      .toBe(report('env[NB_PREFIX] is "{{ httpPathPrefix \\"lab\\" }}"; expected httpPathPrefix of a port the kind declares: "jupyterlab"'));
  });

  test('mount paths do not collide with home or each other; one volume name stands for one volume', () => {
    expect(synthErrors(c => minimalKind(c, { sharedMemory: Size.gibibytes(1) }, k => {
      k.mount('/home/jovyan/', kplus.Volume.fromEmptyDir(k, 'scratch', 'scratch'));
      k.mount('/dev/shm', kplus.Volume.fromEmptyDir(k, 'shm2', 'shm2'));
      k.mount('/cache', kplus.Volume.fromEmptyDir(k, 'dshm', 'dshm'));
    }))).toBe(report(
      // Both are the rendered document's: the Kubernetes rule (kubernetes/mount-path-unique), then the notebooks one (notebooks/home-mount).
      'spec.podTemplate.extraVolumeMounts[2].mountPath is "/dev/shm"; expected a mount path no other mount of the container uses ("/data", "/data/" and "data" are the same path)',
      `spec.podTemplate.extraVolumeMounts[1].mountPath is "/home/jovyan/"; ${HOME_MOUNT_TAKEN}`,
      'volumes is "dshm"; expected each volume name to stand for one volume; it stands for emptyDir {"medium":"Memory","sizeLimit":"1024Mi"} and emptyDir {}: give one of them another name',
    ));
  });

  test('the name is a DNS-1123 subdomain', () => {
    expect(synthErrors(c => minimalKind(c, { metadata: { name: 'JupyterLab' } }))).toBe(report(
      'metadata.name is "JupyterLab"; expected a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit'));
  });
});

test('getters report what the kind holds', () => {
  const kind = minimalKind(new Chart(new App(), 'test'), { sharedMemory: Size.gibibytes(1) });
  expect([kind.name, kind.homeMountPath, kind.imageConfigIds, kind.podConfigIds, kind.portIds])
    .toEqual(['jupyterlab', '/home/jovyan', ['scipy'], ['small'], ['jupyterlab']]);
  expect([kind.defaultImageConfig, kind.defaultPodConfig, kind.mountPaths])
    .toEqual(['scipy', 'small', ['/home/jovyan', '/dev/shm']]);
  expect(WorkspaceKind.fromName('codeserver').name).toBe('codeserver');
});

describe('what the controllers set on the workspace pod over the kind', () => {
  test('a pod label the workspace controller or the StatefulSet controller sets', () => {
    const reserved = 'expected a label key the controllers do not set on the workspace\'s pod: the workspace controller sets "notebooks.kubeflow.org/workspace-name" and "statefulset" '
      + 'to the Workspace\'s name, the StatefulSet controller sets "statefulset.kubernetes.io/pod-name", "apps.kubernetes.io/pod-index" and "controller-revision-hash", each over the value written';
    expect(synthErrors(c => minimalKind(c, { podLabels: { 'statefulset': 'mine', 'controller-revision-hash': 'x', 'team': 'ml' } }))).toBe(report(
      `spec.podTemplate.podMetadata.labels["controller-revision-hash"] (podLabels) is "controller-revision-hash"; ${reserved}`,
      `spec.podTemplate.podMetadata.labels.statefulset (podLabels) is "statefulset"; ${reserved}`,
    ));
  });

  test('an extra volume named as the controller names a Workspace\'s volumes', () => {
    expect(synthErrors(c => minimalKind(c, {}, k => k.mount('/cache', kplus.Volume.fromEmptyDir(c, 'cache', 'home-volume'))))).toBe(report(
      'spec.podTemplate.extraVolumes[0].name is "home-volume"; expected a name the controller does not give a Workspace\'s own volumes (home-volume, data-volume-<n>, secret-volume-<n>): '
      + 'a Workspace with that volume gets it in place of this one, and the kind\'s mounts of the name mount the Workspace\'s volume',
    ));
  });
});
