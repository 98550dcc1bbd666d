import { Finding } from '../../src/rules/finding';
import { kubernetesFindings } from '../../src/rules/kubernetes';

/** A finding, as the rules return it. */
export function f(field: string, value: unknown, allowed: string, rule: string): Finding {
  return { field, value, allowed, rule };
}

/** A table case: its name, how it changes the valid document, and the exact findings expected. */
export type Case = [string, (doc: any) => void, Finding[]];

/** Runs a table: the base document has no findings; each change gives exactly its findings. */
export function runCases(base: () => any, cases: Case[]): void {
  test('the document as the library writes it has no findings', () => {
    expect(kubernetesFindings(base())).toEqual([]);
  });
  test.each(cases)('%s', (_name, change, expected) => {
    const doc = base();
    change(doc);
    expect(kubernetesFindings(doc)).toEqual(expected);
  });
}
