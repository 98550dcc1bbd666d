/**
 * Kubeflow Trainer v2's rules: its webhooks and runtime plugins on a runtime or a TrainJob alone
 * (applied on the Kubernetes walk over a runtime's pods, documents.ts), and a TrainJob against the
 * runtime it names (across documents).
 */
import { TRAINER_RULES } from './documents';
import { INITIALIZER_STORAGE_URI } from './initializer-uri';
import { PATCH_REPLACES_LIST } from './patch-lists';
import { TRAINJOB_REACH } from './trainjob-reach';
import { TRAINJOB_RUNTIME, trainJobRuntimes } from './trainjob-runtime';
import { MPI_LAUNCHER_IMAGE, MPI_NODE_IMAGE } from './v2-4';
import type { RuleSet } from '../rule-set';

export const TRAINER_RULE_SET: RuleSet = {
  source: 'trainer',
  title: 'Kubeflow Trainer v2 (webhooks and runtime plugins)',
  rules: [...TRAINER_RULES, INITIALIZER_STORAGE_URI, PATCH_REPLACES_LIST, TRAINJOB_RUNTIME, TRAINJOB_REACH, MPI_LAUNCHER_IMAGE, MPI_NODE_IMAGE],
  checkDocuments: (index, out) => trainJobRuntimes(index, out),
};
