import { Finding } from './finding';

/** What every rule is, as data: for counting per family, for docs, and for findings to cite. */
export interface RuleInfo {
  /** A stable id such as `k8s/label-key`; every finding of the rule carries it. */
  readonly id: string;
  /** The family the rule belongs to (`metadata`, `pod`, `numbers`, `security`, `app` ...). */
  readonly family: string;
  /** The upstream function or behaviour the rule mirrors. */
  readonly source: string;
}

/**
 * A named rule. The checks are written by subject (one walk over a document) rather than one walk
 * per rule, for speed; each check reports through the rule it applies, so every finding names it.
 */
export class Rule implements RuleInfo {
  constructor(readonly id: string, readonly family: string, readonly source: string) {}

  /** Adds a finding of this rule to `out`. */
  report(out: Finding[], field: string, value: unknown, allowed: string): void {
    out.push({ field, value, allowed, rule: this.id });
  }

  /** The rule's identity alone (what the rule lists export). */
  info(): RuleInfo {
    return { id: this.id, family: this.family, source: this.source };
  }
}
