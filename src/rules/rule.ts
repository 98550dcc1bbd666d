import { Finding } from './finding';
import type { RuleVersions } from './target';

export type { RuleVersions } from './target';

/**
 * Whose rule it is: the component that refuses (or mishandles) what the rule finds. Rules are
 * grouped by it in `cdk8s-kubeflow rules`, and each group can be switched off on its own (see
 * rule-switches.ts), so that, say, the Kubernetes rules can be compared with Kubernetes' own
 * validation while the operators' rules stay on.
 */
export type RuleSource = 'kubernetes' | 'jobset' | 'trainer' | 'training-operator' | 'notebooks' | 'kueue' | 'library';

/** The sources, in the order `cdk8s-kubeflow rules` lists them, with the name people know them by. */
export const RULE_SOURCES: ReadonlyArray<{ readonly source: RuleSource; readonly title: string }> = [
  { source: 'kubernetes', title: 'Kubernetes (API server, Pod Security admission, kubelet and container runtime)' },
  { source: 'jobset', title: 'JobSet (webhook and controller)' },
  { source: 'trainer', title: 'Kubeflow Trainer v2 (webhooks and runtime plugins)' },
  { source: 'training-operator', title: 'Kubeflow Training Operator v1 (webhooks and controllers)' },
  { source: 'notebooks', title: 'Kubeflow Notebooks v2 (webhooks)' },
  { source: 'kueue', title: 'Kueue' },
  { source: 'library', title: 'cdk8s-kubeflow\'s own (the YAML reader; the CRD schema, strictly)' },
];

/** What every rule is, as data: for counting per source and family, for docs, and for findings to cite. */
export interface RuleInfo {
  /** A stable id such as `k8s/label-key`; every finding of the rule carries it. */
  readonly id: string;
  /** The component whose behaviour the rule mirrors; the group the rule is listed and switched in. */
  readonly source: RuleSource;
  /** The family the rule belongs to (`metadata`, `pod`, `numbers`, `security`, `app` ...). */
  readonly family: string;
  /** The upstream function or behaviour the rule mirrors. */
  readonly upstream: string;
  /**
   * The upstream versions the rule applies to (rules of behaviour one version added or changed):
   * its findings are kept only where the target's window meets them (target.ts). Unversioned rules
   * apply on every version of the window.
   */
  readonly versions?: RuleVersions;
}

/**
 * A named rule. The checks are written by subject (one walk over a document) rather than one walk
 * per rule, for speed; each check reports through the rule it applies, so every finding names it.
 */
export class Rule implements RuleInfo {
  constructor(
    readonly source: RuleSource, readonly id: string, readonly family: string, readonly upstream: string,
    /** The upstream versions it applies to; none for a rule of every version. */
    readonly versions?: RuleVersions,
  ) {}

  /** Adds a finding of this rule to `out`. */
  report(out: Finding[], field: string, value: unknown, allowed: string): void {
    out.push({ field, value, allowed, rule: this.id });
  }

  /** The rule's identity alone (what the rule lists export). */
  info(): RuleInfo {
    const info: RuleInfo = { id: this.id, source: this.source, family: this.family, upstream: this.upstream };
    return this.versions === undefined ? info : { ...info, versions: this.versions };
  }
}
