/*
 * Kubernetes name formats the constructs check at once, on the props that become names (container
 * names, option ids). One definition of each format: the rule layer's (rules/kubernetes/names.ts).
 */
export {
  DNS1035_LABEL_TEXT as DNS_1035_LABEL_TEXT, DNS1123_LABEL_TEXT as DNS_LABEL_TEXT, DNS1123_SUBDOMAIN_TEXT as DNS_SUBDOMAIN_TEXT,
  isDns1035Label, isDns1123Label as isLabel, isDns1123Subdomain as isSubdomain,
} from '../../rules/kubernetes/names';

const PORT_ID = /^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$/;

/** What a Notebooks v2 port id must be (the WorkspaceKind CRD's pattern and length). */
export const PORT_ID_TEXT = 'a port id: at most 32 lower-case letters, digits, "-" and "_", starting and ending with a letter or digit';

/** A Notebooks v2 port id. */
export function isPortId(value: string): boolean {
  return typeof value === 'string' && value.length <= 32 && PORT_ID.test(value);
}
