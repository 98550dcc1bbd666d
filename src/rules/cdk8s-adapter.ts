/**
 * The one place where the library depends on how cdk8s synthesizes rather than on its public API.
 * test/rules/cdk8s-adapter.test.ts checks every assumption below against the installed cdk8s, so an
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
 */
import { App, Chart } from 'cdk8s';

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
