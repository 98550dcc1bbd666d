/**
 * Probe and lifecycle handlers: what each action needs (`validateExecAction`, `validateHTTPGetAction`,
 * `validateTCPSocketAction`, `ValidatePortNumOrName`, `validateSleepAction`), one handler per hook
 * (`validateHandler`, `validateLifecycle`), and the init containers that may carry neither
 * (`validateInitContainers`), k8s.io/kubernetes/pkg/apis/core/validation at 1.34.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { child, indexed } from './field-path';
import { isObject, isPortName } from './names';

const F = 'pod';
const SOURCE = 'k8s.io/kubernetes/pkg/apis/core/validation';

export const PROBE_ACTION = new Rule('kubernetes', 'kubernetes/probe-action', F,
  `${SOURCE} validateExecAction (a command), validateHTTPGetAction (port, scheme, header names) and validateTCPSocketAction (ValidatePortNumOrName)`,
  'exec has a command');
export const LIFECYCLE_HANDLER = new Rule('kubernetes', 'kubernetes/lifecycle-handler', F,
  `${SOURCE} validateLifecycle and validateHandler (one handler per hook) and validateSleepAction (0 to terminationGracePeriodSeconds)`,
  'postStart and preStop have exactly one of exec, httpGet, tcpSocket or sleep');
export const INIT_CONTAINER_HOOKS = new Rule('kubernetes', 'kubernetes/init-container-hooks', F,
  `${SOURCE} validateInitContainers (lifecycle and probes only on init containers with restartPolicy Always)`,
  'an init container that is no sidecar has no lifecycle hooks and no liveness, readiness or startup probe');

export const HANDLER_RULES = [PROBE_ACTION, LIFECYCLE_HANDLER, INIT_CONTAINER_HOOKS];

const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];
/** The grace period the API server assumes when the pod sets none (SetDefaults_PodSpec). */
export const DEFAULT_GRACE_PERIOD = 30;

/** Checks the action of one probe or hook handler (its exec, httpGet and tcpSocket). */
export function checkHandlerActions(handler: Record<string, any>, at: string, out: Finding[]): void {
  const exec = handler.exec;
  if (isObject(exec) && (!Array.isArray(exec.command) || exec.command.length === 0)) {
    PROBE_ACTION.report(out, child(child(at, 'exec'), 'command'), exec.command, 'expected the command to run, such as ["cat", "/tmp/healthy"]');
  }
  const http = handler.httpGet;
  if (isObject(http)) {
    const httpAt = child(at, 'httpGet');
    checkPort(http.port, child(httpAt, 'port'), out);
    // An empty scheme is defaulted to HTTP (SetDefaults_HTTPGetAction).
    if (http.scheme !== undefined && http.scheme !== '' && http.scheme !== 'HTTP' && http.scheme !== 'HTTPS') {
      PROBE_ACTION.report(out, child(httpAt, 'scheme'), http.scheme, 'expected "HTTP" or "HTTPS"');
    }
    if (Array.isArray(http.httpHeaders)) {
      http.httpHeaders.forEach((h: unknown, i: number) => {
        const name = isObject(h) ? h.name : undefined;
        if (typeof name !== 'string' || !HTTP_HEADER_NAME.test(name)) {
          PROBE_ACTION.report(out, child(indexed(child(httpAt, 'httpHeaders'), i), 'name'), name, 'expected an HTTP header name of letters, digits and "-", such as X-Probe');
        }
      });
    }
  }
  const tcp = handler.tcpSocket;
  if (isObject(tcp)) checkPort(tcp.port, child(child(at, 'tcpSocket'), 'port'), out);
}

/** ValidatePortNumOrName: a number from 1 to 65535, or a port name (IANA service name) of the container. */
function checkPort(port: unknown, at: string, out: Finding[]): void {
  if (typeof port === 'number') {
    if (!Number.isInteger(port) || port < 1 || port > 65535) PROBE_ACTION.report(out, at, port, 'expected a port number between 1 and 65535');
  } else if (typeof port === 'string') {
    if (!isPortName(port)) {
      PROBE_ACTION.report(out, at, port, 'expected a port number, or the name of a container port: at most 15 lower-case letters, digits or "-", with at least one letter (a number in quotes is read as a name)');
    }
  } else {
    PROBE_ACTION.report(out, at, port, 'expected a port number between 1 and 65535, or the name of a container port');
  }
}

/** Checks a container's `lifecycle` at `at`; `gracePeriod` is the pod's terminationGracePeriodSeconds. */
export function checkLifecycle(lifecycle: Record<string, any>, at: string, gracePeriod: number, out: Finding[]): void {
  for (const hook of ['postStart', 'preStop']) {
    const handler = lifecycle[hook];
    if (handler === undefined || handler === null) continue;
    const hookAt = child(at, hook);
    const present = isObject(handler) ? LIFECYCLE_HANDLERS.filter(h => handler[h] !== undefined && handler[h] !== null) : [];
    if (present.length !== 1) {
      LIFECYCLE_HANDLER.report(out, hookAt, handler, present.length === 0
        ? 'expected exactly one of exec, httpGet, tcpSocket or sleep'
        : `expected exactly one handler, not ${present.join(' and ')}`);
    }
    if (!isObject(handler)) continue;
    checkHandlerActions(handler, hookAt, out);
    const seconds = handler.sleep?.seconds;
    // PodLifecycleSleepActionAllowZero is GA in 1.34: 0 is allowed; the sleep must end within the grace period.
    if (typeof seconds === 'number' && (seconds < 0 || seconds > gracePeriod)) {
      LIFECYCLE_HANDLER.report(out, child(child(hookAt, 'sleep'), 'seconds'), seconds,
        `expected 0 to ${gracePeriod} seconds (the pod's terminationGracePeriodSeconds)`);
    }
  }
}

/** An init container that is no sidecar runs to completion before the others: no hooks, no probes. */
export function checkInitContainerHooks(c: Record<string, any>, at: string, out: Finding[]): void {
  if (c.restartPolicy === 'Always') return;
  for (const key of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (c[key] !== undefined && c[key] !== null) {
      INIT_CONTAINER_HOOKS.report(out, child(at, key), c[key],
        'expected not set on an init container without restartPolicy "Always" (only sidecar init containers take probes and lifecycle hooks)');
    }
  }
}
