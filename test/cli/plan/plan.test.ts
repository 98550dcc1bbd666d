import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { formatBytes, formatCpu, podAmounts } from '../../../src/cli/plan/amounts';
import { buildApp } from '../app-versions';
import { synthesizeExamples } from '../examples-output';
import { runCli } from '../run-cli';

/**
 * `plan` on the project examples: every job (TrainJobs resolved against the runtimes of the same
 * input, and a note for those whose runtime is installed on the cluster), and totals per queue and
 * per namespace.
 */
const EXAMPLES_PLAN = `
## Training jobs: 21

| Job | Kind | Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| llm-training/llama-70b-pretrain | PyTorchJob | gpu-h100 | Master 1, Worker 15 | 128 nvidia.com/gpu | 1536 | 16Ti |
| research/bert-pretrain | PyTorchJob | (none) | Master 1, Worker 7 | 64 nvidia.com/gpu | 720 | 8000Gi |
| team-hpc/bert-deepspeed | TrainJob | (none) | node 1, launcher 1 | 4 nvidia.com/gpu | 32 | 128Gi |
| team-llm/llama-pretrain | TrainJob | team-llm | node 4 | 32 nvidia.com/gpu | 384 | 4Ti |
| team-nlp/alpaca-llama | TrainJob | (none) | dataset-initializer 1, model-initializer 1, node 1 | 2 nvidia.com/gpu | 0 | 0 |
| team-nlp/llama-sft | TrainJob | (none) | node 4 | 32 nvidia.com/gpu | 256 | 2Ti |
| team-speech/whisper-finetune | PyTorchJob | team-speech | Master 1, Worker 1 | 16 nvidia.com/gpu | 192 | 2Ti |
| team-vision/resnet | PyTorchJob | team-vision | Master 1, Worker 3 | 16 nvidia.com/gpu | 64 | 256Gi |
| team-vision/resnet | TrainJob | team-vision | node 4 | 16 nvidia.com/gpu | 64 | 256Gi |
| team-vision/resnet-prod | PyTorchJob | team-vision | Master 1, Worker 3 | 16 nvidia.com/gpu | 64 | 256Gi |
| team-vision/resnet50 | PyTorchJob | team-vision | Master 1, Worker 3 | 8 nvidia.com/gpu | 64 | 256Gi |
| team-vision/vit-pretrain | TrainJob | team-vision | node 2 | 8 nvidia.com/gpu | 64 | 512Gi |
| team-vision/vit-remote | TrainJob | team-vision-remote | node 2 | - | 0 | 0 |
| training/horovod-benchmark | MPIJob | (none) | Launcher 1, Worker 2 | 4 nvidia.com/gpu | 17 | 66Gi |
| training/jax-mnist | JAXJob | (none) | Worker 2 | 2 nvidia.com/gpu | 8 | 32Gi |
| training/llm-finetune | PyTorchJob | (none) | Worker 4 (elastic, up to 8) | 32 nvidia.com/gpu | 128 | 1Ti |
| training/paddle-ctr | PaddleJob | (none) | Master 2, Worker 4 | - | 40 | 64Gi |
| training/paddle-resnet | PaddleJob | (none) | Worker 2 | 4 nvidia.com/gpu | 16 | 64Gi |
| training/resnet | PyTorchJob | (none) | Master 1, Worker 3 | 4 nvidia.com/gpu | 16 | 64Gi |
| training/tf-mnist | TFJob | (none) | Chief 1, PS 1, Worker 2 | 2 nvidia.com/gpu | 12 | 48Gi |
| training/xgboost-iris | XGBoostJob | (none) | Master 1, Worker 3 | - | 8 | 16Gi |

- TrainJob team-nlp/alpaca-llama: runtime ClusterTrainingRuntime torchtune-llama3.2-1b is not in the input: counted as the one built into Trainer v2.3.0
- TrainJob team-vision/vit-remote: runtime ClusterTrainingRuntime torch-distributed is not in the input: counted as the one built into Trainer v2.3.0

## Notebook workspaces: 2

| Workspace | Kind | Queue | Pod config | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| team-vision/alice | jupyterlab | (none) | cpu | - | 1 | 4Gi |
| team-vision/bob | jupyterlab | (none) | gpu | 1 nvidia.com/gpu | 4 | 32Gi |

### Per queue

| Queue | Jobs | Workspaces | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| (none) | 12 | 2 | 48 | 151 nvidia.com/gpu | 1258 | 11590Gi |
| gpu-h100 | 1 | 0 | 16 | 128 nvidia.com/gpu | 1536 | 16Ti |
| team-llm | 1 | 0 | 4 | 32 nvidia.com/gpu | 384 | 4Ti |
| team-speech | 1 | 0 | 2 | 16 nvidia.com/gpu | 192 | 2Ti |
| team-vision | 5 | 0 | 18 | 64 nvidia.com/gpu | 320 | 1536Gi |
| team-vision-remote | 1 | 0 | 2 | - | 0 | 0 |

### Per namespace

| Namespace | Jobs | Workspaces | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| llm-training | 1 | 0 | 16 | 128 nvidia.com/gpu | 1536 | 16Ti |
| research | 1 | 0 | 8 | 64 nvidia.com/gpu | 720 | 8000Gi |
| team-hpc | 1 | 0 | 2 | 4 nvidia.com/gpu | 32 | 128Gi |
| team-llm | 1 | 0 | 4 | 32 nvidia.com/gpu | 384 | 4Ti |
| team-nlp | 2 | 0 | 7 | 34 nvidia.com/gpu | 256 | 2Ti |
| team-speech | 1 | 0 | 2 | 16 nvidia.com/gpu | 192 | 2Ti |
| team-vision | 6 | 2 | 22 | 65 nvidia.com/gpu | 325 | 1572Gi |
| training | 8 | 0 | 29 | 48 nvidia.com/gpu | 245 | 1378Gi |

### Per ClusterQueue and flavor

| ClusterQueue | Flavor | Resource | Requested | Nominal quota | Borrowing limit | At most | State |
|---|---|---|---|---|---|---|---|
| llm-training (1 job) | h100 | cpu | 1536 | 1536 | - | 1536 | within nominal quota |
| llm-training (1 job) | h100 | memory | 16Ti | 16Ti | - | 16Ti | within nominal quota |
| llm-training (1 job) | h100 | nvidia.com/gpu | 128 | 128 | - | 128 | within nominal quota |
| llm-training (1 job) | h100 | rdma/rdma_shared_device_a | 16 | 16 | - | 16 | within nominal quota |
| team-llm (1 job) | h100 | cpu | 384 | 384 | 192 | 576 | within nominal quota |
| team-llm (1 job) | h100 | memory | 4Ti | 4Ti | 2Ti | 6Ti | within nominal quota |
| team-llm (1 job) | h100 | nvidia.com/gpu | 32 | 32 | 16 | 48 | within nominal quota |
| team-llm (1 job) | a100 | cpu | 0 | 192 | 192 | 384 | within nominal quota |
| team-llm (1 job) | a100 | memory | 0 | 2Ti | 2Ti | 4Ti | within nominal quota |
| team-llm (1 job) | a100 | nvidia.com/gpu | 0 | 16 | 16 | 32 | within nominal quota |
| team-speech (1 job) | h100 | cpu | 192 | 192 | 192 | 384 | within nominal quota |
| team-speech (1 job) | h100 | memory | 2Ti | 2Ti | 2Ti | 4Ti | within nominal quota |
| team-speech (1 job) | h100 | nvidia.com/gpu | 16 | 16 | 16 | 32 | within nominal quota |
| team-speech (1 job) | a100 | cpu | 0 | 192 | 192 | 384 | within nominal quota |
| team-speech (1 job) | a100 | memory | 0 | 2Ti | 2Ti | 4Ti | within nominal quota |
| team-speech (1 job) | a100 | nvidia.com/gpu | 0 | 16 | 16 | 32 | within nominal quota |
| team-vision (5 jobs) | h100 | cpu | 320 | 768 | 192 | 960 | within nominal quota |
| team-vision (5 jobs) | h100 | memory | 1536Gi | 8Ti | 2Ti | 10Ti | within nominal quota |
| team-vision (5 jobs) | h100 | nvidia.com/gpu | 64 | 64 | 16 | 80 | within nominal quota |
| team-vision (5 jobs) | a100 | cpu | 0 | 192 | 192 | 384 | within nominal quota |
| team-vision (5 jobs) | a100 | memory | 0 | 2Ti | 2Ti | 4Ti | within nominal quota |
| team-vision (5 jobs) | a100 | nvidia.com/gpu | 0 | 16 | 16 | 32 | within nominal quota |
| team-vision-remote (1 job) | h100 | cpu | 0 | 192 | - | 192 | within nominal quota |
| team-vision-remote (1 job) | h100 | memory | 0 | 2Ti | - | 2Ti | within nominal quota |
| team-vision-remote (1 job) | h100 | nvidia.com/gpu | 0 | 16 | - | 16 | within nominal quota |

Each job is placed as Kueue places it on an idle queue (its first flavor with room); "At most" is nominal quota plus what the queue may borrow.

- ClusterQueue team-llm: cohort "language" holds what its ClusterQueues in the input lend ("team-llm", "team-speech"), and what its parent "gpus" can lend it
- ClusterQueue team-speech: cohort "language" holds what its ClusterQueues in the input lend ("team-llm", "team-speech"), and what its parent "gpus" can lend it
- ClusterQueue team-vision: cohort "vision" holds what its ClusterQueues in the input lend ("team-vision"), and what its parent "gpus" can lend it
`;

/** `plan --against` from version 1 of app-versions.ts to version 2. */
const AGAINST_PLAN = `
## Change: 1 added, 1 removed, 2 changed

| Change | Job | Kind | Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|---|
| added | research/rocm-bench | PyTorchJob | amd | Master 1, Worker 1 | 8 amd.com/gpu | 32 | 128Gi |
| removed | research/eval | PyTorchJob | research | Master 1, Worker 1 | 2 nvidia.com/gpu | 3 | 3Gi |
| changed | data/tokenize | PyTorchJob | (none) | Master 1, Worker 2 | 0 | 0 | 0 |
| changed | research/llama-sft | PyTorchJob | research | Master 1, Worker 3 -> Master 1, Worker 11 | +64 nvidia.com/gpu | +256 | +4Ti |

Changed jobs show the difference in accelerators, CPU and memory.

### Change per queue

| Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|
| amd | +2 | +8 amd.com/gpu | +32 | +128Gi |
| research | +6 | +62 nvidia.com/gpu | +253 | +4093Gi |

## Training jobs after the change: 3

| Job | Kind | Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| data/tokenize | PyTorchJob | (none) | Master 1, Worker 2 | - | 0.75 | 1536Mi |
| research/llama-sft | PyTorchJob | research | Master 1, Worker 11 | 96 nvidia.com/gpu | 384 | 6Ti |
| research/rocm-bench | PyTorchJob | amd | Master 1, Worker 1 | 8 amd.com/gpu | 32 | 128Gi |

### Per queue

| Queue | Jobs | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|
| (none) | 1 | 3 | - | 0.75 | 1536Mi |
| amd | 1 | 2 | 8 amd.com/gpu | 32 | 128Gi |
| research | 1 | 12 | 96 nvidia.com/gpu | 384 | 6Ti |

### Per namespace

| Namespace | Jobs | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|
| data | 1 | 3 | - | 0.75 | 1536Mi |
| research | 2 | 14 | 8 amd.com/gpu, 96 nvidia.com/gpu | 416 | 6272Gi |
`;

describe('plan', () => {
  const outdir = synthesizeExamples();
  const v1 = buildApp(new App({ outdir: fs.mkdtempSync(`${outdir}-v1-`) }), 1);
  const v2 = buildApp(new App({ outdir: fs.mkdtempSync(`${outdir}-v2-`) }), 2);
  v1.synth();
  v2.synth();
  afterAll(() => [outdir, v1.outdir, v2.outdir].forEach(d => fs.rmSync(d, { recursive: true, force: true })));

  test('on the examples: exact amounts per job, workspace, queue and namespace (the workspaces through the WorkspaceKind\'s pod configs)', () => {
    const result = runCli(['plan', outdir]);
    expect(result.stdout).toBe(EXAMPLES_PLAN.slice(1));
    expect(result.status).toBe(0);
  });

  test('--against: jobs added, removed and changed, and the change per queue', () => {
    const result = runCli(['plan', v2.outdir, '--against', v1.outdir]);
    expect(result.stdout).toBe(AGAINST_PLAN.slice(1));
    expect(result.status).toBe(0);
  });

  test('the README\'s CI steps are the ones of the workflow in docs/cli.md', () => {
    const readme = fs.readFileSync(path.join(path.dirname(__dirname), '..', '..', 'README.md'), 'utf8');
    const doc = fs.readFileSync(path.join(path.dirname(__dirname), '..', '..', 'docs', 'cli.md'), 'utf8');
    const steps = /```yaml\n( {6}- name: Lint every manifest\n[^`]*)```/.exec(readme)![1];
    expect(steps.split('\n').length).toBeGreaterThan(10);
    expect(doc).toContain(steps);
  });

  test('docs/cli.md shows the start of that output as it is', () => {
    const doc = fs.readFileSync(path.join(path.dirname(__dirname), '..', '..', 'docs', 'cli.md'), 'utf8');
    const sample = /```markdown\n([^`]*)```/.exec(doc)![1];
    expect(AGAINST_PLAN.slice(1).startsWith(sample)).toBe(true);
  });

  test('--against the same manifests: nothing changed', () => {
    const result = runCli(['plan', v1.outdir, `--against=${v1.outdir}`]);
    expect(result.stdout.split('\n').slice(0, 3)).toEqual(['## Change: 0 added, 0 removed, 0 changed', '', 'No training job changed.']);
  });

  test('a document that is not YAML is reported and fails the plan', () => {
    const result = runCli(['plan', '-'], 'kind: [unclosed\n');
    expect(result.stderr).toBe('<stdin>:2: not YAML: Flow sequence in block collection must be sufficiently indented and end with a ]\n');
    expect(result.stdout).toBe('## Training jobs: 0\n\nNo training jobs.\n');
    expect(result.status).toBe(1);
  });
});

describe('exact amounts', () => {
  test('a pod asks for the sum of its containers or its largest init container, rounded up as the API server rounds', () => {
    const amounts = podAmounts({
      containers: [
        { resources: { requests: { cpu: '100m', memory: '1Gi' }, limits: { 'nvidia.com/gpu': 2 } } },
        { resources: { limits: { 'cpu': '0.0015', 'memory': '1.5Gi', 'nvidia.com/gpu': '1' } } },
      ],
      initContainers: [{ resources: { requests: { cpu: '3', memory: '1M' } } }],
    });
    // 0.0015 cores is 1.5 millicores, which MilliValue rounds up to 2; the init container's 3 cores win.
    expect(amounts.milliCpu).toBe(BigInt(3000));
    expect(amounts.memoryBytes).toBe(BigInt(2.5 * 2 ** 30));
    expect([...amounts.accelerators]).toEqual([['nvidia.com/gpu', BigInt(3)]]);
    expect(podAmounts({ containers: [{ resources: { requests: { cpu: '0.0015' } } }] }).milliCpu).toBe(BigInt(2));
  });

  test.each([
    [BigInt(0), '0'], [BigInt(250), '0.25'], [BigInt(1500), '1.5'], [BigInt(-2000), '-2'], [BigInt('123456789012345678901'), '123456789012345678.901'],
  ])('CPU %s millicores reads %s', (milli, text) => {
    expect(formatCpu(milli)).toBe(text);
  });

  test.each([
    [BigInt(0), '0'], [BigInt(1536) * BigInt(2 ** 20), '1536Mi'], [BigInt(2) ** BigInt(42), '4Ti'], [BigInt(2e9), '2G'], [BigInt(1001), '1001'],
  ])('memory %s bytes reads %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
