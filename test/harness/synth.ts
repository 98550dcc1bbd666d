/** Shorthands the construct tests share. */
import { Chart, Testing } from 'cdk8s';
import { expectDeterministic } from './determinism';
import { expectValidManifests } from './schema-validator';

// REPORT lives with the other pinned messages; kept here for the tests that import it with synthKind.
export { REPORT } from './messages';

/**
 * Builds the program in a chart with the id `test`, synthesizes it twice (asserting identical
 * bytes), validates every manifest strictly, and returns the first manifest of `kind`.
 */
export function synthKind(kind: string, build: (chart: Chart) => void): any {
  const docs = expectDeterministic(app => build(new Chart(app, 'test')));
  expectValidManifests(docs);
  return docs.find(d => d.kind === kind);
}

/** The validation report of `app.synth()` for a program in a chart `test` (of `namespace`), or undefined when it synthesizes. */
export function synthErrors(build: (chart: Chart) => void, namespace?: string): string | undefined {
  const app = Testing.app();
  build(new Chart(app, 'test', { namespace }));
  try {
    app.synth();
    return undefined;
  } catch (e: any) {
    return e.message;
  }
}
