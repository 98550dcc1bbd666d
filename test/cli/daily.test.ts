/**
 * The command as a platform team uses it every day, in a child process on the compiled library
 * (`npx projen compile`): `--version`, the help of the command and of each command (standard
 * output, status 0), `plan --format markdown|text|json`, and the notebook workspaces in the plan.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from './run-cli';
import { COMMAND_USAGE, USAGE } from '../../src/cli/main';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'cdk8s-kubeflow');
const INPUT = path.join(__dirname, 'fixtures', 'plan-workspaces.yaml');
const BEFORE = path.join(__dirname, 'fixtures', 'plan-workspaces-before.yaml');

function command(args: readonly string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, input, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ok = (stdout: string) => ({ status: 0, stdout, stderr: '' });

describe('--version and --help', () => {
  test('the library is compiled (npx projen compile)', () => {
    expect(fs.existsSync(path.join(ROOT, 'lib', 'src', 'cli', 'main.js'))).toBe(true);
  });

  test('--version prints the package\'s version', () => {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(command(['--version'])).toEqual(ok(`${version}\n`));
  });

  test.each([['--help'], ['-h'], ['help']])('%s prints the usage of every command on standard output, status 0', flag => {
    expect(command([flag])).toEqual(ok(USAGE));
    expect(USAGE.split('\n').filter(l => l.startsWith('  cdk8s-kubeflow '))).toEqual([
      '  cdk8s-kubeflow lint [--format text|json|github] [--rules-off SOURCE]... [--target VERSIONS] [--allow-empty] PATH...',
      '  cdk8s-kubeflow plan [--format markdown|text|json] [--target VERSIONS] [--allow-empty] PATH... [--against PATH]... [--queues PATH]...',
      '  cdk8s-kubeflow rules',
      '  cdk8s-kubeflow convert [--out FILE] PATH...',
      '  cdk8s-kubeflow COMMAND --help',
      '  cdk8s-kubeflow --version',
    ]);
  });

  test.each([
    ['lint', '--help'], ['lint', '-h'], ['lint', '--format', 'json', '--help', 'dist/'], ['help', 'lint'],
    ['plan', '--help'], ['plan', '-h'], ['help', 'plan'],
    ['rules', '--help'], ['rules', '-h'], ['help', 'rules'],
    ['convert', '--help'], ['convert', '--out', 'app.ts', '-h', 'dist/'], ['help', 'convert'],
  ].map(args => [args]))('%j prints that command\'s usage, status 0', args => {
    const name = args[0] === 'help' ? args[1] : args[0];
    expect(command(args)).toEqual(ok(COMMAND_USAGE[name as keyof typeof COMMAND_USAGE]));
  });

  test('the usage of plan, exactly', () => {
    expect(command(['plan', '--help']).stdout).toBe(`Usage: cdk8s-kubeflow plan [--format markdown|text|json] [--target VERSIONS] [--allow-empty] PATH... [--against PATH]... [--queues PATH]...

Pods, accelerators, CPU and memory per training job (a TrainJob through its runtime in the same
input) and per notebook workspace (its WorkspaceKind's pod config in the same input), per Kueue
queue and per namespace; with Kueue ClusterQueues in the input or --queues, the jobs' demand per
ClusterQueue and flavor against quota and the jobs Kueue never admits; with --against, what
changed from those manifests.

Options:
  --format markdown|text|json  markdown (the default): tables for a pull-request comment; text:
                               the same tables aligned for a terminal; json: one object
  --against PATH               the manifests to compare with (repeat it for more paths)
  --queues PATH                Kueue objects (ClusterQueue, LocalQueue, ResourceFlavor, Cohort)
                               kept apart from the jobs (repeat it for more paths)
  --target VERSIONS            the versions the cluster runs, as lint takes them (kueue=v0.19,...);
                               checked against the support window and named on standard error
  --allow-empty                PATHs without YAML documents are no error; without it, they are
                               (status 2): a plan of nothing says nothing
  -h, --help                   print this help

PATH is a YAML file, a folder (searched recursively for *.yaml and *.yml) or - for standard input.
Exit status: 0 planned, 1 an input document is not YAML or Kueue can never admit a job of PATH
(its ClusterQueue can never give what it asks for), 2 usage error (or PATHs without YAML
documents), 3 internal error.
`);
  });

  test('each command\'s usage starts with its synopsis and lists -h, --help', () => {
    expect(Object.entries(COMMAND_USAGE).map(([name, text]) => [name, text.split('\n')[0], text.includes('  -h, --help ')])).toEqual([
      ['lint', 'Usage: cdk8s-kubeflow lint [--format text|json|github] [--rules-off SOURCE]... [--target VERSIONS] [--allow-empty] PATH...', true],
      ['plan', 'Usage: cdk8s-kubeflow plan [--format markdown|text|json] [--target VERSIONS] [--allow-empty] PATH... [--against PATH]... [--queues PATH]...', true],
      ['rules', 'Usage: cdk8s-kubeflow rules', true],
      ['convert', 'Usage: cdk8s-kubeflow convert [--out FILE] PATH...', true],
    ]);
  });

  test.each([
    [['--version', 'lint'], 'cdk8s-kubeflow: --version takes no arguments'],
    [['help', 'deploy'], 'cdk8s-kubeflow: help takes one command: lint, plan, rules, convert'],
    [['plan', '--format', 'yaml', INPUT], 'cdk8s-kubeflow: --format is "yaml"; expected markdown, text or json'],
    [['lint', '--version', INPUT], 'cdk8s-kubeflow: unknown option "--version"'],
  ])('%j is a usage error: status 2, the usage on standard error', (args, message) => {
    const result = command(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    // The usage of the command given, or of every command when none is.
    const given = args[0] as keyof typeof COMMAND_USAGE;
    expect(result.stderr).toBe(`${message}\n${given in COMMAND_USAGE ? COMMAND_USAGE[given] : USAGE}`);
  });
});

const MARKDOWN = `## Training jobs: 1

| Job | Kind | Queue | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| ml/sft | PyTorchJob | gpu | Master 1, Worker 2 | 6 nvidia.com/gpu | 24 | 192Gi |

## Notebook workspaces: 4

| Workspace | Kind | Queue | Pod config | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| ml/ana | lab | gpu | gpu | 1 nvidia.com/gpu | 4 | 16Gi |
| ml/ben | lab | (none) | small (paused) | - | 0 | 0 |
| ml/cy | lab | notebooks | old-gpu | 1 nvidia.com/gpu | 2 | 16Gi |
| research/dee | vscode | (none) | small | - | 0 | 0 |

- Workspace ml/cy: podConfig "old-gpu" redirects to "gpu": counted as "old-gpu", not as "gpu"
- Workspace research/dee: WorkspaceKind vscode is not in the input: its pod's resources are not counted

### Per queue

| Queue | Jobs | Workspaces | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| (none) | 0 | 2 | 1 | - | 0 | 0 |
| gpu | 1 | 1 | 4 | 7 nvidia.com/gpu | 28 | 208Gi |
| notebooks | 0 | 1 | 1 | 1 nvidia.com/gpu | 2 | 16Gi |

### Per namespace

| Namespace | Jobs | Workspaces | Pods | Accelerators | CPU | Memory |
|---|---|---|---|---|---|---|
| ml | 1 | 3 | 5 | 8 nvidia.com/gpu | 30 | 224Gi |
| research | 0 | 1 | 1 | - | 0 | 0 |
`;

const TEXT = `Training jobs: 1
================

Job     Kind        Queue  Pods                Accelerators      CPU  Memory
------  ----------  -----  ------------------  ----------------  ---  ------
ml/sft  PyTorchJob  gpu    Master 1, Worker 2  6 nvidia.com/gpu  24   192Gi

Notebook workspaces: 4
======================

Workspace     Kind    Queue      Pod config      Accelerators      CPU  Memory
------------  ------  ---------  --------------  ----------------  ---  ------
ml/ana        lab     gpu        gpu             1 nvidia.com/gpu  4    16Gi
ml/ben        lab     (none)     small (paused)  -                 0    0
ml/cy         lab     notebooks  old-gpu         1 nvidia.com/gpu  2    16Gi
research/dee  vscode  (none)     small           -                 0    0

- Workspace ml/cy: podConfig "old-gpu" redirects to "gpu": counted as "old-gpu", not as "gpu"
- Workspace research/dee: WorkspaceKind vscode is not in the input: its pod's resources are not counted

Per queue
---------

Queue      Jobs  Workspaces  Pods  Accelerators      CPU  Memory
---------  ----  ----------  ----  ----------------  ---  ------
(none)     0     2           1     -                 0    0
gpu        1     1           4     7 nvidia.com/gpu  28   208Gi
notebooks  0     1           1     1 nvidia.com/gpu  2    16Gi

Per namespace
-------------

Namespace  Jobs  Workspaces  Pods  Accelerators      CPU  Memory
---------  ----  ----------  ----  ----------------  ---  ------
ml         1     3           5     8 nvidia.com/gpu  30   224Gi
research   0     1           1     -                 0    0
`;

const GI = 2 ** 30;
/** A demand (or difference) object of the JSON output. */
const demand = (gpus: number, cores: number, gi: number) => ({
  accelerators: gpus === 0 ? {} : { 'nvidia.com/gpu': gpus },
  cpu: String(cores),
  milliCpu: cores * 1000,
  memory: gi === 0 ? '0' : `${gi}Gi`,
  memoryBytes: gi * GI,
});
const workspace = (namespace: string, name: string, queue: string, pods: number, d: object, kind: string, podConfig: string, paused = false) => ({
  kind: 'Workspace', namespace, name, queue, roles: [{ role: 'workspace', pods }], pods, demand: d, workspace: { kind, podConfig, paused },
});
const sft = (workers: number) => ({
  kind: 'PyTorchJob',
  namespace: 'ml',
  name: 'sft',
  queue: 'gpu',
  roles: [{ role: 'Master', pods: 1 }, { role: 'Worker', pods: workers }],
  pods: 1 + workers,
  demand: demand(2 * (1 + workers), 8 * (1 + workers), 64 * (1 + workers)),
});
const WORKSPACES = [
  workspace('ml', 'ana', 'gpu', 1, demand(1, 4, 16), 'lab', 'gpu'),
  workspace('ml', 'ben', '', 0, demand(0, 0, 0), 'lab', 'small', true),
  workspace('ml', 'cy', 'notebooks', 1, demand(1, 2, 16), 'lab', 'old-gpu'),
  workspace('research', 'dee', '', 1, demand(0, 0, 0), 'vscode', 'small'),
];

const PLAN_JSON = {
  jobs: [sft(2)],
  workspaces: WORKSPACES,
  queues: [
    { queue: '', jobs: 0, workspaces: 2, pods: 1, demand: demand(0, 0, 0) },
    { queue: 'gpu', jobs: 1, workspaces: 1, pods: 4, demand: demand(7, 28, 208) },
    { queue: 'notebooks', jobs: 0, workspaces: 1, pods: 1, demand: demand(1, 2, 16) },
  ],
  namespaces: [
    { namespace: 'ml', jobs: 1, workspaces: 3, pods: 5, demand: demand(8, 30, 224) },
    { namespace: 'research', jobs: 0, workspaces: 1, pods: 1, demand: demand(0, 0, 0) },
  ],
  notes: [
    { kind: 'Workspace', namespace: 'ml', name: 'cy', note: 'podConfig "old-gpu" redirects to "gpu": counted as "old-gpu", not as "gpu"' },
    { kind: 'Workspace', namespace: 'research', name: 'dee', note: 'WorkspaceKind vscode is not in the input: its pod\'s resources are not counted' },
  ],
};

describe('plan --format', () => {
  test('markdown, the default: the jobs, the workspaces through their WorkspaceKind\'s pod config, and the totals', () => {
    expect(command(['plan', INPUT])).toEqual(ok(MARKDOWN));
    expect(command(['plan', '--format', 'markdown', INPUT])).toEqual(ok(MARKDOWN));
    expect(runCli(['plan', INPUT])).toEqual(ok(MARKDOWN));
  });

  test('text: the same tables, aligned', () => {
    expect(command(['plan', '--format=text', INPUT])).toEqual(ok(TEXT));
  });

  test('json: per job and workspace the row, per queue and namespace the demand, and the notes', () => {
    const result = command(['plan', '--format', 'json', INPUT]);
    expect(result).toEqual(ok(`${JSON.stringify(PLAN_JSON, undefined, 2)}\n`));
  });

  test('json with --against: the change, then the plan after it', () => {
    const result = command(['plan', '--format', 'json', INPUT, '--against', BEFORE]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      change: {
        added: WORKSPACES,
        removed: [],
        changed: [{ before: sft(1), after: sft(2), difference: demand(2, 8, 64) }],
        queues: [
          { queue: '', pods: 1, difference: demand(0, 0, 0) },
          { queue: 'gpu', pods: 2, difference: demand(3, 12, 80) },
          { queue: 'notebooks', pods: 1, difference: demand(1, 2, 16) },
        ],
      },
      ...PLAN_JSON,
    });
  });

  test('text with --against: the change, then the plan after it', () => {
    const result = command(['plan', '--format', 'text', INPUT, '--against', BEFORE]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`Change: 4 added, 0 removed, 1 changed
=====================================

Change   Job           Kind        Queue      Pods                                      Accelerators       CPU  Memory
-------  ------------  ----------  ---------  ----------------------------------------  -----------------  ---  ------
added    ml/ana        Workspace   gpu        workspace 1                               1 nvidia.com/gpu   4    16Gi
added    ml/ben        Workspace   (none)     workspace 0                               -                  0    0
added    ml/cy         Workspace   notebooks  workspace 1                               1 nvidia.com/gpu   2    16Gi
added    research/dee  Workspace   (none)     workspace 1                               -                  0    0
changed  ml/sft        PyTorchJob  gpu        Master 1, Worker 1 -> Master 1, Worker 2  +2 nvidia.com/gpu  +8   +64Gi

Changed jobs show the difference in accelerators, CPU and memory.

Change per queue
----------------

Queue      Pods  Accelerators       CPU  Memory
---------  ----  -----------------  ---  ------
(none)     +1    0                  0    0
gpu        +2    +3 nvidia.com/gpu  +12  +80Gi
notebooks  +1    +1 nvidia.com/gpu  +2   +16Gi

${TEXT.replace('Training jobs: 1\n================', 'Training jobs after the change: 1\n=================================')}`);
  });

  test('json of an input that is not YAML: status 1, the plan of what could be read', () => {
    const result = command(['plan', '--format', 'json', '-'], 'kind: [unclosed\n');
    expect(result).toEqual({
      status: 1,
      stdout: `${JSON.stringify({ jobs: [], workspaces: [], queues: [], namespaces: [], notes: [] }, undefined, 2)}\n`,
      stderr: '<stdin>:2: not YAML: Flow sequence in block collection must be sufficiently indented and end with a ]\n',
    });
  });
});

describe('docs/cli.md, the manual page', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');

  test('has the sections of a manual page, in order', () => {
    expect(doc.split('\n').filter(l => /^## [A-Z ]+$/.test(l))).toEqual([
      '## NAME', '## SYNOPSIS', '## DESCRIPTION', '## COMMANDS', '## OPTIONS', '## EXIT STATUS', '## ENVIRONMENT', '## EXAMPLES',
    ]);
  });

  test('its ENVIRONMENT table has every variable the launcher reads, and no other', () => {
    const environment = doc.slice(doc.indexOf('## ENVIRONMENT'), doc.indexOf('## EXAMPLES'));
    const documented = [...environment.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map(m => m[1]);
    const launcher = fs.readFileSync(path.join(ROOT, 'bin', 'cdk8s-kubeflow'), 'utf8');
    const read = [...new Set([...launcher.matchAll(/process\.env\.([A-Z0-9_]+)/g)].map(m => m[1]))];
    expect(documented.sort()).toEqual(read.sort());
    expect(documented.sort()).toEqual(['CDK8S_KUBEFLOW_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE']);
  });

  test('its SYNOPSIS is the synopsis of each command\'s --help', () => {
    const synopsis = /## SYNOPSIS\n\n```text\n([^`]*)```/.exec(doc)![1].split('\n').filter(l => l !== '');
    expect(synopsis).toEqual([
      ...Object.values(COMMAND_USAGE).map(u => u.split('\n')[0].replace(/^Usage: /, '')),
      'cdk8s-kubeflow COMMAND --help',
      'cdk8s-kubeflow --help | --version',
    ]);
  });

  test('its OPTIONS table has every option of every command\'s --help', () => {
    const options = doc.slice(doc.indexOf('## OPTIONS'), doc.indexOf('## EXIT STATUS'));
    const documented = [...options.matchAll(/^\| `(--?[a-z-]+)/gm)].map(m => m[1]);
    const inHelp = [...new Set(Object.values(COMMAND_USAGE).join('\n').match(/^ {2}(--?[a-z-]+)/gm)!.map(o => o.trim()))];
    expect(inHelp.sort()).toEqual(['--against', '--allow-empty', '--format', '--out', '--queues', '--rules-off', '--target', '-h']);
    expect(inHelp.filter(o => !documented.includes(o))).toEqual([]);
    expect(documented).toEqual(['--format', '--format', '--rules-off', '--target', '--allow-empty', '--against', '--queues', '--out', '-h', '--version']);
  });
});
