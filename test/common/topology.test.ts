import { Chart } from 'cdk8s';
import {
  DistributedPyTorchProps, MpiAllReduce, ParameterServerTF, PlatformDefaults, Topology,
} from '../../src';
import { REPORT, synthErrors } from '../harness';
import { PYTORCH_IMAGE as IMAGE, freshChart as fresh, pytorchJob, synthPyTorchJob, thrown } from '../harness/job-fixtures';
import { WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';

const BLOCK = 'cloud.provider.com/topology-block';
const RACK = 'cloud.provider.com/topology-rack';

// Three workers unless a test says otherwise, so that a slice size can divide the job.
const pytorch = (chart: Chart, props: Partial<DistributedPyTorchProps> = {}) => pytorchJob(chart, { workers: 3, ...props });
const synthJob = (props: Partial<DistributedPyTorchProps> = {}, before?: (chart: Chart) => void) => synthPyTorchJob({ workers: 3, ...props }, before);
const annotationsOf = (job: any, role: string) => job.spec.pytorchReplicaSpecs[role].template.metadata.annotations;

describe('Kueue topology-aware scheduling', () => {
  test('a required level on the job is written on every role\'s pod template', () => {
    const job = synthJob({ queue: 'gpu', topology: Topology.required(BLOCK) });
    for (const role of ['Master', 'Worker']) {
      expect(annotationsOf(job, role)).toEqual({
        'kueue.x-k8s.io/podset-required-topology': BLOCK,
        'sidecar.istio.io/inject': 'false',
      });
    }
    // Nothing on the job object: Kueue reads the PodSets' templates.
    expect(job.metadata.annotations).toBeUndefined();
  });

  test('preferred, unconstrained, slices and a podset group', () => {
    const sliced = synthJob({ queue: 'gpu', worker: { topology: Topology.preferred(BLOCK, { slices: { level: RACK, size: 2 } }) } });
    expect(annotationsOf(sliced, 'Worker')).toEqual({
      'kueue.x-k8s.io/podset-preferred-topology': BLOCK,
      'kueue.x-k8s.io/podset-slice-required-topology': RACK,
      'kueue.x-k8s.io/podset-slice-size': '2',
      'sidecar.istio.io/inject': 'false',
    });
    const grouped = synthJob({ queue: 'gpu', topology: Topology.preferred(BLOCK, { podSetGroup: 'train' }) });
    expect(annotationsOf(grouped, 'Worker')).toEqual({
      'kueue.x-k8s.io/podset-preferred-topology': BLOCK,
      'kueue.x-k8s.io/podset-group-name': 'train',
      'sidecar.istio.io/inject': 'false',
    });
    // Kueue v0.15.2's webhook refuses a group next to slices on one role (ValidateTASPodSetRequest), so the construct does too.
    expect(thrown(() => pytorch(fresh(), { queue: 'q', topology: Topology.preferred(BLOCK, { slices: { level: RACK, size: 2 }, podSetGroup: 'train' }) })))
      .toBe('test/job: topology.podSetGroup is "train"; expected no podset group together with slices: Kueue refuses the two on one role');
    const loose = synthJob({ topology: Topology.unconstrained() });
    expect(annotationsOf(loose, 'Master')['kueue.x-k8s.io/podset-unconstrained-topology']).toBe('true');
  });

  test('a role\'s topology replaces the job\'s for that role only', () => {
    const job = synthJob({ queue: 'gpu', topology: Topology.required(BLOCK), worker: { topology: Topology.required(RACK) } });
    expect(annotationsOf(job, 'Master')['kueue.x-k8s.io/podset-required-topology']).toBe(BLOCK);
    expect(annotationsOf(job, 'Worker')['kueue.x-k8s.io/podset-required-topology']).toBe(RACK);
  });

  test('the queue may come from the platform defaults', () => {
    const job = synthJob({ topology: Topology.required(BLOCK) }, chart => PlatformDefaults.set(chart, { queue: 'gpu' }));
    expect(job.metadata.labels['kueue.x-k8s.io/queue-name']).toBe('gpu');
    expect(annotationsOf(job, 'Worker')['kueue.x-k8s.io/podset-required-topology']).toBe(BLOCK);
  });

  test('a required or preferred topology without a Kueue queue is an error at synth, once per role', () => {
    const why = 'expected a Kueue queue on the job (the queue prop or the PlatformDefaults queue): Kueue reads the topology annotations only on jobs it admits and ignores them otherwise';
    expect(synthErrors(chart => pytorch(chart, { topology: Topology.required(BLOCK) }))).toBe(`${REPORT}`
      + `  [test/job] Master.topology is "required ${BLOCK}"; ${why}\n`
      + `  [test/job] Worker.topology is "required ${BLOCK}"; ${why}`);
    expect(synthErrors(chart => pytorch(chart, { worker: { topology: Topology.preferred(RACK) } }))).toBe(`${REPORT}`
      + `  [test/job] Worker.topology is "preferred ${RACK}"; ${why}`);
    // Unconstrained asks for no placement, so it needs no queue to mean what it says.
    expect(synthErrors(chart => pytorch(chart, { topology: Topology.unconstrained() }))).toBeUndefined();
  });

  test('levels must be node label keys, slices whole numbers', () => {
    const keyText = 'expected a node label key such as "cloud.provider.com/topology-block": an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
    expect(thrown(() => pytorch(fresh(), { queue: 'q', topology: Topology.required('rack level') })))
      .toBe(`test/job: topology.level is "rack level"; ${keyText}`);
    expect(thrown(() => pytorch(fresh(), { queue: 'q', worker: { topology: Topology.required(BLOCK, { slices: { level: RACK, size: 0 } }) } })))
      .toBe(`test/job/Worker: topology.slices.size (worker.topology.slices.size) is 0; ${WHOLE_NUMBER_1_OR_MORE} pods per slice`);
    expect(thrown(() => pytorch(fresh(), { queue: 'q', topology: Topology.required(BLOCK, { slices: { level: '/rack', size: 2 } }) })))
      .toBe(`test/job: topology.slices.level is "/rack"; ${keyText}`);
  });

  test('a podset group has exactly two roles with pods and one topology request', () => {
    const group = Topology.required(BLOCK, { podSetGroup: 'all' });
    const tf = synthErrors(chart => new ParameterServerTF(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, queue: 'q', chief: {}, parameterServers: 1, workers: 2, topology: group,
    }));
    expect(tf).toBe(`${REPORT}  [test/job] Chief.topology.podSetGroup is "all"; expected exactly 2 roles with pods in a Kueue podset group; it has 3 (Chief, PS, Worker)`);
    const mixed = synthErrors(chart => pytorch(chart, { queue: 'q', topology: group, worker: { topology: Topology.required(RACK, { podSetGroup: 'all' }) } }));
    expect(mixed).toBe(`${REPORT}  [test/job] Master.topology.podSetGroup is "all"; expected the same topology request on both roles of the group; they ask for Master: required ${BLOCK} and Worker: required ${RACK}`);
  });
});

describe('KAI scheduler topology', () => {
  test('written on the job object, where the KAI pod grouper reads it', () => {
    const job = synthJob({ topology: Topology.kai({ topologyName: 'cluster-topology', requiredLevel: BLOCK, preferredLevel: RACK }) });
    expect(job.metadata.annotations).toEqual({
      'kai.scheduler/topology': 'cluster-topology',
      'kai.scheduler/topology-preferred-placement': RACK,
      'kai.scheduler/topology-required-placement': BLOCK,
    });
    expect(annotationsOf(job, 'Worker')).toEqual({ 'sidecar.istio.io/inject': 'false' });
  });

  test('only for the whole job, with a level and a valid topology name', () => {
    expect(synthErrors(chart => pytorch(chart, { worker: { topology: Topology.kai({ topologyName: 'topo', requiredLevel: RACK }) } })))
      .toBe(`${REPORT}  [test/job] Worker.topology is "KAI topo"; expected Topology.kai(...) on the job, not on one role: the KAI scheduler reads its topology annotations from the job object (defaultgrouper GetPodGroupMetadata)`);
    expect(thrown(() => pytorch(fresh(), { topology: Topology.kai({ topologyName: 'topo' }) })))
      .toBe('test/job: topology.requiredLevel is not set; expected a requiredLevel or a preferredLevel; without either the KAI scheduler places the pods without regard to topology');
    expect(thrown(() => pytorch(fresh(), { topology: Topology.kai({ topologyName: 'Topo', preferredLevel: RACK }) })))
      .toBe('test/job: topology.topologyName is "Topo"; expected the name of the cluster\'s Topology object (a DNS-1123 subdomain)');
  });
});

test('a kind Kueue cannot queue gets no advice to add a queue', () => {
  const message = synthErrors(chart => new MpiAllReduce(chart, 'job', {
    metadata: { name: 'train' }, image: IMAGE, workers: 2, worker: { topology: Topology.required(BLOCK) },
  }));
  expect(message).toBe(`${REPORT}  [test/job] Worker.topology is "required ${BLOCK}"; expected no Kueue topology (Kueue cannot admit this kind): Kueue's kubeflow.org/mpijob integration serves the MPI Operator's v2beta1 MPIJob, not the Training Operator's v1 MPIJob, so this job would run unqueued; for a queued MPI job use Trainer v2's MPI runtime (a TrainJob) or the MPI Operator`);
});
