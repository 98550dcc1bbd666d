/**
 * `plan` with Kueue's queues (test/cli/fixtures/kueue-platform: two teams' ClusterQueues in one
 * cohort, their LocalQueues and flavors, and five jobs, one too large ever to be admitted): the
 * demand per ClusterQueue and flavor against quota, `--queues`, `--against`, and `lint`'s findings
 * about the same queues.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { expectValidManifests } from '../../harness';
import { GPU, clusterQueue, localQueue, priorityClass, queuedJob, resourceFlavor } from '../../harness/kueue-objects';
import { runCli } from '../run-cli';

const PLATFORM = path.join(path.dirname(__dirname), 'fixtures', 'kueue-platform');
const JOBS = path.join(PLATFORM, 'jobs.yaml');
const QUEUES = path.join(PLATFORM, 'queues');
const BEFORE = path.join(path.dirname(__dirname), 'fixtures', 'kueue-platform-before.yaml');

const LLAMA = 'LocalQueue "team-a" leads to ClusterQueue "team-a", where podset "Worker" (7 pods) requests 56 nvidia.com/gpu, 224 cpu, 1792Gi memory, '
  + 'and flavor "a100" gives at most 20 nvidia.com/gpu (nominal quota 16 + 4 from cohort "research")';
const COHORT = 'cohort "research" holds what its ClusterQueues in the input lend ("team-a", "team-b")';

const PLAN = `## Training jobs: 5

| Job | Kind | Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| team-a/llama-pretrain | PyTorchJob | team-a (never admitted) | Master 1, Worker 7 | 64 nvidia.com/gpu | 256 | 2Ti |
| team-a/resnet | PyTorchJob | team-a | Master 1, Worker 3 | 16 nvidia.com/gpu | 64 | 256Gi |
| team-a/vit | PyTorchJob | team-a | Master 1, Worker 1 | 4 nvidia.com/gpu | 16 | 64Gi |
| team-b/bert | TrainJob | team-b | node 2 | 8 nvidia.com/gpu | 16 | 64Gi |
| team-b/churn | XGBoostJob | team-b | Master 1, Worker 2 | - | 6 | 12Gi |

- TrainJob team-b/bert: runtime ClusterTrainingRuntime torch-distributed is not in the input: counted as the one built into Trainer v2.3.0

### Per queue

| Queue | Jobs | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|
| team-a (1 never admitted) | 3 | 14 | 84 nvidia.com/gpu | 336 | 2368Gi |
| team-b | 2 | 5 | 8 nvidia.com/gpu | 22 | 76Gi |

### Per namespace

| Namespace | Jobs | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|
| team-a (1 never admitted) | 3 | 14 | 84 nvidia.com/gpu | 336 | 2368Gi |
| team-b | 2 | 5 | 8 nvidia.com/gpu | 22 | 76Gi |

### Per ClusterQueue and flavor

| ClusterQueue | Flavor | Resource | Requested | Nominal quota | Borrowing limit | At most | State |
|---|---|---|---|---|---|---|---|
| team-a (3 jobs, 1 never admitted) | a100 | cpu | 336 | 128 | - | 192 | within nominal quota, and 256 asked by jobs never admitted |
| team-a (3 jobs, 1 never admitted) | a100 | memory | 2368Gi | 1Ti | - | 1536Gi | within nominal quota, and 2Ti asked by jobs never admitted |
| team-a (3 jobs, 1 never admitted) | a100 | nvidia.com/gpu | 84 | 16 | 8 | 20 | borrows 4, and 64 asked by jobs never admitted |
| team-b (2 jobs) | a100 | cpu | 22 | 64 | - | 192 | within nominal quota |
| team-b (2 jobs) | a100 | memory | 76Gi | 512Gi | - | 1536Gi | within nominal quota |
| team-b (2 jobs) | a100 | nvidia.com/gpu | 8 | 8 | - | 24 | within nominal quota |
| team-b (2 jobs) | cpu-only | cpu | 0 | 32 | - | 32 | within nominal quota |
| team-b (2 jobs) | cpu-only | memory | 0 | 128Gi | - | 128Gi | within nominal quota |
| team-b (2 jobs) | cpu-only | nvidia.com/gpu | 0 | 0 | - | 0 | within nominal quota |

Each job is placed as Kueue places it on an idle queue (its first flavor with room); "At most" is nominal quota plus what the queue may borrow.
A job a ClusterQueue never admits is counted where it asks (the first flavor its pods may use) and named under "Never admitted".

- ClusterQueue team-a: ${COHORT}
- ClusterQueue team-b: ${COHORT}

### Never admitted: 1

- PyTorchJob team-a/llama-pretrain: ${LLAMA}
`;

const TEXT_QUOTA = `Per ClusterQueue and flavor
---------------------------

ClusterQueue                       Flavor    Resource        Requested  Nominal quota  Borrowing limit  At most  State
---------------------------------  --------  --------------  ---------  -------------  ---------------  -------  ----------------------------------------------------------
team-a (3 jobs, 1 never admitted)  a100      cpu             336        128            -                192      within nominal quota, and 256 asked by jobs never admitted
team-a (3 jobs, 1 never admitted)  a100      memory          2368Gi     1Ti            -                1536Gi   within nominal quota, and 2Ti asked by jobs never admitted
team-a (3 jobs, 1 never admitted)  a100      nvidia.com/gpu  84         16             8                20       borrows 4, and 64 asked by jobs never admitted
team-b (2 jobs)                    a100      cpu             22         64             -                192      within nominal quota
team-b (2 jobs)                    a100      memory          76Gi       512Gi          -                1536Gi   within nominal quota
team-b (2 jobs)                    a100      nvidia.com/gpu  8          8              -                24       within nominal quota
team-b (2 jobs)                    cpu-only  cpu             0          32             -                32       within nominal quota
team-b (2 jobs)                    cpu-only  memory          0          128Gi          -                128Gi    within nominal quota
team-b (2 jobs)                    cpu-only  nvidia.com/gpu  0          0              -                0        within nominal quota

Each job is placed as Kueue places it on an idle queue (its first flavor with room); "At most" is nominal quota plus what the queue may borrow.
A job a ClusterQueue never admits is counted where it asks (the first flavor its pods may use) and named under "Never admitted".

- ClusterQueue team-a: ${COHORT}
- ClusterQueue team-b: ${COHORT}

Never admitted: 1
-----------------

- PyTorchJob team-a/llama-pretrain: ${LLAMA}
`;

const row = (flavor: string, resource: string, requested: string, nominalQuota: string, borrowingLimit: string | null, atMost: string,
  state: string) =>
  ({ flavor, resource, requested, nominalQuota, borrowingLimit, atMost, state });

test('the platform\'s jobs and Kueue objects are valid against their pinned CRDs', () => {
  const docs = [JOBS, BEFORE, ...fs.readdirSync(QUEUES).map(f => path.join(QUEUES, f))].flatMap(f => yaml.loadAll(fs.readFileSync(f, 'utf8')));
  expect(expectValidManifests(docs)).toBe(13);
});

describe('plan with the queues in the input', () => {
  test('Markdown: the demand per ClusterQueue and flavor, the cohort, and the job never admitted', () => {
    // llama-pretrain is never admitted: the plan fails as lint does.
    expect(runCli(['plan', PLATFORM])).toEqual({ status: 1, stdout: PLAN, stderr: '' });
  });

  test('text: the same tables aligned', () => {
    const { status, stdout } = runCli(['plan', '--format', 'text', PLATFORM]);
    expect(status).toBe(1);
    expect(stdout.slice(stdout.indexOf('Per ClusterQueue and flavor'))).toBe(TEXT_QUOTA);
    expect(stdout).toContain('team-a/llama-pretrain  PyTorchJob  team-a (never admitted)  Master 1, Worker 7');
  });

  test('JSON: clusterQueues, neverAdmitted and queueNotes beside the plan', () => {
    const { status, stdout } = runCli(['plan', '--format', 'json', PLATFORM]);
    expect(status).toBe(1);
    const json = JSON.parse(stdout);
    expect(json.clusterQueues).toEqual([
      {
        clusterQueue: 'team-a',
        cohort: 'research',
        cohortNote: COHORT,
        jobs: ['PyTorchJob team-a/resnet', 'PyTorchJob team-a/vit'],
        neverAdmitted: ['PyTorchJob team-a/llama-pretrain'],
        flavors: [
          { ...row('a100', 'cpu', '336', '128', null, '192', 'within nominal quota, and 256 asked by jobs never admitted'), neverAdmitted: '256' },
          { ...row('a100', 'memory', '2368Gi', '1Ti', null, '1536Gi', 'within nominal quota, and 2Ti asked by jobs never admitted'), neverAdmitted: '2Ti' },
          { ...row('a100', GPU, '84', '16', '8', '20', 'borrows 4, and 64 asked by jobs never admitted'), neverAdmitted: '64' },
        ],
      },
      {
        clusterQueue: 'team-b',
        cohort: 'research',
        cohortNote: COHORT,
        jobs: ['TrainJob team-b/bert', 'XGBoostJob team-b/churn'],
        neverAdmitted: [],
        flavors: [
          row('a100', 'cpu', '22', '64', null, '192', 'within nominal quota'),
          row('a100', 'memory', '76Gi', '512Gi', null, '1536Gi', 'within nominal quota'),
          row('a100', GPU, '8', '8', null, '24', 'within nominal quota'),
          row('cpu-only', 'cpu', '0', '32', null, '32', 'within nominal quota'),
          row('cpu-only', 'memory', '0', '128Gi', null, '128Gi', 'within nominal quota'),
          row('cpu-only', GPU, '0', '0', null, '0', 'within nominal quota'),
        ],
      },
    ]);
    expect(json.neverAdmitted).toEqual([{ kind: 'PyTorchJob', namespace: 'team-a', name: 'llama-pretrain', queue: 'team-a', clusterQueue: 'team-a', reason: LLAMA }]);
    // The job keeps its row and its demand in every total, each saying so.
    expect(json.jobs[0]).toMatchObject({ name: 'llama-pretrain', neverAdmitted: LLAMA, demand: { accelerators: { [GPU]: 64 } } });
    expect(json.queues[0]).toMatchObject({ queue: 'team-a', jobs: 3, neverAdmitted: 1, demand: { accelerators: { [GPU]: 84 } } });
    expect(json.queues[1]).not.toHaveProperty('neverAdmitted');
    expect(json.queueNotes).toEqual([]);
    expect(Object.keys(json)).toEqual(['jobs', 'workspaces', 'queues', 'namespaces', 'notes', 'clusterQueues', 'neverAdmitted', 'queueNotes']);
  });

  test('--queues names the queues kept apart from the jobs: the same plan', () => {
    expect(runCli(['plan', JOBS, '--queues', QUEUES])).toEqual({ status: 1, stdout: PLAN, stderr: '' });
    // The jobs alone: no quota view, and no JSON fields for it.
    const alone = runCli(['plan', '--format', 'json', JOBS]);
    expect(Object.keys(JSON.parse(alone.stdout))).toEqual(['jobs', 'workspaces', 'queues', 'namespaces', 'notes']);
    expect(runCli(['plan', JOBS]).stdout).not.toContain('ClusterQueue');
  });

  test('jobs the quota view does not count say why', () => {
    const queues = [resourceFlavor('a100'), clusterQueue('team-cq', { a100: [{ name: GPU, nominalQuota: 8 }] }), localQueue('ml', 'team', 'team-cq')];
    const mpi = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'MPIJob',
      metadata: { name: 'mpi', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'team' } },
      spec: { mpiReplicaSpecs: { Worker: { replicas: 1, template: { spec: { containers: [{ name: 'w', image: 'x', resources: { limits: { [GPU]: 1 } } }] } } } } },
    };
    const docs = [...queues, queuedJob('ml', 'fits', 'team', { Worker: { replicas: 2, limits: { [GPU]: 4 } } }), queuedJob('ml', 'lost', 'teem', { Worker: { replicas: 1, limits: { [GPU]: 1 } } }), mpi];
    const { stdout } = runCli(['plan', '-'], docs.map(d => yaml.dump(d)).join('---\n'));
    expect(stdout.slice(stdout.indexOf('### Per ClusterQueue'))).toBe(`### Per ClusterQueue and flavor

| ClusterQueue | Flavor | Resource | Requested | Nominal quota | Borrowing limit | At most | State |
|---|---|---|---|---|---|---|---|
| team-cq (1 job) | a100 | nvidia.com/gpu | 8 | 8 | - | 8 | within nominal quota |

Each job is placed as Kueue places it on an idle queue (its first flavor with room); "At most" is nominal quota plus what the queue may borrow.

- MPIJob ml/mpi: Kueue does not queue a kubeflow.org/v1 MPIJob: not counted against a ClusterQueue
- PyTorchJob ml/lost: LocalQueue ml/teem is not in the input: not counted against a ClusterQueue
`);
  });
});

describe('plan --against: how a change moves each ClusterQueue\'s demand', () => {
  test('Markdown: the change per ClusterQueue and flavor, measured against today\'s queues when the old manifests have none', () => {
    const { status, stdout } = runCli(['plan', JOBS, '--queues', QUEUES, '--against', BEFORE]);
    expect(status).toBe(1);
    const start = stdout.indexOf('### Change per ClusterQueue');
    expect(stdout.slice(start, stdout.indexOf('## Training jobs after the change'))).toBe(`### Change per ClusterQueue and flavor

| ClusterQueue | Flavor | Resource | Before | After | Change | At most |
|---|---|---|---|---|---|---|
| team-a (1 never admitted) | a100 | cpu | 32 | 336 | +304 | 192 |
| team-a (1 never admitted) | a100 | memory | 128Gi | 2368Gi | +2240Gi | 1536Gi |
| team-a (1 never admitted) | a100 | nvidia.com/gpu | 8 | 84 | +76 | 20 |
| team-b | a100 | cpu | 0 | 22 | +22 | 192 |
| team-b | a100 | memory | 0 | 76Gi | +76Gi | 1536Gi |
| team-b | a100 | nvidia.com/gpu | 0 | 8 | +8 | 24 |

`);
    expect(stdout.endsWith(`### Never admitted: 1\n\n- PyTorchJob team-a/llama-pretrain: ${LLAMA}\n`)).toBe(true);
  });

  test('JSON: change.clusterQueues', () => {
    const json = JSON.parse(runCli(['plan', '--format', 'json', BEFORE, '--queues', QUEUES, '--against', JOBS]).stdout);
    // Backwards: the jobs of today against the old manifests, so team-a gives back what it gained, the never-admitted job's demand too.
    expect(json.change.clusterQueues).toEqual([
      { clusterQueue: 'team-a', flavor: 'a100', resource: 'cpu', before: '336', after: '32', difference: '-304', atMost: '192' },
      { clusterQueue: 'team-a', flavor: 'a100', resource: 'memory', before: '2368Gi', after: '128Gi', difference: '-2240Gi', atMost: '1536Gi' },
      { clusterQueue: 'team-a', flavor: 'a100', resource: GPU, before: '84', after: '8', difference: '-76', atMost: '20' },
      { clusterQueue: 'team-b', flavor: 'a100', resource: 'cpu', before: '22', after: '0', difference: '-22', atMost: '192' },
      { clusterQueue: 'team-b', flavor: 'a100', resource: 'memory', before: '76Gi', after: '0', difference: '-76Gi', atMost: '1536Gi' },
      { clusterQueue: 'team-b', flavor: 'a100', resource: GPU, before: '8', after: '0', difference: '-8', atMost: '24' },
    ]);
    expect(json.neverAdmitted).toEqual([]);
  });
});

describe('lint: the Kueue findings across the input', () => {
  const lintDocs = (docs: any[]) => runCli(['lint', '-'], docs.map(d => yaml.dump(d, { lineWidth: -1 })).join('---\n'));

  test('the platform: the one job its ClusterQueue never admits', () => {
    const { status, stdout } = runCli(['lint', PLATFORM]);
    expect(status).toBe(1);
    expect(stdout.split('\n').filter(l => l.includes('[kueue/never-admitted]')).map(l => l.slice(`${JOBS}:36:5: `.length))).toEqual([
      `PyTorchJob team-a/llama-pretrain: metadata.labels["kueue.x-k8s.io/queue-name"] is "team-a"; expected a LocalQueue whose ClusterQueue can admit the job: ${LLAMA}; `
        + 'Kueue admits a workload whole, so the job stays suspended for good [kueue/never-admitted]',
    ]);
    expect(stdout.split('\n').filter(l => l.includes('[kueue/never-admitted]')).map(l => l.slice(0, `${JOBS}:36:5: `.length))).toEqual([`${JOBS}:36:5: `]);
  });

  test('names of Kueue objects the input does not define, each with a near name', () => {
    const docs = [
      resourceFlavor('a100', { topologyName: 'defualt' }), { apiVersion: 'kueue.x-k8s.io/v1beta1', kind: 'Topology', metadata: { name: 'default' }, spec: { levels: [{ nodeLabel: 'kubernetes.io/hostname' }] } },
      clusterQueue('team-cq', { a10: [{ name: GPU, nominalQuota: 8 }] }), localQueue('ml', 'team', 'team-qc'), priorityClass('high'),
      queuedJob('ml', 'train', 'teem', { Master: { replicas: 1, limits: { [GPU]: 1 } } }, { 'kueue.x-k8s.io/priority-class': 'hihg' }),
    ];
    const { status, stdout } = lintDocs(docs);
    expect(status).toBe(1);
    expect(stdout.split('\n').filter(l => l.includes('[kueue/reference]'))).toEqual([
      '<stdin>:6:3: ResourceFlavor a100: spec.topologyName is "defualt"; expected a Topology the input defines; did you mean "default"? '
        + 'Without it every ClusterQueue that uses the flavor is inactive and admits nothing [kueue/reference]',
      '<stdin>:26:11: ClusterQueue team-cq: spec.resourceGroups[0].flavors[0].name is "a10"; expected a ResourceFlavor the input defines; did you mean "a100"? '
        + 'Without it the ClusterQueue admits nothing [kueue/reference]',
      '<stdin>:37:3: LocalQueue ml/team: spec.clusterQueue is "team-qc"; expected a ClusterQueue the input defines; did you mean "team-cq"? '
        + 'Without it the LocalQueue admits nothing [kueue/reference]',
      '<stdin>:51:5: PyTorchJob ml/train: metadata.labels["kueue.x-k8s.io/queue-name"] is "teem"; expected a LocalQueue the input defines in the job\'s namespace "ml"; '
        + 'did you mean "team"? Without it Kueue admits nothing for the job and it stays suspended [kueue/reference]',
      '<stdin>:52:5: PyTorchJob ml/train: metadata.labels["kueue.x-k8s.io/priority-class"] is "hihg"; expected a WorkloadPriorityClass the input defines; '
        + 'did you mean "high"? Without it Kueue makes no Workload and the job stays suspended [kueue/reference]',
    ]);
  });

  test('--rules-off kueue leaves them out', () => {
    const docs = [resourceFlavor('a100'), localQueue('ml', 'team', 'team-qc')];
    expect(lintDocs(docs).stdout).toContain('[kueue/reference]');
    expect(runCli(['lint', '--rules-off', 'kueue', '-'], docs.map(d => yaml.dump(d)).join('---\n')).stdout).not.toContain('[kueue/');
  });
});
