/** ConfigMap and Secret data, as `ValidateConfigMap` and `ValidateSecret` (k8s.io/kubernetes/pkg/apis/core/validation) check it. */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child } from './field-path';
import { utf8Length } from './metadata';
import { isConfigMapKey, isObject } from './names';

const F = 'objects';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const DATA_KEY = new Rule('kubernetes', 'k8s/data-key', F, `${SOURCE} ValidateConfigMap and ValidateSecret (IsConfigMapKey; a key once across data and binaryData)`);
export const CONFIG_MAP_SIZE = new Rule('kubernetes', 'k8s/config-map-size', F, `${SOURCE} ValidateConfigMap (MaxSecretSize = 1 MiB)`);

export const CORE_OBJECT_RULES = [DATA_KEY, CONFIG_MAP_SIZE];

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
}
