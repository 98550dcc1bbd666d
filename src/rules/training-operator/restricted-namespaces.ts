/**
 * Pod Security "restricted" for the jobs of a namespace that enforces it, when the Namespace is in
 * the same input (label `pod-security.kubernetes.io/enforce: restricted`, k8s.io/pod-security-admission
 * api.EnforceLevelLabel). The admission check runs on the pods the operator creates, so the job's
 * templates are judged, and so are the pieces the operator adds that no template can fix:
 * the MPI v1 launcher's `kubectl-delivery` init container (built in code, no security context) and
 * PyTorch's `init-pytorch` init container in the workers of a job with a Master (its default
 * template has no security context; `--pytorch-init-container-template-file` can replace it).
 */
import { Finding } from '../finding';
import { restrictedFindings } from '../kubernetes';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { trainingKindOf, replicaSpecs } from './training-kinds';

export const RESTRICTED_OPERATOR_PIECES = new Rule('training-operator', 'training-operator/restricted-operator-init', 'pod-security',
  'training-operator pkg/controller.v1/mpi newLauncher (kubectl-delivery init container) and pkg/controller.v1/pytorch initcontainer.go (init-pytorch)',
  'the init containers the operator adds do not meet Pod Security "restricted", so such jobs fail in a namespace enforcing it');

export const RESTRICTED_NAMESPACE_RULES = [RESTRICTED_OPERATOR_PIECES];

const ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

/** A finding about the document at `index` of the input. */
export interface DocumentFinding {
  readonly index: number;
  readonly finding: Finding;
}

/** The namespaces of the input that enforce "restricted". */
export function restrictedNamespaces(docs: readonly any[]): Set<string> {
  const out = new Set<string>();
  for (const doc of docs) {
    if (doc?.apiVersion === 'v1' && doc?.kind === 'Namespace' && doc?.metadata?.labels?.[ENFORCE_LABEL] === 'restricted'
      && typeof doc.metadata.name === 'string') {
      out.add(doc.metadata.name);
    }
  }
  return out;
}

/** Every restricted finding of the training jobs in namespaces of the input that enforce it. */
export function restrictedNamespaceFindings(docs: readonly any[], out: DocumentFinding[]): void {
  const namespaces = restrictedNamespaces(docs);
  if (namespaces.size === 0) return;
  docs.forEach((doc, index) => {
    const facts = trainingKindOf(doc);
    const ns = doc?.metadata?.namespace;
    if (facts === undefined || typeof ns !== 'string' || !namespaces.has(ns)) return;
    const why = `(namespace "${ns}" enforces Pod Security "restricted")`;
    const specs = replicaSpecs(doc, facts);
    const at = child('spec', facts.replicaKey);
    for (const [type, spec] of specs) {
      const templateAt = child(child(at, type), 'template');
      for (const finding of restrictedFindings(spec.template?.spec, child(templateAt, 'spec'), spec.template?.metadata, child(templateAt, 'metadata'))) {
        out.push({ index, finding });
      }
    }
    const types = new Set(specs.map(([t]) => t));
    const own: Finding[] = [];
    if (facts.kind === 'MPIJob' && types.has('Launcher')) {
      RESTRICTED_OPERATOR_PIECES.report(own, 'spec.mpiReplicaSpecs.Launcher', 'kubectl-delivery',
        `expected a job that can pass ${why}: the operator adds the init container "kubectl-delivery" without a security context to every MPIJob v1 launcher; use Trainer v2's MPI runtime instead`);
    }
    if (facts.kind === 'PyTorchJob' && types.has('Master') && types.has('Worker')) {
      RESTRICTED_OPERATOR_PIECES.report(own, 'spec.pytorchReplicaSpecs.Worker', 'init-pytorch',
        `expected an operator whose --pytorch-init-container-template-file gives init-pytorch a restricted security context ${why}: the default template has none, so every worker pod is refused`);
    }
    for (const finding of own) out.push({ index, finding });
  });
}
