import { isDns1123Subdomain } from '../kubernetes/names';

/** k8s.io/apimachinery IsDomainPrefixedPath: `<DNS-1123 subdomain>/<path characters>`. */
export function isDomainPrefixedPath(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return false;
  return isDns1123Subdomain(value.slice(0, slash)) && /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(value.slice(slash + 1));
}
