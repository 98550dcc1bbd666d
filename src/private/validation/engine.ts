import { ApiObject, App } from 'cdk8s';
import { IConstruct } from 'constructs';
import type { AppDocument } from './app';
import { Finding, describe, finding } from './finding';
import { EscapeHatch } from '../../escape-hatch';
import { lazy } from '../lazy';
import { renderMemo } from '../render-hook';

/** The rule layers and the strict schemas, loaded by the first pass rather than with the library. */
/* eslint-disable @typescript-eslint/no-require-imports */
const rules = lazy(() => ({
  kubernetesFindings: (require('./k8s') as typeof import('./k8s')).kubernetesFindings,
  appFindings: (require('./app') as typeof import('./app')).appFindings,
  schemaFindings: (require('../schema') as typeof import('../schema')).schemaFindings,
  kubeflowFindings: (require('./kubeflow') as typeof import('./kubeflow')).kubeflowFindings,
}));
/* eslint-enable @typescript-eslint/no-require-imports */

/*
 * The engine of the rules over rendered documents. Every API object a construct of this library
 * writes is registered here; once per synth, before anything is written, one pass over the whole
 * app renders every API object (so a render-time error stops synthesis before the first file is
 * touched), runs the Kubernetes rules and the operator rules (`kubeflow/...`, the ones
 * `cdk8s-kubeflow lint` applies to hand-written YAML) on each of the library's documents, the
 * strict CRD schema on documents that escape hatches changed, and the rules across objects on all
 * of them. Each construct then reports its own document's findings, so cdk8s prefixes them with
 * its path.
 */

/**
 * The cdk8s context key that turns the Kubernetes and app rules off (for the differential proof,
 * which compares them with Kubernetes' own validation). The operator rules stay on: they are the
 * constructs' own operator checks, which were never switchable, now written once over documents.
 */
export const KUBERNETES_RULES_CONTEXT = 'cdk8s-kubeflow.internal/kubernetes-rules';

/** A finding of the rules over documents, with the path of the construct that owns the document. */
export interface PathFinding {
  readonly path: string;
  readonly finding: Finding;
}

interface Registered {
  readonly owner: IConstruct;
  readonly apiObject: ApiObject;
  readonly propOf?: PropOf;
}

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
  /** Whether the findings are those of the current `app.synth()` (valid until it returns). */
  current: boolean;
}

const apps = new WeakMap<IConstruct, AppState>();

/**
 * Registers an API object the library writes, owned by `owner` (whose path prefixes the messages).
 * Its findings are reported by `owner`'s validation at synth.
 */
export function checkRenderedDocument(owner: IConstruct, apiObject: ApiObject, propOf?: PropOf): void {
  const state = appState(owner.node.root);
  state.registered.push({ owner, apiObject, propOf });
  owner.node.addValidation({ validate: () => (state.findings.get(apiObject) ?? []).map(describe) });
}

/** Runs the pass over `app` and returns every finding of the rules over documents. */
export function collectFindings(app: App): PathFinding[] {
  const state = apps.get(app.node.root);
  if (!state) return [];
  runPass(app.node.root, state);
  return state.registered.flatMap(r => (state.findings.get(r.apiObject) ?? []).map(f => ({ path: r.owner.node.path, finding: f })));
}

function appState(root: IConstruct): AppState {
  let state = apps.get(root);
  if (!state) {
    const created: AppState = { registered: [], findings: new Map(), current: false };
    state = created;
    apps.set(root, created);
    // cdk8s validates the tree from the root down, so this runs before every construct's own check.
    root.node.addValidation({ validate: () => { runPass(root, created); return []; } });
    if (root instanceof App) oncePerSynth(root, created);
  }
  return state;
}

/**
 * cdk8s's `App.synth()` validates the whole app once, and again for every chart it writes: within
 * one call the pass and the renders are computed once and reused (nothing can change the objects
 * while it runs). Outside `synth()` (`Testing.synth(chart)`, `chart.toJson()`) each validation
 * runs the pass afresh.
 */
function oncePerSynth(app: App, state: AppState): void {
  for (const method of ['synth', 'synthYaml'] as const) {
    const original = app[method].bind(app) as () => any;
    (app as any)[method] = () => {
      renderMemo.active = true;
      try {
        return original();
      } finally {
        renderMemo.active = false;
        renderMemo.docs.clear();
        state.current = false;
      }
    };
  }
}

function runPass(root: IConstruct, state: AppState): void {
  if (renderMemo.active && state.current) return;
  const rulesOn = root.node.tryGetContext(KUBERNETES_RULES_CONTEXT) !== 'off';
  const { kubernetesFindings, appFindings, schemaFindings, kubeflowFindings } = rules();
  const ours = new Map(state.registered.map(r => [r.apiObject, r]));
  const findings = new Map<ApiObject, Finding[]>();
  const documents: AppDocument[] = [];
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
    documents.push({ path: apiObject.node.path, doc });
    if (!ours.has(apiObject)) continue;
    const own: Finding[] = [];
    if (hasJsonPatches(apiObject)) own.push(...unallowed(apiObject, schemaFindings(doc) ?? []));
    if (rulesOn) own.push(...kubernetesFindings(doc));
    own.push(...withProps(kubeflowFindings(doc), ours.get(apiObject)!.propOf));
    findings.set(apiObject, own);
  }
  if (rulesOn) {
    const byPath = new Map([...ours.keys()].map(o => [o.node.path, o]));
    for (const f of appFindings(documents)) {
      const apiObject = byPath.get(f.path);
      if (apiObject) findings.get(apiObject)?.push(f.finding);
    }
  }
  state.findings = findings;
  state.current = renderMemo.active;
}

/** Findings whose field a prop of the owner set name that prop too. */
function withProps(findings: Finding[], propOf: PropOf | undefined): Finding[] {
  if (propOf === undefined) return findings;
  return findings.map(f => {
    const prop = propOf(f.field);
    return prop === undefined ? f : { ...f, field: `${f.field} (${prop})` };
  });
}

/**
 * Whether escape hatches changed the object: its JSON patches are then checked against the schema.
 * The generated L1s keep their patches (applied after their typed serializer) in
 * `manifestPatches`; other API objects in cdk8s's `patches`.
 */
function hasJsonPatches(apiObject: ApiObject): boolean {
  const holder = apiObject as unknown as { manifestPatches?: unknown[]; patches?: unknown[] };
  return (holder.manifestPatches?.length ?? 0) > 0 || (holder.patches?.length ?? 0) > 0;
}

/** Schema findings outside the fields the user allowed with `EscapeHatch.allowUnknownField`. */
function unallowed(apiObject: ApiObject, findings: Finding[]): Finding[] {
  const allowed = [...EscapeHatch._allowedFields(apiObject)];
  if (allowed.length === 0) return findings.map(withEscapeHint);
  return findings.filter(f => !allowed.some(a => f.field === a || f.field.startsWith(`${a}.`) || f.field.startsWith(`${a}[`))).map(withEscapeHint);
}

/** An unknown field from a JSON patch says how to keep it, if it is meant. */
function withEscapeHint(f: Finding): Finding {
  if (!f.allowed.startsWith('expected only fields the pinned CRD declares')) return f;
  return { ...f, allowed: `${f.allowed}; if the field is meant (a newer operator's), allow it with EscapeHatch.allowUnknownField(apiObject, "/${f.field.replace(/\[(\d+)\]/g, '/$1').replace(/\./g, '/')}")` };
}
