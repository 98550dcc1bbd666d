/**
 * The options of a WorkspaceKind (Kubeflow Notebooks v2, kubeflow.org/v1beta1): image and pod
 * configs listed by id, a default the spawner selects first, redirects from old options to new
 * ones, and the ports an image listens on. The WorkspaceKind webhook rejects unknown default ids,
 * redirects to unknown options and redirect cycles (kubeflow/notebooks notebooks-v2,
 * workspaces/controller/internal/webhook workspacekind_webhook.go). Repeated option ids are the
 * CRD's list-map keys, which the strict schema check reports already.
 */
import { Finding } from '../finding';
import { child } from '../kubernetes/field-path';
import { Rule } from '../rule';

const F = 'workspace-kind';
const SOURCE = 'kubeflow/notebooks workspaces/controller/internal/webhook workspacekind_webhook.go';

export const OPTION_DEFAULT = new Rule('notebooks', 'notebooks/option-default', F, `${SOURCE} (spawner.default names an option)`,
  'spawner.default of imageConfig names one of its values');
export const OPTION_REDIRECT = new Rule('notebooks', 'notebooks/option-redirect', F, `${SOURCE} (redirect.to names another option; no cycles)`,
  'an imageConfig redirect targets an existing value, without a cycle');
export const IMAGE_PORT = new Rule('notebooks', 'notebooks/image-port', F, `${SOURCE} (imageConfig ports are declared in podTemplate.ports and unique)`,
  'an imageConfig value\'s ports are declared in podTemplate.ports, and no port number twice');

export const WORKSPACE_KIND_RULES = [OPTION_DEFAULT, OPTION_REDIRECT, IMAGE_PORT];

const list = (ids: readonly string[]) => ids.map(id => `"${id}"`).join(', ');

/** Checks both option catalogues of a WorkspaceKind. */
export function checkWorkspaceKindOptions(doc: any, out: Finding[]): void {
  const template = doc?.spec?.podTemplate;
  const options = template?.options;
  if (typeof options !== 'object' || options === null) return;
  for (const catalogue of ['imageConfig', 'podConfig']) {
    checkCatalogue(options[catalogue], `spec.podTemplate.options.${catalogue}`, out);
  }
  checkImagePorts(template, out);
}

function checkCatalogue(catalogue: any, at: string, out: Finding[]): void {
  const values = catalogue?.values;
  if (!Array.isArray(values)) return;
  const ids: string[] = [];
  const redirects = new Map<string, string>();
  const valuesAt = child(at, 'values');
  for (let i = 0; i < values.length; i++) {
    const id = values[i]?.id;
    if (typeof id !== 'string') continue;
    if (!ids.includes(id)) ids.push(id);
    const to = values[i]?.redirect?.to;
    if (typeof to === 'string') redirects.set(id, to);
  }
  const byId = (id: string) => `${valuesAt}[${id}]`;
  for (const [id, to] of redirects) {
    if (to === id || !ids.includes(to)) {
      OPTION_REDIRECT.report(out, `${byId(id)}.redirect.to`, to, `expected the id of another option: ${list(ids.filter(i => i !== id))}`);
    }
  }
  // A cycle is reported once, at its first option in document order.
  const reported = new Set<string>();
  for (const start of ids) {
    const seen: string[] = [];
    let cursor: string | undefined = start;
    while (cursor !== undefined && !seen.includes(cursor) && ids.includes(cursor)) {
      seen.push(cursor);
      cursor = redirects.get(cursor);
    }
    if (cursor === start && seen.length > 1 && !seen.some(s => reported.has(s))) {
      seen.forEach(s => reported.add(s));
      OPTION_REDIRECT.report(out, `${byId(start)}.redirect.to`, redirects.get(start),
        `expected redirects that end at an option without one, but ${[...seen, start].join(' -> ')} is a cycle`);
    }
  }
  // An empty catalogue (and so an empty default) is the schema's to report (values: minItems 1,
  // spawner.default: minLength 1); judging the default against no ids would say it twice.
  const chosen = catalogue?.spawner?.default;
  if (typeof chosen === 'string' && ids.length > 0) {
    if (!ids.includes(chosen)) {OPTION_DEFAULT.report(out, `${at}.spawner.default`, chosen, `expected the id of an option: ${list(ids)}`);} else if (redirects.has(chosen)) {
      OPTION_DEFAULT.report(out, `${at}.spawner.default`, chosen,
        `expected an option that is not redirected (it redirects to "${redirects.get(chosen)}"); the spawner does not show redirected options`);
    }
  }
}

function checkImagePorts(template: any, out: Finding[]): void {
  const declared = Array.isArray(template?.ports) ? template.ports.map((p: any) => p?.id).filter((id: unknown) => typeof id === 'string') : [];
  const values = template?.options?.imageConfig?.values;
  // No declared port at all is the schema's to report (spec.podTemplate.ports: minItems 1).
  if (!Array.isArray(values) || declared.length === 0) return;
  for (let i = 0; i < values.length; i++) {
    const ports = values[i]?.spec?.ports;
    if (!Array.isArray(ports)) continue;
    const portsAt = `spec.podTemplate.options.imageConfig.values[${typeof values[i]?.id === 'string' ? values[i].id : i}].spec.ports`;
    const seenIds: string[] = [];
    const seenNumbers: number[] = [];
    for (let j = 0; j < ports.length; j++) {
      const id = ports[j]?.id;
      const port = ports[j]?.port;
      if (typeof id === 'string') {
        if (!declared.includes(id)) IMAGE_PORT.report(out, `${portsAt}[${j}].id`, id, `expected the id of a port in spec.podTemplate.ports: ${list(declared)}`);
        else if (seenIds.includes(id)) IMAGE_PORT.report(out, `${portsAt}[${j}].id`, id, 'expected every port id once per image');
        seenIds.push(id);
      }
      if (typeof port === 'number') {
        if (seenNumbers.includes(port)) IMAGE_PORT.report(out, `${portsAt}[${j}].port`, port, 'expected every port number once per image');
        seenNumbers.push(port);
      }
    }
  }
}
