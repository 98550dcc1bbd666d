import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Finding, finding } from '../../rules/finding';
import { SHARED_MEMORY_VOLUME } from '../../rules/kubernetes/accelerator-facts';
import { kubeVolume } from '../../synth/cdk8s-adapter';
import { canonicalJson } from '../../util/collections';

/*
 * Volumes are listed in a pod by name, so two different volumes with one name would leave one of
 * them out (a ConfigMap mount silently becomes another volume). The same volume object, or an equal
 * one, may be used any number of times.
 */

/** The memory-backed volume a `sharedMemory` prop mounts at /dev/shm (SHARED_MEMORY_PATH), of that size. */
export function sharedMemoryVolume(scope: Construct, size: Size): kplus.Volume {
  return kplus.Volume.fromEmptyDir(scope, 'SharedMemory', SHARED_MEMORY_VOLUME, { medium: kplus.EmptyDirMedium.MEMORY, sizeLimit: size });
}

/** Whether two volumes render the same (the same object, or equal content). */
export function sameVolume(a: kplus.Volume, b: kplus.Volume): boolean {
  return a === b || canonicalJson(kubeVolume(a)) === canonicalJson(kubeVolume(b));
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
      out.push(volumeClash(field, previous, v));
    }
  }
  return out;
}

/** Two different volumes of one name, both named, and the way out. */
export function volumeClash(field: string, first: kplus.Volume, second: kplus.Volume): Finding {
  return finding(field, second.name, `expected each volume name to stand for one volume; it stands for ${twoSources(first, second)}: give one of them another name`);
}

/**
 * The two volumes of one name as a reader tells them apart: `claim "team-a" and claim "team-b"`,
 * with each one's whole source where that alone would read the same (a claim mounted read-only
 * and the same claim writable).
 */
function twoSources(a: kplus.Volume, b: kplus.Volume): string {
  const [x, y] = [source(a, false), source(b, false)];
  return x === y ? `${source(a, true)} and ${source(b, true)}` : `${x} and ${y}`;
}

/** A volume's source: `claim "data"`, `ConfigMap "settings"`, `Secret "token"`, `emptyDir {"medium":"Memory"}`. */
function source(volume: kplus.Volume, whole: boolean): string {
  const { name: _name, ...sources } = kubeVolume(volume) as unknown as { [key: string]: any };
  const [kind, spec] = Object.entries(sources).find(([, v]) => v !== undefined) ?? ['volume', {}];
  const named: { [kind: string]: [string, string] } = {
    persistentVolumeClaim: ['claim', 'claimName'], configMap: ['ConfigMap', 'name'], secret: ['Secret', 'secretName'],
  };
  if (!whole && named[kind] && typeof spec?.[named[kind][1]] === 'string') return `${named[kind][0]} ${JSON.stringify(spec[named[kind][1]])}`;
  // A quantity renders as {"value":"1024Mi"}: shown as its value.
  return `${kind} ${JSON.stringify(JSON.parse(canonicalJson(spec)), (_k, v) => (isQuantity(v) ? v.value : v))}`;
}

function isQuantity(v: unknown): v is { value: string | number } {
  return typeof v === 'object' && v !== null && Object.keys(v).length === 1 && 'value' in v;
}

/** Each volume once, by name, sorted by name so output does not depend on the order of calls. */
export function volumesByName(volumes: kplus.Volume[]): kplus.Volume[] {
  const byName = new Map<string, kplus.Volume>();
  for (const volume of volumes) if (!byName.has(volume.name)) byName.set(volume.name, volume);
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
