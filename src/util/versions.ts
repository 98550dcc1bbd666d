/**
 * Version numbers as the upstreams write them (`v0.19.2`, `v2.4`, `1.35`): up to three numeric
 * parts, with or without a leading `v`. A version with fewer than three parts names a whole line
 * (`v0.19` is every v0.19.x), so it is a range [lowest, next line) rather than a point; the support
 * window and a target are both read as such ranges, and intersected with a rule's [from, before).
 */

/** A parsed version: its numeric parts (1 to 3 of them), as written. */
export interface Version {
  readonly parts: readonly number[];
  readonly text: string;
}

const VERSION = /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?$/;

/** The version `text` names; undefined when it is not one (a commit, a pre-release, a typo). */
export function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text.trim());
  if (!m) return undefined;
  return { parts: m.slice(1).filter(p => p !== undefined).map(Number), text };
}

/** Orders two lists of parts; missing parts count as 0 (`v2.4` is `v2.4.0`). */
export function compareParts(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Orders two version texts (`v0.19` < `v0.19.2` < `v0.20`); throws on a text that is no version. */
export function compareVersions(a: string, b: string): number {
  return compareParts(partsOf(a), partsOf(b));
}

/** The lowest version a text names (`v0.19` names v0.19.0 first). */
export function lowest(text: string): readonly number[] {
  return partsOf(text);
}

/**
 * The first version after those a text names: `v0.19` → v0.20.0, `v0.19.2` → v0.19.3, `1` → 2.0.0.
 * A range of versions is then [lowest, after) for both ends written either way.
 */
export function after(text: string): readonly number[] {
  const parts = partsOf(text);
  const next = [...parts];
  next[parts.length - 1]++;
  return next;
}

function partsOf(text: string): readonly number[] {
  const v = parseVersion(text);
  if (v === undefined) throw new Error(`not a version: "${text}"`);
  return v.parts;
}
