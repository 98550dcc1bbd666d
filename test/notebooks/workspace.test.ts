import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  PlatformDefaults, PodSecurity, Workspace, WorkspaceClaim, WorkspaceKind, WorkspaceKindProps, WorkspaceProps,
} from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';
import { DNS_1123_LABEL, HOME_MOUNT_TAKEN } from '../harness/messages';
import { JUPYTERLAB_KIND } from '../harness/notebook-fixtures';

const KIND_PROPS: WorkspaceKindProps = { ...JUPYTERLAB_KIND, sharedMemory: Size.gibibytes(1) };

/** A kind with two images and two sizes, added to `chart`. */
function jupyterlab(chart: Chart): WorkspaceKind {
  const kind = new WorkspaceKind(chart, 'jupyterlab', KIND_PROPS);
  for (const id of ['scipy', 'pytorch']) kind.addImageConfig(id, { image: `quay.io/jupyter/${id}-notebook:2025-01-06`, ports: [{ id: 'jupyterlab', port: 8888 }] });
  kind.addPodConfig('cpu', { requests: { cpu: kplus.Cpu.units(1), memory: Size.gibibytes(2) } });
  kind.addPodConfig('gpu', { displayName: 'GPU', requests: { cpu: kplus.Cpu.units(4) } });
  return kind;
}

/** Synthesizes twice (asserting identical bytes), validates strictly, returns every manifest. */
function synth(build: (chart: Chart) => void, namespace: string | undefined = 'team-a'): any[] {
  const docs = expectDeterministic(app => build(new Chart(app, 'test', { namespace })));
  expectValidManifests(docs);
  return docs;
}

/** The Workspace named `name` of a build whose kind is the `jupyterlab` construct. */
function synthWorkspace(props: Partial<WorkspaceProps> = {}, after?: (ws: Workspace, chart: Chart) => void): any {
  const docs = synth(chart => {
    const ws = new Workspace(chart, 'ws', { metadata: { name: 'alice' }, kind: jupyterlab(chart), ...props });
    after?.(ws, chart);
  });
  return docs.find(d => d.kind === 'Workspace');
}

/** The validation report of `app.synth()`, or undefined if it passes. */
function synthErrors(build: (chart: Chart) => void): string | undefined {
  const app = Testing.app();
  build(new Chart(app, 'test', { namespace: 'team-a' }));
  try {
    app.synth();
    return undefined;
  } catch (e: any) {
    return e.message;
  }
}

function report(...lines: string[]): string {
  return ['Validation failed with the following errors:', ...lines.map(l => `  [test/ws] ${l}`)].join('\n');
}

describe('a workspace with a new home claim, a shared dataset and a secret', () => {
  const build = (chart: Chart) => {
    const kind = jupyterlab(chart);
    const dataset = new kplus.PersistentVolumeClaim(chart, 'dataset', {
      metadata: { name: 'imagenet' }, storage: Size.tebibytes(1), accessModes: [kplus.PersistentVolumeAccessMode.READ_ONLY_MANY],
    });
    new Workspace(chart, 'ws', {
      metadata: { name: 'alice' },
      displayName: "Alice's notebook",
      kind,
      imageConfig: 'pytorch',
      podConfig: 'gpu',
      home: WorkspaceClaim.newClaim({ storage: Size.gibibytes(20), storageClassName: 'fast' }),
      data: [{ mountPath: '/data/imagenet', claim: WorkspaceClaim.fromClaim(dataset), readOnly: true }],
      secrets: [{ mountPath: '/secrets/git', secret: kplus.Secret.fromSecretName(chart, 'git', 'git-credentials'), defaultMode: 0o400 }],
      podLabels: { 'access-ml-pipeline': 'true' },
    });
  };

  test('snapshot: the Workspace and the claims beside it', () => {
    const docs = synth(build);
    expect(docs.map(d => `${d.kind}/${d.metadata.name}`)).toEqual([
      'WorkspaceKind/jupyterlab', 'PersistentVolumeClaim/imagenet', 'Workspace/alice', 'PersistentVolumeClaim/alice-home',
    ]);
    expect(docs.filter(d => d.kind !== 'WorkspaceKind')).toMatchSnapshot();
  });

  test('the new home claim is in the workspace\'s namespace, ReadWriteOnce by default', () => {
    const home = synth(build).find(d => d.metadata.name === 'alice-home');
    expect(home.metadata.namespace).toBe('team-a');
    expect(home.spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } }, storageClassName: 'fast', volumeMode: 'Filesystem' });
  });
});

describe('rendering', () => {
  test('options default to the kind\'s defaults; paused is written; no volumes is an empty object', () => {
    expect(synthWorkspace().spec).toEqual({
      kind: 'jupyterlab',
      paused: false,
      podTemplate: { options: { imageConfig: 'scipy', podConfig: 'cpu' }, volumes: {} },
    });
  });

  test('a kind known by name: options must be named, and are written as given', () => {
    const ws = synth(chart => new Workspace(chart, 'ws', {
      metadata: { name: 'bob' }, kind: WorkspaceKind.fromName('codeserver'), imageConfig: 'code-server:4.96', podConfig: 'small', paused: true,
    }))[0];
    expect(ws.metadata).toEqual({ name: 'bob', namespace: 'team-a' });
    expect(ws.spec).toEqual({
      kind: 'codeserver', paused: true, podTemplate: { options: { imageConfig: 'code-server:4.96', podConfig: 'small' }, volumes: {} },
    });
  });

  test('claims: by name, by construct, new; secrets default to mode 0644 (420)', () => {
    const volumes = synthWorkspace({
      home: WorkspaceClaim.fromClaimName('alice-home'),
    }, (ws, chart) => {
      ws.addDataVolume('/data/a', WorkspaceClaim.fromClaim(kplus.PersistentVolumeClaim.fromClaimName(chart, 'a', 'shared-a')));
      ws.addDataVolume('/data/b', WorkspaceClaim.newClaim({ storage: Size.gibibytes(5), accessMode: kplus.PersistentVolumeAccessMode.READ_WRITE_MANY }));
      ws.addDataVolume('/data/c', WorkspaceClaim.newClaim({ storage: Size.gibibytes(5), claimName: 'scratch' }));
      ws.addSecret('/secrets/s3', kplus.Secret.fromSecretName(chart, 's3', 's3-credentials'));
    }).spec.podTemplate.volumes;
    expect(volumes).toEqual({
      home: 'alice-home',
      data: [
        { pvcName: 'shared-a', mountPath: '/data/a', readOnly: false },
        { pvcName: 'alice-data-1', mountPath: '/data/b', readOnly: false },
        { pvcName: 'scratch', mountPath: '/data/c', readOnly: false },
      ],
      secrets: [{ secretName: 's3-credentials', mountPath: '/secrets/s3', defaultMode: 420 }],
    });
  });

  test('one new claim shared by two workspaces is created once, beside the first', () => {
    const docs = synth(chart => {
      const kind = jupyterlab(chart);
      const shared = WorkspaceClaim.newClaim({ storage: Size.gibibytes(100), accessMode: kplus.PersistentVolumeAccessMode.READ_WRITE_MANY, claimName: 'team-data' });
      for (const user of ['alice', 'bob']) new Workspace(chart, user, { metadata: { name: user }, kind, data: [{ mountPath: '/data', claim: shared }] });
    });
    expect(docs.filter(d => d.kind === 'PersistentVolumeClaim').map(d => d.metadata.name)).toEqual(['team-data']);
    expect(docs.filter(d => d.kind === 'Workspace').map(d => d.spec.podTemplate.volumes.data[0].pvcName)).toEqual(['team-data', 'team-data']);
  });

  test('pod labels and annotations, added later too, over the platform defaults; defaults label the workspace', () => {
    const ws = synthWorkspace({ podAnnotations: { 'example.com/a': '1' } }, (w, chart) => {
      PlatformDefaults.set(chart, {
        labels: { team: 'a', cost: 'common' },
        podAnnotations: { 'example.com/a': '0', 'example.com/b': '2' },
        // A Workspace has no field for these; the kind's pod configs and security contexts take them.
        nodeSelector: { pool: 'x' },
        tolerations: [{ key: 'x', operator: 'Exists' }],
        security: PodSecurity.RESTRICTED,
      });
      w.addPodLabel('cost', 'alice');
      w.metadata.addLabel('owner', 'alice');
    });
    expect(ws.metadata.labels).toEqual({ cost: 'common', owner: 'alice', team: 'a' });
    expect(ws.spec.podTemplate.podMetadata).toEqual({
      labels: { cost: 'alice', team: 'a' },
      annotations: { 'example.com/a': '1', 'example.com/b': '2' },
    });
  });

  test('getters', () => {
    const chart = new Chart(Testing.app(), 'test');
    const ws = new Workspace(chart, 'ws', { metadata: { name: 'alice' }, kind: jupyterlab(chart), home: WorkspaceClaim.newClaim({ storage: Size.gibibytes(1) }), podConfig: 'gpu' });
    expect([ws.name, ws.kind.name, ws.imageConfig, ws.podConfig, ws.homeClaimName]).toEqual(['alice', 'jupyterlab', 'scipy', 'gpu', 'alice-home']);
  });
});

describe('impossible values fail at once', () => {
  const make = (props: Partial<WorkspaceProps>, after?: (ws: Workspace, chart: Chart) => void) => () => {
    const chart = new Chart(Testing.app(), 'test');
    const ws = new Workspace(chart, 'ws', { kind: WorkspaceKind.fromName('jupyterlab'), imageConfig: 'scipy', podConfig: 'cpu', ...props });
    after?.(ws, chart);
  };

  test('a kind known by name needs both option ids', () => {
    expect(make({ imageConfig: undefined })).toThrow(
      'test/ws: imageConfig is not set; expected an image option id: the kind is known by name only, so its default cannot be looked up');
    expect(make({ podConfig: undefined })).toThrow(
      'test/ws: podConfig is not set; expected a pod-config option id: the kind is known by name only, so its default cannot be looked up');
    expect(make({ podConfig: '' })).toThrow('test/ws: podConfig is ""; expected an option id of 1 to 256 characters');
  });

  test('display name, mount paths, secret modes', () => {
    expect(make({ displayName: '' })).toThrow('test/ws: displayName is ""; expected 1 to 128 characters');
    expect(make({ data: [{ mountPath: 'data', claim: WorkspaceClaim.fromClaimName('d') }] })).toThrow(
      'test/ws: data[0].mountPath is "data"; expected an absolute path such as "/data" (2 to 4096 characters, without ":")');
    expect(make({}, (ws, chart) => ws.addSecret('//x', kplus.Secret.fromSecretName(chart, 's', 's')))).toThrow(
      'test/ws: secrets[0].mountPath is "//x"; expected an absolute path such as "/data" (2 to 4096 characters, without ":")');
    expect(make({}, (ws, chart) => ws.addSecret('/s', kplus.Secret.fromSecretName(chart, 's', 's'), { defaultMode: 0o1777 }))).toThrow(
      'test/ws: secrets[0].defaultMode is 1023; expected permission bits from 0 to 0o777 (511)');
  });

  test('a home volume is written to; a read-only claim is mounted read-only', () => {
    const readOnlyHome = WorkspaceClaim.newClaim({ storage: Size.gibibytes(1), accessMode: kplus.PersistentVolumeAccessMode.READ_ONLY_MANY });
    expect(make({ home: readOnlyHome })).toThrow(
      'test/ws: home.accessMode is "ReadOnlyMany"; expected ReadWriteOnce, ReadWriteMany or ReadWriteOncePod: the home volume is written to');
    expect(make({}, (ws, chart) => ws.addDataVolume('/data', WorkspaceClaim.fromClaim(new kplus.PersistentVolumeClaim(chart, 'rox', {
      metadata: { name: 'rox' }, accessModes: [kplus.PersistentVolumeAccessMode.READ_ONLY_MANY],
    }))))).toThrow('test/ws: data[0].readOnly is false; expected true: claim "rox" is ReadOnlyMany');
  });
});

describe('cross-field checks at synth time, as the notebooks webhook does them', () => {
  test('the options must exist in the kind', () => {
    expect(synthErrors(chart => new Workspace(chart, 'ws', { metadata: { name: 'alice' }, kind: jupyterlab(chart), imageConfig: 'tensorflow', podConfig: 'tpu' })))
      .toBe(report(
        'imageConfig is "tensorflow"; expected the id of an image option of WorkspaceKind "jupyterlab": "scipy", "pytorch"',
        'podConfig is "tpu"; expected the id of a pod-config option of WorkspaceKind "jupyterlab": "cpu", "gpu"',
      ));
  });

  test('a kind without options leaves nothing to default to', () => {
    const message = synthErrors(chart => new Workspace(chart, 'ws', { metadata: { name: 'alice' }, kind: new WorkspaceKind(chart, 'empty', KIND_PROPS) }));
    expect(message).toContain('[test/ws] imageConfig is not set; expected an option id; WorkspaceKind "jupyterlab" has no options to default to');
    expect(message).toContain('[test/ws] podConfig is not set; expected an option id; WorkspaceKind "jupyterlab" has no options to default to');
  });

  test('mount paths do not collide: home, the kind\'s mounts, data and secrets', () => {
    expect(synthErrors(chart => {
      const ws = new Workspace(chart, 'ws', {
        metadata: { name: 'alice' },
        kind: jupyterlab(chart),
        home: WorkspaceClaim.fromClaimName('alice-home'),
        data: [
          { mountPath: '/home/jovyan', claim: WorkspaceClaim.fromClaimName('a') },
          { mountPath: '/dev/shm/', claim: WorkspaceClaim.fromClaimName('b') },
          { mountPath: '/data', claim: WorkspaceClaim.fromClaimName('c') },
        ],
      });
      ws.addSecret('/data', kplus.Secret.fromSecretName(chart, 's', 'token'));
    })).toBe(report(
      `data[0].mountPath is "/home/jovyan"; ${HOME_MOUNT_TAKEN}`,
      'data[1].mountPath is "/dev/shm/"; expected a path no other mount uses; a volume of WorkspaceKind "jupyterlab" is mounted there',
      'secrets[0].mountPath is "/data"; expected a path no other mount uses; data volume "c" is mounted there',
    ));
  });

  test('the kind\'s and the workspace\'s pod annotations, merged on one pod, stay within 256 KiB', () => {
    const kib = 1024;
    expect(synthErrors(chart => {
      const kind = new WorkspaceKind(chart, 'jupyterlab', { ...KIND_PROPS, podAnnotations: { 'example.com/kind': 'k'.repeat(150 * kib) } });
      kind.addImageConfig('scipy', { image: 'quay.io/jupyter/scipy-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] });
      kind.addPodConfig('cpu', { requests: { cpu: kplus.Cpu.units(1) } });
      new Workspace(chart, 'ws', { metadata: { name: 'alice' }, kind, podAnnotations: { 'example.com/workspace': 'w'.repeat(150 * kib) } });
    })).toBe(report(
      `spec.podTemplate.podMetadata.annotations (podAnnotations) is "${300 * kib + 37} bytes"; expected at most 262144 bytes (256 KiB) of annotation keys and values in total once merged with the pod annotations of WorkspaceKind "jupyterlab": the controller puts both on one pod template, and Kubernetes refuses the StatefulSet`,
    ));
  });

  test('without a home volume, the home path is free for a data volume', () => {
    expect(synthErrors(chart => new Workspace(chart, 'ws', {
      metadata: { name: 'alice' }, kind: jupyterlab(chart), data: [{ mountPath: '/home/jovyan', claim: WorkspaceClaim.fromClaimName('a') }],
    }))).toBeUndefined();
  });

  test('names: workspace, kind, claims and secrets', () => {
    expect(synthErrors(chart => new Workspace(chart, 'ws', {
      metadata: { name: 'Alice' },
      kind: WorkspaceKind.fromName('Jupyter_Lab'),
      imageConfig: 'a',
      podConfig: 'b',
      home: WorkspaceClaim.fromClaimName('home.'),
      secrets: [{ mountPath: '/s', secret: kplus.Secret.fromSecretName(chart, 's', 'My Secret') }],
    }))).toBe(report(
      `metadata.name is "Alice"; ${DNS_1123_LABEL}`,
      'kind is "Jupyter_Lab"; expected the name of a WorkspaceKind, a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit',
      'home is "home."; expected a claim name, a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit',
      'secrets[0].secret is "My Secret"; expected a Secret name, a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit',
    ));
  });

  test('claims of this app must be in the workspace\'s namespace', () => {
    expect(synthErrors(chart => {
      const other = new Chart(chart.node.root as any, 'other', { namespace: 'team-b' });
      const claim = new kplus.PersistentVolumeClaim(other, 'data', { metadata: { name: 'data' } });
      new Workspace(chart, 'ws', { metadata: { name: 'alice' }, kind: jupyterlab(chart), data: [{ mountPath: '/data', claim: WorkspaceClaim.fromClaim(claim) }] });
    })).toBe(report(
      'spec.podTemplate.volumes.data[0].pvcName (data) is "data"; expected a claim in the object\'s own namespace "team-a" (the app\'s claim "data" is in namespace "team-b"; pods mount claims of their own namespace only)'));
  });
});

test('examples/notebooks.ts: one kind, two users sharing one read-only dataset claim, each with a home of their own', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const example = require('../../examples/notebooks').default;
  const docs = expectDeterministic(app => example(app));
  expect(expectValidManifests(docs)).toBe(3);
  expect(docs.map(d => `${d.kind}/${d.metadata.name}`)).toEqual([
    'WorkspaceKind/jupyterlab', 'PersistentVolumeClaim/imagenet', 'Workspace/alice', 'PersistentVolumeClaim/alice-home',
    'Workspace/bob', 'PersistentVolumeClaim/bob-home',
  ]);
  const workspaces = docs.filter(d => d.kind === 'Workspace');
  expect(workspaces.map(w => [w.spec.podTemplate.options, w.spec.podTemplate.volumes])).toEqual([
    [{ imageConfig: 'jupyter-scipy:v1.10.0', podConfig: 'cpu' }, { home: 'alice-home', data: [{ pvcName: 'imagenet', mountPath: '/data/imagenet', readOnly: true }] }],
    [{ imageConfig: 'jupyter-pytorch-cuda-full:v1.10.0', podConfig: 'gpu' }, { home: 'bob-home', data: [{ pvcName: 'imagenet', mountPath: '/data/imagenet', readOnly: true }] }],
  ]);
});
