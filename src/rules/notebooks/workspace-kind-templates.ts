/**
 * The WorkspaceKind values the Notebooks controller renders as Go templates: each extraEnv value
 * and each httpProxy request header (set and add) of a port. The webhook renders every one with the
 * controller's function set and refuses the kind when one fails (kubeflow/notebooks notebooks-v2,
 * workspaces/controller/internal/webhook workspacekind_webhook.go validateExtraEnv and
 * validateRequestHeaders, through helper RenderGoTemplate). What go-template.ts can tell without Go
 * is judged here; what it leaves to Go is listed there.
 */
import { Finding } from '../finding';
import { child, indexed, named } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { goTemplateProblem } from './go-template';
import { isObject } from '../kubernetes/names';

const WEBHOOK = 'kubeflow/notebooks workspaces/controller/internal/webhook workspacekind_webhook.go';

export const WORKSPACE_KIND_TEMPLATE = new Rule('notebooks', 'notebooks/workspace-kind-template', 'workspace-kind',
  `${WEBHOOK} validateExtraEnv and validateRequestHeaders (each value parses and runs as a Go text/template with httpPathPrefix; internal/helper template.go RenderGoTemplate)`,
  'each extraEnv value renders as a Go text/template with the httpPathPrefix function and no data');

export const WORKSPACE_KIND_TEMPLATE_RULES = [WORKSPACE_KIND_TEMPLATE];

/** Checks the extraEnv values and the proxy request headers of one WorkspaceKind. */
export function checkWorkspaceKindTemplates(doc: any, out: Finding[]): void {
  const template = doc?.spec?.podTemplate;
  if (!isObject(template)) return;
  const judge = (value: unknown, at: string) => {
    // The webhook renders only non-empty strings; the schema judges the rest.
    if (typeof value !== 'string' || value === '') return;
    const problem = goTemplateProblem(value);
    if (problem !== undefined) {
      WORKSPACE_KIND_TEMPLATE.report(out, at, value,
        `expected a Go template the controller can render (its functions are Go's built-ins and httpPathPrefix "<port id>", with no data): ${problem}`);
    }
  };
  if (Array.isArray(template.extraEnv)) {
    template.extraEnv.forEach((env: any, i: number) => judge(env?.value, child(named('spec.podTemplate.extraEnv', env, i), 'value')));
  }
  if (Array.isArray(template.ports)) {
    template.ports.forEach((port: any, i: number) => {
      const headers = port?.httpProxy?.requestHeaders;
      if (!isObject(headers)) return;
      const at = child(child(indexed('spec.podTemplate.ports', i), 'httpProxy'), 'requestHeaders');
      for (const part of ['set', 'add']) {
        const map = headers[part];
        if (!isObject(map)) continue;
        for (const [key, value] of Object.entries(map)) judge(value, child(child(at, part), key));
      }
    });
  }
}
