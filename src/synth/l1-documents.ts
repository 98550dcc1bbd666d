/**
 * The documents of the L1s a program constructs itself (boundary/l1-guard.ts registers each): the
 * engine runs on them every rule `lint` applies to the same document (engine.ts), reported by the
 * L1 under its own path, so an app written with L1s, or converted to them, keeps its checks at
 * synth. The target window is the context key's (`cdk8s-kubeflow/target`, nearest scope): an L1
 * has no platform defaults.
 */
import type { ApiObject } from 'cdk8s';
import { checkRenderedDocument } from './engine';
import { FULL_WINDOW, TARGET_CONTEXT, VersionWindow, targetFromValue, targetWindow } from '../rules/target';

const WHERE = `context ${TARGET_CONTEXT}`;

/** Registers the document of an L1 a program constructed (once per object). */
export function checkL1Document(apiObject: ApiObject): void {
  checkRenderedDocument(apiObject, apiObject, undefined, undefined, () => contextWindowOf(apiObject), true);
}

/** Windows of context values read before, by value (an app has one or a few). */
const windows = new Map<unknown, VersionWindow>();

function contextWindowOf(apiObject: ApiObject): VersionWindow {
  const context = apiObject.node.tryGetContext(TARGET_CONTEXT);
  if (context === undefined) return FULL_WINDOW;
  let window = windows.get(context);
  if (window === undefined) {
    window = targetWindow(targetFromValue(context, WHERE), WHERE);
    windows.set(context, window);
  }
  return window;
}
