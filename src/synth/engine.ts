import { ApiObject, App, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { allowedFields } from './allowed-fields';
import { aroundEachChartRender, aroundEachSynth } from './cdk8s-adapter';
import { dropRenderings, hasJsonPatches, keepRenderings, rendersOncePerSynth, keepingRenderings } from './render-hook';
import { sourcesOff } from './rule-switches';
import { acceptedUnknownValues, withUnknownValuesAccepted } from './unknown-values';
import type { AppDocument } from '../rules/app-document';
import { Finding, describe, finding } from '../rules/finding';
import { RuleSource } from '../rules/rule';
import { FULL_WINDOW, VersionWindow, ruleApplies } from '../rules/target';
import { lazy } from '../util/lazy';

export { KUBERNETES_RULES_CONTEXT } from './rule-switches';

/** The rule layers and the strict schemas, loaded by the first pass rather than with the library. */
/* eslint-disable @typescript-eslint/no-require-imports */
const rules = lazy(() => ({
  sets: require('../rules/rule-sets') as typeof import('../rules/rule-sets'),
  schema: require('../rules/schema') as typeof import('../rules/schema'),
  catalogue: require('../rules/catalogue') as typeof import('../rules/catalogue'),
  ignoreRule: require('../rules/library/ignore-rule') as typeof import('../rules/library/ignore-rule'),
  knownValues: (require('../rules/training-operator/known-values') as typeof import('../rules/training-operator/known-values')).KNOWN_VALUES,
}));
/* eslint-enable @typescript-eslint/no-require-imports */

/*
 * The engine of the rules over rendered documents. Every API object a construct of this library
 * writes is registered here; once per synth, before anything is written, one pass over the whole
 * app renders every API object (so a render-time error stops synthesis before the first file is
 * touched), runs every rule set's walk over one document (rules/rule-sets.ts, the same walks
 * `cdk8s-kubeflow lint` applies to hand-written YAML) on each of the library's documents, the
 * pinned CRD's schema (bounds, patterns, CEL rules) on each of them, and the sets' walks across
 * objects on all of them. Each construct then reports its own document's findings, so cdk8s
 * prefixes them with its path. The findings of a rule group switched off (rule-switches.ts) are
 * dropped, and so are those of a rule whose versions lie outside the owner's target window
 * (rules/target.ts: a rule of Trainer v2.4.0 and later says nothing to a chart whose target is
 * Trainer v2.3), and those of a rule the document silences with an ignore-rule annotation
 * (rules/library/ignore-rule.ts).
 *
 * cdk8s's public extension points carry it: the pass is a validation of the root
 * (`node.addValidation`; cdk8s validates from the root down, so it runs before every construct's
 * own), and each construct's findings are its own validation. Only keeping the pass for the length
 * of one synth needs more than that (cdk8s-adapter.ts).
 */

/** A finding of the rules over documents, with the path of the construct that owns the document. */
export interface PathFinding {
  readonly path: string;
  readonly finding: Finding;
}

interface Registered {
  readonly owner: IConstruct;
  readonly apiObject: ApiObject;
  readonly propOf?: PropOf;
  /** The versions the owner's cluster runs (its target narrowing the support window). */
  readonly window?: TargetOf;
  /**
   * Written by an L1 a program constructed itself (l1-documents.ts): no construct judges its props,
   * so the walks `lint` alone applies across its input (rule-sets.ts `inputFindings`) run on it too.
   */
  readonly byL1?: boolean;
}

/** The window of the owner's target: read at each pass, since context and defaults may be set after the construct. */
export type TargetOf = () => VersionWindow;

/**
 * Which prop of the owner set a document field, for the fields where the construct knows (say
 * `launcherCommand` for the launcher's command): the finding then names both, as
 * `<document field> (<prop>)`, so the one message serves the construct's user and matches `lint`.
 */
export type PropOf = (field: string) => string | undefined;

/** Per app root: the registered documents and the findings of the last pass. */
interface AppState {
  readonly registered: Registered[];
  findings: Map<ApiObject, Finding[]>;
  /** The CRD schema's findings of the last pass, kept apart from the rules' (see checkRenderedDocument). */
  schemaFindings: Map<ApiObject, Finding[]>;
  /** Whether the findings are those of the current `app.synth()` (valid until it returns). */
  current: boolean;
  /** Whether an L1 a program constructed registered its document (see Registered.byL1). */
  byL1: boolean;
}

const apps = new WeakMap<IConstruct, AppState>();

/** No findings: shared, never written to. */
const NONE: readonly Finding[] = [];

/**
 * Registers an API object the library writes, owned by `owner` (whose path prefixes the messages).
 * Its findings are reported by `owner`'s validation at synth.
 */
export function checkRenderedDocument(
  owner: IConstruct, apiObject: ApiObject, propOf?: PropOf, ownChecks?: () => Finding[], window?: TargetOf, byL1?: boolean,
): void {
  const state = appState(owner.node.root);
  state.registered.push(byL1 ? { owner, apiObject, propOf, window, byL1 } : { owner, apiObject, propOf, window });
  if (byL1) state.byL1 = true;
  rendersOncePerSynth(apiObject);
  keepRenderingsAroundChart(apiObject, state);
  owner.node.addValidation({
    validate: () => {
      const ruled = state.findings.get(apiObject) ?? NONE;
      const own = ownChecks?.() ?? NONE;
      const found = own.length === 0 ? ruled : ruled.length === 0 ? own : [...ruled, ...own];
      // The CRD schema is the net under the rules: its findings are reported when no rule found
      // anything, so a name the rules refuse is not reported twice (once by the pattern).
      const reported = found.length > 0 ? found : state.schemaFindings.get(apiObject) ?? NONE;
      return reported.length === 0 ? [] : reported.map(describe);
    },
  });
}

/** Runs the pass over `app` and returns every finding of the rules over documents. */
export function collectFindings(app: App): PathFinding[] {
  const state = apps.get(app.node.root);
  if (!state) return [];
  runPass(app.node.root, state);
  return state.registered.flatMap(r => {
    const found = state.findings.get(r.apiObject) ?? [];
    return (found.length > 0 ? found : state.schemaFindings.get(r.apiObject) ?? []).map(f => ({ path: r.owner.node.path, finding: f }));
  });
}

function appState(root: IConstruct): AppState {
  let state = apps.get(root);
  if (!state) {
    const created: AppState = { registered: [], findings: new Map(), schemaFindings: new Map(), current: false, byL1: false };
    state = created;
    apps.set(root, created);
    // cdk8s validates the tree from the root down, so this runs before every construct's own check.
    root.node.addValidation({ validate: () => { runPass(root, created); return []; } });
    // Within one `app.synth()` the pass and the renders are computed once and reused; outside it
    // (`Testing.synth(chart)`, `chart.toJson()`) each validation runs the pass afresh.
    if (root instanceof App) {
      aroundEachSynth(root, {
        begin: () => keepRenderings(root),
        end: () => {
          dropRenderings(root);
          created.current = false;
        },
      });
    }
  }
  return state;
}

/**
 * `chart.toJson()` (what `Testing.synth(chart)` calls) validates the whole app and then renders the
 * chart: the pass renders every object, and without a memo the chart's objects would render again
 * right after. Nothing can change them between the two (cdk8s-adapter.ts), so within that call the
 * pass's renderings are the chart's output, as within `app.synth()`. Inside a synth the synth's
 * memo is already open and is left alone.
 */
function keepRenderingsAroundChart(apiObject: ApiObject, state: AppState): void {
  const root = apiObject.node.root;
  let chart: Chart;
  try {
    chart = Chart.of(apiObject);
  } catch {
    return; // not in a chart: nothing renders it through Chart.toJson
  }
  let opened = false;
  aroundEachChartRender(chart, {
    begin: () => {
      opened = !keepingRenderings(root);
      if (opened) keepRenderings(root);
    },
    end: () => {
      if (!opened) return;
      opened = false;
      dropRenderings(root);
      state.current = false;
    },
  });
}

function runPass(root: IConstruct, state: AppState): void {
  const inSynth = keepingRenderings(root);
  if (inSynth && state.current) return;
  const { sets, schema, catalogue, ignoreRule, knownValues } = rules();
  const { ruleSource, ruleVersions, ruleInfo } = catalogue;
  const off = sourcesOff(root, sets.RULE_SETS.map(s => s.source));
  const isRule = (id: string) => ruleInfo(id) !== undefined;
  const accepted = acceptedUnknownValues(root);
  const isKnownValueRule = (rule: string | undefined) => rule !== undefined && rule in knownValues;
  const switchedOn = (f: Finding) => off.size === 0 || !off.has(ruleSource(f.rule) as RuleSource);
  // Each owner's window, worked out once per pass (a target that is wrong throws here, named by
  // its key, whether or not a versioned rule found anything).
  const windows = new Map<ApiObject, VersionWindow>(state.registered.map(r => [r.apiObject, r.window?.() ?? FULL_WINDOW]));
  const inWindow = (f: Finding, apiObject: ApiObject) => {
    const versions = ruleVersions(f.rule);
    return versions === undefined || ruleApplies(versions, windows.get(apiObject) ?? FULL_WINDOW);
  };
  const ours = new Map(state.registered.map(r => [r.apiObject, r]));
  const findings = new Map<ApiObject, Finding[]>();
  const schemaFindings = new Map<ApiObject, Finding[]>();
  const documents: AppDocument[] = [];
  // The library's objects by path, for the findings across documents (a path is worked out by
  // walking up the tree, so once per object).
  const byPath = new Map<string, ApiObject>();
  // The rules each of the library's documents silences (library/ignore-rule.ts), for the findings across documents.
  const silencings = new Map<ApiObject, import('../rules/library/ignore-rule').Silencings>();
  for (const apiObject of root.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject)) {
    let doc: any;
    try {
      doc = apiObject.toJson();
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      if (!ours.has(apiObject)) throw new Error(`${apiObject.node.path}: the object could not be rendered: ${reason}`);
      findings.set(apiObject, [finding(apiObject.kind, apiObject.name, `expected an object that renders; rendering failed: ${reason}`)]);
      continue;
    }
    const path = apiObject.node.path;
    documents.push({ path, doc });
    if (!ours.has(apiObject)) continue;
    byPath.set(path, apiObject);
    // The schema's findings on a patched document are about what a patch wrote, not a prop.
    const { propOf } = ours.get(apiObject)!;
    const on = (f: Finding) => switchedOn(f) && inWindow(f, apiObject);
    const silenced = ignoreRule.silencingsOf(doc, isRule);
    silencings.set(apiObject, silenced);
    const crd = ignoreRule.unsilenced(crdSchemaFindings(apiObject, schema.schemaViolations(doc) ?? [], schema.toFinding), silenced);
    if (crd.length > 0) schemaFindings.set(apiObject, (hasJsonPatches(apiObject) ? crd : withProps(crd, propOf)).filter(on));
    // Most documents have no findings: nothing is copied for them.
    const found = sets.documentFindings(doc);
    const ruled = ignoreRule.unsilenced(found.length === 0 ? found : withUnknownValuesAccepted(found, accepted, isKnownValueRule), silenced);
    findings.set(apiObject, ruled.length === 0 ? [] : withProps(ruled, propOf).filter(on));
  }
  const report = (apiObject: ApiObject | undefined, f: Finding) => {
    if (!apiObject || !switchedOn(f) || !inWindow(f, apiObject)) return;
    if (ignoreRule.isSilenced(f, silencings.get(apiObject)!)) return;
    findings.get(apiObject)?.push(...withProps([f], ours.get(apiObject)!.propOf));
  };
  for (const f of sets.appFindings(documents)) report(byPath.get(f.path), f.finding);
  // What a construct judges from its props, `lint` judges across its input: on the documents of
  // L1s a program constructed, synth does as `lint` does (an app of constructs never gets here).
  if (state.byL1) {
    for (const f of sets.inputFindings(documents.map(d => d.doc))) {
      const apiObject = byPath.get(documents[f.index].path);
      if (apiObject !== undefined && ours.get(apiObject)!.byL1) report(apiObject, f.finding);
    }
  }
  state.findings = findings;
  state.schemaFindings = schemaFindings;
  state.current = inSynth;
}

/** Findings whose field a prop of the owner set name that prop too. */
function withProps(findings: Finding[], propOf: PropOf | undefined): Finding[] {
  if (propOf === undefined) return findings;
  return findings.map(f => {
    const prop = propOf(f.field);
    // A prop named like the field (`metadata.name`, `metadata.labels`) adds nothing to the message.
    const same = prop !== undefined && (f.field === prop || f.field.startsWith(`${prop}.`) || f.field.startsWith(`${prop}[`));
    return prop === undefined || same ? f : { ...f, field: `${f.field} (${prop})` };
  });
}

type Violation = import('../rules/schema').Violation;

/**
 * The pinned CRD's schema on every object the library renders, as the API server validates a create:
 * the bounds, patterns and CEL rules the typed classes cannot express, and what JSON patches wrote.
 * Fields the user allowed with `EscapeHatch.allowUnknownField` are left out; an unknown field says
 * how to keep it, if it is meant.
 */
function crdSchemaFindings(apiObject: ApiObject, violations: readonly Violation[], toFinding: (v: Violation) => Finding): Finding[] {
  if (violations.length === 0) return [];
  const allowed = [...allowedFields(apiObject)];
  const out: Finding[] = [];
  for (const v of violations) {
    const f = toFinding(v);
    if (allowed.some(a => f.field === a || f.field.startsWith(`${a}.`) || f.field.startsWith(`${a}[`))) continue;
    out.push(v.problem.kind === 'unknown' ? withEscapeHint(f) : f);
  }
  return out;
}

/** The finding of an unknown field, with how to allow it (as a JSON pointer). */
function withEscapeHint(f: Finding): Finding {
  return { ...f, allowed: `${f.allowed}; if the field is meant (a newer operator's), allow it with EscapeHatch.allowUnknownField(apiObject, "/${f.field.replace(/\[(\d+)\]/g, '/$1').replace(/\./g, '/')}")` };
}
