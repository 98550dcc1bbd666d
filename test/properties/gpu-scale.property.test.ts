import { Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { expectConstructError } from './job-arbitraries';
import {
  Accelerator, DistributedPyTorch, DistributedXGBoost, GpuNetworking, Nccl, NcclDebug, NodeHealth, ParameterServerTF, PlatformDefaults,
  PodSecurity, RdmaDevice, RoleOptions, Topology, TrainingJobProps,
} from '../../src';
import { RUNS, dnsLabel, renderTwice, schemaErrors } from '../harness/properties';

/*
 * Properties of the large-GPU-job options on three kinds (the v1 MPIJob cannot be queued in Kueue): valid configurations render schema-valid
 * manifests in which (1) every role's pod template carries the Kueue topology annotations (the KAI
 * ones are on the job), (2) IPC_LOCK is on a main container exactly when RDMA devices are, and on no
 * other container, (3) every required node-selector term holds every health requirement and the
 * user's terms are all still there; invalid ones end in the library's own error.
 */

const IMAGE = 'registry.example.com/train:1.0';
const label = fc.constantFrom('cloud.provider.com/topology-block', 'cloud.provider.com/topology-rack', 'kubernetes.io/hostname', 'rack');
const kind = fc.constantFrom('pytorch', 'tf', 'xgboost');

const topology = fc.oneof(
  fc.record({
    scheduler: fc.constant('kueue' as const),
    mode: fc.constantFrom('required', 'preferred', 'unconstrained'),
    level: label,
    slice: fc.option(fc.tuple(label, fc.integer({ min: 1, max: 8 })), { nil: undefined }),
  }),
  fc.record({ scheduler: fc.constant('kai' as const), name: dnsLabel, required: fc.option(label, { nil: undefined }), preferred: label }),
);
type TopologyData = typeof topology extends fc.Arbitrary<infer T> ? T : never;

/** The topology; a slice holds at most `maxSlice` pods, the fewest pods of a role it applies to (Kueue refuses a larger one). */
function topologyOf(t: TopologyData, maxSlice: number): Topology {
  if (t.scheduler === 'kai') return Topology.kai({ topologyName: t.name, requiredLevel: t.required, preferredLevel: t.preferred });
  const slices = t.slice ? { level: t.slice[0], size: Math.min(t.slice[1], maxSlice) } : undefined;
  if (t.mode === 'unconstrained') return Topology.unconstrained();
  return t.mode === 'required' ? Topology.required(t.level, { slices }) : Topology.preferred(t.level, { slices });
}

const networking: fc.Arbitrary<GpuNetworking> = fc.record({
  rdmaDevice: fc.option(fc.constantFrom(RdmaDevice.SHARED_DEVICE_A, RdmaDevice.HCA, RdmaDevice.ROCE_GDR, RdmaDevice.of('nvidia.com/mlnxnics')), { nil: undefined }),
  networks: fc.option(fc.array(fc.tuple(fc.option(dnsLabel, { nil: undefined }), dnsLabel, fc.option(fc.constantFrom('net1', 'ib0', 'rdma2'), { nil: undefined }))
    .map(([ns, name, iface]) => `${ns ? `${ns}/` : ''}${name}${iface ? `@${iface}` : ''}`), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  nccl: fc.option(fc.tuple(fc.constantFrom('ib', 'roce'), fc.option(fc.constantFrom(NcclDebug.WARN, NcclDebug.INFO), { nil: undefined }))
    .map(([fabric, debug]) => fabric === 'ib' ? Nccl.infiniband({ debug }) : Nccl.roce({ debug })), { nil: undefined }),
}, { requiredKeys: [] });

const health = fc.array(fc.oneof(
  fc.constant(NodeHealth.AUTOPILOT),
  fc.array(dnsLabel, { minLength: 1, maxLength: 3 }).map(hosts => NodeHealth.avoidHosts(hosts)),
  fc.tuple(label, fc.array(fc.constantFrom('bad', 'ERR', 'draining'), { minLength: 1, maxLength: 3 })).map(([k, v]) => NodeHealth.labelNotIn(k, v)),
), { maxLength: 2 });

/** Up to three required terms of the user's own, or none. */
const affinity = fc.option(fc.array(fc.tuple(label, dnsLabel), { minLength: 1, maxLength: 3 }).map((terms): k8s.Affinity => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms.map(([key, v]) => ({ matchExpressions: [{ key, operator: 'In', values: [v] }] })) } },
})), { nil: undefined });

const validConfig = fc.record({
  kind,
  topology: fc.option(topology, { nil: undefined }),
  roleTopology: fc.option(topology.filter(t => t.scheduler === 'kueue'), { nil: undefined }),
  platformNetwork: fc.option(networking, { nil: undefined }),
  jobNetwork: fc.option(networking, { nil: undefined }),
  platformHealth: health,
  jobHealth: health,
  affinity,
  queueOnPlatform: fc.boolean(),
  gpus: fc.integer({ min: 1, max: 8 }),
});
type Config = typeof validConfig extends fc.Arbitrary<infer T> ? T : never;

/** Options a test adds over the generated ones: the job's, and the workers' (every kind here has workers). */
type Extra = Partial<TrainingJobProps> & { readonly worker?: RoleOptions };

function build(chart: Chart, c: Config, extra: Extra = {}): void {
  PlatformDefaults.set(chart, {
    queue: c.queueOnPlatform ? 'gpu' : undefined,
    network: c.platformNetwork,
    nodeHealth: c.platformHealth.length ? c.platformHealth : undefined,
  });
  const props = {
    metadata: { name: 'train' },
    image: IMAGE,
    queue: c.queueOnPlatform ? undefined : 'gpu',
    resources: { accelerator: Accelerator.nvidia(c.gpus) },
    // The job's topology reaches the single-pod roles (a Master, a parameter server) too.
    topology: c.topology ? topologyOf(c.topology, 1) : undefined,
    network: c.jobNetwork,
    nodeHealth: c.jobHealth,
    affinity: c.affinity,
    worker: { topology: c.roleTopology ? topologyOf(c.roleTopology, 2) : undefined },
    ...extra,
  };
  if (c.kind === 'pytorch') new DistributedPyTorch(chart, 'job', { ...props, workers: 3 });
  else if (c.kind === 'tf') new ParameterServerTF(chart, 'job', { ...props, parameterServers: 1, workers: 2 });
  else new DistributedXGBoost(chart, 'job', { ...props, workers: 2 });
}

/** Each replica type's pod template. */
function templates(job: any): Array<[string, any]> {
  const field = Object.keys(job.spec).find(k => k.endsWith('ReplicaSpecs'))!;
  return Object.entries(job.spec[field]).map(([type, spec]: [string, any]) => [type, spec.template]);
}

test(`${RUNS} random valid large-GPU configurations are schema-valid and keep the placement, RDMA and health invariants`, () => {
  fc.assert(fc.property(validConfig, c => {
    const docs = renderTwice(chart => build(chart, c));
    expect(schemaErrors(docs)).toEqual([]);
    const job = docs.find(d => String(d.apiVersion).startsWith('kubeflow.org/'));
    // The job's fields over the platform's, one by one (a field left undefined is not set).
    const defined = (n: GpuNetworking | undefined) => Object.fromEntries(Object.entries(n ?? {}).filter(([, v]) => v !== undefined));
    const network: GpuNetworking = { ...defined(c.platformNetwork), ...defined(c.jobNetwork) };
    const requirements = [...c.platformHealth, ...c.jobHealth].map(h => ({ key: h.labelKey, operator: 'NotIn', values: h.values }));
    const userTerms = c.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    for (const [type, template] of templates(job)) {
      const annotations = template.metadata?.annotations ?? {};
      // (1) Kueue annotations on every role: the role's own topology, else the job's.
      const t = type === 'Worker' && c.roleTopology ? c.roleTopology : c.topology;
      const expected = t && t.scheduler === 'kueue' ? topologyOf(t, type === 'Worker' && c.roleTopology ? 2 : 1)._podAnnotations() : {};
      for (const [key, value] of Object.entries(expected)) expect(annotations[key]).toBe(value);
      if (!t || t.scheduler === 'kai') expect(Object.keys(annotations).filter(k => k.startsWith('kueue.x-k8s.io/'))).toEqual([]);
      expect(annotations['k8s.v1.cni.cncf.io/networks']).toBe(network.networks?.join(','));
      // (2) IPC_LOCK exactly where RDMA devices are.
      for (const [i, container] of template.spec.containers.entries()) {
        const caps: string[] = container.securityContext?.capabilities?.add ?? [];
        const rdma = i === 0 && network.rdmaDevice !== undefined;
        expect(caps.includes('IPC_LOCK')).toBe(rdma);
        const device = network.rdmaDevice?.resourceName;
        if (rdma) expect(container.resources.limits[device!]).toEqual(container.resources.requests[device!]);
      }
      // (3) Health in every term, the user's terms kept.
      const terms = template.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
      if (requirements.length === 0) {
        expect(terms).toEqual(userTerms);
      } else {
        expect(terms).toHaveLength(Math.max(1, userTerms.length));
        for (const term of terms) for (const r of requirements) expect(term.matchExpressions).toContainEqual(r);
        userTerms.forEach((own, i) => expect(terms[i].matchExpressions.slice(0, own.matchExpressions!.length)).toEqual(own.matchExpressions));
      }
    }
    const kai = c.topology?.scheduler === 'kai' ? c.topology : undefined;
    expect(job.metadata.annotations?.['kai.scheduler/topology']).toBe(kai?.name);
  }), { numRuns: RUNS });
});

const fault = fc.oneof(
  fc.record({ fault: fc.constant('level'), v: fc.constantFrom('rack level', '/rack', 'a/b/c', '', '-rack') }),
  fc.record({ fault: fc.constant('no queue'), v: label }),
  fc.record({ fault: fc.constant('attachment'), v: fc.constantFrom('Net', 'ns/', 'a/b/c', 'net@', 'net@way-too-long-iface', 'net_1') }),
  fc.record({ fault: fc.constant('restricted rdma'), v: fc.constantFrom('rdma/hca', 'rdma/rdma_shared_device_a') }),
  fc.record({ fault: fc.constant('health values'), v: fc.constantFrom('', 'bad value', '-x') }),
  fc.record({ fault: fc.constant('gid'), v: fc.constantFrom('-1', '1.5') }),
);

test(`${RUNS} random invalid large-GPU configurations end in the library's own error, never a manifest`, () => {
  fc.assert(fc.property(kind, fault, (k, { fault: f, v }) => {
    const base: Config = { kind: k, platformHealth: [], jobHealth: [], queueOnPlatform: false, gpus: 1 } as any;
    const extra: Extra =
      f === 'level' ? { topology: Topology.required(v) }
        : f === 'no queue' ? { queue: undefined, worker: { topology: Topology.preferred(v) } }
          : f === 'attachment' ? { network: { networks: [v] } }
            : f === 'restricted rdma' ? { security: PodSecurity.RESTRICTED, network: { rdmaDevice: RdmaDevice.of(v) } }
              : f === 'health values' ? { nodeHealth: [NodeHealth.labelNotIn('health', v === '' ? [] : [v])] }
                : { network: { nccl: { gidIndex: Number(v) } } };
    expectConstructError(`${k} ${f} ${v}`, chart => build(chart, base, extra));
  }), { numRuns: RUNS });
});
