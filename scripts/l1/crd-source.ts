import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { JsonSchema } from './schema';

/** One kind read from a pinned CustomResourceDefinition file. */
export interface CrdKind {
  /** The file it came from, relative to the CRD folder (for messages). */
  readonly file: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly scope: string;
  /** The openAPIV3Schema of that version. */
  readonly schema: JsonSchema;
}

/** A CRD file that cannot be used. The message names the file and the problem. */
export class CrdSourceError extends Error {
  public constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'CrdSourceError';
  }
}

/**
 * Reads one CRD file and checks that it has everything the generator needs. `version` names the
 * version to read (a module's declared choice, see MODULES in generate.ts); without it, the storage
 * version. A named version the CRD does not serve is an error.
 */
export function readCrd(root: string, relativeFile: string, wanted?: string): CrdKind {
  const file = path.join(root, relativeFile);
  if (!fs.existsSync(file)) throw new CrdSourceError(relativeFile, 'file not found');
  let doc: any;
  try {
    doc = yaml.load(fs.readFileSync(file, 'utf8'));
  } catch (e: any) {
    throw new CrdSourceError(relativeFile, `not valid YAML (${String(e.message).split('\n')[0]})`);
  }
  if (!doc || typeof doc !== 'object') throw new CrdSourceError(relativeFile, 'empty document');
  if (doc.kind !== 'CustomResourceDefinition') {
    throw new CrdSourceError(relativeFile, `expected kind CustomResourceDefinition, found ${JSON.stringify(doc.kind)}`);
  }
  const spec = doc.spec ?? {};
  const kind = spec.names?.kind;
  if (typeof spec.group !== 'string' || typeof kind !== 'string') {
    throw new CrdSourceError(relativeFile, 'spec.group and spec.names.kind are required');
  }
  const versions: any[] = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) throw new CrdSourceError(relativeFile, 'spec.versions is empty');
  const version = wanted === undefined ? versions.find(v => v.storage) ?? versions[0] : versions.find(v => v.name === wanted);
  if (!version) {
    throw new CrdSourceError(relativeFile, `has no version ${wanted}; it has ${versions.map(v => v.name).join(', ')}`);
  }
  if (wanted !== undefined && version.served === false) {
    throw new CrdSourceError(relativeFile, `version ${wanted} is not served`);
  }
  const schema = version.schema?.openAPIV3Schema;
  if (!schema || typeof schema !== 'object' || !schema.properties) {
    throw new CrdSourceError(relativeFile, `version ${version.name} has no openAPIV3Schema with properties`);
  }
  return {
    file: relativeFile,
    group: spec.group,
    version: version.name,
    kind,
    plural: spec.names.plural,
    scope: spec.scope,
    schema,
  };
}
