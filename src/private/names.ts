/*
 * Kubernetes name formats the constructs check at once, on the props that become names (job and
 * container names, option ids). The rule layer over rendered documents checks the rest.
 */

const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PORT_ID = /^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$/;

export const DNS_1035_LABEL_TEXT = 'a DNS-1035 label: lower-case letters, digits and "-", starting with a letter and ending with a letter or digit';
export const DNS_LABEL_TEXT = 'a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit';
export const DNS_SUBDOMAIN_TEXT = 'a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" and ".", each part starting and ending with a letter or digit';
export const PORT_ID_TEXT = 'a port id: at most 32 lower-case letters, digits, "-" and "_", starting and ending with a letter or digit';

/** A DNS-1035 label (starts with a letter): what Service names, and so job names, must be. */
export function isDns1035Label(value: string): boolean {
  return typeof value === 'string' && value.length <= 63 && DNS_1035_LABEL.test(value);
}

/** A DNS-1123 label. */
export function isLabel(value: string): boolean {
  return typeof value === 'string' && value.length <= 63 && DNS_LABEL.test(value);
}

/** A DNS-1123 subdomain. */
export function isSubdomain(value: string): boolean {
  return typeof value === 'string' && value.length <= 253 && DNS_SUBDOMAIN.test(value);
}

/** A Notebooks v2 port id. */
export function isPortId(value: string): boolean {
  return typeof value === 'string' && value.length <= 32 && PORT_ID.test(value);
}
