/**
 * Rules across the objects of one app, run once at synth over every rendered document and by
 * `lint` over its input: each set's `checkDocuments` (rule-sets.ts). Pure functions of the
 * documents and their construct paths.
 */
export type { AppDocument, AppFinding } from './app-document';
export { appFindings } from './rule-sets';
