/**
 * The operator names each pod and its headless Service `<job>-<replica type in lower case>-<index>`
 * (training-operator pkg/common/util GenGeneralName); the MPI launcher is `<job>-launcher`
 * (pkg/controller.v1/mpi launcherName). A Service name is a DNS-1035 label of at most 63
 * characters, so a job name that fits the object can still make Services the API server refuses.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs, replicasOf } from './training-kinds';

export const POD_NAME_LENGTH = new Rule('training-operator', 'training-operator/pod-name-length', 'names',
  'training-operator pkg/common/util GenGeneralName and Service names (ValidateServiceName: DNS-1035 label, at most 63 characters)',
  'each pod and headless Service is named <job>-<type>-<index>, which must fit a DNS-1035 label of 63 characters');

export const POD_NAME_RULES = [POD_NAME_LENGTH];

/** The name of the last pod the operator makes of a replica type, or undefined for none. */
export function lastPodName(job: string, kind: string, type: string, count: number): string | undefined {
  if (count < 1) return undefined;
  if (kind === 'MPIJob' && type === 'Launcher') return `${job}-launcher`;
  return `${job}-${type.toLowerCase()}-${count - 1}`;
}

/** Checks that the longest pod and service name of the job fits in 63 characters; reported once. */
export function checkPodNames(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const name = doc.metadata?.name;
  if (typeof name !== 'string' || name === '') return;
  const elasticMax = doc.spec?.elasticPolicy?.maxReplicas;
  let longest: string | undefined;
  for (const [type, spec] of replicaSpecs(doc, facts)) {
    // Elastic workers may scale up to maxReplicas: the last of those is the longest name.
    let count = replicasOf(spec);
    if (type === 'Worker' && typeof elasticMax === 'number' && elasticMax > count) count = elasticMax;
    const pod = lastPodName(name, facts.kind, type, count);
    if (pod !== undefined && (longest === undefined || pod.length > longest.length)) longest = pod;
  }
  if (longest !== undefined && longest.length > 63) {
    POD_NAME_LENGTH.report(out, 'metadata.name', name,
      `expected a name of at most ${63 - longest.length + name.length} characters, so that the pod and service name "${longest}" fits in 63`);
  }
}
