/** Conformance helpers shared by the tests: strict schema validation and determinism. */
export { expectDeterministic, synthManifests } from './determinism';
export { REPORT, synthErrors, synthKind } from './synth';
export type { Build } from './determinism';
export {
  describe as describeValue,
  expectValidManifests,
  kindSchemas,
  manifestLabel,
  schemaFor,
  validateAgainst,
  validateManifest,
} from './schema-validator';
export type { ExpectValidOptions, KindSchema, SchemaNode } from './schema-validator';
