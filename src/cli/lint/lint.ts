/**
 * `cdk8s-kubeflow lint`: the library's rules on any YAML. Every Kubeflow document whose CRD is
 * pinned gets the strict CRD schema, the Kubernetes rule layer and the operators' rules; the rules
 * across documents (duplicates, pod name collisions, claims from other namespaces, MultiKueue,
 * namespaces enforcing Pod Security "restricted", Workspace options) see the whole input. Other
 * kinds are counted as skipped.
 */
import { ruleInfo, ruleSeverity, ruleSource, ruleVersions } from '../../rules/catalogue';
import { Finding, describe } from '../../rules/finding';
import { checkKueueApiVersion } from '../../rules/kueue/api-version-served';
import { Silencings, ignoreRuleKey, silencingsOf, unsilenced } from '../../rules/library/ignore-rule';
import { YAML_SYNTAX_RULE } from '../../rules/library/yaml-syntax';
import { RuleSeverity, RuleSource } from '../../rules/rule';
import { appFindings, documentFindings, inputFindings } from '../../rules/rule-sets';
import { pinnedKinds, schemaFindings } from '../../rules/schema';
import { FULL_WINDOW, VersionWindow, ruleApplies } from '../../rules/target';
import { fieldPosition } from '../base/field-position';
import { InputDocument } from '../base/input';

/** One finding, with the document it is about. */
export interface LintFinding {
  /** The document's place in the input (0-based): what a caller matches the finding to its document by. */
  readonly document: number;
  readonly file: string;
  /** 1-based line of the field (of its nearest parent in the document when it is not set). */
  readonly line: number;
  /** 1-based column of the field. */
  readonly column: number;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly rule: string;
  /** The rule's severity: only errors make lint exit with 1. */
  readonly severity: RuleSeverity;
  readonly field: string;
  readonly value: unknown;
  readonly allowed: string;
  /** `<field> is <value>; <allowed>`, the library's one message shape. */
  readonly message: string;
}

/** A rule a document silences with an ignore-rule annotation (rules/library/ignore-rule.ts): listed, never hidden. */
export interface LintSilenced {
  readonly file: string;
  /** 1-based line of the document. */
  readonly line: number;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly rule: string;
  /** The annotation's key: `ignore-rule.cdk8s-kubeflow.io/<source>.<name>`. */
  readonly annotation: string;
  readonly reason: string;
  /** How many findings of the rule on the document it silenced. */
  readonly findings: number;
}

export interface LintReport {
  /** Documents read (syntax errors included). */
  readonly documents: number;
  /** Documents of a known kind, checked by every rule. */
  readonly checked: number;
  /** Documents of other kinds, by `apiVersion kind`, sorted. */
  readonly skippedKinds: ReadonlyArray<readonly [string, number]>;
  readonly skipped: number;
  /** In input order: by document, then the schema, each rule set's walk, and the walks across documents. */
  readonly findings: readonly LintFinding[];
  /** Every rule a document silences, in input order. */
  readonly silenced: readonly LintSilenced[];
}

/** Whether the report has an error (a finding of a warning rule alone leaves lint's exit status 0). */
export function hasErrors(report: LintReport): boolean {
  return report.findings.some(f => f.severity === 'error');
}

const KNOWN = new Set(pinnedKinds());

/** Whether the rules know the document's kind. */
export function isKnown(doc: any): boolean {
  return KNOWN.has(`${doc?.apiVersion} ${doc?.kind}`);
}

/** The label of a document in messages and cross-document findings: `file:line`. */
export function documentLabel(d: InputDocument): string {
  return `${d.file}:${d.line}`;
}

/**
 * Lints the documents of one input. The findings of the rule groups in `off` are left out, and
 * those of rules whose versions lie outside `window` (the target's, `--target`; the whole support
 * window without one); a document that is not YAML is always reported (nothing else could be
 * checked in it).
 */
export function lint(inputs: readonly InputDocument[], off: ReadonlySet<RuleSource> = new Set(), window: VersionWindow = FULL_WINDOW): LintReport {
  const perDocument: Finding[][] = inputs.map(() => []);
  const skipped = new Map<string, number>();
  let checked = 0;
  const parsed: Array<{ index: number; doc: any }> = [];
  const silencings: Array<Silencings | undefined> = inputs.map(() => undefined);
  const isRule = (id: string) => ruleInfo(id) !== undefined;
  inputs.forEach((input, index) => {
    if (input.error !== undefined) {
      perDocument[index].push({ field: 'document', value: input.error, allowed: 'expected valid YAML', rule: YAML_SYNTAX_RULE.id });
      return;
    }
    parsed.push({ index, doc: input.doc });
    silencings[index] = silencingsOf(input.doc, isRule);
    if (!isKnown(input.doc)) {
      // A v1beta1 Kueue object of a kind the rules do not know (an AdmissionCheck, a Workload) is
      // still refused by a current Kueue; known kinds get the finding from the operators' rules.
      checkKueueApiVersion(input.doc, perDocument[index]);
      const key = typeof input.doc?.kind === 'string' ? input.doc.kind : '(no kind)';
      skipped.set(key, (skipped.get(key) ?? 0) + 1);
      return;
    }
    checked++;
    const out = perDocument[index];
    out.push(...schemaFindings(input.doc) ?? [], ...documentFindings(input.doc));
  });
  // The app rules key documents by a path, unique per document (items of one List share a line,
  // so the index makes it unique), and name the other document by its label, `file:line`.
  for (const f of appFindings(parsed.map(p => ({ path: String(p.index), doc: p.doc, label: documentLabel(inputs[p.index]) })))) {
    perDocument[Number(f.path)].push(f.finding);
  }
  const docs = parsed.map(p => p.doc);
  for (const f of inputFindings(docs)) perDocument[parsed[f.index].index].push(f.finding);
  const findings: LintFinding[] = [];
  const silenced: LintSilenced[] = [];
  const inWindow = (f: Finding) => {
    const versions = ruleVersions(f.rule);
    return versions === undefined || ruleApplies(versions, window);
  };
  const on = (f: Finding) => (off.size === 0 || f.rule === YAML_SYNTAX_RULE.id || !off.has(ruleSource(f.rule) as RuleSource)) && inWindow(f);
  inputs.forEach((input, index) => {
    const found = perDocument[index].filter(on);
    const silencing = silencings[index];
    if (silencing === undefined) {
      for (const f of found) findings.push(lintFinding(input, index, f));
      return;
    }
    // With the findings of the annotations themselves (a rule that does not exist, no reason).
    for (const f of unsilenced(found, silencing)) if (on(f)) findings.push(lintFinding(input, index, f));
    for (const s of silencing.silenced) {
      silenced.push({
        ...documentOf(input),
        line: input.line,
        rule: s.rule,
        annotation: ignoreRuleKey(s.rule),
        reason: s.reason,
        findings: found.filter(f => f.rule === s.rule).length,
      });
    }
  });
  const skippedKinds = [...skipped.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { documents: inputs.length, checked, skipped: parsed.length - checked, skippedKinds, findings, silenced };
}

/** The file and the kind, namespace and name of a document, as findings name it. */
function documentOf(input: InputDocument): { file: string; kind: string; namespace: string; name: string } {
  const doc = input.doc;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return { file: input.file, kind: text(doc?.kind), namespace: text(doc?.metadata?.namespace), name: text(doc?.metadata?.name) };
}

function lintFinding(input: InputDocument, index: number, f: Finding): LintFinding {
  // Positions are found only now, for the documents with findings: the parser that keeps them is slow.
  const at = input.source === undefined ? undefined : fieldPosition(input.source, f.field, input.pathPrefix);
  const { file, kind, namespace, name } = documentOf(input);
  return {
    document: index,
    file,
    line: at?.line ?? input.line,
    column: at?.column ?? input.column ?? 1,
    kind,
    namespace,
    name,
    rule: f.rule ?? 'construct',
    severity: ruleSeverity(f.rule),
    field: f.field,
    value: f.value,
    allowed: f.allowed,
    message: describe(f),
  };
}
