/**
 * What the training operator v1.9.4 passes to torchrun from a PyTorchJob's elasticPolicy, and what
 * torchrun then refuses at start (pkg/controller.v1/pytorch/elastic.go ElasticEnvVarGenerator):
 * - PET_RDZV_CONF joins rdzvConf as `key=value,...` and cuts the last character; an empty list
 *   leaves nothing to cut, and the operator's reconcile fails (a slice out of range) before any pod.
 *   torchrun splits the text on "," and each entry on its first "=" (rendezvous/utils.py
 *   _parse_rendezvous_config): an empty key or value, or a "," inside one, is refused; an "=" in a
 *   key moves the rest into the value, so the option torchrun sees is another one.
 * - PET_RDZV_ENDPOINT is `<rdzvHost>:<rdzvPort>`; torchrun (parse_rendezvous_endpoint) takes a port
 *   of 0 to 65535 and a host of letters, digits, "_", ".", ":" and "-" (an IPv6 address in
 *   brackets).
 * - PET_STANDALONE is written as "" for `standalone: true`; torchrun reads its flag variables as
 *   whole numbers (argparse_util.py check_env: bool(int(value))), so "" stops it before it starts.
 * The CRD types them as plain strings and an int32; no webhook looks at them.
 */
import { Finding } from '../finding';
import { indexed } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts } from './training-kinds';

export const RDZV_CONF = new Rule('training-operator', 'training-operator/rdzv-conf', 'elastic',
  'training-operator pkg/controller.v1/pytorch/elastic.go generateEnvRDZVConf (PET_RDZV_CONF) and torchrun rendezvous/utils.py _parse_rendezvous_config',
  'elasticPolicy.rdzvConf, when written, has entries, each with a key and a value, no "," in either and no "=" in the key');
export const RDZV_ENDPOINT = new Rule('training-operator', 'training-operator/rdzv-endpoint', 'elastic',
  'training-operator pkg/controller.v1/pytorch/elastic.go generateEnvRDZVEndpoint (PET_RDZV_ENDPOINT) and torchrun rendezvous/utils.py parse_rendezvous_endpoint',
  'elasticPolicy.rdzvPort is 0 to 65535 and rdzvHost a host name or IP address torchrun reads');

export const ELASTIC_STANDALONE = new Rule('training-operator', 'training-operator/elastic-standalone', 'elastic',
  'training-operator pkg/controller.v1/pytorch/elastic.go Generate (PET_STANDALONE="" when standalone is true) and torchrun argparse_util.py check_env (bool(int(value)))',
  'elasticPolicy.standalone is not true: the operator writes PET_STANDALONE as "", which torchrun cannot read');

export const RENDEZVOUS_RULES = [RDZV_CONF, RDZV_ENDPOINT, ELASTIC_STANDALONE];

/** torchrun's host pattern (`^[\w\.:-]+$`, Python's \w is Unicode). */
const TORCHRUN_HOST = /^[\p{L}\p{N}_.:-]+$/u;

/** Checks the rendezvous settings a PyTorchJob's elastic policy passes to torchrun. */
export function checkRendezvous(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  if (facts.kind !== 'PyTorchJob') return;
  const policy = doc.spec?.elasticPolicy;
  if (typeof policy !== 'object' || policy === null) return;
  const conf = policy.rdzvConf;
  if (Array.isArray(conf)) {
    if (conf.length === 0) {
      RDZV_CONF.report(out, 'spec.elasticPolicy.rdzvConf', conf,
        'expected at least one key and value, or no rdzvConf: the operator cuts the last "," of the joined entries, which fails on an empty list, and it creates no pod for the job');
    }
    conf.forEach((entry: any, i: number) => {
      const at = indexed('spec.elasticPolicy.rdzvConf', i);
      const key = typeof entry?.key === 'string' ? entry.key : '';
      const value = typeof entry?.value === 'string' ? entry.value : '';
      const refuses = 'torchrun refuses the PET_RDZV_CONF the operator writes, and every worker exits at start';
      if (key.trim() === '') RDZV_CONF.report(out, `${at}.key`, entry?.key, `expected a rendezvous option name such as "timeout": ${refuses}`);
      else if (key.includes(',')) RDZV_CONF.report(out, `${at}.key`, key, `expected a key without ",": torchrun splits PET_RDZV_CONF at each ",", so it reads a part without a value; ${refuses}`);
      else if (key.includes('=')) RDZV_CONF.report(out, `${at}.key`, key, `expected a key without "=": torchrun splits each entry at its first "=", so it reads the option "${key.split('=')[0].trim()}" with the rest as its value`);
      if (key.trim() === '' || key.includes(',')) return;
      if (value.trim() === '') RDZV_CONF.report(out, `${at}.value`, entry?.value, `expected a value for "${key}": ${refuses}`);
      else if (value.includes(',')) RDZV_CONF.report(out, `${at}.value`, value, `expected a value without ",": torchrun splits PET_RDZV_CONF at each ",", so it reads a part without a value; ${refuses}`);
    });
  }
  if (policy.standalone === true) {
    ELASTIC_STANDALONE.report(out, 'spec.elasticPolicy.standalone', true,
      'expected false or none: the operator writes PET_STANDALONE="" for it, torchrun reads that variable as a whole number and fails on "", so every worker exits at start; '
      + 'a one-node rendezvous needs no flag (minReplicas and maxReplicas of 1 with the c10d backend)');
  }
  const port = policy.rdzvPort;
  if (typeof port === 'number' && Number.isInteger(port) && (port < 0 || port > 65535)) {
    RDZV_ENDPOINT.report(out, 'spec.elasticPolicy.rdzvPort', port,
      'expected a port of 0 to 65535: the operator passes it to torchrun in PET_RDZV_ENDPOINT, which refuses any other, and every worker exits at start');
  }
  const host = policy.rdzvHost;
  if (typeof host === 'string') {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    if (!TORCHRUN_HOST.test(bare)) {
      RDZV_ENDPOINT.report(out, 'spec.elasticPolicy.rdzvHost', host,
        'expected a host name or IP address (letters, digits, "_", ".", ":", "-"; an IPv6 address may be in brackets), or no rdzvHost for the first worker: torchrun refuses the PET_RDZV_ENDPOINT the operator writes, and every worker exits at start');
    }
  }
}
