/**
 * Cohorts whose chain of parents never ends. Kueue accepts every Cohort and ClusterQueue of such a
 * chain, and then admits nothing through them: a ClusterQueue whose cohort has a cycle above it is
 * inactive (sigs.k8s.io/kueue v0.15.2 pkg/cache/hierarchy/cycle.go HasCycle,
 * pkg/cache/scheduler/cache.go ErrCohortHasCycle). The chains are followed through the Cohorts the
 * input defines; a cohort named without a Cohort object is a root (Kueue makes it implicitly).
 */
import { cohortChain, cohortFieldOf, cohortNameOf, isKueueDocument, parentNameOf } from './api';
import { AppDocument, AppFinding } from '../app-document';
import { Rule } from '../rule';

export const KUEUE_COHORT_CYCLE = new Rule('kueue', 'kueue/cohort-cycle', 'app',
  'kueue v0.15.2 pkg/cache/hierarchy/cycle.go HasCycle, pkg/cache/scheduler/cache.go ErrCohortHasCycle (Cohort.spec.parentName chains, and a ClusterQueue\'s cohort leading into them, end at a root)',
  'the chain of a Cohort\'s parents (and of a ClusterQueue\'s cohort) ends at a root, the input\'s Cohorts followed and a cohort it does not define a root');

const show = (names: readonly string[]) => names.map(n => `"${n}"`).join(' -> ');
const CONSEQUENCE = 'Kueue accepts it and admits nothing through the ClusterQueues below (cohort has a cycle)';

export function kueueCohortCycles(docs: readonly AppDocument[], out: AppFinding[]): void {
  const parents = new Map<string, string>();
  for (const d of docs) {
    if (!isKueueDocument(d.doc, 'Cohort')) continue;
    const name = d.doc?.metadata?.name;
    if (typeof name === 'string' && name !== '') parents.set(name, parentNameOf(d.doc));
  }
  if (parents.size === 0) return;
  const report = (d: AppDocument, field: string, value: string, allowed: string) =>
    out.push({ path: d.path, finding: { field, value, allowed, rule: KUEUE_COHORT_CYCLE.id } });
  for (const d of docs) {
    if (isKueueDocument(d.doc, 'Cohort')) {
      const name = d.doc.metadata?.name;
      const parent = parentNameOf(d.doc);
      if (typeof name !== 'string' || parent === '') continue;
      const { names, cycleAt } = cohortChain(name, parents);
      if (cycleAt < 0) continue;
      if (parent === name) {
        report(d, 'spec.parentName', parent, `expected the name of another cohort: a Cohort that is its own parent is a cycle; ${CONSEQUENCE}`);
      } else if (cycleAt === 0) {
        report(d, 'spec.parentName', parent, `expected a parent whose chain of parents ends at a root; ${show(names)} is a cycle; ${CONSEQUENCE}`);
      } else {
        report(d, 'spec.parentName', parent, `expected a parent whose chain of parents ends at a root; ${show(names)} runs into a cycle; ${CONSEQUENCE}`);
      }
    } else if (isKueueDocument(d.doc, 'ClusterQueue')) {
      const cohort = cohortNameOf(d.doc);
      if (cohort === '') continue;
      const { names, cycleAt } = cohortChain(cohort, parents);
      if (cycleAt < 0) continue;
      report(d, `spec.${cohortFieldOf(d.doc)}`, cohort,
        `expected a cohort whose chain of parents ends at a root; ${show(names)} ${cycleAt === 0 ? 'is' : 'runs into'} a cycle, so Kueue marks the ClusterQueue inactive and admits nothing through it`);
    }
  }
}
