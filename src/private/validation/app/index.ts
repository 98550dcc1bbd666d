// Placeholder until the app rule layer lands (same exports).
import { Finding } from '../finding';
import { RuleInfo } from '../rule';

export interface AppDocument { readonly path: string; readonly doc: any }
export interface AppFinding { readonly path: string; readonly finding: Finding }
export const APP_RULES: readonly RuleInfo[] = [];

export function appFindings(_docs: readonly AppDocument[]): AppFinding[] {
  return [];
}
