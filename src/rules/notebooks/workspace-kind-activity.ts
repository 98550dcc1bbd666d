/**
 * A WorkspaceKind's activity probe and culling rules, and the home mount, judged inside the one
 * document. The WorkspaceKind webhook refuses a podExec script whose first line is no valid
 * shebang (or is longer than the kernel reads), a Jupyter probe on a port the kind does not
 * declare, a rule that pauses workspaces without a probe, and a catch-all rule (no match) before
 * another rule that sets pauseWorkspace (kubeflow/notebooks notebooks-v2,
 * workspaces/controller/internal/webhook workspacekind_webhook.go validateActivityProbe and
 * validateActivityRules). The workspace controller mounts the home volume itself and silently
 * skips an extra mount at the same path (workspace_controller.go), so that mount never happens.
 * The WorkspaceKind construct reports these through the rules, with the texts it used before.
 */
import { Finding } from '../finding';
import { mountPointOf } from '../kubernetes/mount-point';
import { isObject } from '../kubernetes/names';
import { Rule } from '../rule';

const F = 'workspace-kind';
const WEBHOOK = 'kubeflow/notebooks workspaces/controller/internal/webhook workspacekind_webhook.go';

export const ACTIVITY_PROBE = new Rule('notebooks', 'notebooks/activity-probe', F,
  `${WEBHOOK} validateActivityProbe (a podExec script's shebang line; a jupyter probe's portId in podTemplate.ports)`,
  'a podExec activity probe script starts with a valid shebang line of at most 255 characters');
export const ACTIVITY_RULES = new Rule('notebooks', 'notebooks/activity-rules', F,
  `${WEBHOOK} validateActivityRules (an activityProbe when a rule pauses workspaces; a catch-all pauseWorkspace rule last)`,
  'at most one catch-all (empty match) pauseWorkspace rule, and it is the last pauseWorkspace rule');
export const HOME_MOUNT = new Rule('notebooks', 'notebooks/home-mount', F,
  'kubeflow/notebooks workspaces/controller/internal/controller workspace_controller.go (mounts the home volume at volumeMounts.home, then skips an extra mount at a path already used)',
  'no extra volume mount of a WorkspaceKind uses the home path (trailing slashes aside)');

export const WORKSPACE_KIND_ACTIVITY_RULES = [ACTIVITY_PROBE, ACTIVITY_RULES, HOME_MOUNT];

/** The webhook's shebang: `#!`, an interpreter, optional arguments (execve(2)'s syntax). */
const SHEBANG = /^#![ \t]*([^ \t]+)(?:[ \t]+.+)?$/;
/** The longest shebang line Linux reads (BINPRM_BUF_SIZE less the terminating zero). */
const MAX_SHEBANG = 255;

const declaredIds = (template: any): string[] => (Array.isArray(template?.ports) ? template.ports : []).map((p: any) => p?.id).filter((id: unknown) => typeof id === 'string');
const listOf = (ids: readonly string[]) => (ids.length ? ids.map(id => JSON.stringify(id)).join(', ') : 'none is defined');
// The kubelet's mount point: a relative extra mount ("home/jovyan") lands on the home path too.
const normalPath = mountPointOf;

/** Checks the probe, the rules and the home mount of one WorkspaceKind. */
export function checkWorkspaceKindActivity(doc: any, out: Finding[]): void {
  const template = doc?.spec?.podTemplate;
  const probe = template?.activityProbe;
  if (isObject(probe)) checkProbe(probe, declaredIds(template), out);
  checkRules(doc?.spec?.activityRules, isObject(probe), out);
  checkHomeMount(template, out);
}

function checkProbe(probe: Record<string, any>, portIds: readonly string[], out: Finding[]): void {
  const at = 'spec.podTemplate.activityProbe';
  const script = probe.podExec?.script;
  if (typeof script === 'string' && script.length > 0) {
    const first = script.split(/[\r\n]/)[0];
    if (!SHEBANG.test(first)) {
      ACTIVITY_PROBE.report(out, `${at}.podExec.script`, first, 'expected a script that starts with a shebang such as "#!/usr/bin/env bash"');
    } else if (first.length > MAX_SHEBANG) {
      ACTIVITY_PROBE.report(out, `${at}.podExec.script`, `${first.length} characters`, `expected a shebang line of at most ${MAX_SHEBANG} characters (what the kernel reads)`);
    }
  }
  const portId = probe.jupyter?.portId;
  if (typeof portId === 'string' && !portIds.includes(portId)) {
    ACTIVITY_PROBE.report(out, `${at}.jupyter.portId`, portId, `expected a port the kind declares: ${listOf(portIds)}`);
  }
}

function checkRules(rules: unknown, hasProbe: boolean, out: Finding[]): void {
  if (!Array.isArray(rules)) return;
  const setsPause = (r: any) => typeof r?.effect?.pauseWorkspace === 'boolean';
  rules.forEach((rule: any, i: number) => {
    const at = `spec.activityRules[${i}]`;
    if (rule?.effect?.pauseWorkspace === true && !hasProbe) {
      ACTIVITY_RULES.report(out, `${at}.effect.pauseWorkspace`, true,
        'expected an activityProbe on the kind; without one the controller cannot tell inactivity and rejects pausing rules');
    }
    const match = rule?.match;
    const catchAll = !isObject(match) || (match.matchNamespace === undefined && match.matchPodConfig === undefined);
    if (!catchAll || !setsPause(rule)) return;
    // The webhook counts the later rules that set pauseWorkspace, which the CRD asks of every rule.
    const after = rules.slice(i + 1).filter(setsPause).length;
    if (after > 0) {
      ACTIVITY_RULES.report(out, `${at}.match`, 'a catch-all rule (no selector)',
        `expected it to be the last rule; rules are matched in order and the ${after} after it could never apply`);
    }
  });
}

function checkHomeMount(template: any, out: Finding[]): void {
  const home = template?.volumeMounts?.home;
  const mounts = template?.extraVolumeMounts;
  if (typeof home !== 'string' || !Array.isArray(mounts)) return;
  mounts.forEach((m: any, i: number) => {
    if (typeof m?.mountPath === 'string' && normalPath(m.mountPath) === normalPath(home)) {
      HOME_MOUNT.report(out, `spec.podTemplate.extraVolumeMounts[${i}].mountPath`, m.mountPath, 'expected a path no other mount uses; the home volume is mounted there');
    }
  });
}
