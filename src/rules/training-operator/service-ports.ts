/**
 * The ports of the headless Service the operator creates for each replica pod (training-operator
 * v1.9.4 pkg/controller.v1/common service.go CreateNewService, GetPortsFromJob): one Service port
 * per distinct port name of the framework container, after its defaults added the framework's
 * port when no port had its name (SetDefaults_<Kind>). Kubernetes refuses a Service with more than
 * one port when a port has no name (ValidateService: spec.ports[i].name is required), and one with
 * two ports of one number and protocol (spec.ports[i]: Duplicate value; the operator's Service
 * ports are all TCP). The job is accepted, the
 * Service is not: the pods cannot reach each other by name. Found by the leaf fuzzer's derived
 * sources (a container port without a name beside the operator's named one).
 */
import { Finding } from '../finding';
import { child, named } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

export const SERVICE_PORT_NAME = new Rule('training-operator', 'training-operator/service-port-name', 'containers',
  'training-operator pkg/controller.v1/common CreateNewService (GetPortsFromJob), then k8s.io/kubernetes pkg/apis/core/validation ValidateService',
  'the framework container\'s ports are named when the operator\'s Service gets more than one, and no two share a number');

export const SERVICE_PORT_RULES = [SERVICE_PORT_NAME];

interface ContainerPort {
  readonly name: string;
  readonly number: unknown;
  readonly at: string;
}

/** Checks the Service ports the operator derives from each replica's framework container. */
export function checkServicePorts(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  const { container, port } = facts;
  if (container === undefined || port === undefined) return;
  for (const [type, spec] of replicaSpecs(doc, facts)) {
    const containers = spec.template?.spec?.containers;
    if (!Array.isArray(containers)) continue;
    const index = containers.findIndex((c: any) => c?.name === container);
    if (index < 0) continue;
    const list = child(child(child(child(`spec.${facts.replicaKey}`, type), 'template'), 'spec'), 'containers');
    const at = child(named(list, containers[index], index), 'ports');
    const ports: ContainerPort[] = (Array.isArray(containers[index].ports) ? containers[index].ports : [])
      .map((p: any, i: number) => ({
        name: typeof p?.name === 'string' ? p.name : '',
        number: p?.containerPort,
        at: `${at}[${i}]`,
      }));
    if (!ports.some(p => p.name === port.name)) ports.push({ name: port.name, number: port.number, at: '' });
    // One Service port per distinct name; the last container port of a name wins (a Go map).
    const byName = new Map<string, ContainerPort>();
    for (const p of ports) byName.set(p.name, p);
    const service = [...byName.values()];
    if (service.length < 2) continue;
    const listed = service.map(p => `${p.name === '' ? '(no name)' : p.name} ${String(p.number)}`).join(', ');
    const unnamed = byName.get('');
    if (unnamed !== undefined) {
      SERVICE_PORT_NAME.report(out, child(unnamed.at, 'name'), undefined,
        `expected a port name: the operator's Service for each ${type} pod gets one port per port name of "${container}" (ports: ${listed}), and Kubernetes requires every port of a Service with more than one to be named`);
    }
    // The Service's ports carry a name and a number only: all are TCP, whatever the container says.
    const seen = new Map<string, ContainerPort>();
    for (const p of service) {
      const key = String(p.number);
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, p);
        continue;
      }
      const mine = p.at !== '' ? p : first;
      const other = p.at !== '' ? first : p;
      SERVICE_PORT_NAME.report(out, child(mine.at, 'containerPort'), mine.number,
        `expected a port number other than ${String(other.number)}, which the Service's port "${other.name}"${other.at === '' ? ' (the operator\'s default)' : ''} has: the operator's Service ports are all TCP, and Kubernetes refuses a Service with two ports of one number and protocol`);
    }
  }
}
