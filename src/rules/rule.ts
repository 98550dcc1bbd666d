import { Finding } from './finding';
import type { RuleVersions } from './target';

/**
 * Whose rule it is: the component that refuses (or mishandles) what the rule finds. Each source
 * folder of src/rules exports one rule set (rule-set.ts); `cdk8s-kubeflow rules` groups the rules
 * by it, and each group can be switched off on its own (src/synth/rule-switches.ts), so that, say,
 * the Kubernetes rules can be compared with Kubernetes' own validation while the operators' rules
 * stay on. The ids of a source's rules start with `<source>/`.
 */
export type RuleSource = 'kubernetes' | 'jobset' | 'trainer' | 'training-operator' | 'notebooks' | 'kueue' | 'library';

/**
 * How bad a finding of the rule is. An `error` is refused (or mishandled) by the component the
 * rule mirrors; a `warning` is worth a look but works. `lint` exits with 1 only for errors, and a
 * synth fails on either (cdk8s validations have no warnings).
 */
export type RuleSeverity = 'error' | 'warning';

/** What every rule is, as data: for counting per source and family, for docs, and for findings to cite. */
export interface RuleInfo {
  /** A stable id, `<source>/<name>` such as `kubernetes/label-key`; every finding of the rule carries it. */
  readonly id: string;
  /** The component whose behaviour the rule mirrors; the group the rule is listed and switched in. */
  readonly source: RuleSource;
  /** The family the rule belongs to (`metadata`, `pod`, `numbers`, `security`, `app` ...). */
  readonly family: string;
  /** The upstream function or behaviour the rule mirrors. */
  readonly upstream: string;
  /** What the rule requires, in one line (`cdk8s-kubeflow rules` and docs/rules.md print it). */
  readonly description: string;
  /** Whether a finding of the rule is an error or a warning (lint's exit status follows it). */
  readonly severity: RuleSeverity;
  /** Where the rule is described: `docs/rules.md#rule-<source>-<name>`. */
  readonly anchor: string;
  /**
   * The upstream versions the rule applies to (rules of behaviour one version added or changed):
   * its findings are kept only where the target's window meets them (target.ts). Unversioned rules
   * apply on every version of the window.
   */
  readonly versions?: RuleVersions;
}

/** What a rule may add to its source, id, family, upstream and description. */
export interface RuleOptions {
  /** The upstream versions it applies to; none for a rule of every version. */
  readonly versions?: RuleVersions;
  /** `error` unless the rule finds what works but deserves a look. */
  readonly severity?: RuleSeverity;
}

/** The anchor of a rule's row in docs/rules.md (the page the inventory script writes). */
export function ruleAnchor(id: string): string {
  return `docs/rules.md#rule-${id.replace(/[^a-z0-9]+/g, '-')}`;
}

/**
 * A named rule. The checks are written by subject (one walk over a document) rather than one walk
 * per rule, for speed; each check reports through the rule it applies, so every finding names it.
 */
export class Rule implements RuleInfo {
  readonly severity: RuleSeverity;
  readonly versions?: RuleVersions;

  constructor(
    readonly source: RuleSource, readonly id: string, readonly family: string, readonly upstream: string,
    readonly description: string, options: RuleOptions = {},
  ) {
    this.severity = options.severity ?? 'error';
    if (options.versions !== undefined) this.versions = options.versions;
  }

  get anchor(): string {
    return ruleAnchor(this.id);
  }

  /** Adds a finding of this rule to `out`. */
  report(out: Finding[], field: string, value: unknown, allowed: string): void {
    out.push({ field, value, allowed, rule: this.id });
  }

  /** The rule's identity alone, as plain data. */
  info(): RuleInfo {
    const info: RuleInfo = {
      id: this.id,
      source: this.source,
      family: this.family,
      upstream: this.upstream,
      description: this.description,
      severity: this.severity,
      anchor: this.anchor,
    };
    return this.versions === undefined ? info : { ...info, versions: this.versions };
  }
}
