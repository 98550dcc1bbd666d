/**
 * A pod's name resolution: `dnsConfig` (`validatePodDNSConfig`, with RelaxedDNSSearchValidation,
 * GA in 1.34) and `hostAliases` (`ValidateHostAliases`), k8s.io/kubernetes/pkg/apis/core/validation.
 * IP addresses are read as the legacy fields read them (ParseIPSloppy: IPv4 parts may have leading
 * zeros).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { DNS1123_SUBDOMAIN_TEXT, isDns1123Subdomain, isObject } from './names';

const F = 'pod';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const DNS_CONFIG = new Rule('kubernetes', 'kubernetes/dns-config', F,
  `${SOURCE} validatePodDNSConfig (at most 3 nameserver IPs, at most 32 search domains in 2048 characters, option names)`,
  'at most 3 nameservers, each an IP');
export const HOST_ALIASES = new Rule('kubernetes', 'kubernetes/host-aliases', F, `${SOURCE} ValidateHostAliases (an IP, DNS-1123 subdomain hostnames)`,
  'a host alias has an IP and subdomain host names');

export const POD_NETWORK_RULES = [DNS_CONFIG, HOST_ALIASES];

const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;
const MAX_SEARCH_CHARS = 2048;
// IsDNS1123SubdomainWithUnderscore: labels may start with "_" and hold "_".
const SUBDOMAIN_WITH_UNDERSCORE = /^_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*$/;
const IP_TEXT = 'an IPv4 or IPv6 address such as 10.0.0.10';

/** Checks a pod's `dnsConfig` at `at` (dnsPolicy "None" without one is kubernetes/dns-policy's). */
export function checkDnsConfig(config: unknown, at: string, out: Finding[]): void {
  if (!isObject(config)) return;
  const servers = config.nameservers;
  if (Array.isArray(servers)) {
    if (servers.length > MAX_NAMESERVERS) {
      DNS_CONFIG.report(out, child(at, 'nameservers'), servers, `expected at most ${MAX_NAMESERVERS} nameservers (what the resolver reads)`);
    }
    servers.forEach((s, i) => {
      if (!isIp(s)) DNS_CONFIG.report(out, indexed(child(at, 'nameservers'), i), s, `expected ${IP_TEXT}`);
    });
  }
  const searches = config.searches;
  if (Array.isArray(searches)) {
    if (searches.length > MAX_SEARCHES) {
      DNS_CONFIG.report(out, child(at, 'searches'), searches, `expected at most ${MAX_SEARCHES} search domains`);
    }
    const chars = searches.map(s => (typeof s === 'string' ? s.length : 0)).reduce((a, b) => a + b, 0) + Math.max(0, searches.length - 1);
    if (chars > MAX_SEARCH_CHARS) {
      DNS_CONFIG.report(out, child(at, 'searches'), `${chars} characters`, `expected at most ${MAX_SEARCH_CHARS} characters in the search list, spaces between the domains included`);
    }
    searches.forEach((s, i) => {
      if (s === '.') return;
      const domain = typeof s === 'string' && s.endsWith('.') ? s.slice(0, -1) : s;
      if (typeof domain !== 'string' || domain.length > 253 || !SUBDOMAIN_WITH_UNDERSCORE.test(domain)) {
        DNS_CONFIG.report(out, indexed(child(at, 'searches'), i), s,
          'expected a search domain: at most 253 lower-case letters, digits, "-", "_" or ".", each dot-separated part ending with a letter or digit (a trailing "." and "." alone are allowed)');
      }
    });
  }
  const options = config.options;
  if (Array.isArray(options)) {
    options.forEach((o, i) => {
      const name = isObject(o) ? o.name : undefined;
      if (typeof name !== 'string' || name === '') {
        DNS_CONFIG.report(out, child(indexed(child(at, 'options'), i), 'name'), name, 'expected the name of the resolver option, such as ndots');
      }
    });
  }
}

/** Checks a pod's `hostAliases` at `at`. */
export function checkHostAliases(aliases: unknown, at: string, out: Finding[]): void {
  if (!Array.isArray(aliases)) return;
  aliases.forEach((alias, i) => {
    if (!isObject(alias)) return;
    const aliasAt = indexed(at, i);
    if (!isIp(alias.ip)) HOST_ALIASES.report(out, child(aliasAt, 'ip'), alias.ip, `expected ${IP_TEXT}`);
    if (Array.isArray(alias.hostnames)) {
      alias.hostnames.forEach((h: unknown, j: number) => {
        if (!isDns1123Subdomain(h)) HOST_ALIASES.report(out, indexed(child(aliasAt, 'hostnames'), j), h, `expected a host name: ${DNS1123_SUBDOMAIN_TEXT}`);
      });
    }
  });
}

/** netutils.ParseIPSloppy: an IPv4 address (parts may have leading zeros) or an IPv6 address. */
export function isIp(value: unknown): boolean {
  if (typeof value !== 'string' || value === '') return false;
  return isIpv4(value) || isIpv6(value);
}

function isIpv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every(p => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function isIpv6(s: string): boolean {
  if (!s.includes(':')) return false;
  let groups = s.split(':');
  // A trailing dotted IPv4 part counts as two groups.
  const last = groups[groups.length - 1];
  if (last.includes('.')) {
    if (!isIpv4(last)) return false;
    groups = [...groups.slice(0, -1), '0', '0'];
  }
  const text = groups.join(':');
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const hex = (h: string) => (h === '' ? [] : h.split(':'));
  const head = hex(halves[0]);
  const tail = halves.length === 2 ? hex(halves[1]) : [];
  const all = [...head, ...tail];
  if (!all.every(g => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? all.length < 8 : all.length === 8;
}
