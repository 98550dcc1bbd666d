/**
 * `cdk8s-kubeflow plan`: its definition (the parser and the help come from it) and its run. The
 * modules of the plan are loaded when it runs: `lint`, the command a CI step runs on every push,
 * starts without them (bench/cli-start.ts measures the start).
 */
import { Command } from '../base/command-line';
import { readDocuments } from '../base/input';
import { allowEmptyOption, noDocuments, targetOption, targetWindowOf } from '../base/input-options';
import { EXIT } from '../base/io';

function planModules() {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...require('./plan') as typeof import('./plan'),
    ...require('./plan-json') as typeof import('./plan-json'),
    ...require('./plan-markdown') as typeof import('./plan-markdown'),
    ...require('./plan-queues') as typeof import('./plan-queues'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

export const PLAN_COMMAND: Command = {
  name: 'plan',
  paths: true,
  options: [
    {
      name: 'format',
      choices: ['markdown', 'text', 'json'],
      description: [
        'markdown (the default): tables for a pull-request comment; text:',
        'the same tables aligned for a terminal; json: one object',
      ],
    },
    {
      name: 'against',
      value: 'PATH',
      repeatable: true,
      afterPaths: true,
      description: ['the manifests to compare with (repeat it for more paths)'],
    },
    {
      name: 'queues',
      value: 'PATH',
      repeatable: true,
      afterPaths: true,
      description: [
        'Kueue objects (ClusterQueue, LocalQueue, ResourceFlavor, Cohort)',
        'kept apart from the jobs (repeat it for more paths)',
      ],
    },
    targetOption([
      'the versions the cluster runs, as lint takes them (kueue=v0.19,...);',
      'checked against the support window and named on standard error',
    ]),
    allowEmptyOption([
      'PATHs without YAML documents are no error; without it, they are',
      '(status 2): a plan of nothing says nothing',
    ]),
  ],
  summary: [
    'Pods, accelerators, CPU and memory per training job (a TrainJob through its runtime in the same',
    'input) and per notebook workspace (its WorkspaceKind\'s pod config in the same input), per Kueue',
    'queue and per namespace; with Kueue ClusterQueues in the input or --queues, the jobs\' demand per',
    'ClusterQueue and flavor against quota and the jobs Kueue never admits; with --against, what',
    'changed from those manifests.',
  ],
  overview: [
    'Pods, accelerators, CPU and memory per training job (a TrainJob through its runtime in the',
    'same input) and per notebook workspace, per Kueue queue and per namespace, as Markdown (the',
    'default), aligned text or JSON; with ClusterQueues in the input or --queues, the demand per',
    'ClusterQueue and flavor against quota and the jobs never admitted; with --against (repeat',
    'it for more paths), what changed from those manifests; --target and --allow-empty as lint',
    'takes them.',
  ],
  exitStatus: [
    'Exit status: 0 planned, 1 an input document is not YAML or Kueue can never admit a job of PATH',
    '(its ClusterQueue can never give what it asks for), 2 usage error (or PATHs without YAML',
    'documents), 3 internal error.',
  ],
  run(line, io) {
    // No part of a plan differs by version yet; the target is checked, so a CI step's typo fails here too.
    if (targetWindowOf(line) !== undefined) io.err(`cdk8s-kubeflow: plan for the target ${line.last('target')}\n`);
    const format = line.last('format');
    const paths = line.requirePaths();
    const against = line.all('against');
    const now = readDocuments(paths, io.stdin);
    if (now.length === 0) noDocuments(line, io);
    const before = against === undefined ? [] : readDocuments(against, io.stdin);
    const queues = readDocuments(line.all('queues') ?? [], io.stdin);
    const {
      plan, planChange, changeJson, planJson, changeMarkdown, changeText, planMarkdown, planText, hasClusterQueue, hasNeverAdmitted,
    } = planModules();
    const broken = [...before, ...now, ...queues].filter(d => d.error !== undefined);
    for (const d of broken) io.err(`${d.file}:${d.line}: not YAML: ${d.error}\n`);
    const after = plan(now, queues);
    if (against === undefined) {
      io.out(format === 'json' ? planJson(after) : format === 'text' ? planText(after) : planMarkdown(after));
    } else {
      // Manifests from before the change without ClusterQueues are measured against today's queues.
      const change = planChange(plan(before, hasClusterQueue(before) ? queues : [...queues, ...now]), after);
      io.out(format === 'json' ? changeJson(change, after) : format === 'text' ? changeText(change, after) : changeMarkdown(change, after));
    }
    // A job that can never be admitted fails the plan as a finding fails lint: the change cannot run as written.
    return broken.length > 0 || hasNeverAdmitted(after) ? EXIT.FINDINGS : EXIT.OK;
  },
};
