/**
 * The library's own rules, which no pinned upstream component backs: the YAML reader of `lint`,
 * the pinned CRDs' schema read strictly (unknown fields are findings), the KAI scheduler's
 * topology annotations, and the annotation that silences a rule on an object.
 */
import { IGNORE_RULE } from './ignore-rule';
import { KAI_TOPOLOGY_RULES, checkKaiTopology } from './kai-topology';
import { YAML_SYNTAX_RULE } from './yaml-syntax';
import { Rule } from '../rule';
import type { RuleSet } from '../rule-set';
import { SCHEMA_RULE } from '../schema/validator';

/**
 * The strict CRD schema, as a rule: stricter than the API server on purpose (unknown fields), so the
 * library's own. Its check is the net under every set's (the engine reports its findings only where
 * no rule found anything), so the engine and `lint` run it apart from the walks.
 */
export const SCHEMA = new Rule('library', SCHEMA_RULE, 'schema',
  'the pinned CRDs (openAPIV3Schema), strictly: unknown fields are findings',
  'a document satisfies its pinned CRD\'s schema (types, bounds, patterns, CEL rules), and declares no field the CRD does not');

export const LIBRARY_RULE_SET: RuleSet = {
  source: 'library',
  title: 'cdk8s-kubeflow\'s own (the YAML reader; the CRD schema, strictly)',
  rules: [YAML_SYNTAX_RULE, SCHEMA, ...KAI_TOPOLOGY_RULES, IGNORE_RULE],
  checkDocument: checkKaiTopology,
};
