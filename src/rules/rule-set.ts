import type { AppFinding } from './app-document';
import type { DocumentIndex } from './document-index';
import type { Finding } from './finding';
import type { Rule, RuleSource } from './rule';
import type { DocumentFinding } from './training-operator/restricted-namespaces';

/**
 * The rules of one source, as data, with the walks that apply them: what each source folder of
 * src/rules exports (`<folder>/rule-set.ts`), and what rule-sets.ts lists. The catalogue, the synth
 * engine, `lint` and `cdk8s-kubeflow rules` iterate the sets; nothing else lists rules or calls
 * their checks.
 *
 * Every rule is in exactly one set, its source's. The walks are written by subject, for speed: a
 * set's walk may report rules of another source where they are read on the same pass (the
 * Kubernetes walk over pod templates applies the Trainer's rules of a runtime's pods and Kueue's
 * topology annotations); the finding still carries its rule's id, so it is switched, silenced and
 * versioned with its own source.
 */
export interface RuleSet {
  readonly source: RuleSource;
  /** The name people know the source by (`cdk8s-kubeflow rules` prints it as the group's heading). */
  readonly title: string;
  /** Every rule of the source, in the order `cdk8s-kubeflow rules` lists them. */
  readonly rules: readonly Rule[];
  /** The walk over one document (at synth over every document the library writes, in lint over every known one). */
  readonly checkDocument?: (doc: any, out: Finding[]) => void;
  /** The walk across the documents of one run: at synth over the app's documents, in lint over the input. */
  readonly checkDocuments?: (index: DocumentIndex, out: AppFinding[]) => void;
  /**
   * A walk across the documents that `lint` alone applies: at synth the constructs judge the same
   * thing from their props (a Workspace checks its kind's options, the restricted preset writes
   * compliant pods), so the engine leaves it out. Findings are by position in `docs`.
   */
  readonly checkInput?: (docs: readonly any[], out: DocumentFinding[]) => void;
}
