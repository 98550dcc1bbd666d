/**
 * The headless Service the operator creates for every pod of a job (training-operator
 * pkg/controller.v1/common/service.go CreateNewService, ports from pkg/core/service.go
 * GetPortsFromJob): it copies every port of the framework container by name into a map, then
 * writes one Service port per entry, with the name and number only (so all TCP). A container's
 * ports can be valid while the Service made from them is not: with several ports, one without a
 * name gives a Service port without a name, which the API server refuses when a Service has more
 * than one; two ports of one number (a TCP and a UDP one, say) give the same TCP port twice. The
 * job is accepted and its pods start, but every Service create fails, so the replicas never find
 * each other. Found by the derived-object oracle (conformance/kubeflow BuildDerived, validated by
 * conformance/kube TestDerived). MPIJob gets no Service; MXJob is not reconciled by v1.9.4.
 */
import { Finding } from '../finding';
import { child, indexed, named } from '../kubernetes/field-path';
import { Rule } from '../rule';
import { TrainingKindFacts, replicaSpecs } from './training-kinds';

export const SERVICE_PORTS = new Rule('training-operator', 'training-operator/service-ports', 'containers',
  'training-operator pkg/controller.v1/common/service.go CreateNewService and pkg/core/service.go GetPortsFromJob (the framework container\'s ports, by name, as TCP Service ports)',
  'the framework container\'s ports make a valid Service: each named when there are several, no port number twice');

export const SERVICE_PORT_RULES = [SERVICE_PORTS];

/** Checks the framework container's ports of each replica as the Service the operator builds from them. */
export function checkServicePorts(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  if (facts.container === undefined || facts.kind === 'MXJob') return;
  const at = child('spec', facts.replicaKey);
  for (const [type, spec] of replicaSpecs(doc, facts)) {
    const containers = spec.template?.spec?.containers;
    if (!Array.isArray(containers)) continue;
    const index = containers.findIndex(c => c?.name === facts.container);
    const ports = containers[index]?.ports;
    if (!Array.isArray(ports)) continue;
    const portsAt = child(named(child(child(child(child(at, type), 'template'), 'spec'), 'containers'), containers[index], index), 'ports');
    // The operator's map: one entry per name (an unnamed port is the name ""), the last port wins.
    const byName = new Map<string, number>();
    ports.forEach((p: any, i: number) => byName.set(typeof p?.name === 'string' ? p.name : '', i));
    const entries = [...byName.entries()].sort((a, b) => a[1] - b[1]);
    const unnamed = byName.get('');
    if (entries.length > 1 && unnamed !== undefined) {
      SERVICE_PORTS.report(out, indexed(portsAt, unnamed), ports[unnamed],
        `expected a name on every port of the "${facts.container}" container when it has several: the operator copies them onto the headless Service of each pod, and the API server refuses a Service port without a name beside others`);
    }
    const numbers = new Set<unknown>();
    for (const [, i] of entries) {
      const number = ports[i]?.containerPort;
      if (numbers.has(number)) {
        SERVICE_PORTS.report(out, child(indexed(portsAt, i), 'containerPort'), number,
          `expected a port number no other port of the "${facts.container}" container has: the operator copies them onto the headless Service of each pod, all as TCP, and the API server refuses a Service with one port twice`);
      }
      numbers.add(number);
    }
  }
}
