/**
 * What the API server refuses in a Job spec (k8s.io/kubernetes 1.34 pkg/apis/batch/validation,
 * validateJobSpec and validateGeneratedSelector) that a runtime's replicated job template decides
 * alone. The JobSet controller copies each replicated job's `template.spec` into the Jobs it creates
 * (constructJob); neither the Trainer webhook nor the JobSet webhook validates it as a Job, so a
 * template Kubernetes refuses is a runtime whose JobSets are created and whose Jobs never are: every
 * TrainJob of it is admitted and sits without pods, the refusal only in the JobSet's events.
 *
 * The JobSet webhook's defaults apply first: an unset completionMode is Indexed, an unset pod
 * restartPolicy is OnFailure (jobset_webhook.go Default).
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { isObject, isQualifiedName, QUALIFIED_NAME_TEXT } from './names';

const SOURCE = 'k8s.io/kubernetes pkg/apis/batch/validation validateJobSpec';

export const JOB_SPEC = new Rule('kubernetes', 'kubernetes/job-spec', 'runtimes',
  `${SOURCE} (counts not negative, completionMode, the per-index limits, successPolicy, podReplacementPolicy, the pod restartPolicy) and validateGeneratedSelector, on the Jobs the JobSet controller creates from a runtime's replicated jobs`,
  'a replicated job\'s Job spec is one the API server accepts, after the JobSet\'s defaults (Indexed, restartPolicy OnFailure)');
export const JOB_POD_FAILURE_POLICY = new Rule('kubernetes', 'kubernetes/job-pod-failure-policy', 'runtimes',
  `${SOURCE} validatePodFailurePolicy and its rules (action, onExitCodes, onPodConditions; the pod restartPolicy Never)`,
  'a replicated job\'s podFailurePolicy rules have a known action and exactly one valid pattern, with restartPolicy Never');

export const JOB_SPEC_RULES = [JOB_SPEC, JOB_POD_FAILURE_POLICY];

const NEVER_CREATED = 'the API server refuses the Jobs the JobSet controller creates from it, so no TrainJob of this runtime gets pods';
/** validateJobSpec's maxParallelismForIndexedJob. */
export const MAX_PARALLELISM_INDEXED = 100000;
const MAX_FAILED_INDEXES = 100000;
const MAX_SUCCESS_RULES = 20;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const OPERATORS = ['In', 'NotIn'];
const REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];
const COUNTS = ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes'];

const quoted = (values: string[]) => values.map(v => `"${v}"`).join(', ');
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** The findings of one replicated job's Job spec at `at` (`...replicatedJobs[i].template.spec`). */
export function checkReplicatedJobSpec(spec: unknown, at: string, out: Finding[]): void {
  if (!isObject(spec)) return;
  for (const name of COUNTS) {
    const v = spec[name];
    if (isInt(v) && v < 0) JOB_SPEC.report(out, child(at, name), v, `expected 0 or more; ${NEVER_CREATED}`);
  }
  const mode = spec.completionMode ?? 'Indexed';
  if (mode !== 'Indexed' && mode !== 'NonIndexed') {
    JOB_SPEC.report(out, child(at, 'completionMode'), spec.completionMode, `expected "NonIndexed" or "Indexed" (or not set: the JobSet makes it Indexed); ${NEVER_CREATED}`);
  }
  if (spec.maxFailedIndexes != null && spec.backoffLimitPerIndex == null) {
    JOB_SPEC.report(out, child(at, 'backoffLimitPerIndex'), undefined, `expected a value when maxFailedIndexes is set; ${NEVER_CREATED}`);
  }
  if (mode === 'Indexed') {
    if (isInt(spec.parallelism) && spec.parallelism > MAX_PARALLELISM_INDEXED) {
      JOB_SPEC.report(out, child(at, 'parallelism'), spec.parallelism, `expected at most ${MAX_PARALLELISM_INDEXED} in an Indexed Job (the JobSet's default); ${NEVER_CREATED}`);
    }
    const overCompletions = isInt(spec.completions) && spec.maxFailedIndexes > spec.completions;
    if (isInt(spec.maxFailedIndexes) && (spec.maxFailedIndexes > MAX_FAILED_INDEXES || overCompletions)) {
      JOB_SPEC.report(out, child(at, 'maxFailedIndexes'), spec.maxFailedIndexes, `expected at most the completions and at most ${MAX_FAILED_INDEXES}; ${NEVER_CREATED}`);
    }
    if (spec.successPolicy != null) checkSuccessPolicy(spec, child(at, 'successPolicy'), out);
  } else if (mode === 'NonIndexed') {
    for (const name of ['backoffLimitPerIndex', 'maxFailedIndexes', 'successPolicy']) {
      if (spec[name] != null) JOB_SPEC.report(out, child(at, name), spec[name], `expected not set in a NonIndexed Job (it needs completionMode Indexed); ${NEVER_CREATED}`);
    }
  }
  // Without manualSelector, the API server generates the selector from the Job's UID: a written
  // one that selects anything else is refused as "not auto-generated".
  const selector = spec.selector;
  if (spec.manualSelector === true && selector == null) {
    JOB_SPEC.report(out, child(at, 'selector'), undefined, `expected a selector when manualSelector is true; ${NEVER_CREATED}`);
  } else if (spec.manualSelector !== true && isObject(selector)
    && (Object.keys(selector.matchLabels ?? {}).length > 0 || (Array.isArray(selector.matchExpressions) && selector.matchExpressions.length > 0))) {
    JOB_SPEC.report(out, child(at, 'selector'), selector, `expected not set (the API server generates it from the Job's UID; a written one needs manualSelector true and labels the JobSet cannot know); ${NEVER_CREATED}`);
  }
  // The JobSet's defaulter fills an empty policy as it fills an unset one (found by the leaf fuzzer).
  const written = spec.template?.spec?.restartPolicy;
  const restartPolicy = written === undefined || written === null || written === '' ? 'OnFailure' : written;
  const restartAt = `${at}.template.spec.restartPolicy`;
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    JOB_SPEC.report(out, restartAt, restartPolicy, `expected "OnFailure" or "Never" (or not set: the JobSet makes it OnFailure); ${NEVER_CREATED}`);
  }
  const replacement = spec.podReplacementPolicy;
  const failurePolicy = spec.podFailurePolicy;
  if (replacement != null) {
    const allowed = failurePolicy != null ? ['Failed'] : REPLACEMENT_POLICIES;
    if (!allowed.includes(replacement)) {
      JOB_SPEC.report(out, child(at, 'podReplacementPolicy'), replacement, `expected ${quoted(allowed)}${failurePolicy != null ? ' (with a podFailurePolicy)' : ''}; ${NEVER_CREATED}`);
    }
  }
  if (isObject(failurePolicy)) checkPodFailurePolicy(spec, failurePolicy, child(at, 'podFailurePolicy'), restartPolicy, restartAt, out);
}

/** An Indexed Job's successPolicy: 1 to 20 rules, each with a count (at most the completions) or indexes. */
function checkSuccessPolicy(spec: any, at: string, out: Finding[]): void {
  const rules: unknown[] = Array.isArray(spec.successPolicy?.rules) ? spec.successPolicy.rules : [];
  if (rules.length === 0 || rules.length > MAX_SUCCESS_RULES) {
    JOB_SPEC.report(out, child(at, 'rules'), spec.successPolicy?.rules, `expected 1 to ${MAX_SUCCESS_RULES} rules; ${NEVER_CREATED}`);
  }
  rules.forEach((rule: any, i) => {
    const ruleAt = indexed(child(at, 'rules'), i);
    if (rule?.succeededCount == null && rule?.succeededIndexes == null) {
      JOB_SPEC.report(out, ruleAt, rule, `expected succeededCount or succeededIndexes; ${NEVER_CREATED}`);
    }
    const count = rule?.succeededCount;
    if (isInt(count) && (count < 0 || (isInt(spec.completions) && count > spec.completions))) {
      JOB_SPEC.report(out, child(ruleAt, 'succeededCount'), count, `expected 0 to the completions (${String(spec.completions)}); ${NEVER_CREATED}`);
    }
    const indexes = rule?.succeededIndexes;
    if (typeof indexes === 'string' && !isIndexList(indexes)) {
      JOB_SPEC.report(out, child(ruleAt, 'succeededIndexes'), indexes,
        `expected indexes such as "0,2-4": whole numbers and intervals a-b with a < b, separated by commas, in increasing order; ${NEVER_CREATED}`);
    }
  });
}

/**
 * The syntax validateIndexesFormat parses (pkg/apis/batch/validation): comma-separated indexes
 * and intervals `a-b` (at most two parts, each a strconv.Atoi integer), strictly increasing. The
 * bound by the completions is not checked: the Trainer sets a replicated job's completions from
 * its pod count when it builds the JobSet (found by the leaf fuzzer's derived-jobset source).
 */
function isIndexList(value: string): boolean {
  if (value === '') return true;
  let last: number | undefined;
  for (const interval of value.split(',')) {
    const parts = interval.split('-');
    if (parts.length > 2 || !parts.every(p => /^[+-]?\d+$/.test(p))) return false;
    for (const n of parts.map(Number)) {
      if (last !== undefined && last >= n) return false;
      last = n;
    }
  }
  return true;
}

function checkPodFailurePolicy(spec: any, policy: any, at: string, restartPolicy: unknown, restartAt: string, out: Finding[]): void {
  if (restartPolicy === 'OnFailure') {
    JOB_POD_FAILURE_POLICY.report(out, restartAt, spec.template?.spec?.restartPolicy,
      `expected "Never" with a podFailurePolicy (not set, the JobSet makes it OnFailure); ${NEVER_CREATED}`);
  }
  const podSpec = spec.template?.spec ?? {};
  const containers = [
    ...(Array.isArray(podSpec.containers) ? podSpec.containers : []),
    ...(Array.isArray(podSpec.initContainers) ? podSpec.initContainers : []),
  ]
    .map((c: any) => c?.name);
  const rules = Array.isArray(policy.rules) ? policy.rules : [];
  rules.forEach((rule: any, i: number) => {
    if (!isObject(rule)) return;
    const ruleAt = indexed(child(at, 'rules'), i);
    if (rule.action === 'FailIndex' && spec.backoffLimitPerIndex == null) {
      JOB_POD_FAILURE_POLICY.report(out, child(ruleAt, 'action'), rule.action, `expected another action, or backoffLimitPerIndex set (FailIndex needs it); ${NEVER_CREATED}`);
    } else if (!ACTIONS.includes(rule.action)) {
      JOB_POD_FAILURE_POLICY.report(out, child(ruleAt, 'action'), rule.action, `expected one of ${quoted(ACTIONS)}; ${NEVER_CREATED}`);
    }
    const exitCodes = rule.onExitCodes;
    const conditions = Array.isArray(rule.onPodConditions) ? rule.onPodConditions : [];
    if ((exitCodes == null) === (conditions.length === 0)) {
      JOB_POD_FAILURE_POLICY.report(out, ruleAt, rule, `expected exactly one of onExitCodes and onPodConditions; ${NEVER_CREATED}`);
    }
    if (isObject(exitCodes)) checkExitCodes(exitCodes, child(ruleAt, 'onExitCodes'), containers, out);
    conditions.forEach((c: any, k: number) => {
      const cAt = indexed(child(ruleAt, 'onPodConditions'), k);
      if (!isQualifiedName(c?.type)) JOB_POD_FAILURE_POLICY.report(out, child(cAt, 'type'), c?.type, `expected ${QUALIFIED_NAME_TEXT}; ${NEVER_CREATED}`);
      if (!CONDITION_STATUSES.includes(c?.status)) JOB_POD_FAILURE_POLICY.report(out, child(cAt, 'status'), c?.status, `expected one of ${quoted(CONDITION_STATUSES)}; ${NEVER_CREATED}`);
    });
  });
}

function checkExitCodes(exitCodes: any, at: string, containers: unknown[], out: Finding[]): void {
  if (!OPERATORS.includes(exitCodes.operator)) {
    JOB_POD_FAILURE_POLICY.report(out, child(at, 'operator'), exitCodes.operator, `expected one of ${quoted(OPERATORS)}; ${NEVER_CREATED}`);
  }
  if (exitCodes.containerName != null && !containers.includes(exitCodes.containerName)) {
    JOB_POD_FAILURE_POLICY.report(out, child(at, 'containerName'), exitCodes.containerName, `expected a container or init container of the pod template; ${NEVER_CREATED}`);
  }
  const values: unknown[] = Array.isArray(exitCodes.values) ? exitCodes.values : [];
  const ints = values.filter(isInt);
  const sorted = ints.every((v, i) => i === 0 || ints[i - 1] <= v);
  if (values.length === 0) {
    JOB_POD_FAILURE_POLICY.report(out, child(at, 'values'), exitCodes.values, `expected at least one exit code; ${NEVER_CREATED}`);
  } else if (!sorted || new Set(ints).size !== ints.length || (exitCodes.operator === 'In' && ints.includes(0))) {
    JOB_POD_FAILURE_POLICY.report(out, child(at, 'values'), exitCodes.values, `expected exit codes in increasing order, each once${exitCodes.operator === 'In' ? ', without 0 for In' : ''}; ${NEVER_CREATED}`);
  }
}
