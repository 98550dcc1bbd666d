import * as fs from 'fs';
import * as path from 'path';
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { UPSTREAM_EXAMPLES } from '../../scripts/upstream/pins';
import {
  Accelerator, ActivityProbe, FilterScope, RedirectLevel, SpawnerImage, Workspace, WorkspaceClaim, WorkspaceKind,
} from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';
import { missingLeaves } from '../harness/fidelity';

const UPSTREAM = path.join(UPSTREAM_EXAMPLES, 'notebooks-v2');
const KIND_FILE = 'jupyterlab_v1beta1_workspacekind.yaml';
const WORKSPACE_FILE = 'jupyterlab_v1beta1_workspace.yaml';

const SCIPY = 'JupyterLab, with SciPy Packages';
const PYTORCH = 'JupyterLab, with PyTorch (CUDA), and Common Python Packages';
const JUPYTER_PORT = [{ id: 'jupyterlab', port: 8888 }];

/**
 * The upstream WorkspaceKind sample, written as a user would write it after reading the sample.
 * Empty maps and lists of the sample (`affinity: {}`, `tolerations: []`, `requestHeaders: {}`,
 * `match: {}`) mean the same as leaving the field out, so the constructs do not write them.
 */
function upstreamKind(chart: Chart): WorkspaceKind {
  const kind = new WorkspaceKind(chart, 'jupyterlab', {
    metadata: { name: 'jupyterlab' },
    displayName: 'JupyterLab Notebook',
    description: 'A Workspace which runs JupyterLab in a Pod',
    hidden: false,
    deprecated: false,
    icon: SpawnerImage.fromUrl('https://jupyter.org/assets/favicons/apple-touch-icon-152x152.png'),
    logo: SpawnerImage.fromUrl('https://upload.wikimedia.org/wikipedia/commons/3/38/Jupyter_logo.svg'),
    filterRules: [{
      scope: FilterScope.WORKSPACE_KIND,
      hideInUi: true,
      namespaceSelector: { matchExpressions: [{ key: 'workspace_team', operator: 'NotIn', values: ['team_1'] }] },
    }],
    activityRules: [
      { inactiveFor: Duration.hours(2), minRunning: Duration.minutes(5), namespaceSelector: { matchLabels: { tier: 'development' } } },
      { inactiveFor: Duration.days(1) },
    ],
    podLabels: { 'my-workspace-kind-label': 'my-value' },
    podAnnotations: { 'my-workspace-kind-annotation': 'my-value' },
    activityProbe: ActivityProbe.jupyter('jupyterlab', { minInterval: Duration.minutes(5), interval: Duration.hours(1) }),
    homeMountPath: '/home/jovyan',
    ports: [{ id: 'jupyterlab', displayName: 'JupyterLab', removePathPrefix: false }],
    env: { NB_PREFIX: kplus.EnvValue.fromValue(WorkspaceKind.httpPathPrefix('jupyterlab')) },
    podSecurityContext: { fsGroup: 100, seccompProfile: { type: 'RuntimeDefault' } },
    containerSecurityContext: {
      allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' },
    },
    defaultImageConfig: 'jupyter-scipy:v1.10.0',
    defaultPodConfig: 'tiny_cpu',
  });
  // The sample's /dev/shm has no size limit, so it is mounted as a plain emptyDir rather than
  // with the `sharedMemory` prop (which always sets one).
  kind.mount('/dev/shm', kplus.Volume.fromEmptyDir(kind, 'dshm', 'dshm', { medium: kplus.EmptyDirMedium.MEMORY }));

  kind.addImageConfig('jupyter-scipy:v1.8.0', {
    displayName: 'jupyter-scipy:v1.8.0',
    description: SCIPY,
    labels: { python_version: '3.11.6' },
    hidden: true,
    redirect: {
      to: 'jupyter-scipy:v1.9.2',
      level: RedirectLevel.INFO,
      message: 'This update does not introduce any breaking changes in Python packages from SciPy. However, the version of JupyterLab has been updated from 3.6.6 to 4.2.5.\n',
    },
    image: 'ghcr.io/kubeflow/kubeflow/notebook-servers/jupyter-scipy:v1.8.0',
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    ports: JUPYTER_PORT,
  });
  kind.addImageConfig('jupyter-scipy:v1.9.2', {
    displayName: 'jupyter-scipy:v1.9.2',
    description: SCIPY,
    labels: { python_version: '3.11.10' },
    redirect: { to: 'jupyter-scipy:v1.10.0', message: 'This update does not introduce any breaking changes in Python packages from SciPy.\n' },
    image: 'ghcr.io/kubeflow/kubeflow/notebook-servers/jupyter-scipy:v1.9.2',
    ports: JUPYTER_PORT,
  });
  kind.addImageConfig('jupyter-scipy:v1.10.0', {
    displayName: 'jupyter-scipy:v1.10.0',
    description: SCIPY,
    labels: { python_version: '3.11.11' },
    image: 'ghcr.io/kubeflow/kubeflow/notebook-servers/jupyter-scipy:v1.10.0',
    ports: JUPYTER_PORT,
  });
  kind.addImageConfig('jupyter-pytorch-cuda-full:v1.9.2', {
    displayName: 'jupyter-pytorch-cuda-full:v1.9.2',
    description: PYTORCH,
    labels: { python_version: '3.11.10', pytorch_version: '2.3.1', cuda_version: '12.1', nccl_version: '2.20.5' },
    redirect: {
      to: 'jupyter-pytorch-cuda-full:v1.10.0',
      level: RedirectLevel.WARNING,
      message: 'This update changes the version of PyTorch from 2.3.1 to 2.5.1. This only breaking change in a common python package is xgboost, which updated from 1.7.6 to 2.1.4.\n',
    },
    image: 'ghcr.io/kubeflow/kubeflow/notebook-servers/jupyter-pytorch-cuda-full:v1.9.2',
    ports: JUPYTER_PORT,
  });
  kind.addImageConfig('jupyter-pytorch-cuda-full:v1.10.0', {
    displayName: 'jupyter-pytorch-cuda-full:v1.10.0',
    description: PYTORCH,
    labels: { python_version: '3.11.11', pytorch_version: '2.5.1', cuda_version: '12.4', nccl_version: '2.21.5' },
    image: 'ghcr.io/kubeflow/kubeflow/notebook-servers/jupyter-pytorch-cuda-full:v1.10.0',
    ports: JUPYTER_PORT,
  });

  kind.addPodConfig('tiny_cpu', {
    displayName: 'Tiny CPU',
    description: 'Pod with 0.1 CPU, 128 Mb RAM',
    labels: { cpu: '100m', memory: '128Mi' },
    requests: { cpu: kplus.Cpu.millis(100), memory: Size.mebibytes(128) },
  });
  kind.addPodConfig('small_cpu', {
    displayName: 'Small CPU',
    description: 'Pod with 1 CPU, 2 GB RAM',
    labels: { cpu: '1000m', memory: '2Gi' },
    requests: { cpu: kplus.Cpu.millis(1000), memory: Size.gibibytes(2) },
  });
  kind.addPodConfig('big_gpu', {
    displayName: 'Big GPU',
    description: 'Pod with 4 CPU, 16 GB RAM, and 1 GPU',
    labels: { cpu: '4000m', memory: '16Gi', gpu: '1' },
    requests: { cpu: kplus.Cpu.millis(4000), memory: Size.gibibytes(16) },
    // The accelerator's toleration is added by the construct; writing it too is harmless.
    limits: { accelerator: Accelerator.nvidia(1) },
    tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
  });
  return kind;
}

/** The upstream Workspace sample; its kind is the construct above, so its options are checked. */
function upstreamWorkspace(chart: Chart, kind: WorkspaceKind): Workspace {
  return new Workspace(chart, 'workspace', {
    metadata: { name: 'jupyterlab-workspace' },
    paused: false,
    displayName: 'Example JupyterLab Workspace',
    kind,
    home: WorkspaceClaim.fromClaimName('workspace-home-pvc'),
    data: [{ claim: WorkspaceClaim.fromClaimName('workspace-data-pvc'), mountPath: '/data/my-data', readOnly: false }],
    secrets: [{ secret: kplus.Secret.fromSecretName(chart, 'secret', 'workspace-secret'), mountPath: '/secrets/my-secret', defaultMode: 0o644 }],
    imageConfig: 'jupyter-scipy:v1.10.0',
    podConfig: 'tiny_cpu',
  });
}

/**
 * The upstream document without empty maps and lists, and the paths of those it dropped. For
 * these fields an empty value means the same as none (`match: {}` is the catch-all, `affinity: {}`
 * no affinity), so the constructs leave them out and the fidelity check compares the rest.
 */
function withoutEmpty(value: any, at = '', dropped: string[] = []): { value: any; dropped: string[] } {
  const isEmpty = (v: any) => v !== null && typeof v === 'object' && Object.keys(v).length === 0;
  if (Array.isArray(value)) return { value: value.map((v, i) => withoutEmpty(v, `${at}[${i}]`, dropped).value), dropped };
  if (value === null || typeof value !== 'object') return { value, dropped };
  const out: any = {};
  for (const [k, v] of Object.entries(value)) {
    const here = at ? `${at}.${k}` : k;
    const inner = withoutEmpty(v, here, dropped).value;
    if (isEmpty(inner)) dropped.push(here);
    else out[k] = inner;
  }
  return { value: out, dropped };
}

describe('the upstream Notebooks v2 samples are expressible with the L2 constructs', () => {
  const docs = expectDeterministic(app => {
    const chart = new Chart(app, 'upstream');
    upstreamWorkspace(chart, upstreamKind(chart));
  });
  const ours = (kind: string) => docs.find(d => d.kind === kind);
  const upstream = (file: string) => yaml.load(fs.readFileSync(path.join(UPSTREAM, file), 'utf8')) as any;

  test('both synthesized documents pass the strict schema check', () => {
    expect(docs.map(d => d.kind)).toEqual(['WorkspaceKind', 'Workspace']);
    expect(expectValidManifests(docs)).toBe(2);
  });

  test('every leaf of the upstream WorkspaceKind is in ours, with the same value', () => {
    const { value, dropped } = withoutEmpty(upstream(KIND_FILE));
    expect(dropped).toEqual([
      'spec.activityRules[1].match',
      'spec.podTemplate.ports[0].httpProxy.requestHeaders',
      'spec.podTemplate.options.podConfig.values[0].spec.affinity',
      'spec.podTemplate.options.podConfig.values[0].spec.nodeSelector',
      'spec.podTemplate.options.podConfig.values[0].spec.tolerations',
      'spec.podTemplate.options.podConfig.values[2].spec.affinity',
      'spec.podTemplate.options.podConfig.values[2].spec.nodeSelector',
    ]);
    expect(missingLeaves(value, ours('WorkspaceKind'))).toEqual([]);
  });

  test('every leaf of the upstream Workspace is in ours, with the same value', () => {
    const { value, dropped } = withoutEmpty(upstream(WORKSPACE_FILE));
    expect(dropped).toEqual(['spec.podTemplate.podMetadata.labels', 'spec.podTemplate.podMetadata.annotations', 'spec.podTemplate.podMetadata']);
    expect(missingLeaves(value, ours('Workspace'))).toEqual([]);
  });

  test('what ours adds is exactly the GPU request the construct writes beside its limit', () => {
    expect(missingLeaves(ours('WorkspaceKind'), upstream(KIND_FILE))).toEqual([
      'spec.podTemplate.options.podConfig.values[2].spec.resources.requests.nvidia.com/gpu: expected 1, got undefined',
    ]);
    expect(missingLeaves(ours('Workspace'), upstream(WORKSPACE_FILE))).toEqual([]);
  });
});
