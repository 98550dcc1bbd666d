import { ApiObject } from 'cdk8s';
import { sortedMap } from './collections';

/*
 * The one place where the library changes what an API object renders, after cdk8s has resolved it
 * and applied the user's JSON patches. Used for what only synth time knows (labels from platform
 * defaults set later) and for what cdk8s adds but must not be written (a chart's namespace on a
 * cluster-scoped object). Hooks run in the order they were added.
 */

type RenderStep = (json: any) => any;

const steps = new WeakMap<ApiObject, RenderStep[]>();

/**
 * Manifests rendered while one `app.synth()` runs, so that an object is rendered once per synth:
 * cdk8s validates the whole app again for every chart it writes, and the rules over rendered
 * documents run in that validation. Nothing can change the objects while `synth()` runs, so the
 * memo is exact; it is kept only for that call (see the engine).
 */
export const renderMemo: { active: boolean; readonly docs: Map<ApiObject, any> } = { active: false, docs: new Map() };

/** Adds a step to what `apiObject.toJson()` returns. */
export function addRenderStep(apiObject: ApiObject, step: RenderStep): void {
  let list = steps.get(apiObject);
  if (!list) {
    const chain: RenderStep[] = [];
    list = chain;
    steps.set(apiObject, chain);
    const render = apiObject.toJson.bind(apiObject);
    apiObject.toJson = () => {
      if (renderMemo.active && renderMemo.docs.has(apiObject)) return renderMemo.docs.get(apiObject);
      const json = chain.reduce((doc, s) => s(doc), render());
      if (renderMemo.active) renderMemo.docs.set(apiObject, json);
      return json;
    };
  }
  list.push(step);
}

/** Metadata known only at synth time. */
export interface LateMetadata {
  readonly labels?: { [key: string]: string };
  readonly annotations?: { [key: string]: string };
}

/**
 * Merges metadata into the object when it renders (cdk8s renders `metadata` eagerly, and platform
 * defaults are looked up at synth time). Labels the object was given explicitly win.
 */
export function addLateMetadata(apiObject: ApiObject, produce: () => LateMetadata): void {
  addRenderStep(apiObject, json => {
    const late = produce();
    if (!late.labels && !late.annotations) return json;
    const metadata = { ...(json.metadata ?? {}) };
    if (late.labels) metadata.labels = sortedMap({ ...late.labels, ...(metadata.labels ?? {}) });
    if (late.annotations) metadata.annotations = sortedMap({ ...late.annotations, ...(metadata.annotations ?? {}) });
    return { ...json, metadata };
  });
}

/** Drops the namespace cdk8s copies from the chart onto a cluster-scoped object. */
export function omitNamespace(apiObject: ApiObject): void {
  addRenderStep(apiObject, json => {
    if (!json.metadata || json.metadata.namespace === undefined) return json;
    const { namespace: _ignored, ...metadata } = json.metadata;
    return { ...json, metadata };
  });
}
