import type { AppDocument } from './app-document';

/**
 * The documents of one run (one synth's pass, one `lint` input), built once and handed to every
 * rule across documents. (Minimal here; the lookups the rules share are added to it.)
 */
export class DocumentIndex {
  constructor(readonly documents: readonly AppDocument[]) {}
}
