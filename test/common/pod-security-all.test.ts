/**
 * Pod security for every L2 construct. Under PodSecurity.RESTRICTED every pod the manifest controls
 * must meet every rule of the Kubernetes Pod Security Standards (one test per construct and rule);
 * with the defaults, no construct may ask for privileged containers, host namespaces or hostPath
 * volumes unless the user asks for them by name (the hostIpc and hostNetwork options, a kplus
 * hostPath volume), and then exactly where asked.
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, DistributedJax, DistributedPaddle, DistributedPyTorch, DistributedXGBoost, MpiAllReduce, PaddleMode, ParameterServerTF, PodSecurity,
  TrainingJob, Workspace, WorkspaceClaim, WorkspaceKind,
} from '../../src';
import { REPORT } from '../harness/messages';
import { JUPYTERLAB_KIND, SCIPY_IMAGE } from '../harness/notebook-fixtures';
import { POD_SECURITY_RULES, podSecurityViolations, podSpecsOf } from '../harness/pod-security';

const IMAGE = 'registry.example.com/train:1.0';
const SIDECAR = 'busybox:1.36';

/** What a build may add on request: host namespaces on one role, a hostPath volume. */
interface Asks {
  readonly hostIpc?: boolean;
  readonly hostNetwork?: boolean;
  readonly hostPath?: boolean;
}

/**
 * Every volume type a user commonly mounts (claim, ConfigMap, Secret, emptyDir), a sidecar with a
 * security context of its own and an init container without one, so the preset has to reach them.
 */
function decorate(job: TrainingJob, chart: Chart, asks: Asks): void {
  job.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'data', kplus.PersistentVolumeClaim.fromClaimName(chart, 'claim', 'datasets')), { readOnly: true });
  job.mount('/etc/config', kplus.Volume.fromConfigMap(chart, 'config', kplus.ConfigMap.fromConfigMapName(chart, 'cm', 'settings')));
  job.mount('/etc/secret', kplus.Volume.fromSecret(chart, 'secret', kplus.Secret.fromSecretName(chart, 'sec', 'credentials')));
  job.mount('/scratch', kplus.Volume.fromEmptyDir(chart, 'scratch', 'scratch'));
  if (asks.hostPath) job.mount('/host/logs', kplus.Volume.fromHostPath(chart, 'host', 'host-logs', { path: '/var/log' }));
  const groups = job.replicaGroups;
  groups[groups.length - 1].addContainer({ name: 'logger', image: SIDECAR, securityContext: { user: 1000, group: 1000 } });
  groups[0].addInitContainer({ name: 'prepare', image: SIDECAR, command: ['true'] });
}

/** Pod options that ask for host namespaces on the worker role only. */
const worker = (asks: Asks) => ({ hostIpc: asks.hostIpc, hostNetwork: asks.hostNetwork });

/** A representative configuration of each construct; `security` undefined means the default. */
const BUILDS: { [construct: string]: (chart: Chart, security: PodSecurity | undefined, asks: Asks) => void } = {
  DistributedPyTorch: (c, security, asks) => decorate(new DistributedPyTorch(c, 'job', {
    metadata: { name: 'train' },
    image: IMAGE,
    workers: 2,
    security,
    sharedMemory: Size.gibibytes(2),
    resources: { accelerator: Accelerator.nvidia(1) },
    worker: worker(asks),
  }), c, asks),
  ParameterServerTF: (c, security, asks) => decorate(new ParameterServerTF(c, 'job', {
    metadata: { name: 'train' }, image: IMAGE, chief: {}, parameterServers: 1, workers: 2, evaluator: {}, security, worker: worker(asks),
  }), c, asks),
  MpiAllReduce: (c, security, asks) => decorate(new MpiAllReduce(c, 'job', {
    metadata: { name: 'train' },
    image: IMAGE,
    workers: 2,
    trainingCommand: ['python', 'train.py'],
    security,
    worker: worker(asks),
    resources: { accelerator: Accelerator.nvidia(2) },
  }), c, asks),
  DistributedXGBoost: (c, security, asks) => decorate(new DistributedXGBoost(c, 'job', {
    metadata: { name: 'train' }, image: IMAGE, workers: 2, security, worker: worker(asks),
  }), c, asks),
  DistributedPaddle: (c, security, asks) => decorate(new DistributedPaddle(c, 'job', {
    metadata: { name: 'train' }, image: IMAGE, mode: PaddleMode.PARAMETER_SERVER, parameterServers: 1, workers: 2, security, worker: worker(asks),
  }), c, asks),
  DistributedJax: (c, security, asks) => decorate(new DistributedJax(c, 'job', {
    metadata: { name: 'train' }, image: IMAGE, workers: 2, security, worker: worker(asks),
  }), c, asks),
  WorkspaceKind: (c, security, asks) => { kindIn(c, security, asks); },
  // The kind decides the workspace pod's security; the workspace adds claims and secrets.
  Workspace: (c, security) => {
    const kind = kindIn(c, security, {});
    new Workspace(c, 'ws', {
      metadata: { name: 'alice' },
      kind,
      home: WorkspaceClaim.newClaim({ storage: Size.gibibytes(10) }),
      data: [{ mountPath: '/data', claim: WorkspaceClaim.fromClaimName('datasets'), readOnly: true }],
      secrets: [{ mountPath: '/secrets/git', secret: kplus.Secret.fromSecretName(c, 'git', 'git-credentials') }],
    });
  },
};
const CONSTRUCTS = Object.keys(BUILDS);

function kindIn(c: Chart, security: PodSecurity | undefined, asks: Asks): WorkspaceKind {
  const kind = new WorkspaceKind(c, 'kind', {
    ...JUPYTERLAB_KIND,
    sharedMemory: Size.gibibytes(1),
    security,
  });
  kind.addImageConfig('scipy', SCIPY_IMAGE);
  kind.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  kind.mount('/etc/jupyter', kplus.Volume.fromConfigMap(c, 'config', kplus.ConfigMap.fromConfigMapName(c, 'cm', 'jupyter-config')));
  kind.mount('/etc/secret', kplus.Volume.fromSecret(c, 'secret', kplus.Secret.fromSecretName(c, 'sec', 'credentials')));
  if (asks.hostPath) kind.mount('/host/logs', kplus.Volume.fromHostPath(c, 'host', 'host-logs', { path: '/var/log' }));
  return kind;
}

/**
 * Every pod spec the manifests control. A WorkspaceKind holds no pod spec: its pod is the one the
 * controller builds from the pod template (its security contexts and extra volumes), plus, for a
 * Workspace, the home and data claims and the secrets the workspace names.
 */
function podsOf(docs: any[]): Array<{ at: string; pod: any }> {
  const kind = docs.find(d => d.kind === 'WorkspaceKind');
  const pods = docs.filter(d => d.kind !== 'WorkspaceKind' && d.kind !== 'Workspace').flatMap(d => podSpecsOf(d).map(p => ({ at: `${d.kind} ${p.at}`, pod: p.pod })));
  if (!kind) return pods;
  const t = kind.spec.podTemplate;
  const kindPod = (extra: any[]) => ({
    securityContext: t.securityContext,
    volumes: [...t.extraVolumes ?? [], ...extra],
    containers: [{ name: 'main', image: t.options.imageConfig.values[0].spec.image, securityContext: t.containerSecurityContext }],
  });
  const workspaces = docs.filter(d => d.kind === 'Workspace');
  if (!workspaces.length) return [{ at: 'WorkspaceKind pod', pod: kindPod([]) }];
  return workspaces.map(ws => {
    const v = ws.spec.podTemplate.volumes;
    return {
      at: `Workspace ${ws.metadata.name} pod`,
      pod: kindPod([
        ...(v.home ? [{ name: 'home', persistentVolumeClaim: { claimName: v.home } }] : []),
        ...(v.data ?? []).map((d: any, i: number) => ({ name: `data-${i}`, persistentVolumeClaim: { claimName: d.pvcName, readOnly: d.readOnly } })),
        ...(v.secrets ?? []).map((s: any, i: number) => ({ name: `secret-${i}`, secret: { secretName: s.secretName, defaultMode: s.defaultMode } })),
      ]),
    };
  });
}

function synth(construct: string, security: PodSecurity | undefined, asks: Asks = {}): any[] {
  const chart = new Chart(Testing.app(), 'test');
  BUILDS[construct](chart, security, asks);
  return Testing.synth(chart);
}

/**
 * The v1 MPIJob's launcher cannot meet the standard on a cluster (the operator adds its own
 * kubectl-delivery container without a security context), so MpiAllReduce refuses the preset.
 */
const RESTRICTABLE = CONSTRUCTS.filter(c => c !== 'MpiAllReduce');

test('MpiAllReduce refuses PodSecurity.RESTRICTED and says why', () => {
  const app = Testing.app();
  BUILDS.MpiAllReduce(new Chart(app, 'test'), PodSecurity.RESTRICTED, {});
  expect(() => app.synth()).toThrow(REPORT
    + '  [test/job] security is "PodSecurity.RESTRICTED"; expected PodSecurity.DEFAULT: the training operator adds its kubectl-delivery init container to the MPI launcher '
    + 'without a security context, so a namespace that enforces the "restricted" Pod Security Standard refuses the launcher whatever the job sets; '
    + 'run the job in a baseline namespace (harden its containers with securityContext) or use Trainer v2\'s MPI runtime');
});

describe('PodSecurity.RESTRICTED meets every rule of the restricted standard', () => {
  const pods = new Map(RESTRICTABLE.map(c => [c, podsOf(synth(c, PodSecurity.RESTRICTED))]));

  test.each(RESTRICTABLE)('%s has pods to check, with the user\'s sidecars, init containers and volumes', construct => {
    const all = pods.get(construct)!;
    expect(all.length).toBeGreaterThan(0);
    if (!construct.startsWith('Workspace')) {
      const names = all.flatMap(p => [...p.pod.containers, ...p.pod.initContainers ?? []].map((x: any) => x.name));
      expect(names).toEqual(expect.arrayContaining(['logger', 'prepare']));
    }
  });

  test.each(RESTRICTABLE.flatMap(c => POD_SECURITY_RULES.map(r => [c, `${r.profile}: ${r.name}`, r] as const)))('%s: %s', (construct, _rule, rule) => {
    const problems = pods.get(construct)!.flatMap(({ at, pod }) => rule.check(pod).map(p => `${at}: ${p}`));
    expect(problems).toEqual([]);
  });
});

test.each(CONSTRUCTS)('%s: the checks are not vacuous: the DEFAULT preset, which keeps root images working, breaks restricted rules', construct => {
  const problems = podsOf(synth(construct, PodSecurity.DEFAULT)).flatMap(({ pod }) => podSecurityViolations(pod, 'restricted'));
  expect(problems.some(p => p.startsWith('running as non-root'))).toBe(true);
  expect(problems.some(p => p.startsWith('capabilities dropped'))).toBe(true);
});

describe('the defaults ask for no privilege and nothing of the host', () => {
  test.each(CONSTRUCTS)('%s: no privileged containers, host namespaces or hostPath volumes; every baseline rule holds', construct => {
    const all = podsOf(synth(construct, undefined));
    expect(all.length).toBeGreaterThan(0);
    for (const { at, pod } of all) {
      expect([at, podSecurityViolations(pod, 'baseline')]).toEqual([at, []]);
      expect([at, pod.hostNetwork, pod.hostPID, pod.hostIPC]).toEqual([at, undefined, undefined, undefined]);
      for (const c of [...pod.containers, ...pod.initContainers ?? []]) {
        expect([at, c.name, c.securityContext?.privileged ?? false, c.securityContext?.allowPrivilegeEscalation]).toEqual([at, c.name, false, false]);
      }
    }
  });
});

describe('host access only where the user asks for it by name', () => {
  const jobs = CONSTRUCTS.filter(c => !c.startsWith('Workspace'));

  test.each(jobs)('%s: hostIpc and hostNetwork on the workers, and only there', construct => {
    const all = podsOf(synth(construct, undefined, { hostIpc: true, hostNetwork: true }));
    for (const { at, pod } of all) {
      const asked = /\.Worker\./.test(at);
      expect([at, pod.hostIPC, pod.hostNetwork]).toEqual([at, asked || undefined, asked || undefined]);
      expect([at, podSecurityViolations(pod, 'baseline')]).toEqual([at, asked ? ['host namespaces: hostNetwork is true', 'host namespaces: hostIPC is true'] : []]);
    }
  });

  test.each([...jobs, 'WorkspaceKind'])('%s: a kplus hostPath volume is mounted as given, and is the only baseline problem', construct => {
    const all = podsOf(synth(construct, undefined, { hostPath: true }));
    for (const { at, pod } of all) {
      expect(pod.volumes).toContainEqual({ name: 'host-logs', hostPath: expect.objectContaining({ path: '/var/log' }) });
      expect([at, podSecurityViolations(pod, 'baseline')]).toEqual([at, ['hostPath volumes: volume host-logs is a hostPath']]);
    }
  });
});
