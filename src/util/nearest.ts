/**
 * The candidate closest to a misspelt name, for "did you mean ...?": the smallest edit distance,
 * ignoring case, and close enough to be a likely typo (at most a third of the name's length, and
 * at least 2 edits allowed).
 */
export function nearest(given: string, candidates: readonly string[]): string | undefined {
  const g = given.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(given.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(g, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance: insertions, deletions and substitutions, one row at a time. */
export function distance(a: string, b: string): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > 10) return Math.abs(a.length - b.length);
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
