import { App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Accelerator, ActivityProbe, SpawnerImage, Workspace, WorkspaceClaim, WorkspaceKind } from '../src';

const NOTEBOOK_SERVERS = 'ghcr.io/kubeflow/kubeflow/notebook-servers';

/**
 * Kubeflow Notebooks v2: a JupyterLab WorkspaceKind (cluster-scoped, written once by the platform
 * team) with a SciPy and a PyTorch image and a CPU and a GPU pod size, and two users' workspaces
 * in one team namespace that share a read-only dataset claim.
 */
export default function (app: App): void {
  // The platform team's chart: cluster-scoped, so it has no namespace.
  const platform = new Chart(app, 'notebooks-platform');
  const jupyterlab = new WorkspaceKind(platform, 'jupyterlab', {
    metadata: { name: 'jupyterlab' },
    displayName: 'JupyterLab',
    description: 'JupyterLab with the SciPy or the PyTorch (CUDA) stack',
    icon: SpawnerImage.fromUrl('https://jupyter.org/assets/favicons/apple-touch-icon-152x152.png'),
    logo: SpawnerImage.fromUrl('https://upload.wikimedia.org/wikipedia/commons/3/38/Jupyter_logo.svg'),
    ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }],
    // Kubeflow's notebook images read their URL prefix from NB_PREFIX.
    env: { NB_PREFIX: kplus.EnvValue.fromValue(WorkspaceKind.httpPathPrefix('jupyterlab')) },
    sharedMemory: Size.gibibytes(2),
    // Pause workspaces nobody has used for a working day.
    activityProbe: ActivityProbe.jupyter('jupyterlab'),
    activityRules: [{ inactiveFor: Duration.hours(8), minRunning: Duration.minutes(30) }],
  });

  jupyterlab.addImageConfig('jupyter-scipy:v1.10.0', {
    displayName: 'SciPy',
    description: 'JupyterLab with NumPy, SciPy, pandas and scikit-learn',
    labels: { python_version: '3.11' },
    image: `${NOTEBOOK_SERVERS}/jupyter-scipy:v1.10.0`,
    ports: [{ id: 'jupyterlab', port: 8888 }],
  });
  jupyterlab.addImageConfig('jupyter-pytorch-cuda-full:v1.10.0', {
    displayName: 'PyTorch (CUDA)',
    description: 'JupyterLab with PyTorch 2.5 and CUDA 12.4',
    labels: { python_version: '3.11', pytorch_version: '2.5.1' },
    image: `${NOTEBOOK_SERVERS}/jupyter-pytorch-cuda-full:v1.10.0`,
    ports: [{ id: 'jupyterlab', port: 8888 }],
  });

  jupyterlab.addPodConfig('cpu', {
    displayName: 'CPU',
    description: '1 CPU (bursting to 2) and 4 GiB of memory',
    labels: { cpu: '1', memory: '4Gi' },
    requests: { cpu: kplus.Cpu.units(1), memory: Size.gibibytes(4) },
    limits: { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(4) },
  });
  jupyterlab.addPodConfig('gpu', {
    displayName: 'One GPU',
    description: '4 CPUs, 32 GiB of memory and one NVIDIA GPU',
    labels: { cpu: '4', memory: '32Gi', gpu: '1' },
    requests: { cpu: kplus.Cpu.units(4), memory: Size.gibibytes(32), accelerator: Accelerator.nvidia(1) },
    limits: { memory: Size.gibibytes(32) },
    nodeSelector: { 'nvidia.com/gpu.present': 'true' },
  });

  // A team's namespace: one dataset claim, read-only for everyone, and a workspace per user.
  const team = new Chart(app, 'notebooks-team-vision', { namespace: 'team-vision' });
  const imagenet = new kplus.PersistentVolumeClaim(team, 'imagenet', {
    metadata: { name: 'imagenet' },
    storage: Size.tebibytes(1),
    storageClassName: 'nfs',
    accessModes: [kplus.PersistentVolumeAccessMode.READ_ONLY_MANY],
  });
  const dataset = WorkspaceClaim.fromClaim(imagenet);

  new Workspace(team, 'alice', {
    metadata: { name: 'alice' },
    displayName: "Alice's notebook",
    kind: jupyterlab,
    home: WorkspaceClaim.newClaim({ storage: Size.gibibytes(20) }),
    data: [{ mountPath: '/data/imagenet', claim: dataset, readOnly: true }],
  });
  new Workspace(team, 'bob', {
    metadata: { name: 'bob' },
    displayName: "Bob's GPU notebook",
    kind: jupyterlab,
    imageConfig: 'jupyter-pytorch-cuda-full:v1.10.0',
    podConfig: 'gpu',
    home: WorkspaceClaim.newClaim({ storage: Size.gibibytes(50) }),
    data: [{ mountPath: '/data/imagenet', claim: dataset, readOnly: true }],
  });
}
