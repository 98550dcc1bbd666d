/**
 * The one list of rule sets, one per source, in the order `cdk8s-kubeflow rules` lists them: the
 * catalogue (catalogue.ts), the synth engine, `lint` and `cdk8s-kubeflow rules` iterate it. A new
 * rule is an entry of its source's set; a new source is a folder with its rule-set.ts and an entry here.
 */
import type { AppDocument, AppFinding } from './app-document';
import { DocumentIndex } from './document-index';
import { Finding } from './finding';
import { JOBSET_RULE_SET } from './jobset/rule-set';
import { isObject } from './kubernetes/names';
import { KUBERNETES_RULE_SET } from './kubernetes/rule-set';
import { KUEUE_RULE_SET } from './kueue/rule-set';
import { LIBRARY_RULE_SET } from './library/rule-set';
import { NOTEBOOKS_RULE_SET } from './notebooks/rule-set';
import type { RuleSet } from './rule-set';
import { TRAINER_RULE_SET } from './trainer/rule-set';
import type { DocumentFinding } from './training-operator/restricted-namespaces';
import { TRAINING_OPERATOR_RULE_SET } from './training-operator/rule-set';

export const RULE_SETS: readonly RuleSet[] = [
  KUBERNETES_RULE_SET, JOBSET_RULE_SET, TRAINER_RULE_SET, TRAINING_OPERATOR_RULE_SET, NOTEBOOKS_RULE_SET, KUEUE_RULE_SET, LIBRARY_RULE_SET,
];

const documentWalks = RULE_SETS.flatMap(s => (s.checkDocument === undefined ? [] : [s.checkDocument]));
const acrossWalks = RULE_SETS.flatMap(s => (s.checkDocuments === undefined ? [] : [s.checkDocuments]));
const inputWalks = RULE_SETS.flatMap(s => (s.checkInput === undefined ? [] : [s.checkInput]));

/** Every finding of every set's walk over one document (the strict schema apart, see library/rule-set.ts). */
export function documentFindings(doc: any): Finding[] {
  const out: Finding[] = [];
  if (!isObject(doc)) return out;
  for (const walk of documentWalks) walk(doc, out);
  return out;
}

/**
 * Every finding across the documents of one run (at synth and in `lint`), by set, in document order
 * per rule. The documents are indexed once for every set; a caller that has the index of its run passes it.
 */
export function appFindings(input: readonly AppDocument[] | DocumentIndex): AppFinding[] {
  const out: AppFinding[] = [];
  const index = input instanceof DocumentIndex ? input : new DocumentIndex(input);
  for (const walk of acrossWalks) walk(index, out);
  return out;
}

/** Every finding of the walks `lint` alone applies across its input, by position in `docs`. */
export function inputFindings(docs: readonly any[]): DocumentFinding[] {
  const out: DocumentFinding[] = [];
  for (const walk of inputWalks) walk(docs, out);
  return out;
}
