// Placeholder until the runtime CRD schemas land (same exports).
import { Finding } from '../validation/finding';

export function schemaFindings(_doc: any): Finding[] | undefined {
  return undefined;
}
