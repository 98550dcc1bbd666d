/**
 * The container the operator looks for in every replica: the webhooks reject a replica without a
 * container of the framework's name (training-operator pkg/webhooks/*: "There is no container named
 * <name>"), and the operator writes its port and environment into that container. An MPIJob names
 * the workers' container with `spec.mainContainer`: the launcher's `kubexec.sh` runs
 * `kubectl exec <worker pod> --container <mainContainer>` (training-operator pkg/controller.v1/mpi
 * newConfigMap), so only the workers need a container of that name; the launcher's is any.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

const F = 'containers';

export const FRAMEWORK_CONTAINER = new Rule('training-operator', 'training-operator/framework-container', F,
  'training-operator pkg/webhooks/*/validate<Kind>ReplicaSpecs: at least one container named DefaultContainerName',
  'every replica has a container with the framework\'s name (pytorch, tensorflow, xgboost, paddle, jax)');
export const MPI_MAIN_CONTAINER = new Rule('training-operator', 'training-operator/mpi-main-container', F,
  'training-operator pkg/controller.v1/mpi newConfigMap: kubexec.sh execs into spec.mainContainer of every worker',
  'spec.mainContainer names a container of every worker (kubexec execs into it)');

export const CONTAINER_RULES = [FRAMEWORK_CONTAINER, MPI_MAIN_CONTAINER];

/** The names of a template's containers, or undefined when it has no container list. */
export function containerNames(spec: any): string[] | undefined {
  const containers = spec?.template?.spec?.containers;
  if (!Array.isArray(containers)) return undefined;
  return containers.map(c => c?.name).filter((n): n is string => typeof n === 'string');
}

/** Checks that every replica has the container the operator looks for. */
export function checkFrameworkContainer(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const at = child('spec', facts.replicaKey);
  const main = facts.kind === 'MPIJob' ? doc.spec?.mainContainer : undefined;
  const wanted = facts.container ?? (typeof main === 'string' && main !== '' ? main : undefined);
  if (wanted === undefined) return;
  const rule = facts.container !== undefined ? FRAMEWORK_CONTAINER : MPI_MAIN_CONTAINER;
  for (const [type, spec] of replicaSpecs(doc, facts)) {
    if (rule === MPI_MAIN_CONTAINER && type !== 'Worker') continue;
    const names = containerNames(spec);
    if (names === undefined || names.includes(wanted)) continue;
    const why = rule === MPI_MAIN_CONTAINER
      ? `expected a container named "${wanted}", as spec.mainContainer says: the launcher execs the MPI processes into it`
      : `expected a container named "${wanted}": the operator looks for it to add its port and environment`;
    rule.report(out, child(child(child(child(at, type), 'template'), 'spec'), 'containers'), names, why);
  }
}
