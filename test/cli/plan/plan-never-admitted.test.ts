/**
 * `plan` never misleads about a job Kueue can never admit: grown from 4 to 8 workers past its
 * ClusterQueue's 64 GPUs (test/cli/fixtures/kueue-grown), the job stays in the demand it asks for,
 * every row that counts it says so, in markdown and JSON and with --against, and the plan exits 1;
 * the same job at 6 workers fits, and the plan exits 0. And one pod arithmetic: the job table and
 * the quota view count a pod alike (rules/kueue/pod-requests.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { expectValidManifests } from '../../harness';
import { GPU, clusterQueue, localQueue, resourceFlavor } from '../../harness/kueue-objects';
import { runCli } from '../run-cli';

const GROWN = path.join(path.dirname(__dirname), 'fixtures', 'kueue-grown');
const QUEUES = path.join(GROWN, 'queues.yaml');
const BEFORE = path.join(GROWN, 'before.yaml');
const AFTER = path.join(GROWN, 'after.yaml');
const FITS = path.join(GROWN, 'fits.yaml');

const REASON = 'LocalQueue "research" leads to ClusterQueue "research", where the job\'s podsets together request 72 nvidia.com/gpu, '
  + 'and the flavors "h100" give at most 64 nvidia.com/gpu together';

const GROWN_AGAINST = `## Change: 0 added, 0 removed, 1 changed

| Change | Job | Kind | Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|---|
| changed | ml/llama | PyTorchJob | research -> research (never admitted) | Master 1, Worker 4 -> Master 1, Worker 8 | +32 nvidia.com/gpu | +128 | +1Ti |

Changed jobs show the difference in accelerators, CPU and memory.

### Change per queue

| Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|
| research (1 never admitted) | +4 | +32 nvidia.com/gpu | +128 | +1Ti |

### Change per ClusterQueue and flavor

| ClusterQueue | Flavor | Resource | Before | After | Change | At most |
|---|---|---|---|---|---|---|
| research (1 never admitted) | h100 | cpu | 160 | 288 | +128 | 512 |
| research (1 never admitted) | h100 | memory | 1280Gi | 2304Gi | +1Ti | 4Ti |
| research (1 never admitted) | h100 | nvidia.com/gpu | 40 | 72 | +32 | 64 |

## Training jobs after the change: 1

| Job | Kind | Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| ml/llama | PyTorchJob | research (never admitted) | Master 1, Worker 8 | 72 nvidia.com/gpu | 288 | 2304Gi |

### Per queue

| Queue | Jobs | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|
| research (1 never admitted) | 1 | 9 | 72 nvidia.com/gpu | 288 | 2304Gi |

### Per namespace

| Namespace | Jobs | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|
| ml (1 never admitted) | 1 | 9 | 72 nvidia.com/gpu | 288 | 2304Gi |

### Per ClusterQueue and flavor

| ClusterQueue | Flavor | Resource | Requested | Nominal quota | Borrowing limit | At most | State |
|---|---|---|---|---|---|---|---|
| research (1 job, 1 never admitted) | h100 | cpu | 288 | 512 | - | 512 | 288 asked by jobs never admitted, nothing by the others |
| research (1 job, 1 never admitted) | h100 | memory | 2304Gi | 4Ti | - | 4Ti | 2304Gi asked by jobs never admitted, nothing by the others |
| research (1 job, 1 never admitted) | h100 | nvidia.com/gpu | 72 | 64 | - | 64 | 72 asked by jobs never admitted, nothing by the others |

Each job is placed as Kueue places it on an idle queue (its first flavor with room); "At most" is nominal quota plus what the queue may borrow.
A job a ClusterQueue never admits is counted where it asks (the first flavor its pods may use) and named under "Never admitted".

### Never admitted: 1

- PyTorchJob ml/llama: LocalQueue "research" leads to ClusterQueue "research", where the job's podsets together request 72 nvidia.com/gpu, and the flavors "h100" give at most 64 nvidia.com/gpu together
`;

const demand = (gpus: number, cpu: number, memoryGi: number) => ({
  accelerators: { [GPU]: gpus }, cpu: String(cpu), milliCpu: cpu * 1000, memory: `${memoryGi}Gi`, memoryBytes: memoryGi * 2 ** 30,
});

describe('a job grown past its quota', () => {
  test('the fixtures are valid against their pinned CRDs', () => {
    expect(expectValidManifests([QUEUES, BEFORE, AFTER, FITS].flatMap(f => yaml.loadAll(fs.readFileSync(f, 'utf8'))))).toBe(6);
  });

  test('markdown --against: more demand on its queue and ClusterQueue, never quota given back; each row marked; exit 1', () => {
    expect(runCli(['plan', AFTER, '--queues', QUEUES, '--against', BEFORE])).toEqual({ status: 1, stdout: GROWN_AGAINST, stderr: '' });
  });

  test('JSON --against: the same, with neverAdmitted on the job, its queue and its ClusterQueue\'s rows; exit 1', () => {
    const { status, stdout, stderr } = runCli(['plan', '--format', 'json', AFTER, '--queues', QUEUES, '--against', BEFORE]);
    expect([status, stderr]).toEqual([1, '']);
    const json = JSON.parse(stdout);
    const roles = (workers: number) => [{ role: 'Master', pods: 1 }, { role: 'Worker', pods: workers }];
    const job = { kind: 'PyTorchJob', namespace: 'ml', name: 'llama', queue: 'research' };
    expect(json.change.changed).toEqual([{
      before: { ...job, roles: roles(4), pods: 5, demand: demand(40, 160, 1280) },
      after: { ...job, roles: roles(8), pods: 9, demand: demand(72, 288, 2304), neverAdmitted: REASON },
      difference: { ...demand(32, 128, 1024), memory: '1Ti' },
    }]);
    expect(json.change.queues).toEqual([{ queue: 'research', pods: 4, difference: { ...demand(32, 128, 1024), memory: '1Ti' }, neverAdmitted: 1 }]);
    const change = (resource: string, before: string, after: string, difference: string, atMost: string) =>
      ({ clusterQueue: 'research', flavor: 'h100', resource, before, after, difference, atMost, neverAdmitted: after });
    expect(json.change.clusterQueues).toEqual([
      change('cpu', '160', '288', '128', '512'),
      change('memory', '1280Gi', '2304Gi', '1Ti', '4Ti'),
      change(GPU, '40', '72', '32', '64'),
    ]);
    expect(json.jobs).toEqual([{ ...job, roles: roles(8), pods: 9, demand: demand(72, 288, 2304), neverAdmitted: REASON }]);
    expect(json.queues).toEqual([{ queue: 'research', jobs: 1, workspaces: 0, pods: 9, demand: demand(72, 288, 2304), neverAdmitted: 1 }]);
    const row = (resource: string, requested: string, nominalQuota: string) => ({
      flavor: 'h100',
      resource,
      requested,
      nominalQuota,
      borrowingLimit: null,
      atMost: nominalQuota,
      state: `${requested} asked by jobs never admitted, nothing by the others`,
      neverAdmitted: requested,
    });
    expect(json.clusterQueues).toEqual([{
      clusterQueue: 'research',
      cohort: '',
      jobs: [],
      neverAdmitted: ['PyTorchJob ml/llama'],
      flavors: [row('cpu', '288', '512'), row('memory', '2304Gi', '4Ti'), row(GPU, '72', '64')],
    }]);
    expect(json.neverAdmitted).toEqual([{ ...job, clusterQueue: 'research', reason: REASON }]);
  });

  test('text: the same marks, aligned', () => {
    const { status, stdout } = runCli(['plan', '--format', 'text', AFTER, '--queues', QUEUES, '--against', BEFORE]);
    expect(status).toBe(1);
    expect(stdout).toContain('changed  ml/llama  PyTorchJob  research -> research (never admitted)  Master 1, Worker 4 -> Master 1, Worker 8  +32 nvidia.com/gpu');
    expect(stdout).toContain('research (1 never admitted)  h100    nvidia.com/gpu  40      72      +32     64');
  });

  test('the control: grown to 6 workers it fits; nothing is marked and the plan exits 0', () => {
    const { status, stdout } = runCli(['plan', FITS, '--queues', QUEUES, '--against', BEFORE]);
    expect(status).toBe(0);
    expect(stdout).not.toContain('never admitted');
    expect(stdout.slice(stdout.indexOf('### Change per ClusterQueue'), stdout.indexOf('## Training jobs after'))).toBe(`### Change per ClusterQueue and flavor

| ClusterQueue | Flavor | Resource | Before | After | Change | At most |
|---|---|---|---|---|---|---|
| research | h100 | cpu | 160 | 224 | +64 | 512 |
| research | h100 | memory | 1280Gi | 1792Gi | +512Gi | 4Ti |
| research | h100 | nvidia.com/gpu | 40 | 56 | +16 | 64 |

`);
    expect(runCli(['plan', '--format', 'json', FITS, '--queues', QUEUES]).status).toBe(0);
  });
});

describe('one pod arithmetic', () => {
  test('the job table and the quota view count a pod alike: sidecars, init containers, limits for requests, overhead', () => {
    const pod = {
      overhead: { cpu: '250m', memory: '64Mi' },
      initContainers: [
        { name: 'proxy', image: 'img', restartPolicy: 'Always', resources: { requests: { cpu: '1', memory: '1Gi' } } },
        { name: 'fetch', image: 'img', resources: { limits: { cpu: '2', memory: '512Mi' } } },
      ],
      containers: [{ name: 'pytorch', image: 'img', resources: { limits: { cpu: '1', memory: '2Gi' } } }],
    };
    const job = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      metadata: { name: 'side', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'q' } },
      spec: { pytorchReplicaSpecs: { Worker: { replicas: 1, template: { spec: pod } } } },
    };
    const queues = [resourceFlavor('cpu'), clusterQueue('cq', { cpu: [{ name: 'cpu', nominalQuota: 8 }, { name: 'memory', nominalQuota: '16Gi' }] }), localQueue('ml', 'q', 'cq')];
    const { status, stdout } = runCli(['plan', '-'], [job, ...queues].map(d => yaml.dump(d)).join('---\n'));
    expect(status).toBe(0);
    // CPU: containers 1 + sidecar 1 = 2, or while "fetch" runs 2 + the sidecar 1 = 3; the larger, plus 0.25 of overhead.
    // Memory: 2Gi + 1Gi = 3Gi against 512Mi + 1Gi; plus 64Mi.
    expect(stdout).toContain('| ml/side | PyTorchJob | q | Worker 1 | - | 3.25 | 3136Mi |');
    expect(stdout).toContain('| cq (1 job) | cpu | cpu | 3.25 | 8 | - | 8 | within nominal quota |');
    expect(stdout).toContain('| cq (1 job) | cpu | memory | 3136Mi | 16Gi | - | 16Gi | within nominal quota |');
  });
});

describe('plan matches the flavors\' node labels, as docs/cli.md and docs/kueue.md both say', () => {
  test('a job whose nodeSelector asks for h100 is counted on h100, though a100 comes first with room', () => {
    const flavors = [resourceFlavor('a100', { nodeLabels: { 'example.com/gpu': 'a100' } }), resourceFlavor('h100', { nodeLabels: { 'example.com/gpu': 'h100' } })];
    const cq = clusterQueue('cq', { a100: [{ name: GPU, nominalQuota: 8 }], h100: [{ name: GPU, nominalQuota: 8 }] });
    const job = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      metadata: { name: 'pinned', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'q' } },
      spec: {
        pytorchReplicaSpecs: {
          Master: { replicas: 1, template: { spec: { nodeSelector: { 'example.com/gpu': 'h100' }, containers: [{ name: 'pytorch', image: 'img', resources: { limits: { [GPU]: 4 } } }] } } },
        },
      },
    };
    const { status, stdout } = runCli(['plan', '-'], [job, ...flavors, cq, localQueue('ml', 'q', 'cq')].map(d => yaml.dump(d)).join('---\n'));
    expect(status).toBe(0);
    expect(stdout).toContain('| cq (1 job) | a100 | nvidia.com/gpu | 0 | 8 | - | 8 | within nominal quota |\n| cq (1 job) | h100 | nvidia.com/gpu | 4 | 8 | - | 8 | within nominal quota |');
    const flat = (file: string) => fs.readFileSync(path.join(path.dirname(__dirname), '..', '..', 'docs', file), 'utf8').replace(/\s+/g, ' ');
    expect(flat('cli.md')).toContain('the flavors\' node labels are matched with the pods\' `nodeSelector` and required node affinity');
    expect(flat('kueue.md')).toContain('`kueue/never-admitted` (at synth and in `lint`) and `plan` count, for each podset, only the flavors Kueue v0.15.2 would give its pods');
    expect(flat('cli.md')).not.toContain('node labels and taints are not matched');
  });
});

describe('a job whose podsets Kueue\'s first choice of flavors cannot all place', () => {
  test('is still counted: the podsets placed where they went, the others in the first flavor their pods may use', () => {
    const cq = clusterQueue('cq', { a: [{ name: GPU, nominalQuota: 8 }], b: [{ name: GPU, nominalQuota: 8 }] });
    const role = { replicas: 1, template: { spec: { containers: [{ name: 'tensorflow', image: 'img', resources: { limits: { [GPU]: 5 } } }] } } };
    const job = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'TFJob',
      metadata: { name: 'three', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'q' } },
      spec: { tfReplicaSpecs: { Chief: role, PS: role, Worker: role } },
    };
    const docs = [job, resourceFlavor('a'), resourceFlavor('b'), cq, localQueue('ml', 'q', 'cq')];
    const { status, stdout } = runCli(['plan', '-'], docs.map(d => yaml.dump(d)).join('---\n'));
    expect(status).toBe(0);
    // Chief takes 5 of a, PS 5 of b, and Worker fits neither's 3 left: counted in a, its pods' first flavor.
    expect(stdout.slice(stdout.indexOf('| cq'))).toBe(`| cq (1 job) | a | nvidia.com/gpu | 10 | 8 | - | 8 | 2 above what it can get: jobs wait |
| cq (1 job) | b | nvidia.com/gpu | 5 | 8 | - | 8 | within nominal quota |

Each job is placed as Kueue places it on an idle queue (its first flavor with room); "At most" is nominal quota plus what the queue may borrow.

- TFJob ml/three: on an idle ClusterQueue "cq", Kueue's first choice of flavors leaves no room for podset "Worker"; it may still be admitted in other flavors: `
      + 'counted, that podset and those after it in the first flavor their pods may use\n');
  });
});
