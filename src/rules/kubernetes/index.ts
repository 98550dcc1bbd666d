/**
 * The Kubernetes rule layer: pure functions over rendered documents (what `ApiObject.toJson()`
 * returns, or a parsed YAML document), applying the API server's object and pod-template rules that
 * need no cluster and the kubelet's and runtime's start-up refusals. Findings name the rule and the
 * field from the document root; the engine maps them to construct paths.
 */
import { Finding } from '../finding';
import { RuleInfo } from '../rule';
import { CLAIM_SPEC_RULES } from './claim-spec';
import { CONTAINER_RULES } from './containers';
import { CORE_OBJECT_RULES } from './core-objects';
import { DocumentKind, documentKind, integerFields, SUBDOMAIN_NAME } from './documents';
import { ENV_SOURCE_RULES } from './env-sources';
import { HANDLER_RULES } from './handlers';
import { INTEGER_RULES, checkIntegers, compileIntegers } from './integers';
import { METADATA_RULES, checkObjectMeta } from './metadata';
import { isObject } from './names';
import { POD_NETWORK_RULES } from './pod-network';
import { POD_OS_RULES } from './pod-os';
import { POD_RESOURCE_RULES } from './pod-resources';
import { POD_SECURITY_RULES } from './pod-security';
import { POD_SECURITY_CONTEXT_RULES } from './pod-security-context';
import { POD_SPEC_RULES, checkPodTemplate } from './pod-spec';
import { RESOURCE_RULES } from './resources';
import { SCHEDULING_RULES } from './scheduling';
import { SECURITY_RULES } from './security';
import { Location, compileLocation, select } from './select';
import { TOPOLOGY_SPREAD_RULES } from './topology-spread';
import { VOLUME_DEVICE_RULES } from './volume-devices';
import { VOLUME_SOURCE_RULES } from './volume-sources';
import { VOLUME_RULES } from './volumes';
import { WINDOWS_OPTION_RULES } from './windows-options';
import { TRAINER_RULES } from '../trainer/documents';

export { DOCUMENT_KINDS, TRAINING_JOB_REPLICA_KEYS, documentKind, integerFields } from './documents';
export { restrictedFindings } from './pod-security';
export type { DocumentKind } from './documents';

/** Every Kubernetes rule of the layer. */
export const KUBERNETES_RULES: readonly RuleInfo[] = [
  ...METADATA_RULES, ...POD_SPEC_RULES, ...CONTAINER_RULES, ...ENV_SOURCE_RULES, ...HANDLER_RULES,
  ...POD_NETWORK_RULES, ...TOPOLOGY_SPREAD_RULES, ...VOLUME_RULES, ...VOLUME_SOURCE_RULES, ...SCHEDULING_RULES, ...RESOURCE_RULES,
  ...POD_RESOURCE_RULES, ...SECURITY_RULES, ...POD_SECURITY_CONTEXT_RULES, ...INTEGER_RULES, ...CORE_OBJECT_RULES,
  ...CLAIM_SPEC_RULES, ...POD_OS_RULES, ...VOLUME_DEVICE_RULES, ...WINDOWS_OPTION_RULES,
].map(r => r.info());

/**
 * The Trainer v2 webhooks' rules of one document: `kubernetesFindings` applies them with the
 * Kubernetes rules in one walk (a runtime's pods are Kubernetes pods), but they are Trainer's.
 */
export const TRAINER_DOCUMENT_RULES: readonly RuleInfo[] = TRAINER_RULES.map(r => r.info());

/** The Pod Security "restricted" rules: applied by `restrictedFindings` for presets, not by `kubernetesFindings`. */
export const POD_SECURITY_RESTRICTED_RULES: readonly RuleInfo[] = POD_SECURITY_RULES.map(r => r.info());

/** A kind's table, compiled once. */
interface Compiled {
  readonly templates: readonly Location[];
  readonly integers: ReturnType<typeof compileIntegers>;
}
const compiled = new Map<DocumentKind, Compiled>();

function compile(kind: DocumentKind): Compiled {
  let c = compiled.get(kind);
  if (c === undefined) {
    c = { templates: kind.podTemplates.map(compileLocation), integers: compileIntegers(integerFields(kind)) };
    compiled.set(kind, c);
  }
  return c;
}

/** Every finding of every rule that applies to one document. */
export function kubernetesFindings(doc: any): Finding[] {
  const out: Finding[] = [];
  if (!isObject(doc)) return out;
  const kind = documentKind(doc);
  checkObjectMeta(doc.metadata, 'metadata', kind?.name ?? SUBDOMAIN_NAME, out);
  if (kind === undefined) return out;
  const c = compile(kind);
  const added = kind.addedVolumes?.(doc) ?? [];
  for (const location of c.templates) select(doc, location, (template, at) => checkPodTemplate(template, at, out, added));
  checkIntegers(c.integers, doc, '', out);
  kind.check?.(doc, out);
  return out;
}
