/**
 * The generated part of the rules inventory: every bound the pinned CRDs put on a value (lengths,
 * counts, ranges, patterns, enums, formats, property counts, required fields, list keys) and every
 * CEL rule (`x-kubernetes-validations`), one row each, with the schema path it sits at.
 *
 * The rows are read from the CRD files in upstream/crds, not from the library's compact schemas, so
 * that a bound the compaction lost still gets a row (and the generated test, which breaks each
 * bound against the compact schema the validator uses, then fails).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import type { InventoryRow } from './model';
import { MODULES } from '../l1/generate';

/** The test that breaks every covered row of this part. */
export const CRD_SCHEMA_TEST = 'test/scripts/inventory/crd-schema.test.ts';
/** The rule that covers the validator's rows. */
const SCHEMA_RULE = 'library/schema';

/** Where a row came from, kept beside the row for the generated test (not written to the inventory). */
export interface CrdBound {
  readonly row: InventoryRow;
  /** apiVersion and kind of the CRD. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The schema path of the node that holds the bound: `spec.a`, `[]` for list items, `.*` for map values. */
  readonly at: string;
  /** The keyword (`maxLength`, `required`, `x-kubernetes-validations` ...). */
  readonly keyword: string;
  /** The required field's name, or the index of the CEL rule. */
  readonly detail?: string | number;
}

/** One CRD file, by its directory under upstream/crds. */
interface CrdFile { readonly dir: string; readonly file: string }

const KEYWORDS = [
  'minLength', 'maxLength', 'pattern', 'enum', 'format', 'minimum', 'maximum', 'minItems', 'maxItems',
  'minProperties', 'maxProperties', 'nullable', 'x-kubernetes-list-type',
] as const;

// Why status rows are not judged: every pinned CRD has the status subresource, so the API server
// drops a status written with the object; the library's strict schema has no status at all (a
// status field is an unknown-field finding).
const STATUS_REASON = 'under status, which the API server discards on create (status subresource) and the library refuses as an unknown field: the controller writes it, not a manifest';
const TRANSITION_REASON = 'a transition rule (oldSelf): it judges an update against the stored object, not an object a repository holds';
// apiextensions-apiserver StripUnsupportedFormatsPostProcessorForVersion blanks every format outside
// its list (string formats such as datetime); int32 and int64 are not on it.
const INT_FORMAT_REASON = 'not checked by the API server: it blanks the int32 and int64 formats of a custom resource schema before validating (only string formats such as date-time are kept); an overflow fails later, when the operator decodes the object, which the Kubernetes rows kubernetes/int32 and kubernetes/int64 cover';

/** Every pinned CRD file. */
export function crdFiles(root: string): CrdFile[] {
  const base = path.join(root, 'upstream', 'crds');
  const out: CrdFile[] = [];
  for (const dir of fs.readdirSync(base).sort()) {
    for (const file of fs.readdirSync(path.join(base, dir)).sort()) if (file.endsWith('.yaml')) out.push({ dir, file });
  }
  return out;
}

/** Every bound of every pinned CRD, in file and schema order. */
export function crdBounds(root: string): CrdBound[] {
  const out: CrdBound[] = [];
  for (const { dir, file } of crdFiles(root)) {
    const crd = yaml.load(fs.readFileSync(path.join(root, 'upstream', 'crds', dir, file), 'utf8')) as any;
    const kind: string = crd.spec.names.kind;
    if (crd.spec.versions.some((v: any) => v.schema.openAPIV3Schema.properties?.status && v.subresources?.status === undefined)) {
      throw new Error(`${file}: a status without the status subresource; the status rows' reason would not hold`);
    }
    // The version the library writes: the one the file's L1 module declares (Kueue: v1beta2), else
    // the storage one. The other versions' rows would repeat the ids.
    const declared = MODULES.find(m => m.files.includes(`${dir}/${file}`))?.version;
    for (const version of crd.spec.versions.filter((v: any) => (declared === undefined ? v.storage : v.name === declared))) {
      const apiVersion = `${crd.spec.group}/${version.name}`;
      const where = `upstream/crds/${dir}/${file}`;
      walk(version.schema.openAPIV3Schema, '', (node, at) => out.push(...nodeBounds(node, at, { apiVersion, kind, where })));
    }
  }
  return out;
}

function walk(node: any, at: string, visit: (node: any, at: string) => void): void {
  visit(node, at);
  for (const [name, child] of Object.entries<any>(node.properties ?? {})) walk(child, at === '' ? name : `${at}.${name}`, visit);
  if (node.items) walk(node.items, `${at}[]`, visit);
  if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${at}.*`, visit);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'not']) {
    const branches: any[] = [node[key] ?? []].flat();
    if (branches.some(b => Object.keys(b).some(k => k !== 'type'))) throw new Error(`${at}: a bound inside ${key}, which the inventory does not read`);
  }
}

interface Origin { readonly apiVersion: string; readonly kind: string; readonly where: string }

function nodeBounds(node: any, at: string, o: Origin): CrdBound[] {
  const out: CrdBound[] = [];
  const inStatus = at === 'status' || at.startsWith('status.');
  const add = (keyword: string, checks: string, detail?: string | number, reason?: string, rules = [SCHEMA_RULE]) => {
    const suffix = detail === undefined ? keyword : `${keyword}:${detail}`;
    const row: InventoryRow = {
      id: `crd-schema/${o.kind}/${at === '' ? '(root)' : at}/${suffix}`,
      where: `${o.where} ${at === '' ? '(root)' : at}`,
      checks,
      ...(inStatus ? { reason: STATUS_REASON } : reason ? { reason } : { rules, test: CRD_SCHEMA_TEST }),
    };
    out.push({ row, apiVersion: o.apiVersion, kind: o.kind, at, keyword, detail });
  };
  for (const keyword of KEYWORDS) {
    const v = node[keyword];
    if (v === undefined) continue;
    switch (keyword) {
      case 'minLength': add(keyword, `a string of at least ${v} characters`); break;
      case 'maxLength': add(keyword, `a string of at most ${v} characters`); break;
      case 'pattern': add(keyword, `a string matching ${v}`); break;
      case 'enum': add(keyword, `one of ${v.map((e: unknown) => JSON.stringify(e)).join(', ')}`); break;
      case 'minimum': add(keyword, `a number ${node.exclusiveMinimum ? 'above' : 'at least'} ${v}`); break;
      case 'maximum': add(keyword, `a number ${node.exclusiveMaximum ? 'below' : 'at most'} ${v}`); break;
      case 'minItems': add(keyword, `a list of at least ${v} items`); break;
      case 'maxItems': add(keyword, `a list of at most ${v} items`); break;
      case 'minProperties': add(keyword, `an object with at least ${v} fields set`); break;
      case 'maxProperties': add(keyword, `an object with at most ${v} fields set`); break;
      case 'nullable': if (v === true) add(keyword, 'null is allowed (not a bound: listed because it relaxes the type)'); break;
      case 'format':
        if (v === 'int32' || v === 'int64') add(keyword, `an integer that fits Go's ${v}`, undefined, INT_FORMAT_REASON);
        else add(keyword, `a string in the ${v} format`);
        break;
      case 'x-kubernetes-list-type':
        if (v === 'map') add('list-map-keys', `entries unique by ${(node['x-kubernetes-list-map-keys'] ?? []).join(' and ')}`);
        else if (v === 'set') add('list-set', 'entries unique (a set)');
        break;
    }
  }
  for (const name of node.required ?? []) add('required', `the field ${name} is present`, name);
  (node['x-kubernetes-validations'] ?? []).forEach((r: any, i: number) => {
    const transition = /\boldSelf\b/.test(r.rule);
    add('x-kubernetes-validations', `the CEL rule \`${r.rule}\` holds`, i, transition ? TRANSITION_REASON : undefined);
  });
  return out;
}
