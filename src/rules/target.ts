/**
 * A target: the versions a cluster runs, per upstream, as an app, a chart, a platform default or
 * `lint --target` names them. A target narrows the support window (support-window.ts) to a window
 * of its own; a rule that carries versions (rule.ts `RuleVersions`) applies only where its range
 * meets that window. Without a target the window is the whole table's, so the output must be
 * accepted and behave the same on every version in it.
 *
 * Versions are ranges here: `v0.19` is every v0.19.x, `v2.4.0` only itself (util/versions.ts).
 */
import { show as showValue } from './finding';
import { SUPPORT_WINDOW, UPSTREAM_IDS, UpstreamId, UpstreamWindow, upstreamWindow } from './support-window';
import { forJsiiHost } from '../util/user-error';
import { after, compareParts, lowest, parseVersion } from '../util/versions';

/** The versions a target names, by upstream key; what `TargetVersions` holds. */
export type TargetInput = { readonly [K in UpstreamId]?: string };

/** The versions of one upstream a window holds: [from, before), or one commit. */
export interface VersionRange {
  readonly from: readonly number[];
  readonly before: readonly number[];
}

/** A window per upstream. */
export type VersionWindow = { readonly [K in UpstreamId]: VersionRange };

/**
 * The versions of one upstream a rule applies to: clusters running a version in [from, before).
 * With `across`, the rule is about what behaves differently before and from that version: it
 * applies only while the window holds versions on both sides of it.
 */
export interface RuleVersions {
  readonly upstream: UpstreamId;
  /** The first version the rule applies to. @default - the window's oldest */
  readonly from?: string;
  /** The first version the rule no longer applies to. @default - none: every version from `from` */
  readonly before?: string;
  /** A version on whose both sides the window must hold versions for the rule to apply. @default - none */
  readonly across?: string;
}

/** Commit-named upstreams have one version; it is ordered as [0] so the same arithmetic holds. */
const COMMIT: VersionRange = { from: [0], before: [1] };

function fullRange(u: UpstreamWindow): VersionRange {
  return u.scheme === 'commit' ? COMMIT : { from: lowest(u.oldest), before: after(u.newest) };
}

/** The whole table's window: what applies without a target. */
/** The context key of a target in a cdk8s app: an object of versions, or `kueue=v0.19,trainer=v2.3`. */
export const TARGET_CONTEXT = 'cdk8s-kubeflow/target';

export const FULL_WINDOW: VersionWindow = Object.fromEntries(SUPPORT_WINDOW.map(u => [u.id, fullRange(u)])) as unknown as VersionWindow;

/**
 * A target that cannot be read, or names a version outside the window: a finding's parts, so a
 * construct raises it with its path (`fail`) and the command prints it as it is.
 */
export class TargetError extends Error {
  constructor(readonly field: string, readonly value: unknown, readonly allowed: string) {
    super(`${field} is ${showValue(value)}; ${allowed}`);
    forJsiiHost(this);
  }
}

/** What the window of an upstream allows, for messages: `a Kueue version from v0.15.2 to v0.20`. */
export function windowText(u: UpstreamWindow): string {
  return u.scheme === 'commit'
    ? `the ${u.title} commit ${u.oldest} (the only one in the support window, docs/versions.md)`
    : `a ${u.title} version from ${u.oldest} to ${u.newest} (the support window, docs/versions.md)`;
}


/**
 * Reads a target written as text: `kueue=v0.19,trainer=v2.3` (spaces around the parts are
 * allowed), or a JSON object (`{"kueue":"v0.19"}`). `where` starts every message: the flag or the
 * context key. The versions are not checked here (see `targetWindow`).
 */
export function parseTargetText(text: string, where: string): TargetInput {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      throw new TargetError(where, text, `expected a JSON object of versions (${(e as Error).message}) or KEY=VERSION pairs separated by commas, such as kueue=v0.19,trainer=v2.3`);
    }
    return targetFromValue(value, where);
  }
  const out: Record<string, string> = {};
  for (const part of trimmed.split(',')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? '' : part.slice(0, eq).trim();
    const version = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (key === '' || version === '') {
      throw new TargetError(where, text, `expected KEY=VERSION pairs separated by commas, such as kueue=v0.19,trainer=v2.3 (keys: ${UPSTREAM_IDS.join(', ')}); "${part.trim()}" is not one`);
    }
    checkKey(key, version, where);
    if (out[key] !== undefined && out[key] !== version) {
      throw new TargetError(`${where}: ${key}`, version, `expected one version per key (it is also "${out[key]}")`);
    }
    out[key] = version;
  }
  return out as TargetInput;
}

/** Reads a target given as a value (a context value: an object, or text as `parseTargetText` reads it). */
export function targetFromValue(value: unknown, where: string): TargetInput {
  if (typeof value === 'string') return parseTargetText(value, where);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TargetError(where, value, 'expected an object of versions such as {"kueue":"v0.19","trainer":"v2.3"}, or the text kueue=v0.19,trainer=v2.3');
  }
  for (const [key, version] of Object.entries(value)) {
    checkKey(key, version, where);
    if (typeof version !== 'string') throw new TargetError(`${where}: ${key}`, version, `expected a version string such as "${upstreamWindow(key as UpstreamId).newest}"`);
  }
  return value as TargetInput;
}

function checkKey(key: string, version: unknown, where: string): void {
  if (!(UPSTREAM_IDS as readonly string[]).includes(key)) {
    throw new TargetError(`${where}: ${key}`, version, `expected a key of ${UPSTREAM_IDS.join(', ')}`);
  }
}

/**
 * The window a target leaves: per upstream it names, the versions of its version inside the
 * support window; the others keep the whole window. A version outside the window, or that is no
 * version, is an error naming the key, the value and the window. `where` is the path of the
 * target (`--target`, `context cdk8s-kubeflow/target`, `target` of a construct's defaults);
 * `'<where>.<key>'` is the field of the message when `dotted`, `'<where>: <key>'` otherwise.
 */
export function targetWindow(target: TargetInput | undefined, where: string, dotted = false): VersionWindow {
  if (target === undefined) return FULL_WINDOW;
  let window: Record<string, VersionRange> | undefined;
  for (const u of SUPPORT_WINDOW) {
    const version = target[u.id];
    if (version === undefined) continue;
    const range = rangeOf(u, version);
    if (range === undefined) throw new TargetError(dotted ? `${where}.${u.id}` : `${where}: ${u.id}`, version, `expected ${windowText(u)}`);
    if (window === undefined) window = { ...FULL_WINDOW };
    window[u.id] = range;
  }
  return (window ?? FULL_WINDOW) as VersionWindow;
}

/** The part of the window a version names; undefined when it is no version or outside the window. */
function rangeOf(u: UpstreamWindow, text: unknown): VersionRange | undefined {
  if (typeof text !== 'string') return undefined;
  if (u.scheme === 'commit') return text.trim() === u.oldest ? COMMIT : undefined;
  if (parseVersion(text) === undefined) return undefined;
  const whole = fullRange(u);
  const from = max(whole.from, lowest(text.trim()));
  const before = min(whole.before, after(text.trim()));
  return compareParts(from, before) < 0 ? { from, before } : undefined;
}

const max = (a: readonly number[], b: readonly number[]) => (compareParts(a, b) >= 0 ? a : b);
const min = (a: readonly number[], b: readonly number[]) => (compareParts(a, b) <= 0 ? a : b);

/** Whether a rule of these versions applies to a cluster in `window`. */
export function ruleApplies(versions: RuleVersions, window: VersionWindow): boolean {
  const w = window[versions.upstream];
  if (versions.across !== undefined) {
    const at = lowest(versions.across);
    return compareParts(w.from, at) < 0 && compareParts(w.before, at) > 0;
  }
  const from = versions.from === undefined ? w.from : max(w.from, lowest(versions.from));
  const before = versions.before === undefined ? w.before : min(w.before, lowest(versions.before));
  return compareParts(from, before) < 0;
}

/** A rule's versions as `cdk8s-kubeflow rules` and docs/versions.md print them: `Kubeflow Trainer v2.4.0 and later`. */
export function versionsText(versions: RuleVersions): string {
  const title = upstreamWindow(versions.upstream).title;
  if (versions.across !== undefined) return `${title}: while the window holds versions before and from ${versions.across}`;
  if (versions.from !== undefined && versions.before !== undefined) return `${title} ${versions.from} up to ${versions.before} (not included)`;
  if (versions.from !== undefined) return `${title} ${versions.from} and later`;
  if (versions.before !== undefined) return `${title} before ${versions.before}`;
  return `${title}: every version`;
}
