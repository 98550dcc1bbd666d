/**
 * `convert` on training runtimes: upstream's torch runtime by the ClusterTrainingRuntime construct
 * and a JSON patch per setting the construct adds, a runtime as the construct writes it with no
 * patch, and the runtimes left to the typed L1 class with the comment that says why; each module
 * proven by synthesizing it, type checked and linted.
 */
import * as fs from 'fs';
import * as path from 'path';
import { lintMessages, scratchFolder, synthesizeModule, typeErrors } from './convert-harness';
import { runCli } from './run-cli';
import { normalised } from '../../src/cli/convert-typed';
import { readDocuments } from '../../src/cli/input';
import { EXIT } from '../../src/cli/main';

const ROOT = path.join(__dirname, '..', '..');
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

describe('upstream\'s torch runtime: the construct and three JSON patches', () => {
  const file = path.relative(process.cwd(), path.join(ROOT, 'upstream', 'examples', 'upstream-v2', 'runtimes', 'torch_distributed.yaml'));
  const result = convertChecked([file]);

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

  test('the modules type check and pass the project\'s ESLint configuration', async () => {
    const torch = runCli(['convert', path.join(ROOT, 'upstream', 'examples', 'upstream-v2', 'runtimes', 'torch_distributed.yaml')]).stdout;
    const modules = new Map([['runtime_as_written.ts', result.stdout], ['runtime_upstream.ts', torch]]);
    expect(typeErrors(modules, scratch)).toEqual([]);
    expect(await lintMessages([...modules.keys()].map(m => path.join(scratch, m)))).toEqual([]);
  });
});

describe('runtimes left to the typed L1 class, with the reason', () => {
  const comment = (code: string) => code.split('\n').filter(l => l.trim().startsWith('// ') && !l.includes('.yaml') && !l.includes('<stdin>'))
    .map(l => l.trim().slice(3)).join(' ');

  test('an MPI runtime with a launcher (upstream\'s MLX runtime)', () => {
    const result = convertChecked([path.join(ROOT, 'upstream', 'examples', 'upstream-v2', 'runtimes', 'mlx_distributed.yaml')]);
    expect(comment(result.stdout)).toBe('The ClusterTrainingRuntime construct does not say an mlPolicy other than torch, jax or xgboost without settings, '
      + 'JobSet settings beside the replicated jobs, replicated jobs other than one `node` job of the trainer step, pod metadata of its own, '
      + 'pod settings beside its container, a container other than `node` with an image, command and arguments; its typed L1 class says it.');
  });

  test('a container with resources; a runtime without numNodes', () => {
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
    expect(comment(resources.stdout)).toBe('The ClusterTrainingRuntime construct does not say a container other than `node` with an image, command and '
      + 'arguments; its typed L1 class says it.');
    const nodes = convertChecked(['-'], runtime('{torch: {}}', '{name: node, image: torch}'));
    expect(comment(nodes.stdout)).toBe('The ClusterTrainingRuntime construct does not say an mlPolicy without numNodes (the construct writes it); '
      + 'its typed L1 class says it.');
  });
});
