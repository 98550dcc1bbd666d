// Placeholder until the Kubernetes rule layer lands (same exports).
import { Finding } from '../finding';
import { RuleInfo } from '../rule';

export const KUBERNETES_RULES: readonly RuleInfo[] = [];

export function kubernetesFindings(_doc: any): Finding[] {
  return [];
}
