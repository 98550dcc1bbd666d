/**
 * The KAI scheduler's topology annotations on a job (`kai.scheduler/topology` and the required or
 * preferred placement level; NVIDIA KAI scheduler pkg/podgrouper/podgrouper/plugins/defaultgrouper
 * default_grouper.go reads them from the pods' top owner, the job). KAI is not among the pinned
 * sources, so this is the library's own rule, and it refuses only what can never work: the
 * topology names a cluster-scoped Topology object, and a name that is no DNS-1123 subdomain is no
 * object name the API server would ever have stored; a level is a node label key (the Topology's
 * levels are `nodeLabel`s), and a key that is no qualified name is on no node. A topology without a
 * level is legal for KAI (it then ignores topology), so only the constructs, whose props ask for
 * placement, refuse that (test/cli/construct-only.ts).
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { DNS1123_SUBDOMAIN_TEXT, QUALIFIED_NAME_TEXT, isDns1123Subdomain, isQualifiedName } from '../kubernetes/names';
import { Rule } from '../rule';

export const KAI_TOPOLOGY = new Rule('library', 'library/kai-topology', 'scheduling',
  'KAI scheduler podgrouper default_grouper.go (the kai.scheduler/topology annotation names a Topology object; the placement annotations name one of its node label levels): the library\'s own, not a pinned source',
  'the topology annotation names an object a cluster can hold (a DNS-1123 subdomain), and a required or preferred placement level is a node label key (a qualified name)');

export const KAI_TOPOLOGY_RULES = [KAI_TOPOLOGY];

const TOPOLOGY = 'kai.scheduler/topology';
const LEVELS = ['kai.scheduler/topology-required-placement', 'kai.scheduler/topology-preferred-placement'];

/** Checks the KAI topology annotations of one document's metadata. */
export function checkKaiTopology(doc: any, out: Finding[]): void {
  const annotations = doc?.metadata?.annotations;
  if (typeof annotations !== 'object' || annotations === null || annotations[TOPOLOGY] === undefined) return;
  const at = (key: string) => child('metadata.annotations', key);
  const name = annotations[TOPOLOGY];
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    KAI_TOPOLOGY.report(out, at(TOPOLOGY), name, `expected the name of the cluster's Topology object, ${DNS1123_SUBDOMAIN_TEXT}`);
  }
  for (const key of LEVELS) {
    const level = annotations[key];
    if (level !== undefined && (typeof level !== 'string' || !isQualifiedName(level))) {
      KAI_TOPOLOGY.report(out, at(key), level, `expected a node label key such as "cloud.provider.com/topology-block": ${QUALIFIED_NAME_TEXT}`);
    }
  }
}
