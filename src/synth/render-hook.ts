import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { sortedMap } from '../util/collections';

/*
 * The one place where the library changes what an API object renders, after cdk8s has resolved it
 * and applied the user's JSON patches. Used for what only synth time knows (labels from platform
 * defaults set later) and for what cdk8s adds but must not be written (a chart's namespace on a
 * cluster-scoped object). Steps run in the order they were added.
 *
 * The objects are the library's generated L1s (imports/), whose `toJson()` override calls the hook
 * set here (cdk8s's public way to change a rendering: override `toJson()` in a subclass). No
 * method of an instance is replaced.
 */

type RenderStep = (json: any) => any;

/** What every generated L1 class has beside cdk8s's ApiObject (see scripts/l1/modules.ts). */
interface L1Object extends ApiObject {
  /** Whether JSON patches were added to the object. */
  readonly _hasJsonPatches: boolean;
  /** Sets what `toJson()` runs around the rendering of the manifest. */
  _setRenderHook(hook: (render: () => any) => any): void;
}

/** Whether the object is one of the library's generated L1s. */
function isL1(apiObject: ApiObject): apiObject is L1Object {
  return typeof (apiObject as Partial<L1Object>)._setRenderHook === 'function';
}

/**
 * Manifests rendered while one `app.synth()` runs, per app, so that an object is rendered once per
 * synth: cdk8s validates the whole app again for every chart it writes, and the rules over rendered
 * documents run in that validation. Nothing can change the objects while `synth()` runs, so the
 * memo is exact; the engine keeps it for the length of that call only (see cdk8s-adapter.ts).
 */
const memos = new WeakMap<IConstruct, Map<ApiObject, any>>();

/** Values worked out from the whole app while one synth runs, by name (see `oncePerSynth`). */
const synthValues = new WeakMap<IConstruct, Map<string, unknown>>();

/** Starts keeping the renderings of the app's L1s (at the start of a synth). */
export function keepRenderings(root: IConstruct): void {
  memos.set(root, new Map());
  synthValues.set(root, new Map());
}

/** Stops keeping them, and forgets them (at the end of the synth). */
export function dropRenderings(root: IConstruct): void {
  memos.delete(root);
  synthValues.delete(root);
}

/**
 * A value worked out from the whole app (say, its Kueue objects) that every object of one kind asks
 * for when it renders: computed once while a synth of the app runs, when nothing can change the
 * tree, and afresh on every call outside one. Without it, each of N jobs walking the app's tree
 * makes a synth quadratic in the app's size.
 */
export function oncePerSynth<T>(root: IConstruct, name: string, compute: () => T): T {
  const values = synthValues.get(root);
  if (values === undefined) return compute();
  if (!values.has(name)) values.set(name, compute());
  return values.get(name) as T;
}

/** Whether the app's renderings are being kept (a synth of it is running). */
export function keepingRenderings(root: IConstruct): boolean {
  return memos.has(root);
}

const steps = new WeakMap<ApiObject, RenderStep[]>();

/** The object's render steps, with its hook set on first use. */
function stepsOf(apiObject: L1Object): RenderStep[] {
  let list = steps.get(apiObject);
  if (!list) {
    const chain: RenderStep[] = [];
    list = chain;
    steps.set(apiObject, chain);
    // A construct's scope is fixed when it is made, so its root is too: looked up once here
    // rather than walked up to on every rendering.
    const root = apiObject.node.root;
    apiObject._setRenderHook(render => {
      const memo = memos.get(root);
      if (memo?.has(apiObject)) return memo.get(apiObject);
      const json = chain.reduce((doc, s) => s(doc), render());
      memo?.set(apiObject, json);
      return json;
    });
  }
  return list;
}

/** Adds a step to what `apiObject.toJson()` returns; the object must be one of the library's L1s. */
export function addRenderStep(apiObject: ApiObject, step: RenderStep): void {
  if (!isL1(apiObject)) throw new Error(`${apiObject.node.path}: only the library's L1 classes (imports/) render through the library's steps`);
  stepsOf(apiObject).push(step);
}

/** Makes an L1 keep its rendering for the rest of a synth (other objects render each time they are asked). */
export function rendersOncePerSynth(apiObject: ApiObject): void {
  if (isL1(apiObject)) stepsOf(apiObject);
}

/**
 * Whether escape hatches changed the object: JSON patches on one of the library's L1s, which keep
 * their own (they apply after the typed serializer). Only those kinds have a pinned schema to check
 * a patched manifest against, so other objects answer false.
 */
export function hasJsonPatches(apiObject: ApiObject): boolean {
  return isL1(apiObject) && apiObject._hasJsonPatches;
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
    // Object.assign, not a literal with two spreads: V8 runs that on a slow path, once per job.
    if (late.labels) metadata.labels = sortedMap(Object.assign({}, late.labels, metadata.labels));
    if (late.annotations) metadata.annotations = sortedMap(Object.assign({}, late.annotations, metadata.annotations));
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
