import { IConstruct } from 'constructs';
import { fail } from '../../synth/report';

/**
 * What `addPodLabel` and `addPodAnnotation` do on a Kueue object: refuse, since the object
 * describes no pods (silently keeping the key would hide a call meant for a job).
 */
export function refusePodMetadata(scope: IConstruct, kind: string, field: string, key: string): never {
  return fail(scope, field, key, `expected none: a ${kind} describes no pods; add pod ${field === 'podLabels' ? 'labels' : 'annotations'} to the jobs it admits`);
}
