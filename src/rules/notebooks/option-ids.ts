import { listOf } from '../../util/collections';
import { Finding, finding } from '../finding';

/*
 * A Workspace names one image option and one pod-config option of its WorkspaceKind by id. The
 * construct (a kind of this app) and the document rule notebooks/workspace-option (a kind in the
 * same input to `lint`) check those ids with this one wording, so the two report alike.
 */

/** The catalogues a Workspace picks from, as messages name them (`an image option`, `a pod-config option`). */
export const OPTION_NOUN: { readonly [catalogue: string]: string } = {
  imageConfig: 'an image option',
  podConfig: 'a pod-config option',
};

/** The CRD's bound on an option id (and on a redirect's target, which is one). */
export function optionIdLengthFinding(field: string, id: unknown): Finding | undefined {
  if (typeof id === 'string' && id.length >= 1 && id.length <= 256) return undefined;
  return finding(field, id, 'expected an option id of 1 to 256 characters');
}

/** A chosen id the kind does not have: the kind's ids are listed, or `none is defined`. */
export function unknownOptionFinding(field: string, catalogue: string, chosen: string, kindName: string, ids: string[]): Finding | undefined {
  if (ids.includes(chosen)) return undefined;
  return finding(field, chosen, `expected the id of ${OPTION_NOUN[catalogue] ?? `a ${catalogue} option`} of WorkspaceKind "${kindName}": ${listOf(ids)}`);
}
