/**
 * How `lint` prints its report: `text` for people, `json` for tools, `github` for GitHub Actions
 * (workflow commands `::error file=...,line=...,col=...,title=...::message`, which the runner turns
 * into annotations on those lines of the pull request's files).
 */
import { LintFinding, LintReport, LintSilenced } from './lint';

export const LINT_FORMATS = ['text', 'json', 'github'] as const;
export type LintFormat = typeof LINT_FORMATS[number];

/** The report in a format, ending with a newline. */
export function formatLint(report: LintReport, format: LintFormat): string {
  switch (format) {
    case 'json': return JSON.stringify(jsonReport(report), null, 2) + '\n';
    case 'github': return [...report.findings.map(githubLine), ...report.silenced.map(githubSilencedLine), summary(report)].join('\n') + '\n';
    default: return [...report.findings.map(textLine), ...report.silenced.map(silencedLine), summary(report)].join('\n') + '\n';
  }
}

/** `Kind namespace/name`, or `Kind name` without a namespace. */
export function documentName(f: Pick<LintFinding, 'kind' | 'namespace' | 'name'>): string {
  const name = f.namespace !== '' ? `${f.namespace}/${f.name}` : f.name;
  return [f.kind, name].filter(s => s !== '').join(' ');
}

/** `Kind namespace/name: message`, or the message alone for a document without kind or name. */
function subject(f: LintFinding): string {
  const doc = documentName(f);
  return doc === '' ? f.message : `${doc}: ${f.message}`;
}

function textLine(f: LintFinding): string {
  return `${f.file}:${f.line}:${f.column}: ${subject(f)} [${f.severity === 'warning' ? `${f.rule}, warning` : f.rule}]`;
}

/** A silenced rule: `file:line: Kind namespace/name: rule <id> silenced (<n> findings): "<reason>" [<annotation>]`. */
function silencedText(s: LintSilenced): string {
  const doc = documentName(s);
  const what = `rule ${s.rule} silenced (${s.findings} finding${s.findings === 1 ? '' : 's'}): ${JSON.stringify(s.reason)}`;
  return doc === '' ? what : `${doc}: ${what}`;
}

function silencedLine(s: LintSilenced): string {
  return `${s.file}:${s.line}: ${silencedText(s)} [${s.annotation}]`;
}

/** The summary line: `12 documents checked, 3 skipped (kinds not known: Deployment, Service); 2 findings`. */
export function summary(report: LintReport): string {
  const docs = (n: number) => `${n} document${n === 1 ? '' : 's'}`;
  let line = `${docs(report.checked)} checked`;
  if (report.skipped > 0) line += `, ${report.skipped} skipped (kinds not known: ${report.skippedKinds.map(([k]) => k).join(', ')})`;
  const errors = report.documents - report.checked - report.skipped;
  if (errors > 0) line += `, ${errors} not YAML`;
  const n = report.findings.length;
  const warnings = report.findings.filter(f => f.severity === 'warning').length;
  line += `; ${n === 0 ? 'no findings' : `${n} finding${n === 1 ? '' : 's'}`}`;
  if (warnings > 0) line += ` (${warnings} warning${warnings === 1 ? '' : 's'})`;
  const silenced = report.silenced.length;
  return silenced === 0 ? line : `${line}; ${silenced} rule${silenced === 1 ? '' : 's'} silenced`;
}

function jsonReport(report: LintReport) {
  return {
    documents: report.documents,
    checked: report.checked,
    skipped: report.skipped,
    skippedKinds: Object.fromEntries(report.skippedKinds),
    findings: report.findings.map(f => ({
      file: f.file,
      line: f.line,
      column: f.column,
      document: { kind: f.kind, namespace: f.namespace, name: f.name },
      rule: f.rule,
      severity: f.severity,
      field: f.field,
      value: f.value === undefined ? null : f.value,
      allowed: f.allowed,
      message: f.message,
    })),
    silenced: report.silenced.map(s => ({
      file: s.file,
      line: s.line,
      document: { kind: s.kind, namespace: s.namespace, name: s.name },
      rule: s.rule,
      annotation: s.annotation,
      reason: s.reason,
      findings: s.findings,
    })),
  };
}

function githubLine(f: LintFinding): string {
  const doc = documentName(f);
  const props = `file=${property(f.file)},line=${f.line},col=${f.column},title=${property(doc === '' ? f.rule : `${f.rule} (${doc})`)}`;
  return `::${f.severity} ${props}::${data(subject(f))}`;
}

function githubSilencedLine(s: LintSilenced): string {
  return `::notice file=${property(s.file)},line=${s.line},title=${property(`${s.rule} silenced`)}::${data(silencedText(s))}`;
}

// The escapes of GitHub Actions workflow commands (toolkit/core command.ts escapeData, escapeProperty).
function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(s: string): string {
  return data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
