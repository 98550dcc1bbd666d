/**
 * The Kueue topology annotations of a pod template (Topology Aware Scheduling): a required,
 * preferred or unconstrained topology, slices and podset groups. Kueue's webhooks refuse a job of a
 * kind they manage whose pod templates hold them malformed (sigs.k8s.io/kueue v0.15.2
 * pkg/controller/jobframework/tas_validation.go ValidateTASPodSetRequest, called for v1 jobs,
 * MPIJobs, JobSets and TrainJobs). The annotations mean nothing to anything else, so a malformed one
 * is wrong wherever it is written. The constructs refuse the same values from their Topology props
 * at once, with the same texts.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { QUALIFIED_NAME_TEXT, isQualifiedName } from '../kubernetes/names';
import { Rule } from '../rule';

export const KUEUE_TOPOLOGY = new Rule('kueue', 'kueue/topology', 'scheduling',
  'kueue v0.15.2 pkg/controller/jobframework/tas_validation.go ValidateTASPodSetRequest (the podset topology, slice and group annotations of a pod template)',
  'a pod template carries at most one of the required, preferred and unconstrained topology annotations');

export const KUEUE_TOPOLOGY_RULES = [KUEUE_TOPOLOGY];

const PREFIX = 'kueue.x-k8s.io/';
const REQUIRED = `${PREFIX}podset-required-topology`;
const PREFERRED = `${PREFIX}podset-preferred-topology`;
const UNCONSTRAINED = `${PREFIX}podset-unconstrained-topology`;
const SLICE_REQUIRED = `${PREFIX}podset-slice-required-topology`;
const SLICE_SIZE = `${PREFIX}podset-slice-size`;
const GROUP = `${PREFIX}podset-group-name`;

const LEVEL_TEXT = `expected a node label key such as "cloud.provider.com/topology-block": ${QUALIFIED_NAME_TEXT}`;
/** What Go's strconv.ParseBool reads. */
const BOOLEANS = ['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'];

/** Checks the Kueue topology annotations of one pod template's metadata at `at`. */
export function checkKueueTopology(meta: unknown, at: string, out: Finding[]): void {
  const annotations = (meta as any)?.annotations;
  if (typeof annotations !== 'object' || annotations === null) return;
  const has = (key: string) => annotations[key] !== undefined;
  const atKey = (key: string) => child(child(at, 'annotations'), key);
  const modes = [REQUIRED, PREFERRED, UNCONSTRAINED].filter(has);
  if (modes.length > 1) {
    KUEUE_TOPOLOGY.report(out, child(at, 'annotations'), modes, `expected at most one of ${REQUIRED}, ${PREFERRED} and ${UNCONSTRAINED}`);
  }
  for (const key of [REQUIRED, PREFERRED, SLICE_REQUIRED]) {
    if (has(key) && !isQualifiedName(annotations[key])) KUEUE_TOPOLOGY.report(out, atKey(key), annotations[key], LEVEL_TEXT);
  }
  if (has(UNCONSTRAINED) && !BOOLEANS.includes(annotations[UNCONSTRAINED])) {
    KUEUE_TOPOLOGY.report(out, atKey(UNCONSTRAINED), annotations[UNCONSTRAINED], 'expected "true" or "false"');
  }
  if (has(SLICE_SIZE)) {
    const size = annotations[SLICE_SIZE];
    // Go's ParseInt of a 32-bit number: an optional sign and digits only.
    if (typeof size !== 'string' || !/^[+-]?\d+$/.test(size) || Number(size) < 1 || Number(size) > 2147483647) {
      KUEUE_TOPOLOGY.report(out, atKey(SLICE_SIZE), size, 'expected a whole number of 1 or more pods per slice');
    }
  }
  if (has(SLICE_REQUIRED) !== has(SLICE_SIZE)) {
    const [given, missing] = has(SLICE_REQUIRED) ? [SLICE_REQUIRED, SLICE_SIZE] : [SLICE_SIZE, SLICE_REQUIRED];
    KUEUE_TOPOLOGY.report(out, atKey(given), annotations[given], `expected it together with ${missing}`);
  }
  if (has(GROUP)) {
    const group = annotations[GROUP];
    if (typeof group === 'string' && /^\d+$/.test(group)) {
      KUEUE_TOPOLOGY.report(out, atKey(GROUP), group, 'expected a group name that is not a number');
    } else if (!has(REQUIRED) && !has(PREFERRED)) {
      KUEUE_TOPOLOGY.report(out, atKey(GROUP), group, 'expected a non-empty group name with a required or preferred topology (Kueue groups only those)');
    } else if (has(SLICE_REQUIRED) || has(SLICE_SIZE)) {
      KUEUE_TOPOLOGY.report(out, atKey(GROUP), group, 'expected no podset group together with slices: Kueue refuses the two on one role');
    }
  }
}
