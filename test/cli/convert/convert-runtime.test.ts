/**
 * `convert` on training runtimes: upstream's torch runtime by the ClusterTrainingRuntime construct
 * and a JSON patch per setting the construct adds, a runtime as the construct writes it with no
 * patch, and the runtimes left to the typed L1 class with the comment that says why; each module
 * proven by synthesizing it, type checked and linted.
 */
import * as fs from 'fs';
import * as path from 'path';
import { lintMessages, scratchFolder, synthesizeModule, typeErrors } from './convert-harness';
import { readDocuments } from '../../../src/cli/base/input';
import { normalised } from '../../../src/cli/convert/convert-typed';
import { EXIT } from '../../../src/cli/main';
import { tempFolder } from '../examples-output';
import { runCli } from '../run-cli';

const ROOT = path.join(path.dirname(__dirname), '..', '..');
const scratch = scratchFolder('converted-runtime');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The module for the file or standard input, checked to synthesize the input's objects. */
function convertChecked(args: string[], stdin = '') {
  const result = runCli(['convert', ...args], stdin);
  expect(result.status).toBe(EXIT.OK);
  expect(synthesizeModule(result.stdout)).toStrictEqual(readDocuments(args, () => stdin).map(d => normalised(d.doc)));
  return result;
}

const body = (code: string) => code.slice(code.indexOf('  const '));
/** The modules the describes below generate, type checked and linted together at the end. */
const modules = new Map<string, string>();

describe('upstream\'s torch runtime: the construct and three JSON patches', () => {
  const file = path.relative(process.cwd(), path.join(ROOT, 'upstream', 'examples', 'upstream-v2', 'runtimes', 'torch_distributed.yaml'));
  const result = convertChecked([file]);
  modules.set('runtime_upstream.ts', result.stdout);

  test('the exact statement, a comment per patch', () => {
    expect(body(result.stdout)).toBe([
      '  const torchDistributedChart = new Chart(app, \'torch_distributed\');',
      '  // The construct opts the pods out of Istio\'s sidecar (sidecar.istio.io/inject: "false"), which the input does not: a',
      '  // JSON patch removes it.',
      '  // PodSecurity.DEFAULT does not mount the service-account token, which the input leaves to Kubernetes: a JSON patch',
      '  // removes it.',
      '  // PodSecurity.DEFAULT turns off privilege escalation and privileged mode, which the input leaves to Kubernetes: a',
      '  // JSON patch removes it.',
      '  new ClusterTrainingRuntime(torchDistributedChart, \'clustertrainingruntime-torch-distributed\', {',
      '    metadata: {',
      '      name: \'torch-distributed\',',
      '    },',
      '    mlPolicy: MlPolicy.torch(),',
      '    image: \'pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime\',',
      '  }).apiObject.addJsonPatch(',
      '    JsonPatch.remove(\'/spec/template/spec/replicatedJobs/0/template/spec/template/metadata\'),',
      '    JsonPatch.remove(\'/spec/template/spec/replicatedJobs/0/template/spec/template/spec/automountServiceAccountToken\'),',
      '    JsonPatch.remove(\'/spec/template/spec/replicatedJobs/0/template/spec/template/spec/containers/0/securityContext\'),',
      '  );',
      '}',
      '',
    ].join('\n'));
  });

  test('the figures say the patches', () => {
    expect(result.stderr).toBe('cdk8s-kubeflow: converted 1 object from 1 file\n'
      + '  trainer.kubeflow.org/v1alpha1 ClusterTrainingRuntime: 1 by its L2 construct with JSON patches\n');
  });
});

describe('a runtime as the construct writes it: no patch', () => {
  const yaml = [
    'apiVersion: trainer.kubeflow.org/v1alpha1',
    'kind: TrainingRuntime',
    'metadata:',
    '  name: jax-tpu',
    '  namespace: research',
    '  labels: {trainer.kubeflow.org/framework: jax-tpu, team: research}',
    'spec:',
    '  mlPolicy: {numNodes: 4, jax: {}}',
    '  template:',
    '    spec:',
    '      replicatedJobs:',
    '        - name: node',
    '          template:',
    '            metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}',
    '            spec:',
    '              template:',
    '                metadata: {annotations: {sidecar.istio.io/inject: "false"}}',
    '                spec:',
    '                  automountServiceAccountToken: false',
    '                  containers:',
    '                    - name: node',
    '                      image: jax:0.4',
    '                      command: [python, train.py]',
    '                      args: [--steps, "10"]',
    '                      securityContext: {allowPrivilegeEscalation: false, privileged: false}',
  ].join('\n');
  const result = convertChecked(['-'], yaml);

  test('the exact statement: node count, framework label and container by props', () => {
    expect(body(result.stdout)).toBe([
      '  const stdinChart = new Chart(app, \'stdin\');',
      '  new TrainingRuntime(stdinChart, \'trainingruntime-jax-tpu\', {',
      '    metadata: {',
      '      name: \'jax-tpu\',',
      '      namespace: \'research\',',
      '      labels: {',
      '        team: \'research\',',
      '      },',
      '    },',
      '    mlPolicy: MlPolicy.jax(),',
      '    numNodes: 4,',
      '    frameworkLabel: \'jax-tpu\',',
      '    image: \'jax:0.4\',',
      '    command: [\'python\', \'train.py\'],',
      '    args: [\'--steps\', \'10\'],',
      '  });',
      '}',
      '',
    ].join('\n'));
    expect(result.stderr).toContain('trainer.kubeflow.org/v1alpha1 TrainingRuntime: 1 by its L2 construct\n');
  });

  modules.set('runtime_as_written.ts', result.stdout);
});

/** A one-step torch runtime as the construct writes it, with `container` and `pod` fields added to its node's container and pod. */
const platformRuntime = (container: string[], pod: string[]) => [
  'apiVersion: trainer.kubeflow.org/v1alpha1',
  'kind: ClusterTrainingRuntime',
  'metadata: {name: torch-h100, labels: {trainer.kubeflow.org/framework: torch}}',
  'spec:',
  '  mlPolicy: {numNodes: 1, torch: {}}',
  '  template:',
  '    spec:',
  '      replicatedJobs:',
  '        - name: node',
  '          template:',
  '            metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}',
  '            spec:',
  '              template:',
  '                metadata: {annotations: {sidecar.istio.io/inject: "false"}}',
  '                spec:',
  '                  automountServiceAccountToken: false',
  ...pod.map(l => `                  ${l}`),
  '                  containers:',
  '                    - name: node',
  '                      image: torch:2',
  '                      securityContext: {allowPrivilegeEscalation: false, privileged: false}',
  ...container.map(l => `                      ${l}`),
  '',
].join('\n');

describe('resources and shared memory, as the examples\' platform runtime writes them', () => {
  const resources = 'resources: {limits: {cpu: 96, memory: 1536Mi, ephemeral-storage: 2Gi, nvidia.com/gpu: 8}, requests: {cpu: 96, memory: 1536Mi, ephemeral-storage: 2Gi, nvidia.com/gpu: 8}}';
  const yaml = platformRuntime([resources.replace(/cpu: 96/g, 'cpu: "500m"'), 'volumeMounts: [{mountPath: /dev/shm, name: dshm}]'], [
    'tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]',
    'volumes: [{name: dshm, emptyDir: {medium: Memory, sizeLimit: 32768Mi}}]',
  ]);
  const result = convertChecked(['-'], yaml);

  test('the resources prop (the accelerator\'s toleration is the construct\'s) and sharedMemory', () => {
    expect(body(result.stdout)).toBe([
      '  const stdinChart = new Chart(app, \'stdin\');',
      '  new ClusterTrainingRuntime(stdinChart, \'clustertrainingruntime-torch-h100\', {',
      '    metadata: {',
      '      name: \'torch-h100\',',
      '    },',
      '    mlPolicy: MlPolicy.torch(),',
      '    image: \'torch:2\',',
      '    resources: {',
      '      cpu: Cpu.millis(500),',
      '      memory: Size.mebibytes(1536),',
      '      ephemeralStorage: Size.gibibytes(2),',
      '      accelerator: Accelerator.nvidia(8),',
      '    },',
      '    sharedMemory: Size.gibibytes(32),',
      '  });',
      '}',
      '',
    ].join('\n'));
  });

  test('what the construct would write otherwise: the typed L1 class, with the reason', () => {
    const comment = (code: string) => code.split('\n').filter(l => l.trim().startsWith('// ') && !l.includes('<stdin>')).map(l => l.trim().slice(3)).join(' ');
    // 1024Mi: the construct writes 1Gi. A toleration of the input's own. Requests other than the limits.
    const cases: Array<[string, string[], string[], string]> = [
      ['1024Mi', ['resources: {limits: {memory: 1024Mi}, requests: {memory: 1024Mi}}'], [], 'resources other than CPU, memory, ephemeral storage and '
        + 'one accelerator with the same requests and limits, as the construct writes them'],
      ['a toleration', [], ['tolerations: [{key: spot, operator: Exists}]'], 'tolerations other than the one of the accelerator, which the construct writes'],
      ['requests', ['resources: {limits: {cpu: "2"}, requests: {cpu: "1"}}'], [], 'resources other than CPU, memory, ephemeral storage and '
        + 'one accelerator with the same requests and limits, as the construct writes them'],
    ];
    for (const [what, container, pod, reason] of cases) {
      const out = convertChecked(['-'], platformRuntime(container, pod));
      expect([what, comment(out.stdout)]).toEqual([what, `The ClusterTrainingRuntime construct does not say ${reason}; its typed L1 class says it.`]);
    }
  });

  modules.set('runtime_resources.ts', result.stdout);
});

test('a Kueue topology level on the pods: the topology prop', () => {
  const yaml = platformRuntime([], []).replace('metadata: {annotations: {sidecar.istio.io/inject: "false"}}',
    'metadata: {annotations: {sidecar.istio.io/inject: "false", kueue.x-k8s.io/podset-preferred-topology: rack}}');
  const result = convertChecked(['-'], yaml);
  expect(result.stdout).toContain('    image: \'torch:2\',\n    topology: Topology.preferred(\'rack\'),\n  });\n');
  modules.set('runtime_topology.ts', result.stdout);
});

test('a runtime a TrainJob of another file names: the typed L1 class (the TrainJob construct refuses an app runtime it is not written after)', () => {
  const job = 'apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j, namespace: ml}\n'
    + 'spec: {runtimeRef: {apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime, name: torch-h100}}\n';
  const dir = tempFolder({ 'a-jobs.yaml': job, 'b-runtimes.yaml': platformRuntime([], []), 'c-jobs.yaml': job.replace('name: j,', 'name: k,') });
  try {
    const result = convertChecked([dir]);
    expect(result.stdout.replace(/\n *\/\/ /g, ' ')).toContain(`'b-runtimes'); The TrainJob j in ${path.join(dir, 'a-jobs.yaml')} names it, and the TrainJob `
      + 'construct refuses a runtime of the app that it is not written after in the same chart; its typed L1 class says it.\n  new trainer.ClusterTrainingRuntime(');
    expect(result.stderr).toContain('ClusterTrainingRuntime: 1 by its typed L1 class');
    // With the job after it in the same file, the runtime is the construct's.
    const same = convertChecked(['-'], `${platformRuntime([], [])}---\n${job}`);
    expect(same.stderr).toContain('ClusterTrainingRuntime: 1 by its L2 construct\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('runtimes left to the typed L1 class, with the reason', () => {
  const comment = (code: string) => code.split('\n').filter(l => l.trim().startsWith('// ') && !l.includes('.yaml') && !l.includes('<stdin>'))
    .map(l => l.trim().slice(3)).join(' ');

  test('an MPI runtime with a launcher (upstream\'s MLX runtime)', () => {
    const result = convertChecked([path.join(ROOT, 'upstream', 'examples', 'upstream-v2', 'runtimes', 'mlx_distributed.yaml')]);
    expect(comment(result.stdout)).toBe('The ClusterTrainingRuntime construct does not say an mlPolicy other than torch, jax or xgboost without settings, '
      + 'JobSet settings beside the replicated jobs, replicated jobs other than one `node` job of the trainer step; its typed L1 class says it.');
  });

  test('a container with resources but no requests; a runtime without numNodes', () => {
    const runtime = (policy: string, container: string) => [
      'apiVersion: trainer.kubeflow.org/v1alpha1',
      'kind: ClusterTrainingRuntime',
      'metadata: {name: r, labels: {trainer.kubeflow.org/framework: torch}}',
      `spec:\n  mlPolicy: ${policy}`,
      '  template:',
      '    spec:',
      '      replicatedJobs:',
      '        - name: node',
      '          template:',
      '            metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}',
      `            spec: {template: {spec: {containers: [${container}]}}}`,
      '',
    ].join('\n');
    const resources = convertChecked(['-'], runtime('{numNodes: 1, torch: {}}', '{name: node, image: torch, resources: {limits: {cpu: "1"}}}'));
    expect(comment(resources.stdout)).toBe('The ClusterTrainingRuntime construct does not say resources other than CPU, memory, ephemeral storage and '
      + 'one accelerator with the same requests and limits, as the construct writes them; its typed L1 class says it.');
    const nodes = convertChecked(['-'], runtime('{torch: {}}', '{name: node, image: torch}'));
    expect(comment(nodes.stdout)).toBe('The ClusterTrainingRuntime construct does not say an mlPolicy without numNodes (the construct writes it); '
      + 'its typed L1 class says it.');
  });
});

test('the modules type check and pass the project\'s ESLint configuration', async () => {
  expect([...modules.keys()].sort()).toEqual(['runtime_as_written.ts', 'runtime_resources.ts', 'runtime_topology.ts', 'runtime_upstream.ts']);
  expect(typeErrors(modules, scratch)).toEqual([]);
  expect(await lintMessages([...modules.keys()].map(m => path.join(scratch, m)))).toEqual([]);
});
