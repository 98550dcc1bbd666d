/** `cdk8s-kubeflow lint`: its definition (the parser and the help come from it) and its run. */
import { hasErrors, lint } from './lint';
import { LINT_FORMATS, LintFormat, formatLint } from './lint-output';
import { RuleSource } from '../../rules/rule';
import { RULE_SETS } from '../../rules/rule-sets';
import { Command, UsageError } from '../base/command-line';
import { readDocuments } from '../base/input';
import { allowEmptyOption, noDocuments, targetOption, targetWindowOf } from '../base/input-options';
import { EXIT } from '../base/io';

export const LINT_COMMAND: Command = {
  name: 'lint',
  paths: true,
  options: [
    {
      name: 'format',
      choices: LINT_FORMATS,
      description: [
        'text (the default): one line per finding and a summary; json: one',
        'object with every finding; github: GitHub Actions annotations',
      ],
    },
    {
      name: 'rules-off',
      value: 'SOURCE',
      repeatable: true,
      description: [
        'leave out one group of rules (repeat it for more): kubernetes, jobset,',
        'trainer, training-operator, notebooks, kueue or library',
      ],
    },
    targetOption([
      'the versions the cluster runs, as KEY=VERSION pairs separated by',
      'commas (kueue=v0.19,trainer=v2.3); keys: kubernetes, trainingOperator,',
      'jobset, trainer, notebooks, kueue; each inside the support window',
      '(docs/versions.md); without it, the whole window',
    ]),
    allowEmptyOption([
      'an input without YAML documents is no error; without it,',
      'one is (status 2): a CI step that checks an empty folder checks nothing',
    ]),
  ],
  summary: [
    'Checks every Kubeflow document (kubeflow.org/v1 training jobs, MXJob, Trainer v2 TrainJobs and',
    'runtimes, Workspace, WorkspaceKind) with the strict CRD schema, the Kubernetes rules and the',
    'operators\' rules. A rule of some upstream versions only (cdk8s-kubeflow rules shows them) applies',
    'when the target\'s versions include them.',
  ],
  overview: [
    'Checks every Kubeflow document (kubeflow.org/v1 training jobs, MXJob, Trainer v2 TrainJobs',
    'and runtimes, Workspace, WorkspaceKind) with the strict CRD schema, the Kubernetes rules and',
    'the operators\' rules. --rules-off leaves out one group of rules (repeat it for more):',
    'kubernetes, jobset, trainer, training-operator, notebooks, kueue or library. --target names',
    'the versions the cluster runs (kueue=v0.19,trainer=v2.3): rules of other versions say',
    'nothing; without it, lint judges for every version of the support window. An input without',
    'YAML documents is an error (status 2) unless --allow-empty is given. An object silences',
    'one rule with the annotation ignore-rule.cdk8s-kubeflow.io/<source>.<name>: "<reason>";',
    'lint lists every rule silenced. Exit status 1 when an error is found (warnings alone: 0).',
  ],
  exitStatus: [
    'An object silences one rule with the annotation ignore-rule.cdk8s-kubeflow.io/<source>.<name>',
    '(the rule id with "." for "/") whose value is the reason; lint lists every rule silenced.',
    '',
    'Exit status: 0 no findings or warnings only, 1 errors found, 2 usage error (or an input without',
    'YAML documents), 3 internal error.',
  ],
  run(line, io) {
    const window = targetWindowOf(line);
    const format = line.last('format') as LintFormat;
    const sources: readonly string[] = RULE_SETS.map(s => s.source);
    const off = new Set<RuleSource>();
    for (const source of line.all('rules-off') ?? []) {
      if (!sources.includes(source)) throw new UsageError(`--rules-off is "${source}"; expected one of ${sources.join(', ')}`);
      off.add(source as RuleSource);
    }
    const report = lint(readDocuments(line.requirePaths(), io.stdin), off, window);
    if (report.documents === 0) noDocuments(line, io);
    io.out(formatLint(report, format));
    return hasErrors(report) ? EXIT.FINDINGS : EXIT.OK;
  },
};
