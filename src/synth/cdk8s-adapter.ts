/**
 * The one place where the library depends on how cdk8s synthesizes rather than on its public API.
 * test/synth/cdk8s-adapter.test.ts checks every assumption below against the installed cdk8s, so an
 * upgrade that breaks one fails there, by name, instead of somewhere in the rules.
 *
 * Why it exists: the rules across objects need one pass over the whole app, and `App.synth()`
 * validates the whole app once before it writes anything and then again for every chart it writes
 * (`Chart.toJson()` validates the app before rendering the chart). cdk8s offers no hook around one
 * synthesis, so without this the pass and every render would run 1 + (number of charts) times per
 * synth. What it does: it brackets `synth()` and `synthYaml()` of one App instance (an own property
 * shadowing the prototype's method, nothing global), so that the engine can keep the pass and the
 * rendered documents for the length of that one call, when nothing can change the objects.
 *
 * Assumed of cdk8s (2.70; the guard test checks each):
 * 1. `App.prototype.synth` and `App.prototype.synthYaml` are plain methods, and what a program calls
 *    is `app.synth()` / `app.synthYaml()` on the instance;
 * 2. each runs the app's validations (the root's first) before the first file is written or
 *    the first object rendered for output, and throws on an error without writing a file;
 * 3. within one call, each object's `toJson()` is called only for output and by validations; no
 *    construct is changed.
 * 4. `Chart.prototype.toJson` is a plain method too; it validates the whole app and then renders the
 *    chart's objects, and changes no construct in between (what `Testing.synth(chart)` calls, and
 *    what `synth()` calls for every chart it writes).
 *
 * The same bracket around one chart's `toJson()` lets the objects the validation rendered be the
 * ones the chart returns, instead of rendering each twice.
 *
 * It is also where the one-walk rendering of the library's objects (common/internal/resolve-props.ts)
 * reads what cdk8s keeps private, assuming of `ApiObject.prototype.toJson` (checked the same way):
 * 5. it renders the private field `props`, with `metadata` resolved, through the app's resolvers,
 *    then sorts the keys and drops null and undefined values, unless the environment variable
 *    `CDK8S_DISABLE_SORT` is set; the JSON patches are the private array `patches`, applied after;
 * 6. a new App's resolvers are exactly `LazyResolver`, `ImplicitTokenResolver` and
 *    `NumberStringUnionResolver`, in that order (what resolve-props folds into its walk).
 *
 * And of cdk8s-plus-28, whose volumes and containers the library's pods are written with:
 * 7. `Volume` and `Container` give their Kubernetes form with `_toKube()`, a method cdk8s-plus marks
 *    internal: the form its own pods write (`kubeVolume`, `kubeContainer`).
 */
import { ApiObject, App, Chart, ImplicitTokenResolver, LazyResolver, NumberStringUnionResolver } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';

/** What runs around each synthesis of an app. */
export interface SynthBracket {
  /** Before cdk8s does anything of the synthesis. */
  begin(): void;
  /** After it returned or threw. */
  end(): void;
}

const bracketed = new WeakSet<App | Chart>();

/** Runs `bracket.begin()` and `bracket.end()` around every `app.synth()` and `app.synthYaml()` (installed once per app). */
export function aroundEachSynth(app: App, bracket: SynthBracket): void {
  if (bracketed.has(app)) return;
  bracketed.add(app);
  bracketMethod(app, 'synth', bracket);
  bracketMethod(app, 'synthYaml', bracket);
}

/**
 * Runs `bracket.begin()` and `bracket.end()` around every `chart.toJson()` of the chart (installed
 * once per chart). `synth()` calls it for every chart it writes, inside its own bracket.
 */
export function aroundEachChartRender(chart: Chart, bracket: SynthBracket): void {
  if (bracketed.has(chart)) return;
  bracketed.add(chart);
  bracketMethod(chart, 'toJson', bracket);
}

/** Replaces `target[method]` by an own property that calls the original inside the bracket. */
function bracketMethod<T extends object>(target: T, method: keyof T & string, bracket: SynthBracket): void {
  const original = target[method] as unknown as (this: T) => unknown;
  Object.defineProperty(target, method, {
    configurable: true,
    writable: true,
    value: function (this: T) {
      bracket.begin();
      try {
        return original.call(this);
      } finally {
        bracket.end();
      }
    },
  });
}

/** The fields of cdk8s's ApiObject that `toJson()` reads and TypeScript keeps private. */
interface ApiObjectInternals {
  readonly props?: unknown;
  readonly patches?: unknown;
}

/**
 * The props `apiObject.toJson()` renders, when cdk8s renders them with its three default resolvers,
 * keys sorted and no JSON patch, so that one walk over them gives cdk8s's answer; otherwise (or
 * should a cdk8s release rename the private fields) undefined, and cdk8s renders the object itself.
 */
export function propsRenderedByDefault(apiObject: ApiObject): object | undefined {
  const internals = apiObject as unknown as ApiObjectInternals;
  const props = internals.props;
  if (props === null || typeof props !== 'object' || !Array.isArray(internals.patches) || internals.patches.length > 0) return undefined;
  if (process.env.CDK8S_DISABLE_SORT || !hasDefaultResolversOnly(App.of(apiObject))) return undefined;
  return props;
}

/** Whether the app resolves with cdk8s's three default resolvers and no others. */
export function hasDefaultResolversOnly(app: App): boolean {
  const resolvers = app.resolvers;
  return resolvers.length === 3
    && resolvers[0].constructor === LazyResolver
    && resolvers[1].constructor === ImplicitTokenResolver
    && resolvers[2].constructor === NumberStringUnionResolver;
}

/** A cdk8s-plus volume as a pod lists it (what cdk8s-plus's own pods write). */
export function kubeVolume(volume: kplus.Volume): k8s.Volume {
  return volume._toKube();
}

/** A cdk8s-plus container as a pod lists it (what cdk8s-plus's own pods write). */
export function kubeContainer(container: kplus.Container): k8s.Container {
  return container._toKube();
}
