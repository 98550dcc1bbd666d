/**
 * The target window of a construct: the context key `cdk8s-kubeflow/target` (nearest scope's
 * value) with the platform defaults' `target` over it, key by key (the nearest scope's defaults
 * win, as for every default). Read at each pass of the rules, so context and defaults set after
 * the construct count.
 */
import { IConstruct } from 'constructs';
import { TargetInput, VersionWindow, FULL_WINDOW, TARGET_CONTEXT, targetFromValue, targetWindow } from '../../rules/target';
import { PlatformDefaults } from '../defaults';

export { TARGET_CONTEXT };

const WHERE = `context ${TARGET_CONTEXT}`;

/** Context values read before, by value (an app has one or a few; each is read and checked once). */
const fromContext = new Map<unknown, TargetInput>();

function contextTarget(value: unknown): TargetInput {
  let target = fromContext.get(value);
  if (target === undefined) {
    target = targetFromValue(value, WHERE);
    targetWindow(target, WHERE); // checked on its own, so an error names the context key
    fromContext.set(value, target);
  }
  return target;
}

/** The window `scope`'s cluster runs. */
export function targetWindowOf(scope: IConstruct): VersionWindow {
  const context = scope.node.tryGetContext(TARGET_CONTEXT);
  const defaults = PlatformDefaults._of(scope).target;
  if (context === undefined && defaults === undefined) return FULL_WINDOW;
  const merged: Record<string, string> = { ...(context === undefined ? {} : contextTarget(context)) };
  for (const [key, version] of Object.entries(defaults ?? {})) if (version !== undefined) merged[key] = version;
  return targetWindow(merged, WHERE);
}
