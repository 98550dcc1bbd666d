/**
 * The one result type of every check in the library: what is wrong, as data. Props checks,
 * rules over rendered documents and rules across the app all return findings; one function turns a
 * finding into the message users read, so every message has the same shape:
 *
 *   `<field> is <value>; expected <what is allowed>`
 *
 * cdk8s puts the construct path in front of synth-time messages (`[chart/job] ...`); errors thrown
 * at once start with the path followed by a colon (`chart/job: ...`).
 */
export interface Finding {
  /** Where the value is: a prop path (`workers`, `runPolicy.backoffLimit`) or a document path. */
  readonly field: string;
  /** The value given (shown quoted when it is a string, `not set` when undefined). */
  readonly value: unknown;
  /** What is allowed, starting with `expected` (lower case, actionable). */
  readonly allowed: string;
  /** The id of the rule that found it, such as `kubernetes/label-value`; undefined for construct checks. */
  readonly rule?: string;
}

/** A finding. */
export function finding(field: string, value: unknown, allowed: string, rule?: string): Finding {
  return rule === undefined ? { field, value, allowed } : { field, value, allowed, rule };
}

/** The message of a finding, without the construct path. */
export function describe(f: Finding): string {
  return `${f.field} is ${show(f.value)}; ${f.allowed}`;
}

/** How a value appears in a message. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'not set';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`;
  if (typeof value === 'object') {
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) return json.length > 120 ? `${json.slice(0, 117)}...` : json;
    } catch {
      // fall through: a cyclic object
    }
    return Object.prototype.toString.call(value);
  }
  return String(value);
}
