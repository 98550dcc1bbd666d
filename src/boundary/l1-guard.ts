/**
 * The L1 classes (imports/) guarded like the constructs, installed once by the package's entry
 * (install.ts `guardExports`, and the lazy entry when a program first reads an L1 submodule). Every
 * L1 class's constructor calls the hook of imports/l1-hooks.ts; for an L1 a program constructs
 * itself, this one
 * - checks the props against the L1 table (check.ts `checkL1Constructor`): a number where the CRD
 *   has a string, a string for a quantity or an object for a list gets the boundary's message,
 *   instead of reaching the YAML as it is or vanishing from it;
 * - registers its document with the rules at synth (synth/l1-documents.ts), so that every rule
 *   `lint` applies to the document runs on it when cdk8s writes it.
 * An L1 the library's own constructs make (its scope is one of them) is left alone: the construct
 * builds its props from checked ones and registers the document itself, so it is neither checked
 * twice nor costs anything but this test.
 */
import type { ApiObject } from 'cdk8s';
import { LIBRARY_CONSTRUCTS } from './registry';
import { setL1ConstructedHook } from '../../imports/l1-hooks';
import { lazy } from '../util/lazy';

/* eslint-disable @typescript-eslint/no-require-imports */
const check = lazy(() => require('./check') as typeof import('./check'));
const documents = lazy(() => require('../synth/l1-documents') as typeof import('../synth/l1-documents'));
/* eslint-enable @typescript-eslint/no-require-imports */

let installed = false;

/** Sets the L1 classes' hook (once; later calls do nothing). */
export function installL1Guard(): void {
  if (installed) return;
  installed = true;
  setL1ConstructedHook(guardL1);
}

function guardL1(apiObject: ApiObject, type: string, props: unknown): void {
  const scope = apiObject.node.scope;
  if (scope !== undefined && LIBRARY_CONSTRUCTS.has(scope)) return;
  check().checkL1Constructor(apiObject, type, props);
  documents().checkL1Document(apiObject);
}
