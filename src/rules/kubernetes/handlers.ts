/**
 * The actions of probes and lifecycle hooks (httpGet and tcpSocket), as `validateHandler`,
 * `validateHTTPGetAction` and `ValidatePortNumOrName` (k8s.io/kubernetes/pkg/apis/core/validation)
 * check them after the v1 defaults (an empty path becomes "/", an empty scheme "HTTP").
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { isObject, isPortName } from './names';

const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const HANDLER_ACTION = new Rule('kubernetes', 'k8s/handler-action', 'pod',
  `${SOURCE} validateHTTPGetAction, and validateTCPSocketAction (ValidatePortNumOrName, supported schemes, IsHTTPHeaderName)`);
export const LIFECYCLE_HANDLER = new Rule('kubernetes', 'k8s/lifecycle-handler', 'pod', `${SOURCE} validateLifecycle and validateHandler (exactly one handler per hook)`);

export const HANDLER_RULES = [HANDLER_ACTION, LIFECYCLE_HANDLER];

const PORT_TEXT = 'expected a port number between 1 and 65535 or a port name (at most 15 lower-case letters, digits or "-", with at least one letter)';
const SCHEMES = new Set(['', 'HTTP', 'HTTPS']);
/** IsHTTPHeaderName: one or more letters, digits or "-". */
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;
const HOOK_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

/** A port given as a number or a name (httpGet and tcpSocket take either). */
function isPortNumOrName(port: unknown): boolean {
  if (typeof port === 'number') return Number.isInteger(port) && port >= 1 && port <= 65535;
  return isPortName(port);
}

/** Checks the actions of one probe or hook: its httpGet and tcpSocket. */
export function checkHandlerActions(handler: Record<string, any>, at: string, out: Finding[]): void {
  const http = handler.httpGet;
  if (isObject(http)) {
    const path = child(at, 'httpGet');
    if (!isPortNumOrName(http.port)) HANDLER_ACTION.report(out, child(path, 'port'), http.port, PORT_TEXT);
    if (http.scheme !== undefined && !SCHEMES.has(http.scheme)) {
      HANDLER_ACTION.report(out, child(path, 'scheme'), http.scheme, 'expected "HTTP" or "HTTPS"');
    }
    if (Array.isArray(http.httpHeaders)) {
      http.httpHeaders.forEach((header: unknown, i: number) => {
        const name = isObject(header) ? header.name : undefined;
        if (typeof name !== 'string' || !HTTP_HEADER_NAME.test(name)) {
          HANDLER_ACTION.report(out, child(indexed(child(path, 'httpHeaders'), i), 'name'), name, 'expected an HTTP header name: one or more letters, digits or "-"');
        }
      });
    }
  }
  const tcp = handler.tcpSocket;
  if (isObject(tcp) && !isPortNumOrName(tcp.port)) HANDLER_ACTION.report(out, child(child(at, 'tcpSocket'), 'port'), tcp.port, PORT_TEXT);
  // grpc.port is an int32 whose range the integer table checks (integers.ts).
}

/** Checks a container's lifecycle hooks: one handler each, and its actions. */
export function checkLifecycle(lifecycle: unknown, at: string, out: Finding[]): void {
  if (!isObject(lifecycle)) return;
  for (const hook of ['postStart', 'preStop']) {
    const handler = lifecycle[hook];
    if (!isObject(handler)) continue;
    const path = child(at, hook);
    const set = HOOK_HANDLERS.filter(h => handler[h] !== undefined && handler[h] !== null);
    if (set.length !== 1) {
      LIFECYCLE_HANDLER.report(out, path, handler, set.length === 0
        ? 'expected exactly one of exec, httpGet, tcpSocket or sleep'
        : `expected exactly one handler, not ${set.join(' and ')}`);
    }
    checkHandlerActions(handler, path, out);
  }
}
