/** ConfigMap and Secret data, as `ValidateConfigMap` and `ValidateSecret` (k8s.io/kubernetes/pkg/apis/core/validation) check it. */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child } from './field-path';
import { utf8Length } from './metadata';
import { isConfigMapKey, isObject } from './names';

const F = 'objects';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const DATA_KEY = new Rule('kubernetes', 'kubernetes/data-key', F, `${SOURCE} ValidateConfigMap and ValidateSecret (IsConfigMapKey; a key once across data and binaryData)`,
  'every key of data and binaryData is a ConfigMap key and appears in only one of them');
export const CONFIG_MAP_SIZE = new Rule('kubernetes', 'kubernetes/config-map-size', F, `${SOURCE} ValidateConfigMap (MaxSecretSize = 1 MiB)`,
  'data and binaryData together hold at most 1 MiB');

export const SECRET_TYPE = new Rule('kubernetes', 'kubernetes/secret-type', F,
  `${SOURCE} ValidateSecret (the keys and annotation each built-in Secret type needs; dockercfg and dockerconfigjson content a JSON object)`,
  'typed Secrets (service-account-token, dockercfg, dockerconfigjson, basic-auth, ssh-auth, tls) carry the keys (or, for a token, the ServiceAccount annotation) their type needs, the docker configurations as JSON objects');

export const SECRET_SIZE = new Rule('kubernetes', 'kubernetes/secret-size', F, `${SOURCE} ValidateSecret (MaxSecretSize = 1 MiB, stringData merged into data)`,
  'a Secret\'s data holds at most 1 MiB (stringData merged into data first, data decoded from base64)');

export const CORE_OBJECT_RULES = [DATA_KEY, CONFIG_MAP_SIZE, SECRET_TYPE, SECRET_SIZE];

/** The keys a built-in Secret type needs: all of them, or (basic-auth) one of them. */
const SECRET_TYPE_KEYS: Readonly<Record<string, { readonly keys: readonly string[]; readonly any?: boolean; readonly json?: boolean }>> = {
  'kubernetes.io/dockercfg': { keys: ['.dockercfg'], json: true },
  'kubernetes.io/dockerconfigjson': { keys: ['.dockerconfigjson'], json: true },
  'kubernetes.io/basic-auth': { keys: ['username', 'password'], any: true },
  'kubernetes.io/ssh-auth': { keys: ['ssh-privatekey'] },
  'kubernetes.io/tls': { keys: ['tls.crt', 'tls.key'] },
};
const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';

const KEY_TEXT = 'expected a key of at most 253 letters, digits, "-", "_" or ".", not "." or ".." and not starting with ".."';
const MAX_SIZE = 1024 * 1024;

function checkKeys(data: unknown, at: string, seen: Set<string>, out: Finding[]): void {
  if (!isObject(data)) return;
  for (const key in data) {
    if (!isConfigMapKey(key)) DATA_KEY.report(out, child(at, key), key, KEY_TEXT);
    else if (seen.has(key)) DATA_KEY.report(out, child(at, key), key, 'expected a key not also in data (a key appears once across data and binaryData)');
    seen.add(key);
  }
}

export function checkConfigMap(doc: any, out: Finding[]): void {
  const seen = new Set<string>();
  checkKeys(doc.data, 'data', seen, out);
  checkKeys(doc.binaryData, 'binaryData', seen, out);
  let chars = 0;
  if (isObject(doc.data)) for (const k in doc.data) chars += typeof doc.data[k] === 'string' ? doc.data[k].length : 0;
  if (isObject(doc.binaryData)) for (const k in doc.binaryData) chars += typeof doc.binaryData[k] === 'string' ? doc.binaryData[k].length : 0;
  if (chars * 3 <= MAX_SIZE) return;
  let bytes = 0;
  if (isObject(doc.data)) for (const k in doc.data) bytes += typeof doc.data[k] === 'string' ? utf8Length(doc.data[k]) : 0;
  // binaryData is base64 in JSON: four characters carry three bytes.
  if (isObject(doc.binaryData)) for (const k in doc.binaryData) bytes += typeof doc.binaryData[k] === 'string' ? Math.floor(doc.binaryData[k].replace(/=+$/, '').length * 3 / 4) : 0;
  if (bytes > MAX_SIZE) {
    CONFIG_MAP_SIZE.report(out, 'data', `${bytes} bytes`, `expected at most ${MAX_SIZE} bytes (1 MiB) of data and binaryData in total`);
  }
}

export function checkSecret(doc: any, out: Finding[]): void {
  checkKeys(doc.data, 'data', new Set(), out);
  checkKeys(doc.stringData, 'stringData', new Set(), out);
  checkSecretType(doc, out);
  checkSecretSize(doc, out);
}

/** The data as the API server stores it: stringData's entries over data's (base64), 1 MiB at most. */
function checkSecretSize(doc: any, out: Finding[]): void {
  const bytes = new Map<string, number>();
  if (isObject(doc.data)) for (const k in doc.data) bytes.set(k, typeof doc.data[k] === 'string' ? Buffer.from(doc.data[k], 'base64').length : 0);
  if (isObject(doc.stringData)) for (const k in doc.stringData) bytes.set(k, typeof doc.stringData[k] === 'string' ? utf8Length(doc.stringData[k]) : 0);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  if (total > MAX_SIZE) {
    SECRET_SIZE.report(out, 'data', `${total} bytes`, `expected at most ${MAX_SIZE} bytes (1 MiB) of data, stringData included`);
  }
}

/**
 * What ValidateSecret asks of the built-in types, on the data as the API server holds it:
 * `stringData` merged over `data` (base64 in the manifest).
 */
function checkSecretType(doc: any, out: Finding[]): void {
  const type = doc.type;
  if (type === 'kubernetes.io/service-account-token') {
    const name = isObject(doc.metadata?.annotations) ? doc.metadata.annotations[SERVICE_ACCOUNT_NAME_KEY] : undefined;
    if (typeof name !== 'string' || name === '') {
      SECRET_TYPE.report(out, child('metadata.annotations', SERVICE_ACCOUNT_NAME_KEY), name, `expected the name of the ServiceAccount the token is for (a ${type} Secret needs it)`);
    }
    return;
  }
  const need = typeof type === 'string' ? SECRET_TYPE_KEYS[type] : undefined;
  if (need === undefined) return;
  const text = new Map<string, string | undefined>();
  if (isObject(doc.data)) for (const k in doc.data) text.set(k, typeof doc.data[k] === 'string' ? decodeBase64(doc.data[k]) : undefined);
  if (isObject(doc.stringData)) for (const k in doc.stringData) text.set(k, typeof doc.stringData[k] === 'string' ? doc.stringData[k] : undefined);
  const missing = need.keys.filter(k => !text.has(k) || (type === 'kubernetes.io/ssh-auth' && text.get(k) === ''));
  if (need.any ? missing.length === need.keys.length : missing.length > 0) {
    const keys = (need.any ? need.keys : missing).map(k => `"${k}"`).join(need.any ? ' or ' : ' and ');
    SECRET_TYPE.report(out, 'data', Object.keys(Object.fromEntries(text)), `expected the key ${keys} in data or stringData (a ${type} Secret needs ${need.any ? 'one of them' : 'it'})`);
    return;
  }
  if (!need.json) return;
  const key = need.keys[0];
  const content = text.get(key);
  if (content !== undefined && !isJsonObject(content)) {
    const where = isObject(doc.stringData) && key in doc.stringData ? 'stringData' : 'data';
    SECRET_TYPE.report(out, child(where, key), '<secret contents redacted>', `expected a JSON object (a ${type} Secret's registry credentials)`);
  }
}

function decodeBase64(value: string): string {
  return Buffer.from(value, 'base64').toString('utf8');
}

/** What Go's json.Unmarshal into a map accepts: a JSON object, or null. */
function isJsonObject(text: string): boolean {
  try {
    const v = JSON.parse(text);
    return v === null || (typeof v === 'object' && !Array.isArray(v));
  } catch {
    return false;
  }
}
