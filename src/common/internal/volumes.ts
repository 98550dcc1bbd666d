import * as kplus from 'cdk8s-plus-28';
import { Finding, finding } from '../../rules/finding';
import { canonicalJson } from '../../util/collections';

/*
 * Volumes are listed in a pod by name, so two different volumes with one name would leave one of
 * them out (a ConfigMap mount silently becomes another volume). The same volume object, or an equal
 * one, may be used any number of times.
 */

/** Whether two volumes render the same (the same object, or equal content). */
export function sameVolume(a: kplus.Volume, b: kplus.Volume): boolean {
  return a === b || canonicalJson(a._toKube()) === canonicalJson(b._toKube());
}

/** A finding for every name that stands for two different volumes. */
export function volumeNameFindings(volumes: kplus.Volume[], field = 'volumes'): Finding[] {
  const seen = new Map<string, kplus.Volume>();
  const reported = new Set<string>();
  const out: Finding[] = [];
  for (const v of volumes) {
    const previous = seen.get(v.name);
    if (previous === undefined) {
      seen.set(v.name, v);
    } else if (!reported.has(v.name) && !sameVolume(previous, v)) {
      reported.add(v.name);
      out.push(finding(field, v.name, 'expected each volume name to stand for one volume; two different volumes share it'));
    }
  }
  return out;
}

/** Each volume once, by name, sorted by name so output does not depend on the order of calls. */
export function volumesByName(volumes: kplus.Volume[]): kplus.Volume[] {
  const byName = new Map<string, kplus.Volume>();
  for (const volume of volumes) if (!byName.has(volume.name)) byName.set(volume.name, volume);
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
