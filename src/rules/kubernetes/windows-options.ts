/**
 * Windows security options, as `validateWindowsSecurityContextOptions` and
 * `validateWindowsHostProcessPod` (k8s.io/kubernetes/pkg/apis/core/validation) check them on any
 * pod, whatever its os.name: the gMSA fields, the user name's form, and HostProcess containers
 * (all or none of the pod's, with hostNetwork). Lengths are in bytes, as Go's len counts them.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, named } from './field-path';
import { DNS1123_SUBDOMAIN_TEXT, isDns1123Subdomain, isObject } from './names';

export const WINDOWS_OPTIONS = new Rule('kubernetes', 'kubernetes/windows-options', 'security',
  'k8s.io/kubernetes/pkg/apis/core/validation validateWindowsSecurityContextOptions and validateWindowsHostProcessPod',
  'Windows options (a gMSA spec name that is an object name, a spec of at most 64 KiB, a runAsUserName of the DOMAIN\\USER form, hostProcess the same on the pod and its containers, all containers or none HostProcess ones, and with hostNetwork)');

export const WINDOWS_OPTION_RULES = [WINDOWS_OPTIONS];

const MAX_CREDENTIAL_SPEC_BYTES = 64 * 1024;
const MAX_DOMAIN_BYTES = 256;
const MAX_USER_BYTES = 104;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
const NETBIOS = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
const DNS_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const DNS_DOMAIN = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);
const USER_BAD_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const USER_DOTS_SPACES = /^[. ]+$/;
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Checks one `windowsOptions` at `at` (of the pod's or a container's security context). */
export function checkOptions(options: Record<string, any>, at: string, out: Finding[]): void {
  const specName = options.gmsaCredentialSpecName;
  if (typeof specName === 'string' && !isDns1123Subdomain(specName)) {
    WINDOWS_OPTIONS.report(out, child(at, 'gmsaCredentialSpecName'), specName, `expected the name of a GMSACredentialSpec object: ${DNS1123_SUBDOMAIN_TEXT}`);
  }
  const spec = options.gmsaCredentialSpec;
  if (typeof spec === 'string' && (spec === '' || bytes(spec) > MAX_CREDENTIAL_SPEC_BYTES)) {
    WINDOWS_OPTIONS.report(out, child(at, 'gmsaCredentialSpec'), spec === '' ? spec : `${bytes(spec)} bytes`,
      `expected a credential spec of 1 byte to ${MAX_CREDENTIAL_SPEC_BYTES / 1024} KiB`);
  }
  const name = options.runAsUserName;
  if (typeof name === 'string') {
    const problem = userNameProblem(name);
    if (problem !== undefined) WINDOWS_OPTIONS.report(out, child(at, 'runAsUserName'), name, `expected a Windows user name, [DOMAIN\\]USER: ${problem}`);
  }
}

/** Why a runAsUserName is refused, or undefined. */
function userNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (CONTROL.test(name)) return 'it holds a control character';
  const parts = name.split('\\');
  if (parts.length > 2) return 'it holds more than one backslash';
  const [domain, user] = parts.length === 2 ? parts : ['', parts[0]];
  if (bytes(domain) >= MAX_DOMAIN_BYTES) return `the domain has ${MAX_DOMAIN_BYTES} bytes or more`;
  if (parts.length === 2 && !NETBIOS.test(domain) && !DNS_DOMAIN.test(domain)) return `the domain "${domain}" is neither a NetBIOS name nor a DNS name`;
  if (user === '') return 'the user is empty';
  if (bytes(user) > MAX_USER_BYTES) return `the user has more than ${MAX_USER_BYTES} bytes`;
  if (USER_DOTS_SPACES.test(user)) return 'the user is only periods and spaces';
  if (USER_BAD_CHARS.test(user)) return 'the user holds one of "/\\:;|=,+*?<>@[]';
  return undefined;
}

/** Checks the Windows options of the pod spec at `at` and of its containers. */
export function checkWindowsOptions(spec: Record<string, any>, at: string, out: Finding[]): void {
  const sc = spec.securityContext;
  const podOptions = isObject(sc) && isObject(sc.windowsOptions) ? sc.windowsOptions : undefined;
  if (podOptions !== undefined) checkOptions(podOptions, child(child(at, 'securityContext'), 'windowsOptions'), out);
  const podHostProcess: unknown = podOptions?.hostProcess;
  let containers = 0;
  let hostProcess = 0;
  for (const list of CONTAINER_LISTS) {
    if (!Array.isArray(spec[list])) continue;
    spec[list].forEach((c: unknown, i: number) => {
      if (!isObject(c)) return;
      containers++;
      const options = isObject(c.securityContext) && isObject(c.securityContext.windowsOptions) ? c.securityContext.windowsOptions : undefined;
      const optionsAt = child(child(named(child(at, list), c, i), 'securityContext'), 'windowsOptions');
      if (options !== undefined) checkOptions(options, optionsAt, out);
      const own: unknown = options?.hostProcess;
      if (typeof podHostProcess === 'boolean' && typeof own === 'boolean' && own !== podHostProcess) {
        WINDOWS_OPTIONS.report(out, child(optionsAt, 'hostProcess'), own, `expected ${podHostProcess}, the pod's hostProcess, or not set`);
      }
      if (own === true || (own === undefined && podHostProcess === true)) hostProcess++;
    });
  }
  if (hostProcess === 0) return;
  if (hostProcess !== containers) {
    WINDOWS_OPTIONS.report(out, at, `${hostProcess} of ${containers} containers`, 'expected every container to be a HostProcess container when one is (set hostProcess on the pod\'s windowsOptions)');
  }
  if (spec.hostNetwork !== true) {
    WINDOWS_OPTIONS.report(out, child(at, 'hostNetwork'), spec.hostNetwork, 'expected true: a pod with HostProcess containers uses the host\'s network');
  }
}
