/**
 * JobSet's rules: its webhook on a runtime's JobSet template, and its webhook and controller on
 * the JobSet the Trainer builds from a TrainJob and its runtime. They are read on the Trainer's
 * walks (src/rules/trainer: the template on the runtime's, the built JobSet on the TrainJob's
 * against its runtime), so the set has no walk of its own.
 */
import type { RuleSet } from '../rule-set';
import { JOBSET_CLAIM_NAME, JOBSET_COORDINATOR } from '../trainer/built-jobset';
import { JOBSET_OWNED_KEYS } from '../trainer/jobset-owned-keys';
import { JOBSET_TEMPLATE_RULES } from '../trainer/jobset-template';
import { JOBSET_POD_NAME } from '../trainer/trainjob-reach';

export const JOBSET_RULE_SET: RuleSet = {
  source: 'jobset',
  title: 'JobSet (webhook and controller)',
  rules: [...JOBSET_TEMPLATE_RULES, JOBSET_POD_NAME, JOBSET_COORDINATOR, JOBSET_CLAIM_NAME, JOBSET_OWNED_KEYS],
};
